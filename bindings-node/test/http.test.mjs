// Streamable HTTP serving from Node, over real HTTP on 127.0.0.1, four ways: core's
// built-in listener (`server.listen()`), the web-standard transport behind a Node http
// server, the Node transport in `http.createServer`, and v2's `createMcpHandler` through
// `toNodeHandler`. The peers are the official
// TypeScript SDK's clients (v2 in both eras, v1) and raw `fetch` where the test needs to
// see the wire (cancellation by closing the stream, Origin, bearer challenges).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import { request as httpRequest } from 'node:http';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';

import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { WebStandardStreamableHTTPServerTransport, createMcpHandler } from 'ferrymcp';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from 'ferrymcp/node';
import { StreamableHTTPServerTransport } from 'ferrymcp/server/streamableHttp.js';

import { fixture } from './helpers.mjs';
import { build } from './fixtures/http-server.mjs';

const run = promisify(execFile);
const MODERN = '2026-07-28';
const ELICITED = { action: 'accept', content: { name: 'Ada' } };

/** A Node http server around `handle(req, res)` on 127.0.0.1; resolves with its URL and close. */
async function nodeServer(handle) {
  const http = createServer((req, res) => {
    handle(req, res).catch((error) => {
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

/** The web-standard transport mounted in a Node http server, as a framework adapter does. */
function webAdapter(transport) {
  return async (req, res) => {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    const body = req.method === 'GET' || req.method === 'HEAD' || req.method === 'DELETE' ? undefined : Readable.toWeb(req);
    const request = new Request(new URL(req.url, `http://${req.headers.host}`), { method: req.method, headers, body, duplex: 'half' });
    const response = await transport.handleRequest(request);
    res.writeHead(response.status, [...response.headers].flat());
    if (response.body === null) return void res.end();
    pipeline(Readable.fromWeb(response.body), res, () => undefined);
  };
}

/** Serves a fresh test server the given way; resolves with its URL, what it observed, and close. */
const WAYS = {
  async listen(options = {}) {
    const { server, observed } = build();
    const listener = await server.listen(options);
    return { url: listener.url, observed, close: () => server.close() };
  },
  async 'web-standard'(options = {}) {
    const { server, observed } = build();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), ...options });
    await server.connect(transport);
    const http = await nodeServer(webAdapter(transport));
    return { url: http.url, observed, close: async () => (await server.close(), await http.close()) };
  },
  async 'node http'(options = {}) {
    const { server, observed } = build();
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), ...options });
    await server.connect(transport);
    const http = await nodeServer((req, res) => transport.handleRequest(req, res));
    return { url: http.url, observed, close: async () => (await server.close(), await http.close()) };
  },
  async 'createMcpHandler + toNodeHandler'(options = {}) {
    let built;
    const handler = createMcpHandler(() => (built = build()).server, options);
    const http = await nodeServer(toNodeHandler(handler));
    const observed = { cancelled: () => built.observed.cancelled() };
    return { url: http.url, observed, close: async () => (await handler.close(), await http.close()) };
  },
};

function v2Client(url, era, requestInit) {
  const mode = era === 'modern' ? { pin: MODERN } : 'legacy';
  const client = new V2Client({ name: 'official-v2', version: '2.4.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } });
  client.setRequestHandler('elicitation/create', async () => ELICITED);
  return { client, transport: new V2HttpTransport(url, { requestInit }) };
}

function v1Client(url, requestInit) {
  const client = new V1Client({ name: 'official-v1', version: '1.32.2' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ELICITED);
  return { client, transport: new V1HttpTransport(url, { requestInit }) };
}

const text = (result) => result.content.map((c) => c.text).join('\n');

/** `promise`, or a failure after `ms`. */
const within = (promise, ms) =>
  Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`nothing within ${ms} ms`)), ms).unref())]);

