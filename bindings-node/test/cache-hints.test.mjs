// 2026-07-28 cache hints from a Node server, on the wire: `cacheHints` gives each method
// its own hint, and `registerResource(..., { cacheHint })` puts a resource's own hint over
// the `resources/read` one field by field, as the official TypeScript SDK does. Core
// applies both; this drives a real listening server with plain HTTP requests.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { McpServer, ResourceTemplate } from 'ferrymcp';

const VERSION = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {} };

function build() {
  const server = new McpServer(
    { name: 'hints', version: '1.0.0' },
    {
      cacheHints: {
        'tools/list': { ttlMs: 1000, cacheScope: 'public' },
        'prompts/list': { ttlMs: 2000 },
        'resources/read': { ttlMs: 3000, cacheScope: 'public' },
      },
    },
  );
  const read = (uri) => ({ contents: [{ uri: uri.href, text: 'v' }] });
  server.registerResource('plain', 'mem://plain', {}, read);
  server.registerResource('own', 'mem://own', { cacheHint: { ttlMs: 9000 } }, read);
  server.registerResource('note', new ResourceTemplate('notes://{id}', { list: undefined }), { cacheHint: { cacheScope: 'private' } }, read);
  return server;
}

async function hint(url, id, method, params = {}) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
  };
  if (method === 'resources/read') headers['mcp-name'] = params.uri;
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } });
  const response = await fetch(url, { method: 'POST', headers, body });
  assert.equal(response.status, 200, `${method} ${JSON.stringify(params)}`);
  const { result } = await response.json();
  return [result.ttlMs, result.cacheScope];
}

test('each method and each resource carries its own hint', async () => {
  const listener = await build().listen();
  try {
    assert.deepEqual(await hint(listener.url, 1, 'tools/list'), [1000, 'public']);
    assert.deepEqual(await hint(listener.url, 2, 'prompts/list'), [2000, 'private']);
    assert.deepEqual(await hint(listener.url, 3, 'resources/list'), [0, 'private']);
    assert.deepEqual(await hint(listener.url, 4, 'resources/read', { uri: 'mem://plain' }), [3000, 'public']);
    assert.deepEqual(await hint(listener.url, 5, 'resources/read', { uri: 'mem://own' }), [9000, 'public']);
    assert.deepEqual(await hint(listener.url, 6, 'resources/read', { uri: 'notes://1' }), [3000, 'private']);
  } finally {
    await listener.close();
  }
});

test('a malformed resource cacheHint is refused at registration, naming it', () => {
  const server = new McpServer({ name: 'hints', version: '1.0.0' });
  const read = (uri) => ({ contents: [{ uri: uri.href, text: 'v' }] });
  assert.throws(() => server.registerResource('bad', 'mem://bad', { cacheHint: { ttlMs: -5 } }, read), /cacheHint of resource "mem:\/\/bad"\.ttlMs/);
  assert.throws(() => server.registerResource('bad', 'mem://bad', { cacheHint: { cacheScope: 'shared' } }, read), /cacheScope must be 'public' or 'private'/);
});
