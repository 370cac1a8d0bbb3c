// v1's zod schemas in `ferrymcp/types.js`, generated from the specification
// (scripts/gen-schemas.mjs): the official v1 `types.js` names are there, they judge the
// specification's own example messages (tests/mcp-schema/examples) as the official ones
// do, whole and with a required field taken out, and the APIs that take a schema use it:
// `setNotificationHandler(LoggingMessageNotificationSchema, ...)` and
// `request(request, CallToolResultSchema)`, which validates the result as v1 does.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import * as official from '@modelcontextprotocol/sdk/types.js';
import { Client, InMemoryTransport, McpServer } from 'ferrymcp';
import * as types from 'ferrymcp/types.js';
import { z } from 'zod';

const root = process.env.FERRYMCP_ROOT ?? new URL('../../..', import.meta.url).pathname;
const examples = join(root, 'tests', 'mcp-schema', 'examples', '2025-11-25');
const definitions = JSON.parse(readFileSync(join(root, 'tests', 'mcp-schema', '2025-11-25.schema.json'), 'utf8')).$defs;

/** Official v1 schemas that are SDK options rather than protocol shapes (ferrymcp has no such options). */
const NOT_PROTOCOL = ['ClientTasksCapabilitySchema', 'ServerTasksCapabilitySchema', 'ListChangedOptionsBaseSchema', 'TaskCreationParamsSchema'];

describe("v1's zod schemas", () => {
  test('every schema of the official types.js is exported', () => {
    const names = Object.keys(official).filter((name) => name.endsWith('Schema') && !NOT_PROTOCOL.includes(name));
    assert.ok(names.length > 100);
    assert.deepEqual(names.filter((name) => !(name in types)), []);
    for (const name of names) assert.ok(types[name] instanceof z.ZodType, name);
  });

  test("the specification's example messages are judged as the official schemas judge them", () => {
    let checked = 0;
    for (const kind of readdirSync(examples)) {
      const ours = types[`${kind}Schema`];
      const theirs = official[`${kind}Schema`];
      if (theirs === undefined) continue;
      const required = (definitions[kind]?.required ?? []).filter((key) => key !== 'jsonrpc' && key !== 'id');
      for (const file of readdirSync(join(examples, kind))) {
        const message = JSON.parse(readFileSync(join(examples, kind, file), 'utf8'));
        const label = `${kind}/${file}`;
        const parsed = ours.safeParse(message);
        assert.ok(parsed.success, `${label}: ${parsed.error}`);
        assert.equal(theirs.safeParse(message).success, true, `${label} (official)`);
        assert.deepEqual(parsed.data, message, `${label}: unknown keys are kept, nothing is added`);
        for (const key of required) {
          const broken = { ...message };
          delete broken[key];
          assert.equal(ours.safeParse(broken).success, theirs.safeParse(broken).success, `${label} without ${key}`);
        }
        checked += 1;
      }
    }
    assert.ok(checked >= 40, `only ${checked} examples checked`);
  });

  test('the APIs that take a schema use it', async () => {
    const server = new McpServer({ name: 's', version: '1.0.0' }, { capabilities: { logging: {} } });
    server.registerTool('say', { inputSchema: { text: z.string() } }, async ({ text }, ctx) => {
      await ctx.mcpReq.log('info', text);
      return { content: [{ type: 'text', text }] };
    });
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await server.connect(serverEnd);
    const client = new Client({ name: 'c', version: '1.0.0' }, { era: 'legacy' });
    const logs = [];
    client.setNotificationHandler(types.LoggingMessageNotificationSchema, (notification) => logs.push(notification.params.data));
    await client.connect(clientEnd);
    const result = await client.request({ method: 'tools/call', params: { name: 'say', arguments: { text: 'hi' } } }, types.CallToolResultSchema);
    assert.deepEqual(result.content, [{ type: 'text', text: 'hi' }]);
    assert.deepEqual(logs, ['hi']);
    const call = { method: 'tools/call', params: { name: 'say', arguments: { text: 'x' } } };
    await assert.rejects(client.request(call, types.ListToolsResultSchema), (error) => error instanceof z.ZodError, 'a result the schema refuses rejects');
    const listed = await client.request({ method: 'tools/list', params: {} }, types.ListToolsResultSchema, { timeout: 5000 });
    assert.deepEqual(listed.tools.map((t) => t.name), ['say']);
    await client.close();
    await server.close();
  });
});
