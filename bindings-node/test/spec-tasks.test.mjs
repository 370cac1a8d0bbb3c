// The 2025-11-25 revision's tasks, served by core from a ferrymcp server given the official
// v1 `taskStore` option, with the official v1 client (@modelcontextprotocol/sdk) as the
// peer over stdio and over HTTP: the tasks capability, a task-augmented call streamed by
// `client.experimental.tasks.callToolStream` (created, its elicitation carrying the
// related-task `_meta`, the result from `tasks/result`), `tasks/list`, `tasks/get` and
// `tasks/cancel`; over HTTP the store is an application's subclass of `InMemoryTaskStore`,
// which core calls through JavaScript.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as OfficialStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as OfficialHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from 'ferrymcp/server/mcp.js';

import { fixture, servePerSession } from './helpers.mjs';

const RELATED = 'io.modelcontextprotocol/related-task';

function officialClient() {
  const client = new OfficialClient({ name: 'official-v1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  const asked = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return { action: 'accept', content: { name: 'Ada' } };
  });
  return { client, asked };
}

async function lifecycle(client, asked) {
  assert.deepEqual(client.getServerCapabilities().tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
  const listed = await client.listTools();
  assert.equal(listed.tools.find((t) => t.name === 'greet').execution.taskSupport, 'required');

  const messages = [];
  const stream = client.experimental.tasks.callToolStream({ name: 'greet', arguments: {} }, CallToolResultSchema, { task: { ttl: 60000 } });
  for await (const message of stream) messages.push(message);
  assert.equal(messages[0].type, 'taskCreated', JSON.stringify(messages));
  const taskId = messages[0].task.taskId;
  assert.equal(messages[0].task.ttl, 60000);
  const last = messages.at(-1);
  assert.equal(last.type, 'result', JSON.stringify(messages));
  assert.deepEqual(last.result.content, [{ type: 'text', text: 'Hello, Ada!' }]);
  assert.equal(asked.length, 1);
  assert.deepEqual(asked[0]._meta?.[RELATED], { taskId });

  const done = await client.experimental.tasks.getTask(taskId);
  assert.equal(done.status, 'completed');

  const created = await client.request({ method: 'tools/call', params: { name: 'wait', arguments: {}, task: {} } }, CreateTaskResultSchema);
  const cancelled = await client.experimental.tasks.cancelTask(created.task.taskId);
  assert.equal(cancelled.status, 'cancelled');
  await assert.rejects(client.experimental.tasks.cancelTask(created.task.taskId), /terminal status/);

  const { tasks } = await client.experimental.tasks.listTasks();
  assert.deepEqual(tasks.map((t) => [t.taskId, t.status]), [[taskId, 'completed'], [created.task.taskId, 'cancelled']]);

  // Past the client's own check: the server refuses a required task tool called plainly.
  const plain = client.request({ method: 'tools/call', params: { name: 'greet', arguments: {} } }, CallToolResultSchema);
  await assert.rejects(plain, (e) => e.code === -32601 && /requires task augmentation/.test(e.message));
}

test('tasks over stdio, kept in an InMemoryTaskStore', async () => {
  const { client, asked } = officialClient();
  await client.connect(new OfficialStdio({ command: process.execPath, args: [fixture('spec-tasks.mjs')], stderr: 'inherit' }));
  try {
    await lifecycle(client, asked);
  } finally {
    await client.close();
  }
});

test('tasks over Streamable HTTP, kept in an application store called through JavaScript', async () => {
  const { buildServer, RecordingStore } = await import(fixture('spec-tasks.mjs'));
  const store = new RecordingStore();
  const http = await servePerSession(() => buildServer(store));
  const { client, asked } = officialClient();
  try {
    await client.connect(new OfficialHttp(http.url));
    await lifecycle(client, asked);
    for (const call of ['createTask', 'getTask', 'updateTaskStatus', 'storeTaskResult', 'getTaskResult', 'listTasks']) {
      assert.ok(store.calls.includes(call), `core never called ${call}: ${store.calls.join(', ')}`);
    }
  } finally {
    await client.close();
    await http.close();
  }
});

test('taskStore must be a TaskStore, and the queue options are refused by name', () => {
  assert.throws(() => new McpServer({ name: 's', version: '1' }, { taskStore: { getTask() {} } }), (e) => e.code === 'ERR_INVALID_ARG_VALUE' && /taskStore: must be a TaskStore .*missing createTask/.test(e.message));
  assert.throws(() => new McpServer({ name: 's', version: '1' }, { taskMessageQueue: {} }), (e) => e.code === 'ERR_FERRYMCP_UNSUPPORTED' && /taskMessageQueue/.test(e.message));
});
