// JSON object key order, end to end: the same server source (fixtures/ordered.mjs) on
// ferrymcp and on the official SDK, each read by the official v2 client and by ferrymcp's,
// in both eras (the official server in the legacy one). A tool's input and output schemas,
// its structuredContent (nested too), a form's fields, and the form answer on its way back
// must all keep the order the author wrote (`zeta, alpha, mid`), as the official SDKs keep
// it; an engine that re-sorts keys (a BTreeMap-backed JSON object) fails every one of these.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Transport } from '@modelcontextprotocol/client/stdio';
import { Client } from 'ferrymcp';
import { StdioClientTransport } from 'ferrymcp/stdio';

import { fixture, textOf } from './helpers.mjs';

const ORDERED = fixture('ordered.mjs');
const KEYS = ['zeta', 'alpha', 'mid'];
const ANSWER = { action: 'accept', content: { zeta: 'z', alpha: 'a', mid: 'm' } };
const ERAS = [
  ['legacy', 'legacy', 'legacy'],
  ['modern', { pin: '2026-07-28' }, 'modern'],
];

/** The official v2 client or ferrymcp's, answering forms and noting the schemas asked for. */
async function connect(kind, era, server, forms) {
  const [, officialMode, ferrymcpEra] = ERAS.find(([name]) => name === era);
  const client =
    kind === 'official'
      ? new V2Client({ name: 'key-order', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: officialMode } })
      : new Client({ name: 'key-order', version: '1.0.0' }, { era: ferrymcpEra });
  client.setRequestHandler('elicitation/create', async (request) => {
    forms.push(request.params.requestedSchema);
    return ANSWER;
  });
  const Transport = kind === 'official' ? V2Transport : StdioClientTransport;
  await client.connect(new Transport({ command: process.execPath, args: [ORDERED, server] }));
  return client;
}

// The official server speaks only the legacy era over stdio (it offers no server/discover).
const SERVERS = [
  ['ferrymcp', ['legacy', 'modern']],
  ['official', ['legacy']],
];

for (const [server, eras] of SERVERS) {
  describe(`keys keep their order from a server on ${server}`, () => {
    for (const kind of ['official', 'ferrymcp']) {
      for (const era of eras) {
        test(`read by the ${kind} client (${era})`, async () => {
          const forms = [];
          const client = await connect(kind, era, server, forms);
          try {
            const { tools } = await client.listTools();
            const tool = tools.find((t) => t.name === 'ordered');
            assert.deepEqual(Object.keys(tool.inputSchema.properties), KEYS);
            assert.deepEqual(tool.inputSchema.required, KEYS);
            assert.deepEqual(Object.keys(tool.outputSchema.properties), [...KEYS, 'nested']);
            assert.deepEqual(Object.keys(tool.outputSchema.properties.nested.properties), ['y', 'b']);

            const result = await client.callTool({ name: 'ordered', arguments: { zeta: 'z', alpha: 1, mid: true } });
            assert.deepEqual(Object.keys(result.structuredContent), [...KEYS, 'nested']);
            assert.deepEqual(Object.keys(result.structuredContent.nested), ['y', 'b']);
            assert.equal(textOf(result), '{"zeta":"z","alpha":1,"mid":true,"nested":{"y":1,"b":2}}');

            // The form's fields reach the client in order, and the answer's reach the tool so.
            assert.equal(textOf(await client.callTool({ name: 'ordered_form', arguments: {} })), KEYS.join(','));
            assert.deepEqual(forms.map((schema) => Object.keys(schema.properties)), [KEYS]);
          } finally {
            await client.close();
          }
        });
      }
    }
  });
}

/** The key order of every `properties` object in a schema, by where it is. */
function fieldOrders(schema, at = '', found = {}) {
  if (schema === null || typeof schema !== 'object') return found;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && value !== null && typeof value === 'object') found[`${at}/properties`] = Object.keys(value);
    fieldOrders(value, `${at}/${key}`, found);
  }
  return found;
}

test('ferrymcp lists the official schemas, every object with its fields in the same order', async () => {
  const listed = {};
  for (const server of ['ferrymcp', 'official']) {
    const client = await connect('official', 'legacy', server, []);
    try {
      const { tools } = await client.listTools();
      // ferrymcp leaves out the `$schema` zod writes at the root (src/schema.ts).
      const root = (schema) => schema && Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema'));
      listed[server] = tools.map((t) => [t.name, root(t.inputSchema), root(t.outputSchema)]);
    } finally {
      await client.close();
    }
  }
  assert.deepEqual(listed.ferrymcp, listed.official);
  const orders = (tools) => tools.map(([name, input, output]) => [name, fieldOrders(input), fieldOrders(output)]);
  assert.deepEqual(orders(listed.ferrymcp), orders(listed.official));
  assert.deepEqual(orders(listed.ferrymcp)[0][2]['/properties/nested/properties'], ['y', 'b']);
});
