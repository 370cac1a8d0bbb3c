// `npx ferrymcp`: the packed main package's `bin` launcher runs the real `ferrymcp`
// executable from the platform package (scripts/test.sh installs both tarballs here), and
// the command behaves as the native binary: version, output, exit codes, stdin/stdout
// (`bridge --stdio`, driven by the official TypeScript client) and signals.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync(require.resolve('ferrymcp/package.json'), 'utf8'));
const fixture = process.env.FERRYMCP_EVERYTHING;
const launcher = join(process.cwd(), 'node_modules', '.bin', 'ferrymcp');
const native = join(dirname(require.resolve('ferrymcp-linux-x64-gnu/package.json')), 'ferrymcp');

const npx = (...args) => spawnSync('npx', ['--no-install', 'ferrymcp', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** The fixture over Streamable HTTP on a port of its choosing. */
async function httpFixture(t) {
  const child = spawn(fixture, ['--transport', 'http', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  t.after(() => child.kill());
  const [line] = await once(createInterface({ input: child.stdout }), 'line');
  return line.replace(/^listening on /, '').trim();
}

test('npx ferrymcp --version is the package version, from the platform package executable', () => {
  const out = npx('--version');
  assert.equal(out.status, 0, out.stderr);
  assert.equal(out.stdout.trim(), `ferrymcp ${manifest.version}`);
  assert.equal(spawnSync(native, ['--version'], { encoding: 'utf8' }).stdout, out.stdout);
});

test('npx ferrymcp inspect lists the fixture, and exit codes are the native ones', () => {
  const out = npx('inspect', fixture, '--json');
  assert.equal(out.status, 0, out.stderr);
  const inventory = JSON.parse(out.stdout);
  assert.equal(inventory.serverInfo.name, 'mcp-conformance-test-server');
  assert.ok(inventory.tools.some((tool) => tool.name === 'greet'));
  const called = npx('call', fixture, 'greet', 'name=npx');
  assert.equal(called.status, 0, called.stderr);
  assert.match(called.stdout, /npx/);
  // 2: an unknown tool (a usage error); 3: a server that cannot be reached.
  const unknown = npx('call', fixture, 'no_such_tool');
  assert.equal(unknown.status, 2, unknown.stderr);
  assert.match(unknown.stderr, /greet/);
  assert.equal(npx('inspect', '/nonexistent/server').status, 3);
});

test('ferrymcp bridge --stdio through the launcher serves the official TypeScript client', async (t) => {
  const url = await httpFixture(t);
  const client = new Client({ name: 'npx-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: launcher, args: ['bridge', '--stdio', url], stderr: 'ignore' }));
  t.after(() => client.close());
  const { tools } = await client.listTools();
  assert.ok(tools.some((tool) => tool.name === 'test_simple_text'));
  const result = await client.callTool({ name: 'greet', arguments: { name: 'bridged' } });
  assert.match(result.content[0].text, /bridged/);
});

// The launcher passes SIGTERM and SIGINT on and ends as the executable ended: the same
// exit code, or the same signal.
for (const signal of ['SIGTERM', 'SIGINT']) {
  test(`${signal} ends the command as it ends the native binary`, async (t) => {
    const url = await httpFixture(t);
    const ends = [];
    for (const command of [native, launcher]) {
      const child = spawn(command, ['bridge', '--stdio', url], { stdio: ['pipe', 'pipe', 'ignore'] });
      t.after(() => child.kill('SIGKILL'));
      // Up when it answers a ping.
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
      const [line] = await once(createInterface({ input: child.stdout }), 'line');
      assert.equal(JSON.parse(line).id, 1);
      const exited = once(child, 'exit');
      child.kill(signal);
      ends.push(await exited);
    }
    assert.deepEqual(ends[1], ends[0]);
  });
}
