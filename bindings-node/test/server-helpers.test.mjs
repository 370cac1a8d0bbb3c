// The official SDK's OAuth/SDK error classes, the resource-URL helpers and
// `@modelcontextprotocol/node`'s `toWebRequest`, as user code calls them: values compared
// with the official packages' for the same inputs, the helpers checked against what the
// engine really serves (the metadata URL, an `OAuthError` thrown by a token verifier), and
// `toWebRequest` carrying the official clients' requests into `handler.fetch` over real HTTP.
// The official helpers ferrymcp does not run yet throw `ERR_FERRYMCP_UNSUPPORTED` naming
// themselves.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import { describe, test } from 'node:test';

import * as officialClient from '@modelcontextprotocol/client';
import * as officialServer from '@modelcontextprotocol/server';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as ferry from 'ferrymcp';
import * as ferryClient from 'ferrymcp/client';
import * as ferryExpress from 'ferrymcp/express';
import { toWebRequest } from 'ferrymcp/node';
import * as ferryServer from 'ferrymcp/server';
import * as ferryV1Errors from 'ferrymcp/server/auth/errors.js';
import * as officialV1Errors from '@modelcontextprotocol/sdk/server/auth/errors.js';
import * as z from 'zod';

const MODERN = '2026-07-28';

function echoServer() {
  const server = new ferry.McpServer({ name: 'helpers', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
}

const text = (result) => result.content.map((c) => c.text).join('\n');

/** The observable fields of an error. */
const fields = (e) => ({ name: e.name, message: e.message, code: e.code, errorUri: e.errorUri, data: e.data, isError: e instanceof Error });

describe('error classes and codes, as the official packages have them', () => {
  test('OAuthErrorCode and SdkErrorCode hold the official values, from every entry point', () => {
    for (const module of [ferry, ferryServer, ferryClient]) {
      assert.deepEqual({ ...module.OAuthErrorCode }, { ...officialServer.OAuthErrorCode });
      assert.deepEqual({ ...module.SdkErrorCode }, { ...officialClient.SdkErrorCode });
    }
  });

  test('OAuthError: fields, toResponseObject, fromResponse and isInstance as the official class', () => {
    const cases = [
      [ferry.OAuthErrorCode.InvalidToken, 'Token revoked'],
      [ferry.OAuthErrorCode.InsufficientScope, 'needs admin', 'https://docs.example/scopes'],
      ['custom_error', 'something else'],
    ];
    for (const args of cases) {
      const ours = new ferry.OAuthError(...args);
      const theirs = new officialServer.OAuthError(...args);
      assert.deepEqual(fields(ours), fields(theirs));
      assert.deepEqual(ours.toResponseObject(), theirs.toResponseObject());
      const body = theirs.toResponseObject();
      assert.deepEqual(fields(ferry.OAuthError.fromResponse(body)), fields(officialServer.OAuthError.fromResponse(body)));
    }
    const bare = { error: 'invalid_grant' };
    assert.deepEqual(fields(ferry.OAuthError.fromResponse(bare)), fields(officialServer.OAuthError.fromResponse(bare)));
    assert.equal(ferry.OAuthError.isInstance(new ferry.OAuthError('invalid_token', 'x')), true);
    assert.equal(ferry.OAuthError.isInstance(new Error('x')), false);
    const detached = ferry.OAuthError.isInstance;
    assert.throws(() => detached(new Error('x')), TypeError);
  });

  test('SdkError: fields and cause as the official class', () => {
    const cause = new Error('socket closed');
    const ours = new ferry.SdkError(ferry.SdkErrorCode.ConnectionClosed, 'Connection closed', { attempt: 2 }, { cause });
    const theirs = new officialClient.SdkError(officialClient.SdkErrorCode.ConnectionClosed, 'Connection closed', { attempt: 2 }, { cause });
    assert.deepEqual(fields(ours), fields(theirs));
    assert.equal(ours.cause, cause);
    assert.equal(ferry.SdkError.isInstance(ours), true);
  });
});

describe("v1's server/auth/errors.js", () => {
  test('every class, its errorCode, name and response body as the official v1 ones', () => {
    assert.deepEqual(Object.keys(ferryV1Errors).sort(), Object.keys(officialV1Errors).sort());
    assert.deepEqual(Object.keys(ferryV1Errors.OAUTH_ERRORS).sort(), Object.keys(officialV1Errors.OAUTH_ERRORS).sort());
    for (const [code, cls] of Object.entries(officialV1Errors.OAUTH_ERRORS)) {
      const ours = new ferryV1Errors.OAUTH_ERRORS[code]('why', 'https://docs.example/e');
      const theirs = new cls('why', 'https://docs.example/e');
      assert.equal(ours.errorCode, theirs.errorCode);
      assert.equal(ours.name, theirs.name);
      assert.ok(ours instanceof ferryV1Errors.OAuthError && ours instanceof Error);
      assert.deepEqual(ours.toResponseObject(), theirs.toResponseObject());
    }
    const ours = new ferryV1Errors.CustomOAuthError('my_code', 'custom', undefined);
    const theirs = new officialV1Errors.CustomOAuthError('my_code', 'custom', undefined);
    assert.deepEqual([ours.errorCode, ours.name, ours.toResponseObject()], [theirs.errorCode, theirs.name, theirs.toResponseObject()]);
  });

  test('a verifier throwing InsufficientScopeError / InvalidTokenError gets 403 / 401 from the engine', async () => {
    const server = echoServer();
    const verifier = {
      async verifyAccessToken(token) {
        if (token === 'narrow') throw new ferryV1Errors.InsufficientScopeError('admin scope required');
        throw new ferryV1Errors.InvalidTokenError('Token has no expiration time');
      },
    };
    const listener = await server.listen({ auth: { verifier, authorizationServers: ['https://auth.example'] } });
    const post = (token) =>
      fetch(listener.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    try {
      const narrow = await post('narrow');
      assert.equal(narrow.status, 403);
      assert.deepEqual(await narrow.json(), { error: 'insufficient_scope', error_description: 'admin scope required' });
      const invalid = await post('other');
      assert.equal(invalid.status, 401);
      assert.deepEqual(await invalid.json(), { error: 'invalid_token', error_description: 'Token has no expiration time' });
    } finally {
      await server.close();
    }
  });

  test("the v1 shared paths and router give the root's helpers", async () => {
    assert.equal((await import('ferrymcp/shared/auth-utils.js')).checkResourceAllowed, ferry.checkResourceAllowed);
    assert.equal((await import('ferrymcp/shared/metadataUtils.js')).getDisplayName, ferry.getDisplayName);
    assert.equal((await import('ferrymcp/shared/uriTemplate.js')).UriTemplate, ferry.UriTemplate);
    const router = await import('ferrymcp/server/auth/router.js');
    assert.equal(router.getOAuthProtectedResourceMetadataUrl, ferry.getOAuthProtectedResourceMetadataUrl);
    for (const name of ['mcpAuthRouter', 'mcpAuthMetadataRouter', 'createOAuthMetadata']) {
      assert.throws(() => router[name]({}), (e) => e.code === 'ERR_FERRYMCP_UNSUPPORTED' && e.message.includes(name));
    }
    // The Express bearer middleware (bearer-gate.test.mjs runs it): options checked at once.
    const { requireBearerAuth } = await import('ferrymcp/server/auth/middleware/bearerAuth.js');
    assert.equal(requireBearerAuth, ferryExpress.requireBearerAuth);
    assert.throws(() => requireBearerAuth({}), (e) => e.code === 'ERR_INVALID_ARG_VALUE' && /verifier must be a function/.test(e.message));
  });
});

describe('resource URL helpers', () => {
  const urls = ['https://api.example.com/mcp', 'https://api.example.com/', 'https://api.example.com', 'http://127.0.0.1:8080/a/b/?q=1#frag', 'https://api.example.com/mcp/', 'https://a.example/x//', 'https://a.example/?q'];

  test('resourceUrlFromServerUrl and getOAuthProtectedResourceMetadataUrl give the official answers', () => {
    for (const url of urls) {
      assert.equal(ferry.resourceUrlFromServerUrl(url).href, officialServer.resourceUrlFromServerUrl(url).href, url);
      assert.equal(ferry.resourceUrlFromServerUrl(new URL(url)).href, officialServer.resourceUrlFromServerUrl(new URL(url)).href, url);
      assert.equal(ferry.getOAuthProtectedResourceMetadataUrl(new URL(url)), officialServer.getOAuthProtectedResourceMetadataUrl(new URL(url)), url);
    }
    assert.equal(ferryExpress.getOAuthProtectedResourceMetadataUrl, ferry.getOAuthProtectedResourceMetadataUrl);
  });

  test('checkResourceAllowed gives the official answers', () => {
    const configured = ['https://api.example.com/mcp', 'https://api.example.com/', 'https://api.example.com/mcp/'];
    const requested = ['https://api.example.com/mcp', 'https://api.example.com/mcp/tools', 'https://api.example.com/mcpx', 'https://api.example.com/', 'http://api.example.com/mcp', 'https://api.example.com:8443/mcp', 'https://other.example/mcp'];
    for (const c of configured) {
      for (const r of requested) {
        const options = { requestedResource: r, configuredResource: new URL(c) };
        assert.equal(ferry.checkResourceAllowed(options), officialServer.checkResourceAllowed(options), `${r} under ${c}`);
      }
    }
  });

  test("getOAuthProtectedResourceMetadataUrl names the document the engine serves and names in its challenge", async () => {
    const server = echoServer();
    const verifier = async (token) => {
      if (token === 'good') return { token, clientId: 'tests', scopes: ['mcp'], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
      throw new ferry.OAuthError(ferry.OAuthErrorCode.InvalidToken, 'Token revoked');
    };
    const listener = await server.listen({ auth: { verifier, authorizationServers: ['https://auth.example'] } });
    try {
      const metadataUrl = ferry.getOAuthProtectedResourceMetadataUrl(listener.url);
      const refused = await fetch(listener.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      assert.equal(refused.status, 401);
      assert.match(refused.headers.get('www-authenticate'), new RegExp(`resource_metadata="${metadataUrl.replace(/[.?]/g, '\\$&')}"`));
      const document = await fetch(metadataUrl);
      assert.equal(document.status, 200);
      const body = await document.json();
      assert.equal(body.resource, listener.url.href);
      assert.deepEqual(body.authorization_servers, ['https://auth.example']);
    } finally {
      await server.close();
    }
  });

  test('an OAuthError thrown by a token verifier answers as its code says (401 invalid_token, 403 insufficient_scope)', async () => {
    const server = echoServer();
    const verifier = async (token) => {
      if (token === 'good') return { token, clientId: 'tests', scopes: ['mcp'], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
      if (token === 'narrow') throw new ferry.OAuthError(ferry.OAuthErrorCode.InsufficientScope, 'needs mcp');
      throw new ferry.OAuthError(ferry.OAuthErrorCode.InvalidToken, 'Token revoked');
    };
    const listener = await server.listen({ auth: { verifier, requiredScopes: ['mcp'], authorizationServers: ['https://auth.example'] } });
    const post = (token) =>
      fetch(listener.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    try {
      const revoked = await post('revoked');
      assert.equal(revoked.status, 401);
      assert.deepEqual(await revoked.json(), { error: 'invalid_token', error_description: 'Token revoked' });
      const narrow = await post('narrow');
      assert.equal(narrow.status, 403);
      assert.match(narrow.headers.get('www-authenticate'), /error="insufficient_scope", error_description="needs mcp"/);
      await narrow.body?.cancel();
      const client = new V1Client({ name: 'official-v1', version: '1.32.2' });
      await client.connect(new V1HttpTransport(listener.url, { requestInit: { headers: { authorization: 'Bearer good' } } }));
      try {
        assert.equal(text(await client.callTool({ name: 'echo', arguments: { text: 'authorized' } })), 'authorized');
      } finally {
        await client.close();
      }
    } finally {
      await server.close();
    }
  });
});

/** A Node http server that hands each request to `handler.fetch` through `toWebRequest`. */
async function serveThroughToWebRequest(handler, { parse = false, options } = {}) {
  const http = createServer((req, res) => {
    (async () => {
      let parsed;
      if (parse && req.method === 'POST') {
        const chunks = [];
        for await (const chunk of req) chunks.push(chunk);
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      }
      let request;
      try {
        request = await toWebRequest(req, parsed, options);
      } catch (error) {
        res.writeHead(error.status ?? 500, { 'content-type': 'text/plain' }).end(`${error.name}: ${error.message}`);
        return;
      }
      const response = await handler.fetch(request);
      res.writeHead(response.status, [...response.headers].flat());
      if (response.body === null) return void res.end();
      pipeline(Readable.fromWeb(response.body), res, () => undefined);
    })().catch((error) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const close = async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  };
  return { url: new URL(`http://127.0.0.1:${http.address().port}/mcp`), close };
}

describe('toWebRequest (ferrymcp/node)', () => {
  for (const parse of [false, true]) {
    test(`carries the official clients' requests into handler.fetch (${parse ? 'a parsed body' : 'the body read from the stream'})`, async () => {
      const handler = ferry.createMcpHandler(() => echoServer());
      const http = await serveThroughToWebRequest(handler, { parse });
      try {
        for (const mode of [{ pin: MODERN }, 'legacy']) {
          const client = new officialClient.Client({ name: 'official-v2', version: '2.4.0' }, { versionNegotiation: { mode } });
          await client.connect(new officialClient.StreamableHTTPClientTransport(http.url));
          try {
            assert.equal(text(await client.callTool({ name: 'echo', arguments: { text: `via ${JSON.stringify(mode)}` } })), `via ${JSON.stringify(mode)}`);
          } finally {
            await client.close();
          }
        }
      } finally {
        await handler.close();
        await http.close();
      }
    });
  }

  test('a body over maxRequestBodySize is refused with RequestBodyTooLargeError (413); unknown options throw', async () => {
    const handler = ferry.createMcpHandler(() => echoServer());
    const http = await serveThroughToWebRequest(handler, { options: { maxRequestBodySize: 64 } });
    try {
      const response = await fetch(http.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(200) } } }),
      });
      assert.equal(response.status, 413);
      assert.match(await response.text(), /^RequestBodyTooLargeError: /);
    } finally {
      await handler.close();
      await http.close();
    }
    await assert.rejects(toWebRequest({ method: 'GET', url: '/', headers: {}, async *[Symbol.asyncIterator]() {} }, undefined, { maxBodyBytes: 1 }), /toWebRequest: unknown option 'maxBodyBytes'/);
  });

  test('URL, method and headers as the official toWebRequest builds them', async () => {
    const { toWebRequest: officialToWebRequest } = await import('@modelcontextprotocol/node');
    const fake = () => ({
      method: 'POST',
      url: '/mcp?x=1',
      headers: { host: 'example.test:3000', 'content-type': 'application/json', 'x-multi': ['a', 'b'] },
      async *[Symbol.asyncIterator]() {
        yield Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}');
      },
    });
    const ours = await toWebRequest(fake());
    const theirs = await officialToWebRequest(fake());
    assert.equal(ours.url, theirs.url);
    assert.equal(ours.method, theirs.method);
    assert.equal(ours.headers.get('x-multi'), theirs.headers.get('x-multi'));
    assert.equal(await ours.text(), await theirs.text());
    for (const parsed of [{ jsonrpc: '2.0', id: 2, method: 'ping' }, 'text', null]) {
      const [a, b] = [await toWebRequest(fake(), parsed), await officialToWebRequest(fake(), parsed)];
      assert.equal(a.headers.get('content-length'), b.headers.get('content-length'));
      assert.equal(await a.text(), await b.text());
    }
    const big = { ...fake(), headers: { host: 'h', 'content-length': '100' } };
    await assert.rejects(toWebRequest(big, undefined, { maxRequestBodySize: 10 }), { name: 'RequestBodyTooLargeError', status: 413 });
    await assert.rejects(officialToWebRequest(big, undefined, { maxRequestBodySize: 10 }), { name: 'RequestBodyTooLargeError', status: 413 });
  });
});

describe('isLegacyRequest (core decides)', () => {
  const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const post = (body, headers = {}) =>
    new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const cases = {
    'a GET with a session': () => new Request('http://127.0.0.1/mcp', { headers: { 'mcp-session-id': 's1' } }),
    'a DELETE': () => new Request('http://127.0.0.1/mcp', { method: 'DELETE', headers: { 'mcp-session-id': 's1' } }),
    initialize: () => post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
    'a request with the envelope': () => post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } }, { 'mcp-protocol-version': MODERN }),
    'a legacy notification': () => post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': 's1' }),
    'a legacy request in a session': () => post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': 's1', 'mcp-protocol-version': '2025-11-25' }),
    'a modern header without the envelope': () => post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-protocol-version': MODERN }),
    'a posted response': () => post({ jsonrpc: '2.0', id: 4, result: {} }, { 'mcp-session-id': 's1' }),
    'a body that is not JSON': () => post('{not json'),
    'an empty body': () => post(''),
  };

  test('gives the official verdict for each kind of request', async () => {
    for (const [what, make] of Object.entries(cases)) {
      const request = make();
      assert.equal(await ferry.isLegacyRequest(request), await officialServer.isLegacyRequest(make()), what);
      if (request.method === 'POST') assert.ok((await request.text()).length >= 0, 'the request stays readable');
    }
    const big = () => post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(100) } });
    assert.equal(await ferry.isLegacyRequest(big(), undefined, { maxRequestBodySize: 50 }), await officialServer.isLegacyRequest(big(), undefined, { maxRequestBodySize: 50 }));
    const parsed = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } };
    assert.equal(await ferry.isLegacyRequest(post(''), parsed), await officialServer.isLegacyRequest(post(''), parsed));
    await assert.rejects(ferry.isLegacyRequest(post(''), undefined, { limit: 1 }), /isLegacyRequest: unknown option 'limit'/);
  });

  test('routes the official clients: legacy to one handler, modern to another', async () => {
    const named = (name) => () => {
      const server = new ferry.McpServer({ name, version: '1.0.0' });
      server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
      return server;
    };
    const legacy = ferry.createMcpHandler(named('legacy-side'));
    const modern = ferry.createMcpHandler(named('modern-side'));
    const router = { fetch: async (request) => ((await ferry.isLegacyRequest(request)) ? legacy.fetch(request) : modern.fetch(request)) };
    const http = await serveThroughToWebRequest(router);
    try {
      for (const [mode, side] of [[{ pin: MODERN }, 'modern-side'], ['legacy', 'legacy-side']]) {
        const client = new officialClient.Client({ name: 'official-v2', version: '2.4.0' }, { versionNegotiation: { mode } });
        await client.connect(new officialClient.StreamableHTTPClientTransport(http.url));
        try {
          assert.equal(client.getServerVersion().name, side);
          assert.equal(text(await client.callTool({ name: 'echo', arguments: { text: side } })), side);
        } finally {
          await client.close();
        }
      }
    } finally {
      await legacy.close();
      await modern.close();
      await http.close();
    }
  });
});

describe('official helpers ferrymcp does not run yet', () => {
  const names = [
    'legacyStatelessFallback',
    'requireScopes',
    'oauthMetadataResponse',
    'buildOAuthProtectedResourceMetadata',
  ];
  test('each throws ERR_FERRYMCP_UNSUPPORTED naming itself, from the root and ferrymcp/server', () => {
    for (const name of names) {
      assert.equal(typeof officialServer[name], 'function', `the official server exports ${name}`);
      for (const module of [ferry, ferryServer]) {
        assert.throws(
          () => module[name]({}),
          (error) => error instanceof ferry.FerrymcpUnsupportedError && error.code === 'ERR_FERRYMCP_UNSUPPORTED' && error.api === name && error.message.includes(name),
        );
      }
    }
  });

  test('ferrymcp/express: mcpAuthMetadataRouter throws naming itself', () => {
    for (const name of ['mcpAuthMetadataRouter']) {
      assert.throws(() => ferryExpress[name]({}), (e) => e.code === 'ERR_FERRYMCP_UNSUPPORTED' && e.api === name);
    }
  });

  // createMcpHandler's legacy: 'reject' runs now (core's modern-only mode): modern-only.test.mjs.
});