/** What every client checks against every way of serving (v1's `callTool` takes a result schema second). */
async function exercise(client, v1 = false) {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), ['ask', 'echo', 'progress', 'slow', 'wait', 'whoami']);
  assert.equal(text(await client.callTool({ name: 'echo', arguments: { text: 'over http' } })), 'over http');
  const read = await client.readResource({ uri: 'test://readme' });
  assert.equal(read.contents[0].text, 'hello over http');
  const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
  assert.equal(prompt.messages[0].content.text, 'Hello, Ada!');
  const progress = [];
  const options = { onprogress: (p) => progress.push(p.progress) };
  const call = { name: 'progress', arguments: {} };
  const done = await (v1 ? client.callTool(call, undefined, options) : client.callTool(call, options));
  assert.equal(text(done), 'done');
  assert.deepEqual(progress, [1, 2, 3]);
  assert.equal(text(await client.callTool({ name: 'ask', arguments: {} })), 'accept: Ada');
}

/** A raw 2026-07-28 tools/call, with whatever extra headers and fetch options. */
function modernCall(url, name, args = {}, { headers = {}, ...init } = {}) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': name,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: { progressToken: 'p', 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} },
      },
    }),
    ...init,
  });
}

for (const [way, serve] of Object.entries(WAYS)) {
  describe(`served by ${way}`, () => {
    const served = serve();
    after(async () => (await served).close());

    for (const era of ['legacy', 'modern']) {
      test(`official v2 client, ${era} era: tools, resources, prompts, progress, elicitation`, async () => {
        const { url } = await served;
        const { client, transport } = v2Client(url, era);
        await client.connect(transport);
        try {
          assert.equal(client.getProtocolEra(), era);
          await exercise(client);
        } finally {
          await client.close();
        }
      });
    }

    test('official v1 client: tools, resources, prompts, progress, elicitation', async () => {
      const { url } = await served;
      const { client, transport } = v1Client(url);
      await client.connect(transport);
      try {
        assert.ok(transport.sessionId, 'a legacy session was opened');
        await exercise(client, true);
      } finally {
        await transport.terminateSession();
        await client.close();
      }
    });

    test('closing the response stream cancels the request in core', async () => {
      const { url, observed } = await served;
      const cancelled = observed.cancelled();
      const abort = new AbortController();
      const response = await modernCall(url, 'slow', {}, { signal: abort.signal });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'text/event-stream');
      const reader = response.body.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      assert.match(first, /notifications\/progress/);
      abort.abort();
      assert.equal(typeof (await within(cancelled, 10_000)), 'string');
    });

    for (const [era, connect] of [['modern', (url) => v2Client(url, 'modern')], ['legacy (v1)', (url) => v1Client(url)]]) {
      test(`the official client aborting a call (${era}) cancels it in core`, async () => {
        const { url, observed } = await served;
        const { client, transport } = connect(url);
        await client.connect(transport);
        try {
          const cancelled = observed.cancelled();
          const abort = new AbortController();
          let started;
          const progressed = new Promise((resolve) => (started = resolve));
          const call = { name: 'slow', arguments: {} };
          const options = { signal: abort.signal, onprogress: started };
          const calling = era === 'modern' ? client.callTool(call, options) : client.callTool(call, undefined, options);
          await within(progressed, 10_000);
          abort.abort();
          await assert.rejects(calling);
          assert.equal(typeof (await within(cancelled, 10_000)), 'string');
        } finally {
          await client.close();
        }
      });
    }

    test('a request from a foreign Origin is refused with 403', async () => {
      const { url } = await served;
      const response = await modernCall(url, 'echo', { text: 'x' }, { headers: { origin: 'http://evil.example' } });
      assert.equal(response.status, 403);
      assert.match((await response.json()).error.message, /Origin/);
      const allowed = await modernCall(url, 'echo', { text: 'x' }, { headers: { origin: `http://${url.host}` } });
      assert.equal(allowed.status, 200);
    });
  });
}

