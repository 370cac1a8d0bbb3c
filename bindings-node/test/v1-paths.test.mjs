// The v1 paths added for issue 14, against the official v1 package (1.x) where it has the
// same name: `server/sse.js` (refused by name at construction), `spec.types.js`,
// `shared/mediaType.js`, `shared/protocol.js`, `shared/stdio.js`, `server/completable.js`
// (driven by the official v1 client over real stdio), `client/middleware.js` and
// `server/auth/middleware/allowedMethods.js` (over real HTTP), `shared/responseMessage.js`,
// `experimental/tasks/*` and the classes refused at construction.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';

import * as officialSpec from '@modelcontextprotocol/sdk/spec.types.js';
import * as officialMedia from '@modelcontextprotocol/sdk/shared/mediaType.js';
import * as officialProtocol from '@modelcontextprotocol/sdk/shared/protocol.js';
import { Client as OfficialV1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as OfficialV1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SSEServerTransport } from 'ferrymcp/server/sse.js';
import * as spec from 'ferrymcp/spec.types.js';
import { isJsonContentType, mediaTypeEssence } from 'ferrymcp/shared/mediaType.js';
import { DEFAULT_REQUEST_TIMEOUT_MSEC, Protocol, mergeCapabilities } from 'ferrymcp/shared/protocol.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from 'ferrymcp/shared/stdio.js';
import { COMPLETABLE_SYMBOL, McpZodTypeKind, completable, getCompleter, isCompletable, unwrapCompletable } from 'ferrymcp/server/completable.js';
import { DEFAULT_REQUEST_TIMEOUT_MSEC as coreTimeout, MODERN_PROTOCOL_VERSION, STDIO_DEFAULT_MAX_BUFFER_SIZE as coreStdioMax } from 'ferrymcp';
import { z } from 'zod';

import { fixture } from './helpers.mjs';

const info = { name: 'v1-paths', version: '1.0.0' };

test('server/sse.js: SSEServerTransport is refused at construction, by name, with a code', () => {
  assert.throws(() => new SSEServerTransport('/messages', {}), (error) => {
    assert.equal(error.code, 'ERR_FERRYMCP_UNSUPPORTED');
    assert.equal(error.api, 'SSEServerTransport');
    assert.match(error.message, /SSEServerTransport/);
    assert.match(error.message, /StreamableHTTPServerTransport/);
    return true;
  });
});

test("spec.types.js: the official constants, from core (LATEST_PROTOCOL_VERSION is the stateless revision, the official draft's placeholder aside)", () => {
  for (const [name, value] of Object.entries(officialSpec)) {
    if (name === 'LATEST_PROTOCOL_VERSION') continue;
    assert.equal(spec[name], value, name);
  }
  assert.equal(spec.LATEST_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION);
  assert.deepEqual(Object.keys(spec).sort(), Object.keys(officialSpec).sort());
});

test('shared/mediaType.js: the same answers as the official helpers', () => {
  const headers = [
    'application/json',
    'Application/JSON; charset=utf-8',
    ' application/json ;charset=UTF-8',
    'application/json, text/plain',
    'application/json; charset=utf-8, text/html',
    'text/event-stream',
    'text/plain;charset=utf-8',
    '',
    undefined,
    null,
  ];
  for (const header of headers) {
    assert.equal(isJsonContentType(header), officialMedia.isJsonContentType(header), `isJsonContentType(${JSON.stringify(header)})`);
    assert.equal(mediaTypeEssence(header), officialMedia.mediaTypeEssence(header), `mediaTypeEssence(${JSON.stringify(header)})`);
  }
});

test('shared/protocol.js and shared/stdio.js: mergeCapabilities as the official one, the defaults from core, Protocol refused by name', () => {
  const cases = [
    [{ tools: { listChanged: true }, logging: {} }, { tools: { listChanged: false }, resources: { subscribe: true } }],
    [{ experimental: { a: { x: 1 } } }, { experimental: { b: {} }, logging: undefined }],
    [{ sampling: {} }, { sampling: [] }],
  ];
  for (const [base, more] of cases) assert.deepEqual(mergeCapabilities(base, more), officialProtocol.mergeCapabilities(base, more));
  assert.equal(DEFAULT_REQUEST_TIMEOUT_MSEC, officialProtocol.DEFAULT_REQUEST_TIMEOUT_MSEC);
  assert.equal(DEFAULT_REQUEST_TIMEOUT_MSEC, coreTimeout);
  assert.equal(STDIO_DEFAULT_MAX_BUFFER_SIZE, coreStdioMax);
  class Custom extends Protocol {}
  assert.throws(() => new Custom(), (error) => error.code === 'ERR_FERRYMCP_UNSUPPORTED' && error.api === 'Protocol');
});

