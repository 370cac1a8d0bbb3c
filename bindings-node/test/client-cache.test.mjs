// The client's response cache (2026-07-28 `ttlMs`/`cacheScope`) and its `outputSchema`
// check of tool results, as the official TypeScript client behaves: a ferrymcp Client over
// Streamable HTTP against a real listening ferrymcp McpServer with `cacheHints`. The
// counter resource answers the next number on every read, so a served entry is told from
// a fetch by its payload.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { InMemoryResponseCacheStore as OfficialStore } from '@modelcontextprotocol/client';
import { Client, InMemoryResponseCacheStore, McpServer, MAX_CACHE_TTL_MS, StreamableHTTPClientTransport } from 'ferrymcp';
import { StdioClientTransport } from 'ferrymcp/stdio';

import { fixture } from './helpers.mjs';

function build() {
  const server = new McpServer({ name: 'cache', version: '1.0.0' }, { cacheHints: { 'resources/read': { ttlMs: 60_000 } } });
  let reads = 0;
  server.registerResource('n', 'counter://n', {}, (uri) => ({ contents: [{ uri: uri.href, text: String(++reads) }] }));
  return { server };
}

async function connected(options = {}, listening = undefined) {
  const listener = listening ?? (await build().server.listen());
  const client = new Client({ name: 'cache-tests', version: '1.0.0' }, { era: 'auto', ...options });
  await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
  return {
    client,
    listener,
    read: async (opts) => (await client.readResource({ uri: 'counter://n' }, opts)).contents[0].text,
    close: async () => {
      await client.close();
      if (listening === undefined) await listener.close();
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

test('partition and default TTL are taken; a store that is not one is refused by name', async () => {
  assert.equal(MAX_CACHE_TTL_MS, 86_400_000);
  const { read, close } = await connected({ cachePartition: 'alice', defaultCacheTtlMs: 1000 });
  try {
    assert.deepEqual([await read(), await read()], ['1', '1']);
  } finally {
    await close();
  }
  const refused = (error) => error instanceof TypeError && error.code === 'ERR_INVALID_ARG_VALUE' && /responseCacheStore must be a ResponseCacheStore/.test(error.message);
  assert.throws(() => new Client({ name: 'c', version: '1' }, { responseCacheStore: {} }), refused);
  assert.throws(() => new Client({ name: 'c', version: '1' }, { responseCacheStore: { get() {}, set() {} } }), refused);
  assert.throws(() => new InMemoryResponseCacheStore({ maxEntries: -1 }), /maxEntries must be a whole number/);
  assert.throws(() => new InMemoryResponseCacheStore({ capacity: 3 }), /unknown option capacity/);
});

/** The same operations on a store; what each answered. */
function drive(store) {
  const key = (method, params = '', partition = '["p"]') => ({ method, params, partition });
  const entry = (n) => ({ value: JSON.stringify({ n }), expiresAt: 1_700_000_000_000 + n, scope: n % 2 ? 'public' : 'private' });
  const seen = [];
  const look = (...keys) => seen.push([store.size, ...keys.map((k) => store.get(k) ?? null)]);
  seen.push(store.set(key('resources/read', 'a'), entry(1)));
  seen.push(store.set(key('tools/list'), entry(2)));
  seen.push(store.set(key('resources/read', 'b'), entry(3)));
  look(key('resources/read', 'a'), key('tools/list'));
  // A third read: the oldest read goes (the listing is exempt), reading it did not save it.
  seen.push(store.set(key('resources/read', 'c'), entry(4)));
  look(key('resources/read', 'a'), key('resources/read', 'b'), key('tools/list'));
  // Writing a held key again keeps its place; the next new read evicts it first.
  seen.push(store.set(key('resources/read', 'b'), entry(5)));
  seen.push(store.set(key('prompts/list'), entry(6)));
  seen.push(store.set(key('resources/read', 'd'), entry(7)));
  look(key('resources/read', 'b'), key('resources/read', 'c'), key('resources/read', 'd'), key('prompts/list'));
  store.delete(key('resources/read', 'c'));
  seen.push(store.set(key('resources/read', 'e', '["q"]'), entry(8)));
  look(key('resources/read', 'd'), key('resources/read', 'e', '["q"]'));
  store.evict('resources/read');
  look(key('resources/read', 'd'), key('tools/list'), key('prompts/list'));
  store.clear();
  look(key('tools/list'));
  return seen;
}

test('InMemoryResponseCacheStore keeps and evicts as the official one does', () => {
  assert.deepEqual(drive(new InMemoryResponseCacheStore({ maxEntries: 2 })), drive(new OfficialStore({ maxEntries: 2 })));
  // The default cap: 512 reads, the listings beside them.
  const fill = (store) => {
    store.set({ method: 'tools/list' }, { value: '{}', scope: 'private' });
    for (let i = 0; i <= 512; i++) store.set({ method: 'resources/read', params: `r${i}` }, { value: '{}', scope: 'private' });
    return [store.size, store.get({ method: 'resources/read', params: 'r0' }) === undefined, store.get({ method: 'tools/list' })?.value];
  };
  assert.deepEqual(fill(new InMemoryResponseCacheStore()), fill(new OfficialStore()));
  assert.deepEqual(fill(new InMemoryResponseCacheStore()), [513, true, '{}']);
});

test('a shared InMemoryResponseCacheStore serves a second client; clear() and evict() empty it', async () => {
  const { server } = build();
  const listener = await server.listen();
  const store = new InMemoryResponseCacheStore();
  const first = await connected({ responseCacheStore: store }, listener);
  const second = await connected({ responseCacheStore: store }, listener);
  const alone = await connected({}, listener);
  try {
    assert.equal(await first.read(), '1');
    assert.equal(store.size, 1);
    assert.equal(await second.read(), '1', 'the entry the first client stored');
    assert.equal(await alone.read(), '2', 'a client with its own store');
    store.evict('resources/read');
    assert.equal(store.size, 0);
    assert.equal(await second.read(), '3');
    assert.equal(await first.read(), '3');
    store.clear();
    assert.equal(await first.read(), '4');
  } finally {
    await Promise.all([first.close(), second.close(), alone.close()]);
    await listener.close();
  }
});

test('a store object of the application\'s own is called (awaited); one that fails is a miss', async () => {
  const entries = new Map();
  const calls = [];
  const mapStore = {
    async get(key) {
      calls.push(['get', key.method, key.params]);
      return entries.get(JSON.stringify(key));
    },
    async set(key, entry) {
      calls.push(['set', key.method, key.params]);
      entries.set(JSON.stringify(key), { ...entry, stamp: entries.size + 1 });
      return entries.size;
    },
    async delete(key) {
      entries.delete(JSON.stringify(key));
    },
    evict() {},
    clear() {
      entries.clear();
    },
  };
  const before = Date.now();
  const own = await connected({ responseCacheStore: mapStore });
  try {
    assert.deepEqual([await own.read(), await own.read()], ['1', '1']);
    const [stored] = [...entries.values()];
    assert.deepEqual(JSON.parse(stored.value).contents, [{ uri: 'counter://n', text: '1' }]);
    assert.equal(stored.scope, 'private');
    assert.ok(stored.expiresAt >= before + 60_000 && stored.expiresAt <= Date.now() + 60_000, `expiresAt ${stored.expiresAt} is epoch ms`);
    assert.ok(calls.some(([op, method, params]) => op === 'set' && method === 'resources/read' && params === 'counter://n'), JSON.stringify(calls));
  } finally {
    await own.close();
  }
  const broken = { get: () => Promise.reject(new Error('down')), set: () => { throw new Error('down'); }, delete: async () => {}, evict() {}, clear() {} };
  const failing = await connected({ responseCacheStore: broken });
  try {
    assert.deepEqual([await failing.read(), await failing.read()], ['1', '2']);
  } finally {
    await failing.close();
  }
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
