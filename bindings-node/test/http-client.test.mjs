// ferrymcp's Client over Streamable HTTP (StreamableHTTPClientTransport) against real
// servers on 127.0.0.1: the official TypeScript SDK's (v2 with legacy sessions, v2
// stateless 2026-07-28, v1 sessions; fixtures/official-http.mjs) and the Rust fixture
// `ferrymcp-everything --transport http` (its path in FERRYMCP_EVERYTHING), each a child
// process that the tests can kill.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';

import { Client, SSEClientTransport, StreamableHTTPClientTransport } from 'ferrymcp';
import { StreamableHTTPClientTransport as V1Path } from 'ferrymcp/client/streamableHttp.js';
import { SSEClientTransport as V1SsePath } from 'ferrymcp/client/sse.js';

import { answers, fixture, textOf } from './helpers.mjs';

const EVERYTHING = process.env.FERRYMCP_EVERYTHING;
const run = promisify(execFile);
const servers = [];
after(() => servers.forEach((server) => server.child.kill('SIGKILL')));

/** Starts a server process and waits for its `listening on <url>` line. */
async function start(command, args) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const server = { child, url: undefined };
  servers.push(server);
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const match = /listening on (\S+)/.exec(line);
    if (match) {
      server.url = new URL(match[1]);
      break;
    }
  }
  assert.ok(server.url, 'the server printed its URL');
  return server;
}

/** A ferrymcp Client answering elicitation, sampling and roots, connected over HTTP. */
async function connect(url, { era = 'auto', options } = {}) {
  const client = new Client({ name: 'ferrymcp-http-tests', version: '1.0.0' }, { era });
  client.setRequestHandler('elicitation/create', async () => answers.elicit);
  client.setRequestHandler('sampling/createMessage', async () => answers.sample);
  client.setRequestHandler('roots/list', async () => answers.roots);
  const transport = new StreamableHTTPClientTransport(url, options);
  await client.connect(transport);
  return { client, transport };
}

/** Resolves when `client.onclose` fires. */
const closed = (client) => new Promise((resolve) => (client.onclose = resolve));

const official = [
  ['official v2 server, legacy sessions', 'legacy', 'legacy'],
  ['official v2 server, 2026-07-28 stateless', 'modern', 'modern'],
  ['official v1 server, sessions', 'v1', 'legacy'],
];

for (const [title, mode, era] of official) {
  describe(title, () => {
    test('tools, progress, elicitation, resources, prompts; the session', async () => {
      const server = await start(process.execPath, [fixture('official-http.mjs'), mode]);
      const { client, transport } = await connect(server.url);
      try {
        assert.equal(client.getProtocolEra(), era);
        assert.equal(typeof transport.sessionId, era === 'legacy' ? 'string' : 'undefined');
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name).sort(), ['add', 'confirm', 'headers', 'progress', 'slow']);
        assert.equal(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })), '5');
        const progress = [];
        const done = await client.callTool({ name: 'progress', arguments: { steps: 3 } }, { onprogress: (p) => progress.push(p.progress) });
        assert.equal(textOf(done), '3 steps');
        assert.deepEqual(progress, [1, 2, 3]);
        assert.equal(textOf(await client.callTool({ name: 'confirm', arguments: {} })), 'confirmed: accept true');
        assert.equal((await client.readResource({ uri: 'notes://1' })).contents[0].text, 'Buy milk');
        const prompt = await client.getPrompt({ name: 'summarize', arguments: { id: '1' } });
        assert.equal(prompt.messages[0].content.text, 'Summarize note 1');
        await assert.rejects(client.callTool({ name: 'slow', arguments: {} }, { timeout: 200 }), { code: -32001 });
        // Aborted once the server says the call started (its first progress).
        const controller = new AbortController();
        const aborted = client.callTool({ name: 'slow', arguments: {} }, { signal: controller.signal, onprogress: () => controller.abort() });
        await assert.rejects(aborted, { code: -32800 });
        assert.equal(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })), '2');
        if (era === 'legacy') {
          await transport.terminateSession();
          assert.equal(transport.sessionId, undefined);
        }
      } finally {
        await client.close();
      }
      server.child.kill();
    });

    test('custom headers and the bearer token reach the server', async () => {
      const server = await start(process.execPath, [fixture('official-http.mjs'), mode]);
      const options = { requestInit: { headers: { 'X-Team': 'blue' } }, authProvider: { token: async () => 's3cret' } };
      const { client } = await connect(server.url, { options });
      try {
        const seen = JSON.parse(textOf(await client.callTool({ name: 'headers', arguments: {} })));
        assert.deepEqual(seen, { authorization: 'Bearer s3cret', team: 'blue' });
      } finally {
        await client.close();
      }
      server.child.kill();
    });

    test('a server killed mid-call fails the call with a code and fires onclose', async () => {
      const server = await start(process.execPath, [fixture('official-http.mjs'), mode]);
      const { client, transport } = await connect(server.url);
      const gone = closed(client);
      const transportGone = new Promise((resolve) => (transport.onclose = resolve));
      // Killed once the server says the call started (its first progress).
      const call = client.callTool({ name: 'slow', arguments: {} }, { onprogress: () => server.child.kill('SIGKILL') });
      await assert.rejects(call, (e) => e.code === -32000);
      await gone;
      await transportGone;
      await assert.rejects(client.listTools(), { code: -32000 });
    });
  });
}

