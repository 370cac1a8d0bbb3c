// What a server declares follows what it registers, as on the official TypeScript SDK: the
// same server file (fixtures/capabilities.mjs) runs on the official SDK and, with its imports
// changed, on ferrymcp, and both declare the same lists, completions and author-given
// members, `logging` and `resources.subscribe` only as the author declares them (the Node
// binding's dialect, core/src/server/dialect.rs). The 2026-07-28 `server/discover` declares
// what `initialize` does.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { connect, fixture } from './helpers.mjs';

function ported() {
  const original = readFileSync(fixture('capabilities.mjs'), 'utf8');
  const path = fixture('ported-capabilities.mjs');
  writeFileSync(
    path,
    original
      .replaceAll("'@modelcontextprotocol/server/stdio'", "'ferrymcp/stdio'")
      .replaceAll("'@modelcontextprotocol/server'", "'ferrymcp'"),
  );
  return path;
}

async function declared(file, shape, era) {
  const client = await connect(file, { era, args: [shape], inputs: false });
  try {
    assert.equal(client.getProtocolEra(), era);
    return client.getServerCapabilities();
  } finally {
    await client.close();
  }
}

const EXPECTED = {
  empty: {},
  tools: { tools: { listChanged: true } },
  resources: { resources: { listChanged: true } },
  prompts: { prompts: { listChanged: true } },
  explicit: {
    tools: { listChanged: false },
    logging: {},
    experimental: { 'com.example/beta': { level: 2 } },
    extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } },
  },
};

describe('capabilities follow what the server registers', () => {
  const ferrymcp = ported();
  for (const [shape, expected] of Object.entries(EXPECTED)) {
    test(`${shape}: as the official SDK declares them, in both eras`, async () => {
      const official = await declared(fixture('capabilities.mjs'), shape, 'legacy');
      assert.deepEqual(official, expected);
      assert.deepEqual(await declared(ferrymcp, shape, 'legacy'), expected);
      assert.deepEqual(await declared(ferrymcp, shape, 'modern'), expected);
    });
  }

  test('registerCapabilities refuses an entry that is not an object, naming it', async () => {
    const { McpServer } = await import('ferrymcp');
    const server = new McpServer({ name: 'checked', version: '1.0.0' });
    assert.doesNotThrow(() => server.server.registerCapabilities({ experimental: { 'com.example/a': {} } }));
    assert.throws(
      () => server.server.registerCapabilities({ experimental: { 'com.example/b': true } }),
      /capabilities\.experimental\["com\.example\/b"\] must be an object/,
    );
  });
});
