// The official bearer gate in front of an MCP endpoint (`requireBearerAuth` of
// `ferrymcp/express` and of the package root, `verifyBearerToken`,
// `bearerAuthChallengeResponse`), decided by core's bearer policy: real HTTP servers (an
// Express app, a plain Node server bridging a web-standard `fetch` handler), the official
// v2 client as the peer, and raw requests for the refusals (401/403 and their challenges).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { describe, test } from 'node:test';

import { Client as OfficialClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  McpServer,
  OAuthError,
  OAuthErrorCode,
  bearerAuthChallengeResponse,
  createMcpHandler,
  requireBearerAuth,
  verifyBearerToken,
} from 'ferrymcp';
import { createMcpExpressApp, requireBearerAuth as expressBearerAuth } from 'ferrymcp/express';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from 'ferrymcp/node';

const HOUR = () => Math.floor(Date.now() / 1000) + 3600;
const verifier = {
  async verifyAccessToken(token) {
    if (token === 'demo-token') return { token, clientId: 'demo-client', scopes: ['mcp'], expiresAt: HOUR() };
    if (token === 'read-only') return { token, clientId: 'reader', scopes: ['read'], expiresAt: HOUR() };
    if (token === 'stale') return { token, clientId: 'old', scopes: ['mcp'], expiresAt: 1000 };
    throw new OAuthError(OAuthErrorCode.InvalidToken, 'unknown token');
  },
};

const buildServer = (ctx) => {
  const server = new McpServer({ name: 'bearer-gate', version: '1.0.0' });
  server.registerTool('whoami', {}, async () => ({ content: [{ type: 'text', text: `client=${ctx.authInfo?.clientId ?? 'anon'}` }] }));
  return server;
};

async function listen(app) {
  const server = app.listen ? app.listen(0, '127.0.0.1') : createServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${server.address().port}/mcp`, close: () => server.close() };
}

const post = (url, token) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });

async function whoami(url, mode) {
  const client = new OfficialClient({ name: 'c', version: '1' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: { token: async () => 'demo-token' } }));
  try {
    return (await client.callTool({ name: 'whoami', arguments: {} })).content[0].text;
  } finally {
    await client.close();
  }
}

/** The refusals core answers through the gate. */
async function refusals(url) {
  const bare = await post(url);
  assert.equal(bare.status, 401);
  assert.match(bare.headers.get('www-authenticate'), /^Bearer error="invalid_token", error_description="[^"]+"/);
  assert.equal((await bare.json()).error, 'invalid_token');
  const unknown = await post(url, 'nope');
  assert.equal(unknown.status, 401);
  assert.deepEqual(await unknown.json(), { error: 'invalid_token', error_description: 'unknown token' });
  const narrow = await post(url, 'read-only');
  assert.equal(narrow.status, 403);
  assert.match(narrow.headers.get('www-authenticate'), /error="insufficient_scope".*scope="mcp"/);
  assert.equal((await narrow.json()).error, 'insufficient_scope');
  assert.equal((await post(url, 'stale')).status, 401, 'an expired token is refused');
}

describe('requireBearerAuth', () => {
  test('the Express middleware: refusals by core, the accepted token in ctx.authInfo, both eras', async () => {
    const app = createMcpExpressApp();
    const node = toNodeHandler(createMcpHandler(buildServer));
    app.all('/mcp', expressBearerAuth({ verifier, requiredScopes: ['mcp'], resourceMetadataUrl: 'https://rs.example/.well-known/oauth-protected-resource/mcp' }), (req, res) => void node(req, res, req.body));
    const http = await listen(app);
    try {
      await refusals(http.url);
      assert.match((await post(http.url)).headers.get('www-authenticate'), /resource_metadata="https:\/\/rs\.example\/\.well-known\/oauth-protected-resource\/mcp"/);
      assert.equal(await whoami(http.url, 'auto'), 'client=demo-client');
      assert.equal(await whoami(http.url, 'legacy'), 'client=demo-client');
    } finally {
      http.close();
    }
  });

  test('the web-standard gate composed with handler.fetch(request, { authInfo }), bridged by toNodeHandler({ fetch })', async () => {
    const gate = requireBearerAuth({ verifier, requiredScopes: ['mcp'] });
    const handler = createMcpHandler(buildServer);
    const fetchHandler = async (request) => {
      const auth = await gate(request);
      return auth instanceof Response ? auth : handler.fetch(request, { authInfo: auth });
    };
    const http = await listen(toNodeHandler({ fetch: fetchHandler }));
    try {
      await refusals(http.url);
      assert.equal(await whoami(http.url, 'auto'), 'client=demo-client');
      assert.equal(await whoami(http.url, 'legacy'), 'client=demo-client');
    } finally {
      http.close();
    }
  });

  test('verifyBearerToken and bearerAuthChallengeResponse; options and authInfo refused where they cannot work', async () => {
    const info = await verifyBearerToken('Bearer demo-token', { verifier, requiredScopes: ['mcp'] });
    assert.equal(info.clientId, 'demo-client');
    const refused = await verifyBearerToken('Bearer read-only', { verifier, requiredScopes: ['mcp'] }).catch((error) => error);
    assert.ok(refused instanceof OAuthError);
    assert.equal(refused.code, 'insufficient_scope');
    const response = bearerAuthChallengeResponse(refused);
    assert.equal(response.status, 403);
    assert.equal(bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InvalidRequest, 'bad')).status, 400);
    assert.equal(bearerAuthChallengeResponse(new Error('boom')).status, 500);
    assert.throws(() => requireBearerAuth({ verifier, audience: 'x' }), (error) => /unknown option audience/.test(error.message) && typeof error.code === 'string');
    // A transport that checks tokens itself does not also take a token from in front of it.
    const transport = new NodeStreamableHTTPServerTransport({ auth: { verifier, authorizationServers: [] } });
    await buildServer({}).connect(transport);
    const http = await listen((req, res) => {
      req.auth = { token: 'demo-token', clientId: 'x', scopes: [] };
      transport.handleRequest(req, res).catch((error) => res.writeHead(500).end(error.message));
    });
    try {
      const answer = await post(http.url, 'demo-token');
      assert.equal(answer.status, 500);
      assert.match(await answer.text(), /checks bearer tokens itself/);
    } finally {
      http.close();
      await transport.close();
    }
  });
});
