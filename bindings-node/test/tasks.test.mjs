// The tasks extension from Node: the fixture's tools declared with `execution` (and
// `taskStart: 'onRequest'`) driven by raw 2026-07-28 JSON-RPC lines over stdio, as a client
// that accepts tasks (or not) sends them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';

import { fixture } from './helpers.mjs';

const TASKS = 'io.modelcontextprotocol/tasks';

function rawServer() {
  const child = spawn(process.execPath, [fixture('everything.mjs'), '--transport', 'stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line);
    waiting.get(message.id)?.(message);
  });
  let nextId = 1;
  const request = (method, params, { tasks = true } = {}) => {
    const capabilities = tasks ? { elicitation: {}, extensions: { [TASKS]: {} } } : { elicitation: {} };
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': capabilities,
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    };
    const id = nextId++;
    const answered = new Promise((resolve) => waiting.set(id, resolve));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta } })}\n`);
    return answered;
  };
  const until = async (taskId, status) => {
    for (let i = 0; i < 500; i++) {
      const { result } = await request('tasks/get', { taskId });
      if (result.status === status) return result;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`task ${taskId} never reached ${status}`);
  };
  const settled = async (taskId) => {
    for (let i = 0; i < 1000; i++) {
      const { result } = await request('tasks/get', { taskId });
      if (['completed', 'failed', 'cancelled'].includes(result.status)) return result;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`task ${taskId} never ended`);
  };
  return { child, request, until, settled };
}

describe('tasks extension', () => {
  let server;
  before(() => {
    server = rawServer();
  });
  after(() => server.child.stdin.end());

  test('a declared tool runs as a task, its input going through tasks/get and tasks/update', async () => {
    const { result } = await server.request('tools/call', { name: 'confirm_delete', arguments: { filename: 'a.txt' } });
    assert.equal(result.resultType, 'task');
    const asked = await server.until(result.taskId, 'input_required');
    const keys = Object.keys(asked.inputRequests);
    assert.equal(keys.length, 1);
    assert.equal(asked.inputRequests[keys[0]].method, 'elicitation/create');
    const ack = await server.request('tasks/update', { taskId: result.taskId, inputResponses: { [keys[0]]: { action: 'accept', content: { confirm: true } } } });
    assert.deepEqual(Object.keys(ack.result).sort(), ['_meta', 'resultType']);
    const done = await server.until(result.taskId, 'completed');
    assert.equal(done.result.content[0].text, 'Deleted a.txt');
  });

  test('a tool registered with taskStart onRequest gathers input by MRTR, then starts its task', async () => {
    const first = (await server.request('tools/call', { name: 'test_tool_with_task', arguments: {} })).result;
    assert.equal(first.resultType, 'input_required');
    assert.equal(first.taskId, undefined);
    const retry = { name: 'test_tool_with_task', arguments: {}, requestState: first.requestState, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } } };
    const second = (await server.request('tools/call', retry)).result;
    assert.equal(second.resultType, 'task');
    assert.equal(second.requestState, undefined);
    const done = await server.until(second.taskId, 'completed');
    assert.match(done.result.content[0].text, /Ada/);
  });

  test("a task tool that throws an McpError fails the task with that JSON-RPC error; a plain Error is the tool's own", async () => {
    const started = (await server.request('tools/call', { name: 'protocol_error_job', arguments: {} })).result;
    assert.equal(started.resultType, 'task');
    const failed = await server.settled(started.taskId);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.code, -32603);
    assert.equal(failed.error.message, 'protocol_error_job failed inside the server');
    assert.equal('result' in failed, false);
    const toolError = (await server.request('tools/call', { name: 'failing_job', arguments: {} })).result;
    const completed = await server.settled(toolError.taskId);
    assert.equal(completed.status, 'completed');
    assert.equal(completed.result.isError, true);
    assert.equal('error' in completed, false);
    // Not run as a task: the official McpServer's answer to any thrown error, an isError result.
    const sync = await server.request('tools/call', { name: 'protocol_error_job', arguments: {} }, { tasks: false });
    assert.equal(sync.error, undefined);
    assert.equal(sync.result.isError, true);
  });

  test('without the extension a required tool is refused and tasks/get is gated', async () => {
    assert.equal((await server.request('tools/call', { name: 'failing_job', arguments: {} }, { tasks: false })).error.code, -32021);
    assert.equal((await server.request('tasks/get', { taskId: 'x' }, { tasks: false })).error.code, -32021);
    const sync = (await server.request('tools/call', { name: 'slow_compute', arguments: { seconds: 0 } }, { tasks: false })).result;
    assert.equal(sync.resultType, 'complete');
  });
});
