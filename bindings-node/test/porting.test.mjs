// Porting is an import change: the official v2 quick-start weather server and a v1-style
// server run on ferrymcp with their import specifiers rewritten and not one other line
// touched, and then serve both eras.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { connect, fixture, textOf } from './helpers.mjs';

const IMPORTS = [
  ["'@modelcontextprotocol/server/stdio'", "'ferrymcp/stdio'"],
  ["'@modelcontextprotocol/server'", "'ferrymcp'"],
  ["'@modelcontextprotocol/sdk/server/mcp.js'", "'ferrymcp/server/mcp.js'"],
  ["'@modelcontextprotocol/sdk/server/stdio.js'", "'ferrymcp/server/stdio.js'"],
];

/** Writes `ported-<name>` with only the import specifiers changed, and checks that it is so. */
function port(name) {
  const original = readFileSync(fixture(name), 'utf8');
  let ported = original;
  for (const [from, to] of IMPORTS) ported = ported.replaceAll(from, to);
  const before = original.split('\n');
  const changed = ported.split('\n').filter((line, i) => line !== before[i]);
  assert.ok(changed.length > 0 && changed.every((line) => line.startsWith('import ')), `only imports change: ${changed}`);
  const path = fixture(`ported-${name}`);
  writeFileSync(path, ported);
  return path;
}

describe('the v2 quick-start weather server, ported', () => {
  const server = port('weather.mjs');
  for (const era of ['legacy', 'modern']) {
    test(`serves the ${era} era`, async () => {
      const client = await connect(server, { era });
      try {
        assert.equal(client.getProtocolEra(), era);
        const { tools } = await client.listTools();
        const alerts = tools.find((t) => t.name === 'get-alerts');
        assert.equal(alerts.title, 'Get Weather Alerts');
        assert.equal(alerts.inputSchema.properties.state.description, 'Two-letter state code (e.g. CA, NY)');
        assert.match(textOf(await client.callTool({ name: 'get-alerts', arguments: { state: 'ca' } })), /Active alerts for CA/);
        assert.match(textOf(await client.callTool({ name: 'get-forecast', arguments: { latitude: 34, longitude: -118 } })), /Forecast for 34, -118/);
        // zod's own checks run before the handler, as with the official SDK.
        const bad = await client.callTool({ name: 'get-alerts', arguments: { state: 'CAL' } });
        assert.equal(bad.isError, true);
      } finally {
        await client.close();
      }
    });
  }
});

describe('a v1-style server, ported', () => {
  const server = port('v1-server.mjs');

  test('ferrymcp client, both eras: shortcuts, raw shapes, defaults, server.server.elicitInput', async () => {
    for (const era of ['legacy', 'modern']) {
      const client = await connect(server, { era });
      try {
        assert.equal(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } })), '42');
        assert.equal(textOf(await client.callTool({ name: 'note', arguments: { id: '2' } })), 'stored 2 (request number)');
        assert.equal(textOf(await client.callTool({ name: 'confirm', arguments: {} })), 'confirmed: accept');
        const failed = await client.callTool({ name: 'fail', arguments: {} });
        assert.deepEqual([failed.isError, textOf(failed)], [true, 'nope']);
        assert.equal((await client.readResource({ uri: 'notes://readme' })).contents[0].text, 'Notes server');
        assert.equal((await client.readResource({ uri: 'notes://2' })).contents[0].text, '(empty)');
        const prompt = await client.getPrompt({ name: 'summarize', arguments: { id: '1' } });
        assert.equal(prompt.messages[0].content.text, 'Summarize: Buy milk');
      } finally {
        await client.close();
      }
    }
  });

  test('the official v1 client', async () => {
    const client = new V1Client({ name: 'official-v1', version: '1.32.2' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    await client.connect(new V1Transport({ command: process.execPath, args: [server] }));
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ['add', 'note', 'confirm', 'fail']);
      assert.equal(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })), '2');
      assert.equal(textOf(await client.callTool({ name: 'confirm', arguments: {} })), 'confirmed: decline');
    } finally {
      await client.close();
    }
  });
});