describe('official v1 server, deprecated HTTP+SSE transport', () => {
  for (const [title, Transport] of [['SSEClientTransport', SSEClientTransport], ['StreamableHTTPClientTransport falls back', StreamableHTTPClientTransport]]) {
    test(`${title}: tools, progress, elicitation, headers`, async () => {
      const server = await start(process.execPath, [fixture('official-http.mjs'), 'sse']);
      const client = new Client({ name: 'ferrymcp-http-tests', version: '1.0.0' });
      client.setRequestHandler('elicitation/create', async () => answers.elicit);
      await client.connect(new Transport(server.url, { requestInit: { headers: { 'X-Team': 'green' } } }));
      try {
        assert.equal(client.getProtocolEra(), 'legacy');
        assert.equal(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })), '5');
        const progress = [];
        await client.callTool({ name: 'progress', arguments: { steps: 2 } }, { onprogress: (p) => progress.push(p.progress) });
        assert.deepEqual(progress, [1, 2]);
        assert.equal(textOf(await client.callTool({ name: 'confirm', arguments: {} })), 'confirmed: accept true');
        assert.equal(JSON.parse(textOf(await client.callTool({ name: 'headers', arguments: {} }))).team, 'green');
      } finally {
        await client.close();
      }
      server.child.kill();
    });
  }
});

describe('the Rust fixture over HTTP', { skip: EVERYTHING === undefined && !process.env.CI && 'FERRYMCP_EVERYTHING is not set' }, () => {
  for (const era of ['modern', 'legacy']) {
    test(`${era} era: tools, progress, client input, resources, prompts`, async () => {
      const server = await start(EVERYTHING, ['--transport', 'http', '--port', '0']);
      const { client, transport } = await connect(server.url, { era: era === 'modern' ? 'auto' : 'legacy' });
      try {
        assert.equal(client.getProtocolEra(), era);
        assert.equal(typeof transport.sessionId, era === 'legacy' ? 'string' : 'undefined');
        assert.equal(textOf(await client.callTool({ name: 'test_simple_text', arguments: {} })), 'This is a simple text response for testing.');
        const progress = [];
        await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onprogress: (p) => progress.push(p.progress) });
        assert.deepEqual(progress, [0, 50, 100]);
        assert.match(textOf(await client.callTool({ name: 'test_elicitation', arguments: { message: 'Name?' } })), /^User response: action=accept/);
        assert.equal(textOf(await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Capital?' } })), 'LLM response: Paris');
        if (era === 'legacy') {
          const logged = [];
          const all = new Promise((resolve) => client.setNotificationHandler('notifications/message', (n) => logged.push(n.params.data) === 3 && resolve()));
          await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
          await all;
          assert.deepEqual(logged, ['Tool execution started', 'Tool processing data', 'Tool execution completed']);
        }
        if (era === 'modern') {
          const multiple = await client.callTool({ name: 'test_input_required_result_multiple_inputs', arguments: {} });
          assert.equal(textOf(multiple), 'Name: Ada; Greeting: Paris; Roots: 1');
        }
        const data = await client.readResource({ uri: 'test://template/7/data' });
        assert.equal(JSON.parse(data.contents[0].text).id, '7');
        const prompt = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'x', arg2: 'y' } });
        assert.equal(prompt.messages[0].content.text, "Prompt with arguments: arg1='x', arg2='y'");
      } finally {
        await client.close();
      }
      server.child.kill();
    });

    test(`${era} era: a server killed while the client answers its elicitation`, async () => {
      const server = await start(EVERYTHING, ['--transport', 'http', '--port', '0']);
      const { client } = await connect(server.url, { era });
      client.setRequestHandler('elicitation/create', async () => {
        server.child.kill('SIGKILL');
        await once(server.child, 'exit');
        return answers.elicit;
      });
      const gone = closed(client);
      await assert.rejects(client.callTool({ name: 'test_elicitation', arguments: { message: 'Name?' } }), (e) => e.code === -32000);
      await gone;
    });
  }
});

