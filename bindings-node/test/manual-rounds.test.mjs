// The official v2 manual multi-round API (2026-07-28) on ferrymcp servers: a handler
// returns `inputRequired(...)` itself and reads `ctx.mcpReq.inputResponses` (this round's)
// and `ctx.mcpReq.requestState()` (decoded by `createRequestStateCodec`'s `verify`, the
// server's `requestState.verify` hook) on the retry. The official v2 client drives the
// rounds over a real stdio child and a real HTTP server; raw requests check what core
// answers a forged or expired state, a missing capability and a 2025-era request with the legacy shim off (legacy-shim.test.mjs has it on).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { describe, test } from 'node:test';

import { Client as OfficialClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as OfficialStdio } from '@modelcontextprotocol/client/stdio';
import { createMcpHandler, createRequestStateCodec, inputRequired, isInputRequiredResult } from 'ferrymcp';
import { toNodeHandler } from 'ferrymcp/node';

import { buildServer } from './fixtures/manual-rounds.mjs';
import { fixture } from './helpers.mjs';

const MODERN = '2026-07-28';

/** The official client in 2026-07-28 mode, answering form and URL elicitations and sampling. */
function officialClient(mode = 'auto') {
  const client = new OfficialClient(
    { name: 'manual-rounds-test', version: '1.0.0' },
    { versionNegotiation: { mode }, capabilities: { elicitation: { form: {}, url: {} }, sampling: {} } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    if (request.params.mode === 'url') return { action: 'accept' };
    return { action: 'accept', content: request.params.message === 'Your name?' ? { name: 'Ada' } : { confirm: true } };
  });
  client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' }));
  return client;
}

async function drive(client) {
  const deployed = await client.callTool({ name: 'deploy', arguments: { env: 'prod' } });
  assert.equal(deployed.content[0].text, 'deployed to prod (last round: auth)');
  const sampled = await client.callTool({ name: 'ask_model', arguments: {} });
  assert.equal(sampled.content[0].text, 'model said Paris');
  const prompt = await client.getPrompt({ name: 'greeting' });
  assert.equal(prompt.messages[0].content.text, 'Hello Ada (asked)');
}

