// The multi-server host: ClientGroup (core's client group) on an mcp.json file with the
// official reference servers (npm, installed by scripts/test.sh under the repository's
// tests/interop/node_modules) and ferrymcp servers as real processes; the LLM API shapes;
// the chatbot example run against its scripted model.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { ClientGroup, McpError, toolDefinitions, toolResult } from 'ferrymcp';

import { fixture, textOf } from './helpers.mjs';

const root = process.env.FERRYMCP_ROOT ?? new URL('../../..', import.meta.url).pathname;
const modules = join(root, 'tests/interop/node_modules/@modelcontextprotocol');
const reference = (name) => join(modules, name, 'dist/index.js');
const installed = ['server-everything', 'server-filesystem', 'server-memory'].every((n) => existsSync(reference(n)));
if (!installed && process.env.CI) throw new Error(`CI must install the reference servers under ${modules} (scripts/test.sh)`);
const skip = installed ? false : `the reference servers are not installed under ${modules}`;

let dir;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ferrymcp-host-'));
  await mkdir(join(dir, 'files'));
  await writeFile(join(dir, 'files/note.txt'), 'the ferry leaves at noon');
});
after(async () => rm(dir, { recursive: true, force: true }));

function mcpJson() {
  const ferry = { command: process.execPath, args: [fixture('everything.mjs')] };
  return {
    mcpServers: {
      everything: { command: 'node', args: [reference('server-everything'), 'stdio'] },
      files: { command: 'node', args: [reference('server-filesystem'), join(dir, 'files')] },
      memory: { command: 'node', args: [reference('server-memory')], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } },
      ferry,
      ferry2: { ...ferry, type: 'stdio', cwd: dir },
      broken: { command: '/nonexistent/ferrymcp-no-such-server' },
    },
  };
}

