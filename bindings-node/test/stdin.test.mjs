// A stdio server keeps serving when user code touched `process.stdin` before it started
// (Node then holds the pipe non-blocking, or even reads it), over a real child process:
// several round trips, each of which makes the server wait for its next frame, then the
// server exits by itself when its stdin ends.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import { Client } from 'ferrymcp';
import { StdioClientTransport } from 'ferrymcp/stdio';
import { fixture } from './helpers.mjs';

// The ways that leave reading to the server (Node's stream is created, made non-blocking,
// maybe given listeners, but paused).
const ways = ['import', 'official-import', 'isTTY', 'on-end', 'on-close', 'setEncoding'];

describe('a stdio server after user code touched process.stdin', () => {
  for (const style of ['v2', 'v1']) {
    for (const way of ways) {
      test(`${way} (${style})`, { timeout: 30_000 }, async () => {
        const client = new Client({ name: 'stdin-tests', version: '1.0.0' });
        await client.connect(new StdioClientTransport({ command: process.execPath, args: [fixture('stdin-touched.mjs'), way, style] }));
        for (let i = 0; i < 5; i++) {
          const result = await client.callTool({ name: 'echo', arguments: { text: `call ${i}` } });
          assert.equal(result.content[0].text, `call ${i}`);
        }
        assert.equal((await client.listTools()).tools[0].name, 'echo');
        await client.close();
      });
    }
  }

  // User code that reads stdin itself competes with the engine for frames; the server says
  // so when it starts, naming the cause, and still ends with its stdin.
  for (const way of ['resume', 'on-data']) {
    test(`${way}: a warning names the conflict`, { timeout: 30_000 }, async () => {
      const child = spawn(process.execPath, [fixture('stdin-touched.mjs'), way], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stdin.end();
      const [code] = await once(child, 'exit');
      assert.equal(code, 0);
      assert.match(stderr, /FERRYMCP_STDIN_READ.*process\.stdin is being read/);
    });
  }

  test('ends when its stdin ends, non-blocking pipe and all', { timeout: 30_000 }, async () => {
    const child = spawn(process.execPath, [fixture('stdin-touched.mjs'), 'on-end'], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.end();
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  });
});
