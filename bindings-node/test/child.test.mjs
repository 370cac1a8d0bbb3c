// What a ferrymcp client gives the server process it starts, over real child processes:
// the official SDKs' default environment (a short list of this process's variables, plus
// what `env` sets: no host secrets), and the child's stderr inherited, ignored, or piped to
// `transport.stderr` / a stream of the caller's, as `StdioClientTransport` documents.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { Client } from 'ferrymcp';
import { DEFAULT_INHERITED_ENV_VARS, getDefaultEnvironment, StdioClientTransport } from 'ferrymcp/stdio';
import * as v1 from 'ferrymcp/client/stdio.js';
import { fixture } from './helpers.mjs';

async function connected(parameters) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [fixture('child-env.mjs')], ...parameters });
  const client = new Client({ name: 'child-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

async function childEnvironment(client) {
  const result = await client.callTool({ name: 'env', arguments: {} });
  return JSON.parse(result.content[0].text);
}

describe('the environment of a child server', () => {
  test('is the default list plus env, never the rest of this process', { timeout: 30_000 }, async () => {
    process.env.FERRYMCP_TEST_SECRET = 'not for the child';
    try {
      const { client } = await connected({ env: { GIVEN_TO_CHILD: '1' } });
      const names = await childEnvironment(client);
      await client.close();
      assert.ok(names.includes('GIVEN_TO_CHILD'));
      assert.ok(names.includes('PATH'));
      assert.ok(!names.includes('FERRYMCP_TEST_SECRET'));
      const allowed = new Set([...DEFAULT_INHERITED_ENV_VARS, 'GIVEN_TO_CHILD']);
      // Node itself may add variables to its own process (none today); anything else leaked.
      assert.deepEqual(names.filter((name) => !allowed.has(name)), []);
    } finally {
      delete process.env.FERRYMCP_TEST_SECRET;
    }
  });

  test('getDefaultEnvironment names what a child starts with', () => {
    const env = getDefaultEnvironment();
    assert.equal(env.PATH, process.env.PATH);
    assert.deepEqual(Object.keys(env).filter((name) => !DEFAULT_INHERITED_ENV_VARS.includes(name)), []);
    assert.equal(v1.getDefaultEnvironment, getDefaultEnvironment);
    assert.ok(DEFAULT_INHERITED_ENV_VARS.includes('PATH'));
  });
});

describe('the stderr of a child server', () => {
  test("'pipe' gives transport.stderr, readable before connecting", { timeout: 30_000 }, async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [fixture('child-env.mjs')], stderr: 'pipe' });
    assert.ok(transport.stderr);
    let text = '';
    const seen = new Promise((resolve) => {
      transport.stderr.on('data', (chunk) => {
        text += chunk;
        if (text.includes('second line\n')) resolve();
      });
    });
    const client = new Client({ name: 'child-tests', version: '1.0.0' });
    await client.connect(transport);
    await seen;
    await client.close();
    assert.equal(text, 'child-env: starting\nchild-env: second line\n');
  });

  test('a writable stream of the caller receives it', { timeout: 30_000 }, async () => {
    const sink = new PassThrough();
    const { client, transport } = await connected({ stderr: sink });
    assert.equal(transport.stderr, null);
    let text = '';
    sink.on('data', (chunk) => (text += chunk));
    while (!text.includes('second line\n')) await once(sink, 'data');
    await client.close();
    assert.match(text, /child-env: starting\n/);
  });

  test("'inherit' and 'ignore' leave transport.stderr null", () => {
    for (const stderr of ['inherit', 'ignore', undefined]) {
      const transport = new StdioClientTransport({ command: process.execPath, stderr });
      assert.equal(transport.stderr, null);
    }
  });

  test('an unsupported value is refused, naming it', () => {
    assert.throws(() => new StdioClientTransport({ command: process.execPath, stderr: 7 }), /stderr 7 is not supported/);
  });
});

describe('a connected client', () => {
  test('keeps Node alive for a notification the server sends later, then exits once closed', { timeout: 30_000 }, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [fixture('await-notification.mjs'), fixture('child-env.mjs')], { timeout: 20_000 });
    assert.equal(stdout, 'later\n');
  });
});
