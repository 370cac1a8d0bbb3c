// Schema libraries as the official SDKs take them, on ferrymcp: zod 4 and zod 3 (the v1
// SDK's converter, `zod-to-json-schema`), ArkType and Valibot through Standard Schema
// (`~standard.validate` + `~standard.jsonSchema`, the v2 SDK), `fromJsonSchema` and plain
// JSON Schema. The same registrations run on the official server (v2
// `@modelcontextprotocol/server`, v1 `@modelcontextprotocol/sdk`) and on ferrymcp, each
// connected to the official client over the official InMemoryTransport; the listed
// definitions, the answers to good calls and the errors of bad ones are compared.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as V1InMemory } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as OfficialV1Server } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client as V2Client, InMemoryTransport as V2InMemory } from '@modelcontextprotocol/client';
import { McpServer as OfficialV2Server, fromJsonSchema as officialFromJsonSchema } from '@modelcontextprotocol/server';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import { McpServer, fromJsonSchema } from 'ferrymcp';
import { McpServer as V1McpServer } from 'ferrymcp/server/mcp.js';
import * as v from 'valibot';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';

const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });

/** Tools every SDK line takes: zod 4 (schema and raw shape, with defaults and transforms). */
function zod4Tools(server) {
  server.registerTool('shape', { inputSchema: { city: z.string(), days: z.number().int().default(3) } }, async (args) => text(args));
  server.registerTool(
    'object',
    { inputSchema: z.object({ name: z.string().transform((s) => s.toUpperCase()), tags: z.array(z.string()).optional() }) },
    async (args) => text(args),
  );
  // An async refinement: zod's synchronous parse cannot decide it, so the async one must.
  server.registerTool(
    'checked',
    { inputSchema: z.object({ code: z.string().refine(async (code) => code.startsWith('ok'), 'code must start with ok') }) },
    async (args) => text(args),
  );
}

/** What only the v2 line takes: Standard Schema libraries and `fromJsonSchema`. */
function standardTools(server, fromJson) {
  server.registerTool(
    'greet',
    { description: 'Greet', inputSchema: type({ name: 'string', 'times?': '1 <= number.integer <= 5' }) },
    async ({ name, times }) => text(Array.from({ length: times ?? 1 }, () => `Hello, ${name}`)),
  );
  server.registerTool('shout', { inputSchema: toStandardJsonSchema(v.object({ name: v.string() })) }, async ({ name }) => text(name.toUpperCase()));
  server.registerTool(
    'farewell',
    { inputSchema: fromJson({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }) },
    async ({ name }) => text(`Goodbye, ${name}`),
  );
  server.registerTool(
    'measure',
    { inputSchema: type({ name: 'string' }), outputSchema: type({ name: 'string', length: 'number' }) },
    async ({ name }) => ({ content: [{ type: 'text', text: 'measured' }], structuredContent: { name, length: name.length } }),
  );
}

/** What the v1 line takes: zod 3 (`zod/v3`, zod 3.25's root export), schema and raw shape. */
function zod3Tools(server) {
  server.registerTool('v3shape', { inputSchema: { city: z3.string(), days: z3.number().int().default(3) } }, async (args) => text(args));
  server.registerTool('v3object', { inputSchema: z3.object({ when: z3.enum(['now', 'later']), note: z3.string().optional() }) }, async (args) =>
    text(args),
  );
  server.registerTool(
    'v3checked',
    { inputSchema: z3.object({ code: z3.string().refine(async (code) => code.startsWith('ok'), 'code must start with ok') }) },
    async (args) => text(args),
  );
}

const CALLS = [
  ['shape', { city: 'Oslo' }],
  ['shape', { city: 7 }],
  ['object', { name: 'ada', tags: ['x'] }],
  ['object', { tags: 'x' }],
  ['checked', { code: 'ok-1' }],
  ['checked', { code: 'no' }],
  ['greet', { name: 'Ada', times: 2 }],
  ['greet', { name: 'Ada', times: 99 }],
  ['shout', { name: 'Ada' }],
  ['shout', {}],
  ['farewell', { name: 'Ada' }],
  ['measure', { name: 'Ada' }],
  ['v3shape', { city: 'Oslo' }],
  ['v3shape', { days: 'x' }],
  ['v3object', { when: 'now' }],
  ['v3object', { when: 'never' }],
  ['v3checked', { code: 'ok-2' }],
  ['v3checked', { code: 'no' }],
];

/** Lists and calls over the official client; objects come back as JSON (the official server
 * in the same process hands over `undefined` fields, the wire has none). */
async function session(server, Client, InMemory) {
  const client = new Client({ name: 'schema-test', version: '1.0.0' });
  const [clientEnd, serverEnd] = InMemory.createLinkedPair();
  await server.connect(serverEnd);
  await client.connect(clientEnd);
  try {
    const { tools } = await client.listTools();
    const names = new Set(tools.map((tool) => tool.name));
    const answers = [];
    for (const [name, args] of CALLS.filter(([name]) => names.has(name))) {
      try {
        answers.push([name, await client.callTool({ name, arguments: args })]);
      } catch (error) {
        answers.push([name, { error: error.code, message: error.message }]);
      }
    }
    return JSON.parse(JSON.stringify({ tools, answers }));
  } finally {
    await client.close();
    await server.close();
  }
}


