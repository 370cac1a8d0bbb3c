// Interop both ways with the official TypeScript SDK: its clients (v2 @modelcontextprotocol/
// client in both eras, v1 @modelcontextprotocol/sdk) against the ferrymcp fixture, and
// ferrymcp's Client against servers built on the official SDK.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Transport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { answers, connect, fixture, textOf } from './helpers.mjs';

const EVERYTHING = fixture('everything.mjs');
const capabilities = { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } };
const serverParams = (file) => ({ command: process.execPath, args: [file] });

async function exercise(client) {
  const { tools } = await client.listTools();
  assert.equal(tools.length, 35);
  assert.equal(textOf(await client.callTool({ name: 'test_simple_text', arguments: {} })), 'This is a simple text response for testing.');
  const failed = await client.callTool({ name: 'test_error_handling', arguments: {} });
  assert.equal(failed.isError, true);
  assert.equal(textOf(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Capital?' } })), 'LLM response: Paris');
  const elicited = textOf(await client.callTool({ name: 'test_elicitation', arguments: { message: 'Name?' } }));
  assert.match(elicited, /^User response: action=accept/);
  const multiple = await client.callTool({ name: 'test_input_required_result_multiple_inputs', arguments: {} });
  assert.equal(textOf(multiple), 'Name: Ada; Greeting: Paris; Roots: 1');
  const data = await client.readResource({ uri: 'test://template/7/data' });
  assert.equal(JSON.parse(data.contents[0].text).id, '7');
  const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'x', arg2: 'y' } });
  assert.equal(prompt.messages[0].content.text, "Prompt with arguments: arg1='x', arg2='y'");
}

describe('official v2 client against the ferrymcp fixture', () => {
  for (const [era, mode] of [['legacy', 'legacy'], ['modern', { pin: '2026-07-28' }]]) {
    test(`${era} era`, async () => {
      const client = new V2Client({ name: 'official-v2', version: '2.4.0' }, { capabilities, versionNegotiation: { mode } });
      client.setRequestHandler('elicitation/create', async () => answers.elicit);
      client.setRequestHandler('sampling/createMessage', async () => answers.sample);
      client.setRequestHandler('roots/list', async () => answers.roots);
      await client.connect(new V2Transport(serverParams(EVERYTHING)));
      try {
        assert.equal(client.getProtocolEra(), era);
        await exercise(client);
      } finally {
        await client.close();
      }
    });
  }
});

test('official v1 client against the ferrymcp fixture (legacy era)', async () => {
  const client = new V1Client({ name: 'official-v1', version: '1.32.2' }, { capabilities });
  client.setRequestHandler(ElicitRequestSchema, async () => answers.elicit);
  client.setRequestHandler(CreateMessageRequestSchema, async () => answers.sample);
  client.setRequestHandler(ListRootsRequestSchema, async () => answers.roots);
  await client.connect(new V1Transport(serverParams(EVERYTHING)));
  try {
    await exercise(client);
  } finally {
    await client.close();
  }
});

describe('ferrymcp client against official servers', () => {
  for (const era of ['legacy', 'auto']) {
    test(`v2 weather quick-start server (${era})`, async () => {
      const client = await connect(fixture('weather.mjs'), { era });
      try {
        assert.equal(client.getProtocolEra(), 'legacy');
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name).sort(), ['get-alerts', 'get-forecast']);
        assert.match(textOf(await client.callTool({ name: 'get-alerts', arguments: { state: 'ca' } })), /Heat Advisory/);
        const bad = await client.callTool({ name: 'get-forecast', arguments: { latitude: 100, longitude: 0 } });
        assert.equal(bad.isError, true);
      } finally {
        await client.close();
      }
    });
  }

  for (const era of ['legacy', 'modern']) {
    test(`v2 serveStdio server, ${era} era`, async () => {
      const client = await connect(fixture('official-serve.mjs'), { era });
      try {
        assert.equal(client.getProtocolEra(), era);
        assert.equal(textOf(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })), 'Hello, Ada!');
        await assert.rejects(client.callTool({ name: 'absent', arguments: {} }), (e) => typeof e.code === 'number');
      } finally {
        await client.close();
      }
    });
  }

  test('v1 server: tools, elicitation, resources, prompts', async () => {
    const client = await connect(fixture('v1-server.mjs'));
    try {
      assert.equal(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })), '5');
      assert.equal(textOf(await client.callTool({ name: 'confirm', arguments: {} })), 'confirmed: accept');
      assert.equal((await client.readResource({ uri: 'notes://1' })).contents[0].text, 'Buy milk');
      const prompt = await client.getPrompt({ name: 'summarize', arguments: { id: '1' } });
      assert.equal(prompt.messages[0].content.text, 'Summarize: Buy milk');
    } finally {
      await client.close();
    }
  });
});
