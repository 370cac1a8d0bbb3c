// The context a v2 server factory receives: a tool that closes over `ctx.era` answers with
// the era of the request it serves (as the official SDK's per-request instances do), over
// stdio and over createMcpHandler; read outside a request, `era` says why it cannot answer.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { fixture } from './helpers.mjs';

async function eraOf(transport, mode) {
  const client = new Client({ name: 'official', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'era', arguments: {} });
    return result.content[0].text.split(' | ');
  } finally {
    await client.close();
  }
}

test('serveStdio: ctx.era is the era of the request being served', async () => {
  for (const [mode, era] of [['legacy', 'legacy'], ['auto', 'modern']]) {
    const [seen, early] = await eraOf(new StdioClientTransport({ command: process.execPath, args: [fixture('dual-era.mjs')] }), mode);
    assert.equal(seen, era);
    assert.match(early, /ctx\.era is known only while a request is handled/);
  }
});

test('createMcpHandler: ctx.era per request, both eras on one endpoint', async () => {
  const child = spawn(process.execPath, [fixture('dual-era.mjs'), '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [line] = await once(child.stdout, 'data');
    const url = new URL(`http://127.0.0.1:${/PORT (\d+)/.exec(String(line))[1]}/mcp`);
    assert.equal((await eraOf(new StreamableHTTPClientTransport(url), 'legacy'))[0], 'legacy');
    assert.equal((await eraOf(new StreamableHTTPClientTransport(url), 'auto'))[0], 'modern');
    assert.equal((await eraOf(new StreamableHTTPClientTransport(url), 'legacy'))[0], 'legacy');
  } finally {
    child.kill();
  }
});