test('v2: zod 4, ArkType, Valibot and fromJsonSchema list and validate as on the official server', async () => {
  const official = new OfficialV2Server({ name: 'zoo', version: '1.0.0' });
  const ours = new McpServer({ name: 'zoo', version: '1.0.0' });
  zod4Tools(official);
  zod4Tools(ours);
  standardTools(official, officialFromJsonSchema);
  standardTools(ours, fromJsonSchema);
  const theirs = await session(official, V2Client, V2InMemory);
  const mine = await session(ours, V2Client, V2InMemory);
  assert.deepEqual(mine.tools, theirs.tools);
  assert.equal(JSON.stringify(mine.tools), JSON.stringify(theirs.tools), 'the same key order');
  assert.deepEqual(mine.answers, theirs.answers);
  // The draft 2020-12 dialect, an object root, the arktype constraint and the transform.
  const greet = mine.tools.find((tool) => tool.name === 'greet');
  assert.equal(greet.inputSchema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.equal(Object.keys(greet.inputSchema)[0], 'type');
  const rejected = mine.answers.find(([name, answer]) => name === 'greet' && answer.isError)[1];
  assert.match(rejected.content[0].text, /^Input validation error: Invalid arguments for tool greet: times: /);
  assert.deepEqual(JSON.parse(mine.answers.find(([name]) => name === 'object')[1].content[0].text), { name: 'ADA', tags: ['x'] });
});

test('v1: zod 3 and zod 4 list (draft-07) and validate as on the official v1 server', async () => {
  const official = new OfficialV1Server({ name: 'zoo', version: '1.0.0' });
  const ours = new V1McpServer({ name: 'zoo', version: '1.0.0' });
  for (const server of [official, ours]) {
    zod4Tools(server);
    zod3Tools(server);
  }
  const theirs = await session(official, V1Client, V1InMemory);
  const mine = await session(ours, V1Client, V1InMemory);
  assert.deepEqual(mine.tools, theirs.tools);
  assert.equal(mine.tools.find((tool) => tool.name === 'v3object').inputSchema.$schema, 'http://json-schema.org/draft-07/schema#');
  // Good calls answer alike; bad ones are refused on both (the v1 SDK's message is zod's
  // own JSON of the issues, ferrymcp's is the v2 wording).
  for (const [[name, their], [, my]] of theirs.answers.map((answer, i) => [answer, mine.answers[i]])) {
    assert.equal(my.isError, their.isError, name);
    if (!their.isError) assert.deepEqual(my, their, name);
  }
  assert.deepEqual(JSON.parse(mine.answers.find(([name]) => name === 'v3shape')[1].content[0].text), { city: 'Oslo', days: 3 });
});

test('zod 3 on the v2 path works too; a library without JSON Schema output is refused by name', async () => {
  const ours = new McpServer({ name: 'zoo', version: '1.0.0' });
  zod3Tools(ours);
  const mine = await session(ours, V2Client, V2InMemory);
  assert.equal(mine.tools[0].inputSchema.type, 'object');
  assert.equal(mine.answers.filter(([, answer]) => answer.isError).length, 3);
  assert.throws(
    () => ours.registerTool('plain', { inputSchema: v.object({ name: v.string() }) }, async () => text('x')),
    /Schema library "valibot" does not implement StandardJSONSchemaV1/,
  );
  assert.throws(() => ours.registerTool('scalar', { inputSchema: z.string() }, async () => text('x')), /must describe objects/);
  assert.throws(
    () => ours.registerTool('mixed', { inputSchema: { a: z.string(), b: z3.string() } }, async () => text('x')),
    /mixes zod 3 and zod 4/,
  );
});

test('prompts take Standard Schema arguments', async () => {
  const ours = new McpServer({ name: 'zoo', version: '1.0.0' });
  ours.registerPrompt('brief', { argsSchema: type({ topic: 'string', 'tone?': 'string' }) }, async ({ topic }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Brief on ${topic}` } }],
  }));
  const client = new V2Client({ name: 'schema-test', version: '1.0.0' });
  const [clientEnd, serverEnd] = V2InMemory.createLinkedPair();
  await ours.connect(serverEnd);
  await client.connect(clientEnd);
  try {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts[0].arguments, [
      { name: 'topic', required: true },
      { name: 'tone', required: false },
    ]);
    const got = await client.getPrompt({ name: 'brief', arguments: { topic: 'tides' } });
    assert.equal(got.messages[0].content.text, 'Brief on tides');
    // A required argument left out is refused (core checks the listed arguments first).
    await assert.rejects(client.getPrompt({ name: 'brief', arguments: {} }), (error) => error.code === -32602 && /topic/.test(error.message));
  } finally {
    await client.close();
    await ours.close();
  }
});
