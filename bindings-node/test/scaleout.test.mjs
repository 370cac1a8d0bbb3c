// The official TypeScript clients (v2 in both eras, v1) through a real haproxy doing plain
// round robin in front of three replicas, with sessions, events and the replicas' bus in a
// real Redis: the requests of one session land on every replica in turn, and the server
// asks the client (sampling, elicitation) with the answers POSTed to whichever replica the
// balancer picks. The replicas are the Rust fixture (FERRYMCP_EVERYTHING, `--redis`) or the
// Node one (a ferrymcp server given `eventStore: new RedisStore(url)`).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { McpServer, RedisStore } from 'ferrymcp';
import { StreamableHTTPServerTransport } from 'ferrymcp/server/streamableHttp.js';

import { answers, fixture, textOf } from './helpers.mjs';

const EVERYTHING = process.env.FERRYMCP_EVERYTHING;
const REPLICAS = 3;

/** A program of the system's, or undefined (the tests skip; CI must have it). */
function program(name) {
  const found = spawnSync('sh', ['-c', `PATH="$PATH:/usr/sbin:/usr/local/sbin" command -v ${name}`], { encoding: 'utf8' });
  const path = found.stdout.trim();
  if (!path) assert.ok(!process.env.CI, `CI must install ${name}: run scripts/test.sh`);
  return path || undefined;
}

const redisServer = program('redis-server');
const haproxy = program('haproxy');
const skip = !EVERYTHING || !redisServer || !haproxy ? 'needs FERRYMCP_EVERYTHING, redis-server and haproxy' : false;
const REPLICAS_OF = {
  rust: [EVERYTHING],
  node: [process.execPath, fixture('everything.mjs')],
};

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once something accepts connections on `port` (the process must stay up). */
async function listening(child, port) {
  for (;;) {
    assert.equal(child.exitCode, null, `${child.spawnfile} exited before listening`);
    const open = await new Promise((resolve) => {
      const socket = tcpConnect(port, '127.0.0.1', () => resolve(socket.end() && true));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

for (const [kind, replica] of Object.entries(REPLICAS_OF)) describe(`official clients through a load balancer in front of three ${kind} replicas`, { skip }, () => {
  const processes = [];
  let url;
  let dir;

  async function started(command, args, port) {
    const child = spawn(command, args, { stdio: 'ignore' });
    processes.push(child);
    await listening(child, port);
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ferrymcp-scaleout-'));
    const redisPort = await freePort();
    await started(redisServer, ['--port', `${redisPort}`, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], redisPort);
    let servers = '';
    for (let i = 0; i < REPLICAS; i++) {
      const port = await freePort();
      const args = ['--transport', 'http', '--port', `${port}`, '--redis', `redis://127.0.0.1:${redisPort}`];
      await started(replica[0], [...replica.slice(1), ...args, '--state-key', 'a key shared by the replicas, 32+ bytes'], port);
      servers += `  server r${i} 127.0.0.1:${port}\n`;
    }
    const port = await freePort();
    const config = join(dir, 'haproxy.cfg');
    writeFileSync(
      config,
      'defaults\n  mode http\n  timeout connect 5s\n  timeout client 60s\n  timeout server 60s\n' +
        `frontend mcp\n  bind 127.0.0.1:${port}\n  default_backend replicas\n` +
        `backend replicas\n  balance roundrobin\n${servers}`,
    );
    await started(haproxy, ['-db', '-f', config], port);
    url = new URL(`http://127.0.0.1:${port}/mcp`);
  });

  after(() => {
    for (const child of processes.reverse()) child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function exercise(client) {
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'test_simple_text'));
    for (let i = 0; i < 2 * REPLICAS; i++) {
      const result = await client.callTool({ name: 'test_simple_text', arguments: {} });
      assert.equal(textOf(result), 'This is a simple text response for testing.');
    }
    assert.equal(textOf(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Capital?' } })), 'LLM response: Paris');
    const elicited = textOf(await client.callTool({ name: 'test_elicitation', arguments: { message: 'Name?' } }));
    assert.match(elicited, /^User response: action=accept/);
  }

  const capabilities = { sampling: {}, elicitation: {} };
  for (const [era, mode] of [['legacy', 'legacy'], ['modern', { pin: '2026-07-28' }]]) {
    test(`official v2 client, ${era} era`, async () => {
      const client = new V2Client({ name: 'official-v2', version: '2.4.0' }, { capabilities, versionNegotiation: { mode } });
      client.setRequestHandler('elicitation/create', async () => answers.elicit);
      client.setRequestHandler('sampling/createMessage', async () => answers.sample);
      await client.connect(new V2Transport(url));
      try {
        assert.equal(client.getProtocolEra(), era);
        await exercise(client);
      } finally {
        await client.close();
      }
    });
  }

  test('official v1 client (sessions)', async () => {
    const client = new V1Client({ name: 'official-v1', version: '1.32.2' }, { capabilities });
    client.setRequestHandler(ElicitRequestSchema, async () => answers.elicit);
    client.setRequestHandler(CreateMessageRequestSchema, async () => answers.sample);
    const transport = new V1Transport(url);
    await client.connect(transport);
    try {
      assert.ok(transport.sessionId, 'a legacy session');
      await exercise(client);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });
});

test('RedisStore checks its options; eventStore takes it or an EventStore object, nothing else', () => {
  assert.throws(() => new RedisStore('not a url'), /invalid Redis URL/);
  assert.throws(() => new RedisStore('redis://127.0.0.1', { prefix: '' }), /prefix must be a non-empty string/);
  assert.throws(() => new RedisStore('redis://127.0.0.1', { shards: 3 }), /does not take the option "shards"/);
  assert.equal(new RedisStore('redis://:secret@127.0.0.1:6379').url, 'redis://***@127.0.0.1:6379');
  assert.throws(() => new StreamableHTTPServerTransport({ eventStore: 'redis://127.0.0.1' }), /eventStore must be an EventStore.*RedisStore/);
  assert.doesNotThrow(() => new StreamableHTTPServerTransport({ eventStore: { async storeEvent() {}, async replayEventsAfter() {} } }));
  assert.doesNotThrow(() => new StreamableHTTPServerTransport({ eventStore: new RedisStore('redis://127.0.0.1') }));
});

test('servers given the same requestStateKeys take each other\'s 2026-07-28 retries; another key is refused', async () => {
  const ask = { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };
  const serve = async (keys) => {
    const server = new McpServer({ name: 'replica', version: '1.0.0' }, { requestStateKeys: keys });
    server.registerTool('hello', { description: 'asks a name' }, async (ctx) => {
      const answer = await ctx.input('elicitation/create', ask, 'user_name');
      return { content: [{ type: 'text', text: `Hello, ${answer?.content?.name}!` }] };
    });
    return { server, listener: await server.listen({ port: 0 }) };
  };
  const shared = ['an old key that still opens state'];
  const [first, second, stranger] = await Promise.all([
    serve(['a key shared by the replicas, 32+ bytes', ...shared]),
    serve([new TextEncoder().encode('a key shared by the replicas, 32+ bytes')]),
    serve(['a key of some other deployment, 32+ bytes']),
  ]);
  try {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
      'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
    };
    const call = async (url, id, extra = {}) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'hello' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'hello', arguments: {}, _meta: meta, ...extra } }),
      });
      return response.json();
    };
    const asked = await call(first.listener.url, 1);
    assert.equal(asked.result.resultType, 'input_required');
    const retry = { requestState: asked.result.requestState, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } } };
    assert.equal(textOf((await call(second.listener.url, 2, retry)).result), 'Hello, Ada!');
    const refused = await call(stranger.listener.url, 3, retry);
    assert.equal(refused.error?.code, -32602, JSON.stringify(refused));
  } finally {
    await Promise.all([first, second, stranger].map(({ server }) => server.close()));
  }
  assert.throws(() => new McpServer({ name: 's', version: '1' }, { requestStateKeys: [] }), /requestStateKeys needs at least one key/);
  assert.throws(() => new McpServer({ name: 's', version: '1' }, { requestStateKeys: [42] }), /requestStateKeys must be an array/);
});

