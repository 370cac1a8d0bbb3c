// v1's `ExperimentalServerTasks` streams (`server.server.experimental.tasks.elicitInputStream`,
// `createMessageStream`) used by a tool while it runs, with the official v1 client as the
// peer over stdio and Streamable HTTP: the request reaches the client and its answer is
// yielded as one `result` message, its refusal as one `error` message; `options.task` and
// the client-task methods throw ERR_FERRYMCP_UNSUPPORTED. The official example's
// `collect-user-info-task` pattern: a task tool's detached work elicits through the stream
// after the call was answered with the task; the client's handler answers, and the task
// completes with that answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as OfficialStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as OfficialHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { fixture, servePerSession } from './helpers.mjs';

function answeringClient() {
  const client = new OfficialClient({ name: 'official-v1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} }, sampling: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => ({ action: 'accept', content: { name: `Ada (${request.params.message})` } }));
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'sampled' } }));
  return client;
}

async function asked(client, what) {
  const result = await client.callTool({ name: 'ask', arguments: { what } });
  return JSON.parse(result.content[0].text);
}

async function streams(client, connect) {
  // A client that declared no elicitation: core refuses, the stream yields the error.
  const plain = new OfficialClient({ name: 'official-v1-plain', version: '1.0.0' });
  await connect(plain);
  try {
    const [refused] = await asked(plain, 'contact');
    assert.equal(typeof refused.error, 'string', JSON.stringify(refused));
    assert.equal(typeof refused.code, 'number', JSON.stringify(refused));
  } finally {
    await plain.close();
  }

  assert.deepEqual(await asked(client, 'contact'), [{ action: 'accept', content: { name: 'Ada (Your contact)' } }]);
  assert.deepEqual(await asked(client, 'sample'), [{ role: 'assistant', model: 'm', content: { type: 'text', text: 'sampled' } }]);
  const refusals = await client.callTool({ name: 'refusals', arguments: {} });
  assert.equal(refusals.content[0].text, 'ERR_FERRYMCP_UNSUPPORTED,ERR_FERRYMCP_UNSUPPORTED');

  // A task's detached work elicits after the call was answered with the task.
  const messages = [];
  for await (const message of client.experimental.tasks.callToolStream({ name: 'collect-task', arguments: { what: 'contact' } }, CallToolResultSchema, { task: { ttl: 60000 } })) messages.push(message);
  assert.equal(messages[0].type, 'taskCreated', JSON.stringify(messages));
  assert.equal(messages.at(-1).type, 'result', JSON.stringify(messages));
  assert.deepEqual(messages.at(-1).result.content, [{ type: 'text', text: `Collected: ${JSON.stringify({ action: 'accept', content: { name: 'Ada (Your contact)' } })}` }]);
  assert.equal((await client.experimental.tasks.getTask(messages[0].task.taskId)).status, 'completed');
}

test('elicitInputStream and createMessageStream over stdio, with the official v1 client', async () => {
  const client = answeringClient();
  await client.connect(new OfficialStdio({ command: process.execPath, args: [fixture('server-streams.mjs')], stderr: 'inherit' }));
  try {
    await streams(client, (other) => other.connect(new OfficialStdio({ command: process.execPath, args: [fixture('server-streams.mjs')], stderr: 'inherit' })));
  } finally {
    await client.close();
  }
});

test('elicitInputStream and createMessageStream over Streamable HTTP, with the official v1 client', async () => {
  const { buildServer } = await import(fixture('server-streams.mjs'));
  const http = await servePerSession(() => buildServer());
  const client = answeringClient();
  try {
    await client.connect(new OfficialHttp(http.url));
    await streams(client, (other) => other.connect(new OfficialHttp(http.url)));
  } finally {
    await client.close();
    await http.close();
  }
});
