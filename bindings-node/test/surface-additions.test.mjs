// Names of the official v2 roots added for issue 14, checked against the official
// packages: the typed protocol errors (thrown by a ferrymcp server over real stdio, caught
// by the official v2 client), `McpError.fromError`, `specTypeSchemas` / `isSpecType` /
// `isCallToolResult` / `preloadSchemas`, `mergeCapabilities`, `createFetchWithInit`,
// `isCompletable` and the refused `Protocol`.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';

import * as official from '@modelcontextprotocol/server';
import { Client as OfficialClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as OfficialStdio } from '@modelcontextprotocol/client/stdio';
import * as server from 'ferrymcp/server';
import * as client from 'ferrymcp/client';
import { z } from 'zod';

import { fixture } from './helpers.mjs';

test('the typed protocol errors: thrown by a ferrymcp resource handler, they reach the official client as its own typed errors', async () => {
  for (const era of [{ mode: 'legacy' }, { mode: 'auto' }]) {
    const peer = new OfficialClient({ name: 'official', version: '2.4.0' }, { versionNegotiation: era });
    await peer.connect(new OfficialStdio({ command: process.execPath, args: [fixture('typed-errors.mjs')] }));
    try {
      await assert.rejects(peer.readResource({ uri: 'errors://needs-sampling' }), (error) => {
        assert.ok(error instanceof official.MissingRequiredClientCapabilityError, `${error.name}: ${error.message}`);
        assert.deepEqual(error.requiredCapabilities, { sampling: {} });
        return true;
      });
      await assert.rejects(peer.readResource({ uri: 'errors://old-revision' }), (error) => {
        assert.ok(error instanceof official.UnsupportedProtocolVersionError, `${error.name}: ${error.message}`);
        assert.deepEqual([error.supported, error.requested], [['2026-07-28'], '2024-01-01']);
        return true;
      });
    } finally {
      await peer.close();
    }
  }
});

test('McpError.fromError picks the same typed error as the official factory', () => {
  const cases = [
    [-32042, 'go', { elicitations: [{ mode: 'url', url: 'https://x', elicitationId: '1', message: 'm' }] }],
    [-32022, 'old', { supported: ['2026-07-28'], requested: '2024-01-01' }],
    [-32022, 'old', { supported: ['2026-07-28'] }],
    [-32602, 'nf', { uri: 'file:///a' }],
    [-32602, 'bad', { uri: 'file:///a', more: 1 }],
    [-32021, 'caps', { requiredCapabilities: { roots: {} } }],
    [-32021, 'caps', { requiredCapabilities: [] }],
    [-32603, 'oops', undefined],
  ];
  for (const [code, message, data] of cases) {
    const ours = server.McpError.fromError(code, message, data);
    const theirs = official.ProtocolError.fromError(code, message, data);
    const kind = (error, module) => Object.entries(module).find(([name, cls]) => /Error$/.test(name) && name !== 'ProtocolError' && name !== 'McpError' && typeof cls === 'function' && error.constructor === cls)?.[0] ?? 'ProtocolError';
    assert.equal(kind(ours, server), kind(theirs, official), JSON.stringify([code, data]));
    assert.deepEqual([ours.code, ours.data], [theirs.code, theirs.data]);
  }
});