describe('bearer tokens', () => {
  const hour = () => Math.floor(Date.now() / 1000) + 3600;
  const verifier = async (token) => {
    await new Promise((resolve) => setImmediate(resolve));
    if (token === 'good') return { token, clientId: 'tests', scopes: ['mcp'], expiresAt: hour(), resource: new URL('https://api.example/mcp'), extra: { tier: 'gold' } };
    if (token === 'narrow') return { token, clientId: 'tests', scopes: [] };
    if (token === 'stale') return { token, clientId: 'tests', scopes: ['mcp'], expiresAt: Math.floor(Date.now() / 1000) - 60 };
    throw new Error('unknown token');
  };
  const auth = { verifier, requiredScopes: ['mcp'], authorizationServers: ['https://auth.example'], scopesSupported: ['mcp'] };

  for (const way of ['listen', 'node http']) {
    test(`served by ${way}: 401 with the challenge, 403 for a missing scope, metadata, and the official client with a token`, async () => {
      const { url, close } = await WAYS[way]({ auth });
      try {
        const metadataUrl = `http://127.0.0.1:${url.port}/.well-known/oauth-protected-resource/mcp`;
        const missing = await modernCall(url, 'echo', { text: 'x' });
        assert.equal(missing.status, 401);
        const challenge = missing.headers.get('www-authenticate');
        assert.equal(challenge, `Bearer error="invalid_token", error_description="Authentication required", resource_metadata="${metadataUrl}"`);
        assert.deepEqual(await missing.json(), { error: 'invalid_token', error_description: 'Authentication required' });
        const bad = await modernCall(url, 'echo', { text: 'x' }, { headers: { authorization: 'Bearer nope' } });
        assert.equal(bad.status, 401);
        assert.match(bad.headers.get('www-authenticate'), /error="invalid_token", error_description="unknown token"/);
        // Core judges the expiry (the verifier only says what the token is).
        const stale = await modernCall(url, 'echo', { text: 'x' }, { headers: { authorization: 'Bearer stale' } });
        assert.equal(stale.status, 401);
        assert.match(stale.headers.get('www-authenticate'), /error="invalid_token"/);
        const narrow = await modernCall(url, 'echo', { text: 'x' }, { headers: { authorization: 'Bearer narrow' } });
        assert.equal(narrow.status, 403);
        assert.match(narrow.headers.get('www-authenticate'), /error="insufficient_scope", error_description="Required scope: mcp", scope="mcp"/);
        const metadata = await fetch(challenge.match(/resource_metadata="([^"]+)"/)[1]);
        assert.deepEqual(await metadata.json(), {
          resource: url.href,
          authorization_servers: ['https://auth.example'],
          scopes_supported: ['mcp'],
          bearer_methods_supported: ['header'],
        });
        const { client, transport } = v2Client(url, 'modern', { headers: { authorization: 'Bearer good' } });
        await client.connect(transport);
        try {
          assert.equal(text(await client.callTool({ name: 'echo', arguments: { text: 'authorized' } })), 'authorized');
        } finally {
          await client.close();
        }
      } finally {
        await close();
      }
    });
  }

  for (const [era, connect] of [['modern', (url, init) => v2Client(url, 'modern', init)], ['legacy (v1)', (url, init) => v1Client(url, init)]]) {
    test(`extra.authInfo reaches the tool (${era})`, async () => {
      const { url, close } = await WAYS.listen({ auth });
      try {
        const { client, transport } = connect(url, { headers: { authorization: 'Bearer good' } });
        await client.connect(transport);
        try {
          const seen = JSON.parse(text(await client.callTool({ name: 'whoami', arguments: {} })));
          assert.equal(typeof seen.expiresAt, 'number');
          assert.deepEqual(seen, { token: 'good', clientId: 'tests', scopes: ['mcp'], expiresAt: seen.expiresAt, resource: 'https://api.example/mcp', extra: { tier: 'gold' }, same: true });
        } finally {
          await client.close();
        }
      } finally {
        await close();
      }
    });
  }

  test('without auth a tool sees no authInfo', async () => {
    const { url, close } = await WAYS.listen();
    try {
      const { client, transport } = v2Client(url, 'modern');
      await client.connect(transport);
      try {
        assert.equal(text(await client.callTool({ name: 'whoami', arguments: {} })), 'null');
      } finally {
        await client.close();
      }
    } finally {
      await close();
    }
  });

  test('a verifier that never settles refuses the token after its timeout', async () => {
    const { url, close } = await WAYS.listen({ auth: { ...auth, verifier: () => new Promise(() => {}), verifyTimeoutMs: 200 } });
    try {
      const response = await modernCall(url, 'echo', { text: 'x' }, { headers: { authorization: 'Bearer good' } });
      assert.equal(response.status, 401);
      assert.match(response.headers.get('www-authenticate'), /did not settle within 200 ms/);
    } finally {
      await close();
    }
  });
});

