// The legacy shim (the official `inputRequired.legacyShim`, on by default): handlers written
// once in the 2026-07-28 style (they return `inputRequired(...)`) served to a 2025-era
// client, the official v1 SDK's, over a real stdio child and a real HTTP server. Each
// embedded request reaches the client as a request of its own, the handler runs again with
// that round's answers and its `requestState` (checked by the server's `requestState.verify`
// hook every round), failures answer per family, and the knobs are taken or refused as there.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { describe, test } from 'node:test';

import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer, createMcpHandler } from 'ferrymcp';
import { toNodeHandler } from 'ferrymcp/node';

import { buildServer } from './fixtures/manual-rounds.mjs';
import { fixture } from './helpers.mjs';

/**
 * The official v1 client (2025-11-25), answering what it declares; `asked` records each
 * request the server sent it (method and params).
 */
function v1Client({ elicitation = true } = {}) {
  const capabilities = { sampling: {}, roots: {}, ...(elicitation && { elicitation: { form: {}, url: {} } }) };
  const client = new V1Client({ name: 'legacy-shim-test', version: '1.0.0' }, { capabilities });
  const asked = [];
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(['elicitation/create', request.params]);
      if (request.params.mode === 'url') return { action: 'accept' };
      return { action: 'accept', content: request.params.message === 'Your name?' ? { name: 'Ada' } : { confirm: true } };
    });
  }
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    asked.push(['sampling/createMessage', request.params]);
    return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' };
  });
  client.setRequestHandler(ListRootsRequestSchema, async (request) => {
    asked.push(['roots/list', request.params]);
    return { roots: [{ uri: 'file:///work' }, { uri: 'file:///home' }] };
  });
  return { client, asked };
}

async function stdio(client, options) {
  const args = [fixture('manual-rounds.mjs'), ...(options === undefined ? [] : [JSON.stringify(options)])];
  await client.connect(new V1Stdio({ command: process.execPath, args }));
  assert.equal(client.getServerVersion().name, 'manual-rounds');
}

describe('the legacy shim', () => {
  test('a 2025 client is asked in real requests: elicitation rounds with requestState, sampling, roots, a paced prompt', async () => {
    const { client, asked } = v1Client();
    await stdio(client);
    try {
      // Confirm (form), then sign in (URL) with the state between: the last run sees its round only.
      const deployed = await client.callTool({ name: 'deploy', arguments: { env: 'prod' } });
      assert.equal(deployed.content[0].text, 'deployed to prod (last round: auth)', JSON.stringify(deployed));
      assert.deepEqual(asked.map(([method, params]) => [method, params.mode, params.message]), [
        ['elicitation/create', 'form', 'Deploy to prod?'],
        ['elicitation/create', 'url', 'Sign in'],
      ]);
      // The URL leg carries the elicitationId 2025-11-25 requires; every leg a progress token.
      assert.match(asked[1][1].elicitationId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.ok(asked.every(([, params]) => params._meta?.progressToken !== undefined));
      asked.length = 0;

      assert.equal((await client.callTool({ name: 'ask_model', arguments: {} })).content[0].text, 'model said Paris');
      assert.equal((await client.callTool({ name: 'where', arguments: {} })).content[0].text, 'file:///work file:///home');
      assert.deepEqual(asked.map(([method]) => method), ['sampling/createMessage', 'roots/list']);

      // A requestState-only round (nothing asked), then a form: the prompt family.
      const prompt = await client.getPrompt({ name: 'greeting' });
      assert.equal(prompt.messages[0].content.text, 'Hello Ada (asked)');
    } finally {
      await client.close();
    }
  });

  test('the rounds ride a legacy HTTP session (createMcpHandler)', async () => {
    const handler = createMcpHandler(() => buildServer());
    const http = createServer(toNodeHandler(handler)).listen(0, '127.0.0.1');
    await once(http, 'listening');
    const { client, asked } = v1Client();
    try {
      await client.connect(new V1Http(new URL(`http://127.0.0.1:${http.address().port}/mcp`)));
      const deployed = await client.callTool({ name: 'deploy', arguments: { env: 'dev' } });
      assert.equal(deployed.content[0].text, 'deployed to dev (last round: auth)', JSON.stringify(deployed));
      assert.equal(asked.length, 2);
    } finally {
      await client.close();
      http.close();
    }
  });

  test('maxRounds: a tool that keeps asking ends in an isError result after that many rounds', async () => {
    const { client, asked } = v1Client();
    await stdio(client, { inputRequired: { maxRounds: 2 } });
    try {
      const result = await client.callTool({ name: 'forever', arguments: {} });
      assert.equal(result.isError, true, JSON.stringify(result));
      assert.equal(result.content[0].text, "Multi-round-trip request 'tools/call' still required input after 2 rounds (inputRequired.maxRounds)");
      assert.equal(asked.length, 2);
    } finally {
      await client.close();
    }
  });

  test('a client that declared no elicitation is asked nothing: a tool gets isError, a prompt -32603', async () => {
    const { client, asked } = v1Client({ elicitation: false });
    await stdio(client);
    try {
      const result = await client.callTool({ name: 'deploy', arguments: { env: 'prod' } });
      assert.equal(result.isError, true, JSON.stringify(result));
      assert.equal(result.content[0].text, "Cannot request input 'confirm' (elicitation/create): the client on this 2025-era connection did not declare the required capability");
      await assert.rejects(client.getPrompt({ name: 'greeting' }), (error) => error.code === -32603 && /did not declare/.test(error.message));
      assert.deepEqual(asked, []);
    } finally {
      await client.close();
    }
  });

  test('legacyShim: false keeps the loud -32603', async () => {
    const { client, asked } = v1Client();
    await stdio(client, { inputRequired: { legacyShim: false } });
    try {
      await assert.rejects(
        client.callTool({ name: 'deploy', arguments: { env: 'prod' } }),
        (error) => error.code === -32603 && /input_required/.test(error.message),
      );
      assert.deepEqual(asked, []);
    } finally {
      await client.close();
    }
  });

  test('the options are taken as the official ones, and refused when they cannot be', () => {
    const info = { name: 's', version: '1' };
    assert.doesNotThrow(() => new McpServer(info, { inputRequired: { legacyShim: true, maxRounds: 3, roundTimeoutMs: 1500 } }));
    assert.doesNotThrow(() => new McpServer(info, { inputRequired: {} }));
    assert.throws(() => new McpServer(info, { inputRequired: { maxRounds: 0 } }), RangeError);
    assert.throws(() => new McpServer(info, { inputRequired: { maxRounds: 1.5 } }), /inputRequired.maxRounds must be a positive integer \(got 1.5\)/);
    assert.throws(() => new McpServer(info, { inputRequired: { roundTimeoutMs: -1 } }), RangeError);
    assert.throws(() => new McpServer(info, { inputRequired: { autoFulfill: true } }), /inputRequired.autoFulfill/);
    assert.throws(() => new McpServer(info, { inputRequired: { legacyShim: 'no' } }), /legacyShim must be a boolean/);
  });
});