test('specTypeSchemas / isSpecType / isCallToolResult agree with the official ones', () => {
  server.preloadSchemas();
  const values = [
    {},
    { content: [] },
    { content: [{ type: 'text', text: 'hi' }], isError: false },
    { content: [{ type: 'text' }] },
    { type: 'text', text: 'x' },
    { type: 'image', data: 'AA==', mimeType: 'image/png' },
    { name: 'tool', inputSchema: { type: 'object' } },
    { name: 'tool' },
    null,
    'text',
  ];
  const names = Object.keys(official.isSpecType).filter((name) => name in server.isSpecType);
  assert.ok(names.length > 150, `${names.length} type names in common`);
  for (const name of ['CallToolResult', 'ContentBlock', 'Tool', 'TextContent', 'Implementation', 'JSONRPCRequest']) assert.ok(names.includes(name), name);
  // Known differences of the generated schemas (bindings-node/README.md): the official
  // EmptyResult is strict (so ClientResult and ServerResult, unions holding it, refuse
  // extra keys), and its JSONValue takes null.
  const differing = new Set();
  for (const name of names) {
    for (const value of values) if (server.isSpecType[name](value) !== official.isSpecType[name](value)) differing.add(name);
  }
  assert.deepEqual([...differing].sort(), ['ClientResult', 'EmptyResult', 'JSONValue', 'ServerResult']);
  const result = server.specTypeSchemas.CallToolResult['~standard'].validate({ content: [{ type: 'text', text: 'ok' }] });
  assert.equal(result.issues, undefined);
  for (const value of values) assert.equal(client.isCallToolResult(value), official.isCallToolResult(value), JSON.stringify(value));
});

test('mergeCapabilities, createFetchWithInit, isCompletable and Protocol from the v2 roots', async () => {
  const base = { tools: { listChanged: true }, logging: {} };
  const more = { tools: { listChanged: false }, prompts: {} };
  assert.deepEqual(server.mergeCapabilities(base, more), official.mergeCapabilities(base, more));
  assert.equal(server.isCompletable(server.completable(z.string(), () => [])), true);
  assert.equal(server.isCompletable(z.string()), false);
  assert.throws(() => new client.Protocol(), (error) => error.code === 'ERR_FERRYMCP_UNSUPPORTED' && /Protocol/.test(error.message));

  // createFetchWithInit: the base init's headers under each call's own, over a real HTTP server.
  const seen = [];
  const http = createServer((req, res) => {
    seen.push({ a: req.headers['x-a'], b: req.headers['x-b'], method: req.method });
    res.end('ok');
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${http.address().port}/`;
    for (const make of [client.createFetchWithInit, official.createFetchWithInit]) {
      const fetchWith = make(fetch, { headers: { 'x-a': 'base', 'x-b': 'base' } });
      assert.equal(await (await fetchWith(url, { method: 'POST', headers: { 'x-b': 'call' } })).text(), 'ok');
    }
    assert.deepEqual(seen[0], seen[1]);
    assert.deepEqual(seen[0], { a: 'base', b: 'call', method: 'POST' });
  } finally {
    await new Promise((resolve) => http.close(resolve));
  }
});

test('isTaskAugmentedRequestParams and the completion assertions agree with the official ones (v2 root and v1 types.js)', async () => {
  const v1 = await import('@modelcontextprotocol/sdk/types.js');
  const ours = await import('ferrymcp/types.js');
  for (const params of [{}, { task: {} }, { task: { ttl: 1000 } }, { task: { ttl: 'soon' } }, { name: 'x', task: { ttl: 5 } }, null]) {
    assert.equal(server.isTaskAugmentedRequestParams(params), official.isTaskAugmentedRequestParams(params), JSON.stringify(params));
    assert.equal(ours.isTaskAugmentedRequestParams(params), v1.isTaskAugmentedRequestParams(params), JSON.stringify(params));
  }
  for (const type of ['ref/prompt', 'ref/resource']) {
    const request = { method: 'completion/complete', params: { ref: { type, name: 'p', uri: 'u' }, argument: { name: 'a', value: '' } } };
    for (const name of ['assertCompleteRequestPrompt', 'assertCompleteRequestResourceTemplate']) {
      const outcome = (fn) => {
        try {
          fn(request);
          return 'passed';
        } catch (error) {
          return `${error.constructor.name}: ${error.message}`;
        }
      };
      assert.equal(outcome(server[name]), outcome(official[name]), `${name}(${type})`);
      assert.equal(outcome(ours[name]), outcome(v1[name]), `v1 ${name}(${type})`);
    }
  }
});
