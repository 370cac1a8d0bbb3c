// The Node conformance fixture (tests/fixtures/node/everything.mjs) driven by ferrymcp's
// own Client, in both eras: what the Rust fixture offers, the Node one offers too.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { answers, connect, fixture, textOf } from './helpers.mjs';

const EVERYTHING = fixture('everything.mjs');

for (const era of ['legacy', 'modern']) {
  describe(`everything fixture, ${era} era`, () => {
    let client;
    before(async () => {
      client = await connect(EVERYTHING, { era, args: ['--transport', 'stdio'] });
    });
    after(() => client.close());

    test('negotiates the era and names the server', () => {
      assert.equal(client.getProtocolEra(), era);
      assert.deepEqual(client.getServerVersion(), { name: 'mcp-conformance-test-server', version: '1.0.0' });
      assert.ok(client.getServerCapabilities().completions);
    });

    test('lists the 35 fixture tools, 4 resources, 1 template and 5 prompts', async () => {
      assert.equal((await client.listTools()).tools.length, 35);
      assert.equal((await client.listResources()).resources.length, 4);
      const templates = (await client.listResourceTemplates()).resourceTemplates;
      assert.deepEqual(templates.map((t) => t.uriTemplate), ['test://template/{id}/data']);
      assert.equal((await client.listPrompts()).prompts.length, 5);
    });

    test('content tools', async () => {
      assert.equal(textOf(await client.callTool({ name: 'test_simple_text', arguments: {} })), 'This is a simple text response for testing.');
      const image = await client.callTool({ name: 'test_image_content', arguments: {} });
      assert.equal(image.content[0].type, 'image');
      const mixed = await client.callTool({ name: 'test_multiple_content_types', arguments: {} });
      assert.deepEqual(mixed.content.map((c) => c.type), ['text', 'image', 'resource']);
    });

    test('a thrown error is an isError result', async () => {
      const result = await client.callTool({ name: 'test_error_handling', arguments: {} });
      assert.equal(result.isError, true);
      assert.equal(textOf(result), 'This tool intentionally returns an error for testing');
    });

    test('sampling and elicitation reach the client', async () => {
      assert.equal(textOf(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Capital?' } })), 'LLM response: Paris');
      const elicited = textOf(await client.callTool({ name: 'test_elicitation', arguments: { message: 'Name?' } }));
      const [, action, content] = elicited.match(/^User response: action=(\w+), content=(.*)$/);
      assert.deepEqual([action, JSON.parse(content)], ['accept', answers.elicit.content]);
    });

    test('multi-round and multiple inputs', async () => {
      const multiple = await client.callTool({ name: 'test_input_required_result_multiple_inputs', arguments: {} });
      assert.equal(textOf(multiple), 'Name: Ada; Greeting: Paris; Roots: 1');
      const rounds = await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
      assert.equal(textOf(rounds), 'Multi-round complete for Ada who likes blue');
      const state = await client.callTool({ name: 'test_input_required_result_request_state', arguments: {} });
      assert.equal(textOf(state), 'state-ok: requestState validated');
    });

    test('progress arrives under the request token', async () => {
      const seen = [];
      const result = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (p) => seen.push(p.progress) });
      assert.deepEqual(seen, [0, 50, 100]);
      assert.match(textOf(result), /^\d+$/);
    });

    test('JSON Schema 2020-12 arguments are validated in core', async () => {
      const ok = await client.callTool({ name: 'json_schema_2020_12_tool', arguments: { name: 'n', contactMethod: 'email', email: 'a@b' } });
      assert.match(textOf(ok), /JSON Schema 2020-12 tool called with/);
      const invalid = await client.callTool({ name: 'json_schema_2020_12_tool', arguments: { name: 'n' } });
      assert.equal(invalid.isError, true);
    });

    test('resources, the template and prompts', async () => {
      const text = await client.readResource({ uri: 'test://static-text' });
      assert.equal(text.contents[0].text, 'This is the content of the static text resource.');
      const data = await client.readResource({ uri: 'test://template/42/data' });
      assert.deepEqual(JSON.parse(data.contents[0].text), { id: '42', templateTest: true, data: 'Data for ID: 42' });
      const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
      assert.equal(prompt.messages[0].content.text, "Prompt with arguments: arg1='a', arg2='b'");
      const asked = await client.getPrompt({ name: 'test_input_required_result_prompt', arguments: {} });
      assert.equal(asked.messages[0].content.text, 'Prompt with context: tests');
      const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: '' } });
      assert.deepEqual(completion.completion.values, []);
    });

    test('an unknown tool is -32602', async () => {
      await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), { name: 'McpError', code: -32602 });
    });
  });
}

test('without the sampling capability, a modern request gets -32021', async () => {
  const client = await connect(EVERYTHING, { era: 'modern', inputs: false });
  try {
    await assert.rejects(client.callTool({ name: 'test_missing_capability', arguments: {} }), { code: -32021 });
  } finally {
    await client.close();
  }
});