test('server/completable.js: the helpers see what completable() set, and the official v1 client completes over stdio', async () => {
  const complete = (value) => ['red', 'green', 'blue'].filter((c) => c.startsWith(value));
  const schema = completable(z.string(), complete);
  assert.equal(isCompletable(schema), true);
  assert.equal(isCompletable(z.string()), false);
  assert.equal(getCompleter(schema), complete);
  assert.equal(getCompleter(z.number()), undefined);
  assert.equal(unwrapCompletable(schema), schema);
  assert.equal(typeof schema[COMPLETABLE_SYMBOL], 'function');
  assert.equal(McpZodTypeKind.Completable, 'McpCompletable');

  const client = new OfficialV1Client({ name: 'official-v1', version: '1.32.2' });
  await client.connect(new OfficialV1Stdio({ command: process.execPath, args: [fixture('completable-v1.mjs')] }));
  try {
    const result = await client.complete({ ref: { type: 'ref/prompt', name: 'paint' }, argument: { name: 'color', value: 'g' } });
    assert.deepEqual(result.completion.values, ['green']);
  } finally {
    await client.close();
  }
});

test('v1 paths refused at construction by name, with a code: WebSocketClientTransport, AjvJsonSchemaValidator; withOAuth when called (InMemoryTaskStore and InMemoryTaskMessageQueue: spec-tasks.test.mjs, tool-tasks.test.mjs)', async () => {
  const { WebSocketClientTransport } = await import('ferrymcp/client/websocket.js');
  const { AjvJsonSchemaValidator } = await import('ferrymcp/validation/ajv-provider.js');
  const { withOAuth } = await import('ferrymcp/client/middleware.js');
  for (const [name, make] of [
    ['WebSocketClientTransport', () => new WebSocketClientTransport(new URL('ws://127.0.0.1:1/'))],
    ['AjvJsonSchemaValidator', () => new AjvJsonSchemaValidator()],
    ['withOAuth', () => withOAuth({}, 'http://127.0.0.1/')],
  ]) {
    assert.throws(make, (error) => error.code === 'ERR_FERRYMCP_UNSUPPORTED' && error.api === name && error.message.includes(name), name);
  }
});

test('experimental/tasks/interfaces.js isTerminal and shared/responseMessage.js as the official helpers', async () => {
  const { isTerminal } = await import('ferrymcp/experimental/tasks/interfaces.js');
  const officialTasks = await import('@modelcontextprotocol/sdk/experimental/tasks/interfaces.js');
  for (const status of ['working', 'input_required', 'completed', 'failed', 'cancelled']) assert.equal(isTerminal(status), officialTasks.isTerminal(status), status);

  const { takeResult, toArrayAsync } = await import('ferrymcp/shared/responseMessage.js');
  const official = await import('@modelcontextprotocol/sdk/shared/responseMessage.js');
  async function* stream(...messages) {
    yield* messages;
  }
  const ok = [{ type: 'taskCreated', task: { taskId: 't' } }, { type: 'result', result: { content: [] } }];
  assert.deepEqual(await toArrayAsync(stream(...ok)), await official.toArrayAsync(stream(...ok)));
  assert.deepEqual(await takeResult(stream(...ok)), await official.takeResult(stream(...ok)));
  const failure = new Error('task failed');
  await assert.rejects(takeResult(stream({ type: 'error', error: failure })), (error) => error === failure);
  await assert.rejects(takeResult(stream({ type: 'taskStatus', task: {} })), /No result in stream/);
});

