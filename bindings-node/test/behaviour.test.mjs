// How the package behaves around the calls: cancellation through an AbortSignal,
// progress, elicitation, McpError codes and data, registration mistakes, process exit,
// and the CommonJS entry points.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';

import { Client, ErrorCode, McpError, McpServer, ResourceTemplate } from 'ferrymcp';
import { StdioClientTransport } from 'ferrymcp/stdio';
import * as z from 'zod';

import { connect, fixture, textOf } from './helpers.mjs';

const BEHAVIOUR = fixture('behaviour.mjs');
const run = promisify(execFile);

for (const era of ['legacy', 'modern']) {
  describe(`behaviour, ${era} era`, () => {
    test('an AbortSignal cancels the call and aborts the handler', async () => {
      const client = await connect(BEHAVIOUR, { era });
      try {
        const controller = new AbortController();
        const call = client.callTool({ name: 'wait_for_cancel', arguments: {} }, { signal: controller.signal, onprogress: () => controller.abort() });
        await assert.rejects(call, { name: 'McpError', code: -32800 });
        assert.equal(textOf(await client.callTool({ name: 'was_cancelled', arguments: {} })), 'handler saw: -32800');
        await assert.rejects(client.callTool({ name: 'count', arguments: { to: 1 } }, { signal: controller.signal }), { name: 'AbortError' });
      } finally {
        await client.close();
      }
    });

    test('progress, both the ctx way and the v1 notification way', async () => {
      const client = await connect(BEHAVIOUR, { era });
      try {
        const seen = [];
        const result = await client.callTool({ name: 'count', arguments: { to: 3 } }, { onprogress: (p) => seen.push([p.progress, p.total, p.message]) });
        assert.equal(textOf(result), 'counted to 3');
        assert.deepEqual(seen, [[1, 3, 'step 1'], [2, 3, 'step 2'], [3, 3, 'step 3']]);
        const v1 = [];
        await client.callTool({ name: 'v1_progress', arguments: {} }, { onprogress: (p) => v1.push(p.progress) });
        assert.deepEqual(v1, [1]);
      } finally {
        await client.close();
      }
    });

    test('a ResourceTemplate list callback adds its resources to resources/list', async () => {
      const client = await connect(BEHAVIOUR, { era });
      try {
        const { resources } = await client.listResources();
        const listed = resources.filter((r) => r.uri.startsWith('notes://'));
        assert.deepEqual(listed, [
          { uri: 'notes://1', name: 'first note', description: 'A note', mimeType: 'text/plain' },
          { uri: 'notes://2', name: 'second note', description: 'A note', mimeType: 'text/markdown' },
        ]);
        assert.equal(resources[0].uri, 'test://watched', 'static resources come first');
        assert.equal((await client.readResource({ uri: 'notes://2' })).contents[0].text, 'note 2');
        const completion = await client.complete({ ref: { type: 'ref/resource', uri: 'notes://{id}' }, argument: { name: 'id', value: '2' } });
        assert.deepEqual(completion.completion.values, ['2']);
      } finally {
        await client.close();
      }
    });

    test('extra._meta carries what the client sent, and extra.sendNotification sends any notification', { timeout: 30_000 }, async () => {
      const client = await connect(BEHAVIOUR, { era });
      try {
        const custom = new Promise((resolve) => client.setNotificationHandler('notifications/custom', (n) => resolve(n.params)));
        const result = await client.callTool({ name: 'meta_and_notify', arguments: {}, _meta: { custom: 'from-client' } });
        assert.equal(textOf(result), 'custom=from-client');
        assert.deepEqual(await custom, { hello: 'world' });
      } finally {
        await client.close();
      }
    });

    test('onclose fires when the server process dies', { timeout: 30_000 }, async () => {
      const client = await connect(BEHAVIOUR, { era });
      const closed = new Promise((resolve) => (client.onclose = resolve));
      await assert.rejects(client.callTool({ name: 'crash', arguments: {} }), { code: ErrorCode.ConnectionClosed });
      await closed;
      await assert.rejects(client.listTools(), { code: ErrorCode.ConnectionClosed });
      await client.close();
    });

    test('McpError codes and data cross both ways', async () => {
      const client = await connect(BEHAVIOUR, { era });
      try {
        await assert.rejects(client.callTool({ name: 'nope', arguments: {} }), (e) => e instanceof McpError && e.code === ErrorCode.InvalidParams);
        await assert.rejects(client.readResource({ uri: 'test://missing' }), (e) => e.code === -32002 && e.data.uri === 'test://missing');
        await assert.rejects(client.readResource({ uri: 'test://broken' }), (e) => e.code === ErrorCode.InternalError && /disk on fire/.test(e.message));
        await assert.rejects(client.callTool({ name: 'url_needed', arguments: {} }), (e) => e.code === -32042 && Array.isArray(e.data.elicitations));
        await assert.rejects(client.callTool({ name: 'wait_for_cancel', arguments: {} }, { timeout: 1 }), { code: ErrorCode.RequestTimeout });
        const structured = await client.callTool({ name: 'structured', arguments: { a: 1 } });
        assert.deepEqual(structured.structuredContent, { sum: 3 });
        await assert.rejects(client.callTool({ name: 'crash', arguments: {} }), { code: ErrorCode.ConnectionClosed });
        await assert.rejects(client.listTools(), { code: ErrorCode.ConnectionClosed });
      } finally {
        await client.close();
      }
    });
  });
}

