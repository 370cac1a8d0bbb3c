// `supportedProtocolVersions` on `McpServer`, as the official custom-version example uses
// it: a revision the SDK does not know listed first. Core negotiates it (the requested
// revision if listed, else the list's first), serves it as the newest revision it knows
// that is not later, and over HTTP takes it in the session's `MCP-Protocol-Version`
// header. The official v2 client is the peer, over a real stdio child and real HTTP.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { test } from 'node:test';

import { Client as OfficialClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpServer, SUPPORTED_PROTOCOL_VERSIONS } from 'ferrymcp';

import { fixture } from './helpers.mjs';

const CUSTOM = ['2026-01-01', ...SUPPORTED_PROTOCOL_VERSIONS];

/** Connects an official legacy client offering `versions`; the negotiated revision and what the tool saw. */
async function negotiate(transport, versions) {
  const options = { versionNegotiation: { mode: 'legacy' }, ...(versions && { supportedProtocolVersions: versions }) };
  const client = new OfficialClient({ name: 'official', version: '1.0.0' }, options);
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'version', arguments: {} });
    return [client.getNegotiatedProtocolVersion(), result.content[0].text];
  } finally {
    await client.close();
  }
}

const stdio = () => new StdioClientTransport({ command: process.execPath, args: [fixture('custom-versions.mjs')] });

test('stdio: a listed draft revision is negotiated when offered, a stock client gets its own', async () => {
  assert.deepEqual(await negotiate(stdio(), CUSTOM), ['2026-01-01', '2026-01-01']);
  assert.deepEqual(await negotiate(stdio()), ['2025-11-25', '2025-11-25']);
});

test('HTTP: the draft revision is negotiated and then carried in the session header; an unlisted one gets the list first', async () => {
  const child = spawn(process.execPath, [fixture('custom-versions.mjs'), '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [line] = await once(createInterface({ input: child.stdout }), 'line');
    const url = new URL(`http://127.0.0.1:${line.split(' ')[1]}/mcp`);
    assert.deepEqual(await negotiate(new StreamableHTTPClientTransport(url), CUSTOM), ['2026-01-01', '2026-01-01']);
    assert.deepEqual(await negotiate(new StreamableHTTPClientTransport(url)), ['2025-11-25', '2025-11-25']);
    const post = (body, headers = {}) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-01-01', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    const text = await init.text();
    const answer = JSON.parse(text.startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: ')).slice(6));
    assert.equal(answer.result.protocolVersion, '2026-01-01');
    // The session's requests name the draft revision in their header (a revision the
    // server did not list is refused there: core/tests/legacy_versions.rs).
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id'), 'mcp-protocol-version': '2026-01-01' };
    const listed = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
    assert.equal(listed.status, 200);
  } finally {
    child.kill();
  }
});

test('a list core cannot serve is refused when the server is built, naming the entry', () => {
  for (const [versions, named] of [
    [['2023-01-01'], '"2023-01-01" is older than the first protocol revision'],
    [['2027-01-01', '2025-11-25'], '"2027-01-01" is a revision of the 2026-07-28 era'],
    [['latest'], 'not a protocol revision'],
    ['2025-11-25', 'must be an array'],
  ]) {
    assert.throws(() => new McpServer({ name: 's', version: '1' }, { supportedProtocolVersions: versions }), (error) => {
      assert.match(error.message, /supportedProtocolVersions/);
      assert.ok(error.message.includes(named), error.message);
      return true;
    });
  }
});
