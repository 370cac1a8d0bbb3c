// v1's `server.experimental.tasks.registerToolTask` (the application's own `createTask`,
// with `extra.taskStore` and `extra.taskRequestedTtl`) and the `taskMessageQueue` option,
// served by core's 2025-11-25 tasks, with the official v1 client as the peer over stdio and
// Streamable HTTP; a task core runs is not cut off by the server's handler timeout; a task
// store is given the HTTP session id (`Mcp-Session-Id`) as `sessionId`, as the handler's
// `extra.sessionId` is.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as OfficialStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as OfficialHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from 'ferrymcp/server/mcp.js';
import { InMemoryTaskMessageQueue } from 'ferrymcp/experimental/tasks/stores/in-memory.js';

import { fixture, servePerSession } from './helpers.mjs';

async function streamed(client, name, args, ttl) {
  const messages = [];
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, { task: { ttl } })) messages.push(message);
  return messages;
}

async function ownTasks(client) {
  assert.deepEqual(client.getServerCapabilities().tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
  const { tools } = await client.listTools();
  assert.equal(tools.find((t) => t.name === 'label').execution.taskSupport, 'required');
  assert.equal(tools.find((t) => t.name === 'label-maybe').execution.taskSupport, 'optional');

  // The handler's createTask made the task with the ttl the client asked; its detached work
  // stored the result, which tasks/result answers.
  const messages = await streamed(client, 'label', { label: 'a' }, 45000);
  assert.equal(messages[0].type, 'taskCreated', JSON.stringify(messages));
  assert.equal(messages[0].task.ttl, 45000);
  assert.equal(messages.at(-1).type, 'result', JSON.stringify(messages));
  assert.deepEqual(messages.at(-1).result.content, [{ type: 'text', text: 'done: a' }]);
  const taskId = messages[0].task.taskId;
  assert.equal((await client.experimental.tasks.getTask(taskId)).status, 'completed');

  // An optional one called plainly answers its task's result.
  const plain = await client.callTool({ name: 'label-maybe', arguments: { label: 'b' } });
  assert.deepEqual(plain.content, [{ type: 'text', text: 'done: b' }]);
  const { tasks } = await client.experimental.tasks.listTasks();
  assert.equal(tasks.length, 2, JSON.stringify(tasks));
  assert.ok(tasks.every((task) => task.status === 'completed'));

  // A required one called plainly is refused, as before.
  await assert.rejects(client.request({ method: 'tools/call', params: { name: 'label', arguments: { label: 'c' } } }, CallToolResultSchema), (e) => e.code === -32601);

  // A task core runs works past the server's handler timeout.
  const outlast = await streamed(client, 'outlast', {}, 60000);
  assert.equal(outlast.at(-1).type, 'result', JSON.stringify(outlast));
  assert.deepEqual(outlast.at(-1).result.content, [{ type: 'text', text: 'outlasted' }]);
}

test('registerToolTask over stdio, with the official v1 client', async () => {
  const client = new OfficialClient({ name: 'official-v1', version: '1.0.0' });
  await client.connect(new OfficialStdio({ command: process.execPath, args: [fixture('tool-tasks.mjs')], stderr: 'inherit' }));
  try {
    await ownTasks(client);
    // No transport session on stdio, as there.
    const session = await client.callTool({ name: 'session', arguments: {} });
    assert.deepEqual(session.content, [{ type: 'text', text: 'undefined' }]);
  } finally {
    await client.close();
  }
});

test('registerToolTask over Streamable HTTP: the task store and the handler get the Mcp-Session-Id', async () => {
  const { buildServer, SessionRecordingStore } = await import(fixture('tool-tasks.mjs'));
  const store = new SessionRecordingStore();
  const http = await servePerSession(() => buildServer(store));
  const client = new OfficialClient({ name: 'official-v1', version: '1.0.0' });
  const transport = new OfficialHttp(http.url);
  try {
    await client.connect(transport);
    await ownTasks(client);
    const sessionId = transport.sessionId;
    assert.match(sessionId, /^[\w-]{16,}$/);
    const session = await client.callTool({ name: 'session', arguments: {} });
    assert.deepEqual(session.content, [{ type: 'text', text: sessionId }]);
    assert.ok(store.sessions.length > 0);
    assert.deepEqual(store.sessions.filter(([, sid]) => sid !== sessionId), [], `a store call without the session id ${sessionId}`);
    assert.deepEqual(store.sessions.filter(([op]) => op === 'createTask').map(([, , name]) => name), ['label', 'label-maybe', 'outlast']);
  } finally {
    await client.close();
    await http.close();
  }
});

test('registerToolTask refuses taskSupport forbidden; taskMessageQueue takes an InMemoryTaskMessageQueue, no other queue', async () => {
  const server = new McpServer({ name: 's', version: '1' });
  const handler = { createTask: async () => ({}), getTask: async () => ({}), getTaskResult: async () => ({}) };
  assert.throws(() => server.experimental.tasks.registerToolTask('t', { execution: { taskSupport: 'forbidden' } }, handler), /taskSupport 'forbidden'/);
  assert.doesNotThrow(() => new McpServer({ name: 's', version: '1' }, { taskMessageQueue: new InMemoryTaskMessageQueue() }));
  assert.throws(() => new McpServer({ name: 's', version: '1' }, { taskMessageQueue: {} }), (e) => e.code === 'ERR_FERRYMCP_UNSUPPORTED' && /taskMessageQueue/.test(e.message));

  // The queue itself, as the official one: per task, oldest first, bounded by maxSize.
  const queue = new InMemoryTaskMessageQueue();
  const message = (n) => ({ type: 'notification', timestamp: n, message: { jsonrpc: '2.0', method: `m${n}` } });
  await queue.enqueue('t1', message(1));
  await queue.enqueue('t1', message(2), undefined, 2);
  await assert.rejects(queue.enqueue('t1', message(3), undefined, 2), /overflow/);
  assert.equal((await queue.dequeue('t1')).timestamp, 1);
  assert.deepEqual((await queue.dequeueAll('t1')).map((m) => m.timestamp), [2]);
  assert.equal(await queue.dequeue('t1'), undefined);
});