test('elicitation answers reach the tool in both eras', async () => {
  for (const era of ['legacy', 'modern']) {
    for (const [answer, expected] of [
      [{ action: 'accept', content: { ok: true } }, 'action=accept ok=true'],
      [{ action: 'decline' }, 'action=decline ok=undefined'],
    ]) {
      const client = new Client({ name: 'elicitation', version: '1.0.0' }, { era });
      client.setRequestHandler('elicitation/create', async (request) => {
        assert.equal(request.params.message, 'Continue?');
        return answer;
      });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [BEHAVIOUR] }));
      try {
        assert.equal(textOf(await client.callTool({ name: 'ask', arguments: {} })), expected);
      } finally {
        await client.close();
      }
    }
  }
});

test('legacy sessions get log messages and resource updates', async () => {
  const client = await connect(BEHAVIOUR, { era: 'legacy' });
  try {
    const received = (method) => new Promise((resolve) => client.setNotificationHandler(method, resolve));
    const logged = received('notifications/message');
    await client.callTool({ name: 'log_inside', arguments: {} });
    assert.deepEqual((await logged).params, { level: 'info', data: 'inside' });
    const outside = received('notifications/message');
    await client.callTool({ name: 'log_outside', arguments: {} });
    assert.deepEqual((await outside).params, { level: 'warning', data: { from: 'outside' }, logger: 'behaviour' });
    const updated = received('notifications/resources/updated');
    await client.subscribeResource({ uri: 'test://watched' });
    await client.callTool({ name: 'touch', arguments: { uri: 'test://watched' } });
    assert.deepEqual((await updated).params, { uri: 'test://watched' });
  } finally {
    await client.close();
  }
});

describe('registration mistakes throw at once, naming the problem', () => {
  const server = new McpServer({ name: 'mistakes', version: '1.0.0' });
  server.registerTool('twice', { inputSchema: z.object({}) }, () => ({ content: [] }));

  test('a duplicate tool', () => {
    assert.throws(() => server.registerTool('twice', {}, () => ({ content: [] })), /twice.*already registered/);
  });
  test('an invalid input schema', () => {
    assert.throws(() => server.registerTool('bad_schema', { inputSchema: { type: 'object', properties: { a: { type: 12 } } } }, () => ({ content: [] })), /bad_schema/);
  });
  test('a template that does not parse', () => {
    assert.throws(() => server.registerResource('t', new ResourceTemplate('test://{unclosed', { list: undefined }), {}, () => ({ contents: [] })), /test:\/\/\{unclosed/);
  });
  test('cache hints for a method that is not cacheable, or that are malformed, are refused', () => {
    const info = { name: 'hints', version: '1.0.0' };
    assert.throws(() => new McpServer(info, { cacheHints: { 'tools/call': { ttlMs: 1 } } }), /tools\/call is not cacheable/);
    assert.throws(() => new McpServer(info, { cacheHints: { 'tools/list': { ttlMs: -1 } } }), /cacheHints\["tools\/list"\]\.ttlMs/);
    assert.throws(() => new McpServer(info, { cacheHints: { 'tools/list': { cacheScope: 'shared' } } }), /cacheScope must be 'public' or 'private'/);
    // Each method keeps its own hint (cache-hints.test.mjs shows them on the wire).
    new McpServer(info, { cacheHints: { 'tools/list': { ttlMs: 1 }, 'prompts/list': { ttlMs: 2 }, 'resources/read': { ttlMs: 1 } } });
  });
});

describe('process behaviour', () => {
  test('a script that connects, calls and closes exits by itself', async () => {
    const { stdout } = await run(process.execPath, [fixture('exits.mjs'), fixture('everything.mjs')], { timeout: 30_000 });
    assert.equal(stdout, 'This is a simple text response for testing.\n');
  });

  test('process.exit() while connected does not hang', async () => {
    const { stdout } = await run(process.execPath, [fixture('exits.mjs'), fixture('everything.mjs'), '--exit'], { timeout: 30_000 });
    assert.equal(stdout, 'This is a simple text response for testing.\n');
  });

  test('a stdio server exits when its stdin ends', async () => {
    const child = spawn(process.execPath, [fixture('everything.mjs'), '--transport', 'stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.end();
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  });

  test('the CommonJS entry points load', async () => {
    const script = [
      "const { McpServer, Client, McpError } = require('ferrymcp');",
      "const { McpServer: V1 } = require('ferrymcp/server/mcp.js');",
      "const { StdioServerTransport } = require('ferrymcp/server/stdio.js');",
      "const { StdioClientTransport } = require('ferrymcp/client/stdio.js');",
      "const { serveStdio } = require('ferrymcp/stdio');",
      "if (!(V1.prototype instanceof McpServer) || !Client || !StdioServerTransport || !StdioClientTransport || !serveStdio) process.exit(1);",
      "new McpServer({ name: 'cjs', version: '1' }).registerTool('t', {}, () => ({ content: [] }));",
      "console.log(new McpError(-32602, 'x').code);",
    ].join('\n');
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: fixture('..'), timeout: 30_000 });
    assert.equal(stdout.trim(), '-32602');
  });
});