test('client/middleware.js: applyMiddlewares, createMiddleware and withLogging over a real HTTP server, as the official ones', async () => {
  const ours = await import('ferrymcp/client/middleware.js');
  const official = await import('@modelcontextprotocol/sdk/client/middleware.js');
  const http = createServer((req, res) => {
    res.statusCode = req.url === '/missing' ? 404 : 200;
    res.setHeader('x-seen', `${req.headers['x-one'] ?? '-'}/${req.headers['x-two'] ?? '-'}`);
    res.end('body');
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${http.address().port}`;
  try {
    const outcome = [];
    for (const m of [ours, official]) {
      const logged = [];
      const header = (name) =>
        m.createMiddleware(async (next, input, init) => {
          const headers = new Headers(init?.headers);
          headers.set(name, String(logged.length));
          return next(input, { ...init, headers });
        });
      const fetchWith = m.applyMiddlewares(header('x-one'), header('x-two'), m.withLogging({ logger: (entry) => logged.push(entry), statusLevel: 400, includeResponseHeaders: true }))(fetch);
      const first = await fetchWith(`${base}/ok`, { method: 'POST' });
      const second = await fetchWith(`${base}/missing`);
      outcome.push({
        seen: [first.headers.get('x-seen'), second.headers.get('x-seen')],
        logged: logged.map(({ method, url, status, statusText, responseHeaders }) => ({ method, url, status, statusText, seen: responseHeaders?.get('x-seen') })),
      });
    }
    assert.deepEqual(outcome[0], outcome[1]);
    assert.deepEqual(outcome[0].logged, [{ method: 'GET', url: `${base}/missing`, status: 404, statusText: 'Not Found', seen: '0/0' }]);
  } finally {
    await new Promise((resolve) => http.close(resolve));
  }
});

test('server/auth/middleware/allowedMethods.js: other methods get 405 with Allow and the OAuth error body, as the official middleware', async () => {
  const express = (await import('express')).default;
  const { allowedMethods } = await import('ferrymcp/server/auth/middleware/allowedMethods.js');
  const official = await import('@modelcontextprotocol/sdk/server/auth/middleware/allowedMethods.js');
  const answers = [];
  for (const middleware of [allowedMethods, official.allowedMethods]) {
    const app = express();
    app.all('/token', middleware(['POST']), (req, res) => res.json({ ok: true }));
    const http = await new Promise((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => resolve(server));
    });
    try {
      const url = `http://127.0.0.1:${http.address().port}/token`;
      const get = await fetch(url);
      const post = await fetch(url, { method: 'POST' });
      answers.push([get.status, get.headers.get('allow'), await get.json(), post.status, await post.json()]);
    } finally {
      await new Promise((resolve) => http.close(resolve));
    }
  }
  assert.deepEqual(answers[0], answers[1]);
  assert.equal(answers[0][0], 405);
});

test('experimental/*: the task schemas (those of types.js), ExperimentalClientTasks (what client.experimental.tasks is), the refused server task classes; server/requestBody.js; the client root has the middleware helpers', async () => {
  const experimental = await import('ferrymcp/experimental/index.js');
  const tasks = await import('ferrymcp/experimental/tasks/index.js');
  const taskTypes = await import('ferrymcp/experimental/tasks/types.js');
  const types = await import('ferrymcp/types.js');
  const officialTypes = await import('@modelcontextprotocol/sdk/experimental/tasks/types.js');
  for (const name of Object.keys(taskTypes)) {
    assert.equal(taskTypes[name], types[name], name);
    assert.equal(experimental[name], types[name], name);
    assert.ok(name in officialTypes, name);
  }
  const task = { taskId: 't1', status: 'working', ttl: null, createdAt: '2026-11-27T00:00:00Z', lastUpdatedAt: '2026-11-27T00:00:00Z' };
  assert.equal(taskTypes.TaskSchema.safeParse(task).success, officialTypes.TaskSchema.safeParse(task).success);

  const { Client, McpServer } = await import('ferrymcp');
  const client = new Client(info);
  assert.ok(client.experimental.tasks instanceof tasks.ExperimentalClientTasks);
  assert.equal(typeof new experimental.InMemoryTaskStore().createTask, 'function');
  assert.equal(typeof new experimental.ExperimentalServerTasks(new McpServer(info).server).elicitInputStream, 'function');
  assert.equal(typeof new experimental.ExperimentalMcpServerTasks(new McpServer(info)).registerToolTask, 'function');
  assert.equal(tasks.isTerminal('failed'), true);

  const { DEFAULT_MAX_REQUEST_BODY_SIZE } = await import('ferrymcp/server/requestBody.js');
  const officialBody = await import('@modelcontextprotocol/sdk/server/requestBody.js');
  assert.equal(DEFAULT_MAX_REQUEST_BODY_SIZE, officialBody.DEFAULT_MAX_REQUEST_BODY_SIZE);

  const clientRoot = await import('ferrymcp/client');
  const middleware = await import('ferrymcp/client/middleware.js');
  for (const name of ['applyMiddlewares', 'createMiddleware', 'withLogging', 'withOAuth']) assert.equal(clientRoot[name], middleware[name], name);
});

