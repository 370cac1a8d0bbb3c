// Tasks from ferrymcp's Node client (`client.experimental.tasks`, the official v1 names)
// against a real ferrymcp task server: the conformance fixture (everything.mjs) spawned
// over stdio and spoken to in 2026-07-28, whose tools declare `execution.taskSupport`.
// The polling interval, the terminal states and the answering of a task's input requests
// are core's.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { connect, fixture, textOf } from './helpers.mjs';

const everything = fixture('everything.mjs');

async function collect(stream) {
  const messages = [];
  for await (const message of stream) messages.push(message);
  return messages;
}

test('callToolStream: taskCreated, statuses at the poll interval, then the result', async () => {
  const client = await connect(everything);
  try {
    const messages = await collect(client.experimental.tasks.callToolStream({ name: 'slow_compute', arguments: { seconds: 0.3, label: 'x' } }));
    const types = messages.map((m) => m.type);
    assert.equal(types[0], 'taskCreated');
    assert.equal(types.at(-1), 'result');
    assert.ok(types.slice(1, -1).every((t) => t === 'taskStatus'));
    const created = messages[0].task;
    assert.equal(created.status, 'working');
    assert.equal(typeof created.pollInterval, 'number');
    assert.equal(textOf(messages.at(-1).result), 'Computed x in 0.3 s');
    assert.equal((await client.experimental.tasks.getTask(created.taskId)).status, 'completed');
    assert.equal(textOf(await client.experimental.tasks.getTaskResult(created.taskId)), 'Computed x in 0.3 s');
  } finally {
    await client.close();
  }
});

test("a task's input is answered through the request handlers, or by hand with updateTask", async () => {
  const client = await connect(everything);
  try {
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
    const messages = await collect(client.experimental.tasks.callToolStream({ name: 'confirm_delete', arguments: { filename: 'a.txt' } }));
    assert.equal(textOf(messages.at(-1).result), 'Deleted a.txt');

    const stream = client.experimental.tasks.callToolStream({ name: 'confirm_delete', arguments: { filename: 'b.txt' } });
    const { value: createdMessage } = await stream.next();
    await stream.return();
    const { taskId } = createdMessage.task;
    let task = await client.experimental.tasks.getTask(taskId);
    while (task.status !== 'input_required') task = await client.experimental.tasks.getTask(taskId);
    const [key] = Object.keys(task.inputRequests);
    await client.experimental.tasks.updateTask(taskId, { [key]: { action: 'decline' } });
    assert.equal(textOf(await client.experimental.tasks.getTaskResult(taskId)), 'Kept b.txt');
  } finally {
    await client.close();
  }
});

test('failures, cancellation, a tool run at once, and what the extension lacks', async () => {
  const client = await connect(everything);
  const tasks = client.experimental.tasks;
  try {
    // The Node fixture's McpError thrown in a task tool fails the task with that JSON-RPC
    // error (as the official v1 task API ends it `failed`): the stream ends with the error.
    const failed = await collect(tasks.callToolStream({ name: 'protocol_error_job' }));
    assert.equal(failed.at(-1).type, 'error');
    assert.match(String(failed.at(-1).error?.message), /protocol_error_job failed inside the server/);

    const stream = tasks.callToolStream({ name: 'slow_compute', arguments: { seconds: 30 } });
    const { value: created } = await stream.next();
    await stream.return();
    assert.equal((await tasks.cancelTask(created.task.taskId)).status, 'cancelled');
    await assert.rejects(tasks.getTaskResult(created.task.taskId), /cancelled/);

    const atOnce = await collect(tasks.callToolStream({ name: 'greet', arguments: { name: 'Ada' } }));
    assert.deepEqual(atOnce.map((m) => m.type), ['result']);
    assert.equal(textOf(atOnce[0].result), 'Hello, Ada!');

    await assert.rejects(tasks.listTasks(), /tasks\/list does not exist/);
    await assert.rejects(async () => collect(tasks.callToolStream({ name: 'greet' }, undefined, { timeout: 5 })), /does not support the option timeout/);
  } finally {
    await client.close();
  }
});

test('a legacy connection has no tasks/update', async () => {
  const client = await connect(everything, { era: 'legacy' });
  try {
    await assert.rejects(client.experimental.tasks.updateTask('t', {}), /tasks\/update does not exist/);
  } finally {
    await client.close();
  }
});