async function serveHttp(options) {
  const handler = createMcpHandler(() => buildServer(options));
  const server = createServer(toNodeHandler(handler)).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${server.address().port}/mcp`, close: () => server.close() };
}

const META = (capabilities = { elicitation: { form: {}, url: {} } }) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
});

/** One raw 2026-07-28 `tools/call` over HTTP: its JSON-RPC answer. */
async function rawCall(url, params) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': params.name },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
  });
  const text = await response.text();
  const data = text.startsWith('{') ? text : text.split('\n').find((line) => line.startsWith('data: '))?.slice(6);
  return JSON.parse(data);
}

describe('the manual multi-round API', () => {
  test('the official client runs the rounds of a stdio server: per-round inputResponses, verified requestState, sampling, a prompt', async () => {
    const client = officialClient();
    await client.connect(new OfficialStdio({ command: process.execPath, args: [fixture('manual-rounds.mjs')] }));
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
      await drive(client);
    } finally {
      await client.close();
    }
  });

  test('the official client runs the rounds over HTTP (createMcpHandler)', async () => {
    const http = await serveHttp();
    const client = officialClient();
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      await drive(client);
    } finally {
      await client.close();
      http.close();
    }
  });

  test("core answers the handler's own result: sealed state, forged or expired state refused, capabilities checked", async () => {
    const http = await serveHttp();
    const expired = await serveHttp({ ttlSeconds: -1 });
    try {
      const first = await rawCall(http.url, { name: 'deploy', arguments: { env: 'dev' }, _meta: META() });
      assert.ok(isInputRequiredResult(first.result), JSON.stringify(first));
      assert.deepEqual(Object.keys(first.result.inputRequests), ['confirm']);
      assert.equal(first.result.inputRequests.confirm.method, 'elicitation/create');
      assert.equal(first.result.inputRequests.confirm.params.mode, 'form');
      assert.equal(typeof first.result.requestState, 'string');
      // The state is core's seal around the handler's: changed by one character, refused.
      const state = first.result.requestState;
      const forged = `${state.slice(0, -2)}${state.at(-2) === 'A' ? 'B' : 'A'}${state.at(-1)}`;
      const tampered = await rawCall(http.url, { name: 'deploy', arguments: { env: 'dev' }, requestState: forged, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, _meta: META() });
      assert.equal(tampered.error?.code, -32602, JSON.stringify(tampered));
      // Bound to the tool it was minted for.
      const elsewhere = await rawCall(http.url, { name: 'ask_model', arguments: {}, requestState: state, _meta: META() });
      assert.equal(elsewhere.error?.code, -32602, JSON.stringify(elsewhere));
      // The application's verify hook rejects its own (expired) payload: the official fixed answer.
      const round = await rawCall(expired.url, { name: 'deploy', arguments: { env: 'dev' }, _meta: META() });
      const late = await rawCall(expired.url, { name: 'deploy', arguments: { env: 'dev' }, requestState: round.result.requestState, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, _meta: META() });
      assert.deepEqual(late.error, { code: -32602, message: 'Invalid or expired requestState', data: { reason: 'invalid_request_state' } });
      // A client that did not declare URL elicitation is not asked for one.
      const formOnly = META({ elicitation: { form: {} } });
      const confirmed = await rawCall(http.url, { name: 'deploy', arguments: { env: 'dev' }, requestState: state, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, _meta: formOnly });
      assert.equal(confirmed.error?.code, -32021, JSON.stringify(confirmed));
      assert.deepEqual(confirmed.error.data, { requiredCapabilities: { elicitation: { url: {} } } });
    } finally {
      http.close();
      expired.close();
    }
  });

  test('with inputRequired.legacyShim: false a 2025-era request gets a loud error, as the official server', async () => {
    const client = officialClient('legacy');
    const options = JSON.stringify({ inputRequired: { legacyShim: false } });
    await client.connect(new OfficialStdio({ command: process.execPath, args: [fixture('manual-rounds.mjs'), options] }));
    try {
      await assert.rejects(
        client.callTool({ name: 'deploy', arguments: { env: 'prod' } }),
        (error) => error.code === -32603 && /input_required/.test(error.message),
      );
    } finally {
      await client.close();
    }
  });

  test('createElicitationCompletionNotifier: a legacy URL elicitation ends with notifications/elicitation/complete', async () => {
    const client = officialClient('legacy');
    let completed;
    const complete = new Promise((resolve) => (completed = resolve));
    client.setNotificationHandler('notifications/elicitation/complete', (notification) => completed(notification.params.elicitationId));
    client.setRequestHandler('elicitation/create', async (request) => ({ action: (await complete) === request.params.elicitationId ? 'accept' : 'decline' }));
    await client.connect(new OfficialStdio({ command: process.execPath, args: [fixture('manual-rounds.mjs')] }));
    try {
      assert.equal((await client.callTool({ name: 'link', arguments: {} })).content[0].text, 'link accept');
    } finally {
      await client.close();
    }
  });

  test('the helpers refuse what they cannot build, naming it', async () => {
    assert.throws(() => inputRequired({}), /inputRequests .* or requestState/);
    assert.throws(() => inputRequired({ inputRequests: {}, extra: 1 }), /unknown member 'extra'/);
    assert.throws(() => createRequestStateCodec({ key: 'short' }), RangeError);
    assert.throws(() => createRequestStateCodec({ key: 'k'.repeat(32), rotate: true }), /unknown option 'rotate'/);
    const codec = createRequestStateCodec({ key: 'k'.repeat(32) });
    const token = await codec.mint({ a: 1 });
    assert.deepEqual(await codec.verify(token, undefined), { a: 1 });
    await assert.rejects(codec.verify(`${token}x`, undefined), /mac|malformed/);
    await assert.rejects(createRequestStateCodec({ key: 'j'.repeat(32) }).verify(token, undefined), /mac/);
  });
});