test('v1 task shapes and capability checks: the same answers as the official v1 package', async () => {
  const official = await import('@modelcontextprotocol/sdk/types.js');
  const officialHelpers = await import('@modelcontextprotocol/sdk/experimental/tasks/helpers.js');
  const ours = await import('ferrymcp/types.js');
  const ourHelpers = await import('ferrymcp/experimental/tasks/helpers.js');
  const experimental = await import('ferrymcp/experimental/tasks/index.js');
  const inputs = {
    ClientTasksCapabilitySchema: [{}, { list: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } }, { list: true }, { requests: { sampling: 1 } }, { extra: 1 }, null],
    ServerTasksCapabilitySchema: [{}, { cancel: {}, requests: { tools: { call: {} } } }, { requests: { tools: { call: 'yes' } } }, []],
    TaskCreationParamsSchema: [{}, { ttl: 5, pollInterval: 100 }, { ttl: 'long' }, { ttl: null }, { other: true }],
    ListChangedOptionsBaseSchema: [{}, { autoRefresh: false, debounceMs: 0 }, { debounceMs: -1 }, { debounceMs: 1.5 }, { extra: 1 }],
  };
  for (const [name, values] of Object.entries(inputs)) {
    assert.equal(experimental[name] ?? ours[name], ours[name], name);
    for (const value of values) {
      const want = official[name].safeParse(value);
      const got = ours[name].safeParse(value);
      assert.equal(got.success, want.success, `${name} on ${JSON.stringify(value)}`);
      if (want.success) assert.deepEqual(got.data, want.data, `${name} on ${JSON.stringify(value)}`);
    }
  }
  const thrown = (fn) => {
    try {
      fn();
      return undefined;
    } catch (error) {
      return error.message;
    }
  };
  const cases = [
    [undefined, 'tools/call'], [{}, 'tools/call'], [{ tools: { call: {} } }, 'tools/call'], [{ tools: {} }, 'ping'],
    [undefined, 'sampling/createMessage'], [{ sampling: { createMessage: {} } }, 'sampling/createMessage'], [{ sampling: {} }, 'sampling/createMessage'],
    [{ elicitation: {} }, 'elicitation/create'], [{ elicitation: { create: {} } }, 'elicitation/create'], [{}, 'roots/list'],
  ];
  for (const name of ['assertToolsCallTaskCapability', 'assertClientRequestTaskCapability']) {
    assert.equal(experimental[name], ourHelpers[name]);
    for (const [requests, method] of cases) {
      const want = thrown(() => officialHelpers[name](requests, method, 'Server'));
      assert.equal(thrown(() => ourHelpers[name](requests, method, 'Server')), want, `${name}(${JSON.stringify(requests)}, ${method})`);
    }
  }
});

test('shared/toolNameValidation.js: the same findings as the official v1 package, and registerTool warns as the official McpServer does', async () => {
  const official = await import('@modelcontextprotocol/sdk/shared/toolNameValidation.js');
  const ours = await import('ferrymcp/shared/toolNameValidation.js');
  const names = ['get_user', 'admin.tools.list', 'a/b', '', 'x'.repeat(128), 'x'.repeat(129), 'has space', 'a,b', '-lead', 'trail.', 'ünï', 'a b,c b', '😀'.repeat(65)];
  for (const name of names) {
    assert.deepEqual(ours.validateToolName(name), official.validateToolName(name), JSON.stringify(name));
  }
  // One difference: a character outside the BMP is named whole, where the official lists
  // its two UTF-16 halves ("\ud83d", "\ude00"); the length is counted in UTF-16 units, as there.
  const astral = ours.validateToolName('😀'.repeat(64));
  assert.equal(astral.isValid, false);
  assert.deepEqual(astral.warnings, ['Tool name contains invalid characters: "😀"', official.validateToolName('😀').warnings[1]]);
  const { McpServer: OfficialV1Server } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { McpServer } = await import('ferrymcp');
  const warned = (register) => {
    const lines = [];
    const warn = console.warn;
    console.warn = (...args) => lines.push(args.join(' '));
    try {
      register();
    } finally {
      console.warn = warn;
    }
    return lines;
  };
  for (const name of ['fine_name', 'bad name!', '.dot']) {
    const theirs = warned(() => new OfficialV1Server(info).registerTool(name, {}, async () => ({ content: [] })));
    const got = warned(() => new McpServer(info).registerTool(name, {}, async () => ({ content: [] })));
    assert.deepEqual(got, theirs, name);
  }
  const server = new McpServer(info);
  const tool = server.registerTool('ok', {}, async () => ({ content: [] }));
  assert.ok(warned(() => tool.update({ name: 'not ok' })).length > 0, 'a rename is checked too');
});