/** The status of a 2026-07-28 echo call of `size` characters sent with this Host header
 * (fetch cannot set Host). */
function postStatus(url, host, size, extra = {}) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: 'x'.repeat(size) }, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } },
  });
  const headers = {
    host,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': 'tools/call',
    'mcp-name': 'echo',
    ...extra,
  };
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('options and lifecycle', () => {
  test('official options core has no equivalent for are refused with a TypeError', () => {
    assert.throws(() => new NodeStreamableHTTPServerTransport({ enableJsonResponse: 'yes' }), /enableJsonResponse must be a boolean/);
    // An EventStore object works (test/event-store.test.mjs); something else is refused.
    assert.throws(() => new StreamableHTTPServerTransport({ eventStore: { storeEvent() {} } }), /eventStore must be an EventStore/);
    assert.throws(() => new WebStandardStreamableHTTPServerTransport({ onsessioninitialized: 'x' }), /onsessioninitialized must be a function/);
    assert.throws(() => new WebStandardStreamableHTTPServerTransport({ supportedProtocolVersions: ['2025-11-25'] }), TypeError);
    assert.throws(() => new WebStandardStreamableHTTPServerTransport({ sessionIdGeneratr: () => 'x' }), /does not take the option "sessionIdGeneratr"/);
    assert.throws(() => new NodeStreamableHTTPServerTransport({ keepAliveMs: 0 }), /keepAliveMs must be a positive integer/);
    assert.throws(() => createMcpHandler(() => build().server, { legacy: 'sometimes' }), TypeError);
    assert.throws(() => createMcpHandler(() => build().server, { responseMode: 'sse' }), TypeError);
  });

  test('allowedHosts and maxRequestBodySize reach core', async () => {
    const { url, close } = await WAYS['node http']({ allowedHosts: ['mcp.example'], maxRequestBodySize: 1024 });
    try {
      assert.equal((await modernCall(url, 'echo', { text: 'x' })).status, 403);
      assert.equal(await postStatus(url, 'mcp.example', 10), 200);
      assert.equal(await postStatus(url, 'mcp.example', 4096), 413);
    } finally {
      await close();
    }
  });

  test('enableDnsRebindingProtection: false accepts every Host and Origin, as the official SDKs and a Python server', async () => {
    for (const way of ['listen', 'node http']) {
      const guarded = await WAYS[way]();
      const open = await WAYS[way]({ enableDnsRebindingProtection: false });
      try {
        const evil = { origin: 'http://evil.example.com' };
        assert.equal(await postStatus(guarded.url, `127.0.0.1:${guarded.url.port}`, 10, evil), 403, way);
        assert.equal(await postStatus(open.url, 'evil.example.com', 10, evil), 200, way);
      } finally {
        await guarded.close();
        await open.close();
      }
    }
  });

  test('listen() close() answers the request in flight, then refuses new connections', async () => {
    const { server, observed } = build();
    const listener = await server.listen({ port: 0 });
    assert.equal(listener.url.hostname, '127.0.0.1');
    const started = observed.started();
    const inFlight = modernCall(listener.url, 'wait', { ms: 300 });
    await started;
    const closing = server.close();
    const response = await inFlight;
    assert.equal(response.status, 200);
    assert.match(await response.text(), /waited 300/);
    await closing;
    await listener.closed;
    await assert.rejects(modernCall(listener.url, 'echo', { text: 'x' }));
  });

  test('listen() on a port in use rejects, and the server can listen elsewhere', async () => {
    const first = build().server;
    const taken = await first.listen();
    const { server } = build();
    try {
      await assert.rejects(server.listen({ port: taken.port }), (error) => error.code === -32603 && /cannot listen on 127\.0\.0\.1:\d+/.test(error.message));
      const listener = await server.listen();
      assert.notEqual(listener.port, taken.port);
    } finally {
      await server.close();
      await first.close();
    }
  });

  for (const way of ['listen', 'node']) {
    test(`a script that serves (${way}), answers and closes exits by itself`, async () => {
      const { stdout } = await run(process.execPath, [fixture('http-exits.mjs'), way], { timeout: 30_000 });
      assert.equal(stdout, '200 true\n');
    });
  }
});