describe('the transports', () => {
  test('a script that connects over HTTP, calls and closes exits by itself', async () => {
    const server = await start(process.execPath, [fixture('official-http.mjs'), 'legacy']);
    const { stdout } = await run(process.execPath, [fixture('http-client-exits.mjs'), server.url.href], { timeout: 30_000 });
    assert.equal(stdout, '5\n');
    server.child.kill();
  });

  test('the CommonJS paths load', async () => {
    const script = [
      "const { StreamableHTTPClientTransport, SSEClientTransport } = require('ferrymcp');",
      "const v1 = require('ferrymcp/client/streamableHttp.js');",
      "const sse = require('ferrymcp/client/sse.js');",
      "if (!(v1.StreamableHTTPClientTransport.prototype instanceof StreamableHTTPClientTransport) || sse.SSEClientTransport !== SSEClientTransport) process.exit(1);",
      "console.log(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:1/mcp')).sessionId);",
    ].join('\n');
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: fixture('..'), timeout: 30_000 });
    assert.equal(stdout.trim(), 'undefined');
  });

  test('the v1 paths name the same classes (v1\'s Streamable HTTP transport a subclass of the root\'s: it throws v1\'s HTTP errors)', () => {
    assert.ok(V1Path.prototype instanceof StreamableHTTPClientTransport);
    assert.equal(V1Path.name, StreamableHTTPClientTransport.name);
    assert.equal(V1SsePath, SSEClientTransport);
  });

  test('what the core does not do is refused with a TypeError naming it', () => {
    const url = new URL('http://127.0.0.1:1/mcp');
    for (const [options, names] of [
      [{ fetch: globalThis.fetch }, /option fetch/],
      [{ reconnectionOptions: { maxRetries: 1 } }, /option reconnectionOptions/],
      [{ sessionId: 'abc' }, /option sessionId/],
      [{ requestInit: { credentials: 'include' } }, /requestInit\.credentials/],
      [{ authProvider: { tokens: async () => undefined, redirectToAuthorization() {} } }, /OAuth/],
      [{ authProvider: { token: async () => 't', onUnauthorized: async () => {} } }, /onUnauthorized/],
    ]) {
      assert.throws(() => new StreamableHTTPClientTransport(url, options), (e) => e instanceof TypeError && names.test(e.message));
    }
    assert.throws(() => new SSEClientTransport(url, { eventSourceInit: {} }), (e) => e instanceof TypeError && /eventSourceInit/.test(e.message));
  });

  test('a server that is not there fails connect() with a code', async () => {
    const client = new Client({ name: 'nobody-home', version: '1.0.0' });
    await assert.rejects(client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:1/mcp'))), (e) => typeof e.code === 'number');
  });
});
