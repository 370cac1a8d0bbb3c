// The client's response cache (2026-07-28 `ttlMs`/`cacheScope`) and its `outputSchema`
// check of tool results, as the official TypeScript client behaves: a ferrymcp Client over
// Streamable HTTP against a real listening ferrymcp McpServer with `cacheHints`. The
// counter resource answers the next number on every read, so a served entry is told from
// a fetch by its payload.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client, McpServer, MAX_CACHE_TTL_MS, StreamableHTTPClientTransport } from 'ferrymcp';
import { StdioClientTransport } from 'ferrymcp/stdio';

import { fixture } from './helpers.mjs';

function build() {
  const server = new McpServer({ name: 'cache', version: '1.0.0' }, { cacheHints: { 'resources/read': { ttlMs: 60_000 } } });
  let reads = 0;
  server.registerResource('n', 'counter://n', {}, (uri) => ({ contents: [{ uri: uri.href, text: String(++reads) }] }));
  return { server };
}

async function connected(options = {}) {
  const { server } = build();
  const listener = await server.listen();
  const client = new Client({ name: 'cache-tests', version: '1.0.0' }, { era: 'auto', ...options });
  await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
  return {
    client,
    read: async (opts) => (await client.readResource({ uri: 'counter://n' }, opts)).contents[0].text,
    close: async () => {
      await client.close();
      await listener.close();
    },
  };
}

test('a fresh read is served; refresh refetches and stores; bypass leaves the cache alone', async () => {
  const { client, read, close } = await connected();
  try {
    assert.equal(client.getProtocolEra(), 'modern');
    assert.deepEqual([await read(), await read()], ['1', '1']);
    assert.equal(await read({ cacheMode: 'bypass' }), '2');
    assert.equal(await read(), '1');
    assert.equal(await read({ cacheMode: 'refresh' }), '3');
    assert.equal(await read(), '3');
    // The generic request() is never cached.
    const plain = await client.request({ method: 'resources/read', params: { uri: 'counter://n' } });
    assert.equal(plain.contents[0].text, '4');
    assert.equal(await read(), '3');
    await assert.rejects(read({ cacheMode: 'sometimes' }), (error) => error.code === -32602 && /cache mode/.test(error.message));
  } finally {
    await close();
  }
});

test('partition and default TTL are taken; a custom store is refused by name', async () => {
  assert.equal(MAX_CACHE_TTL_MS, 86_400_000);
  const { read, close } = await connected({ cachePartition: 'alice', defaultCacheTtlMs: 1000 });
  try {
    assert.deepEqual([await read(), await read()], ['1', '1']);
  } finally {
    await close();
  }
  assert.throws(() => new Client({ name: 'c', version: '1' }, { responseCacheStore: {} }), /responseCacheStore is not supported/);
});

test('a legacy connection ignores the hints', async () => {
  const { client, read, close } = await connected({ era: 'legacy' });
  try {
    assert.equal(client.getProtocolEra(), 'legacy');
    assert.deepEqual([await read(), await read()], ['1', '2']);
  } finally {
    await close();
  }
});

test('structured content must keep the tool outputSchema (the official SDK server as the peer)', async () => {
  const client = new Client({ name: 'schema-tests', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [fixture('output-schema.mjs')] }));
  try {
    // No listTools() first: the client lists the tools to learn the schema.
    assert.deepEqual((await client.callTool({ name: 'good', arguments: {} })).structuredContent, { n: 1 });
    await assert.rejects(
      client.callTool({ name: 'bad', arguments: {} }),
      (error) => error.code === -32602 && /Invalid structured content returned by tool bad: /.test(error.message),
    );
    await assert.rejects(
      client.callTool({ name: 'missing', arguments: {} }),
      (error) => error.code === -32600 && error.message.includes('Tool missing has an output schema but did not return structured content'),
    );
    assert.equal((await client.callTool({ name: 'failing', arguments: {} })).isError, true);
  } finally {
    await client.close();
  }
});