/** The next event of `name` that satisfies `wanted`, with a deadline (a timer keeps Node alive meanwhile). */
function eventsOf() {
  const seen = [];
  let waiter;
  const onEvent = (name, event) => {
    seen.push([name, event.event]);
    waiter?.();
  };
  const until = (check) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no such event in 30 s: ${JSON.stringify(seen)}`)), 30_000);
      waiter = () => {
        if (check(seen)) {
          clearTimeout(timer);
          resolve(seen);
        }
      };
      waiter();
    });
  return { seen, onEvent, until };
}

/** Runs examples/node/chatbot.mjs with one line of input, then `quit`. */
async function chatbot(args, line, env) {
  // Next to this file, so that its `import 'ferrymcp'` finds the package under test.
  const script = fixture('chatbot.mjs');
  await copyFile(join(root, 'examples/node/chatbot.mjs'), script);
  const child = spawn(process.execPath, [script, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  child.stdin.end(`${line}\nquit\n`);
  const code = await new Promise((resolve) => child.on('close', resolve));
  return { code, out, err };
}

describe('ClientGroup from mcp.json', { skip }, () => {
  test('connects in parallel, reports a failing server, namespaces, routes and reconnects', async () => {
    const config = join(dir, 'mcp.json');
    await writeFile(config, JSON.stringify(mcpJson()));
    const events = eventsOf();
    const group = await ClientGroup.fromMcpJson(config, { minBackoffMs: 100, maxBackoffMs: 2000, onEvent: events.onEvent });
    try {
      const states = Object.fromEntries(group.servers().map((s) => [s.name, s.state]));
      assert.deepEqual(states, { broken: 'failed', everything: 'connected', ferry: 'connected', ferry2: 'connected', files: 'connected', memory: 'connected' });
      assert.match(group.servers().find((s) => s.name === 'broken').error, /ferrymcp-no-such-server/);

      const names = new Set(group.tools.map((t) => t.name));
      for (const name of ['echo', 'read_text_file', 'create_entities', 'ferry__test_simple_text', 'ferry2__test_simple_text']) {
        assert.ok(names.has(name), name);
      }
      assert.ok(!names.has('test_simple_text'));
      await assert.rejects(group.callTool('test_simple_text'), (e) => e instanceof McpError && /more than one server/.test(e.message));

      assert.match(textOf(await group.callTool('echo', { message: 'over the group' })), /over the group/);
      const read = await group.callTool('read_text_file', { path: join(dir, 'files/note.txt') });
      assert.equal(textOf(read), 'the ferry leaves at noon');
      await group.callTool('create_entities', { entities: [{ name: 'Ferry', entityType: 'boat', observations: ['leaves at noon'] }] });
      assert.match(textOf(await group.callTool('read_graph')), /leaves at noon/);
      const simple = await group.callTool('ferry__test_simple_text');
      await assert.rejects(group.callTool('broken__anything'), (e) => e.code === -32000 && /broken/.test(e.message));

      // A killed server comes back as a new process.
      const before = group.servers().find((s) => s.name === 'ferry');
      events.seen.length = 0;
      process.kill(before.pid, 'SIGKILL');
      await events.until((seen) => seen.some(([n, e]) => n === 'ferry' && e === 'connected'));
      assert.deepEqual(events.seen.filter(([n]) => n === 'ferry').map(([, e]) => e), ['lost', 'connected']);
      const now = group.servers().find((s) => s.name === 'ferry');
      assert.equal(now.connections, 2);
      assert.notEqual(now.pid, before.pid);
      assert.deepEqual(await group.callTool('ferry__test_simple_text'), simple);

      const anthropic = new Map(group.toolsFor('anthropic').map((t) => [t.name, t]));
      assert.equal(anthropic.get('ferry2__test_simple_text').input_schema.type, 'object');
    } finally {
      await group.close();
    }
  });

  test('tools and results in the LLM APIs shapes', async () => {
    const group = await ClientGroup.fromMcpJson({ servers: { everything: { command: 'node', args: [reference('server-everything'), 'stdio'] } } });
    try {
      const image = await group.callTool('get-tiny-image');
      const png = image.content.find((b) => b.type === 'image');
      const chat = toolResult('openai-chat', 'call_1', image);
      assert.equal(chat[0].role, 'tool');
      assert.equal(chat[1].content[1].image_url.url, `data:image/png;base64,${png.data}`);
      const block = toolResult('anthropic', 'toolu_1', image)[0];
      assert.ok(block.content.some((p) => p.source?.data === png.data && p.source.media_type === 'image/png'));
      const responses = toolDefinitions('openai-responses', group.tools);
      assert.ok(responses.every((t) => t.strict === false && t.type === 'function'));
      assert.throws(() => toolDefinitions('gemini', group.tools), /unknown LLM API/);
      await assert.rejects(ClientGroup.fromMcpJson({}, { connectTimeout: 5 }), /unknown option "connectTimeout"/);
    } finally {
      await group.close();
    }
  });

  test('the chatbot example speaks Chat Completions to OPENAI_BASE_URL when OPENAI_API_KEY is set', async () => {
    // An endpoint of this test answers as a model would: one tool call, then text.
    const bodies = [];
    const keys = [];
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (d) => (text += d));
      req.on('end', () => {
        const body = JSON.parse(text);
        bodies.push(body);
        keys.push(req.headers.authorization);
        const last = body.messages.at(-1);
        const message =
          last.role === 'tool'
            ? { role: 'assistant', content: `The sum: ${last.content}` }
            : { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get-sum', arguments: '{"a": 2, "b": 40}' } }] };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ choices: [{ index: 0, message, finish_reason: 'stop' }] }));
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const path = join(dir, 'http.json');
      await writeFile(path, JSON.stringify({ mcpServers: { everything: { command: 'node', args: [reference('server-everything'), 'stdio'] } } }));
      const env = { ...process.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `http://127.0.0.1:${server.address().port}/v1` };
      const { code, out, err } = await chatbot(['--config', path], 'add 2 and 40', env);
      assert.equal(code, 0, err);
      assert.match(out, /assistant: The sum: .*42/);
    } finally {
      server.close();
    }
    assert.deepEqual(keys, ['Bearer test-key', 'Bearer test-key']);
    assert.equal(bodies[0].model, 'gpt-4o-mini');
    assert.ok(bodies[0].tools.some((t) => t.type === 'function' && t.function.name === 'get-sum'));
    assert.equal(bodies[1].messages.at(-1).tool_call_id, 'c1');
  });

  test('the chatbot example completes a multi-tool conversation', async () => {
    const config = mcpJson();
    delete config.mcpServers.ferry2;
    const path = join(dir, 'chat.json');
    await writeFile(path, JSON.stringify(config));
    const env = { ...process.env };
    delete env.OPENAI_API_KEY;
    const { code, out, err } = await chatbot(['--config', path, '--scripted'], 'Remember the ferry, read my note, then add 2 and 40', env);
    assert.equal(code, 0, err);
    assert.match(err, /server broken: failed/);
    for (const name of ['create_entities', 'list_allowed_directories', 'read_text_file', 'get-sum']) assert.match(out, new RegExp(`tool call: ${name}`));
    assert.match(out, /assistant: Done\..*the ferry leaves at noon/s);
    assert.match(out, /42/);
  });
});

test('Python and Node emit the same LLM API JSON, byte for byte', async () => {
  const python = join(root, '.venv/bin/python');
  if (!existsSync(python)) {
    assert.ok(!process.env.CI, `CI must have ${python} with the ferrymcp wheel`);
    return;
  }
  const tools = [
    { name: 'add', description: 'Adds', inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] } },
    { name: 'ping', inputSchema: { type: 'object' } },
  ];
  const result = {
    content: [
      { type: 'text', text: 'hi' },
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
      { type: 'resource', resource: { uri: 'file:///n.txt', text: 'note' } },
      { type: 'resource_link', uri: 'file:///x', name: 'x' },
    ],
    structuredContent: { n: 1 },
    isError: true,
  };
  const apis = ['openai-chat', 'openai-responses', 'anthropic'];
  const ours = JSON.stringify(apis.map((api) => [toolDefinitions(api, tools), toolResult(api, 'call_1', result)]));
  const script = [
    'import json, sys',
    'from ferrymcp.client.llm import tool_definitions, tool_result',
    'tools, result = json.load(sys.stdin)',
    `apis = ${JSON.stringify(apis)}`,
    "print(json.dumps([[tool_definitions(a, tools), tool_result(a, 'call_1', result)] for a in apis], separators=(',', ':'), ensure_ascii=False))",
  ].join('\n');
  const child = spawn(python, ['-c', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stdin.end(JSON.stringify([tools, result]));
  assert.equal(await new Promise((resolve) => child.on('close', resolve)), 0);
  assert.equal(out.trim(), ours);
});