test('a requestStateKeys or FERRYMCP_STATE_KEY key shorter than 32 bytes is a RangeError (core\'s floor)', async () => {
  const short = (keys) => () => new McpServer({ name: 's', version: '1' }, { requestStateKeys: keys });
  const floor = (bytes, at = 0) => (error) =>
    error instanceof RangeError && error.code === 'ERR_OUT_OF_RANGE' && error.message.includes('at least 32 bytes') && error.message.endsWith(`keys[${at}] is ${bytes} bytes.`);
  assert.throws(short(['a key of some other deployment']), floor(30));
  assert.throws(short([new Uint8Array(31)]), floor(31));
  assert.throws(short(['a key shared by the replicas, 32+ bytes', 'an old short key']), floor(16, 1));
  assert.doesNotThrow(short([new Uint8Array(32)]));
  // The key a replica reads from the environment is held to the same floor.
  const script = `import { McpServer } from 'ferrymcp'; new McpServer({ name: 's', version: '1' });`;
  const run = (key) => spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: new URL('.', import.meta.url), env: { ...process.env, FERRYMCP_STATE_KEY: key }, encoding: 'utf8' });
  const refused = run('hunter2');
  assert.notEqual(refused.status, 0);
  assert.match(refused.stderr, /RangeError: McpServer: FERRYMCP_STATE_KEY: request-state keys must be at least 32 bytes of secret randomness; keys\[0\] is 7 bytes\./);
  assert.equal(run('an environment key of 32+ bytes, shared').status, 0, 'a long enough key is taken');
});
