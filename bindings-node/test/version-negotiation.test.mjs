// The client's version negotiation sends what the official v2 client sends: with no
// `versionNegotiation` (and `mode: 'legacy'`) the plain `initialize` handshake, with
// `mode: 'auto'` and a pin the `server/discover` probe first. Both clients run over a real
// stdio child (a recording pass-through in front of the official v2 server, which answers
// both eras), and the methods each sent before its first `tools/list` are compared.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { Client as OfficialClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as OfficialStdio } from '@modelcontextprotocol/client/stdio';
import { Client, MODERN_PROTOCOL_VERSION } from 'ferrymcp';
import { StdioClientTransport } from 'ferrymcp/stdio';

import { fixture } from './helpers.mjs';

const dir = mkdtempSync(path.join(tmpdir(), 'ferrymcp-negotiation-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Connects with `Client`/`Stdio` and `options`, lists the tools: the methods sent until then, and the era. */
async function sent(name, Client, Stdio, options, env) {
  const log = path.join(dir, `${name}.log`);
  const client = options === undefined ? new Client({ name, version: '1.0.0' }) : new Client({ name, version: '1.0.0' }, options);
  await client.connect(new Stdio({ command: process.execPath, args: [fixture('record-methods.mjs'), log, fixture('official-serve.mjs')], env }));
  try {
    await client.listTools();
    const methods = readFileSync(log, 'utf8').trim().split('\n');
    return { methods: methods.slice(0, methods.indexOf('tools/list')), version: client.getNegotiatedProtocolVersion() };
  } finally {
    await client.close();
  }
}

const CASES = [
  ['no options', undefined],
  ['no versionNegotiation', {}],
  ["mode: 'legacy'", { versionNegotiation: { mode: 'legacy' } }],
  ['a probe policy without mode', { versionNegotiation: { probe: { maxRetries: 0 } } }],
  ["mode: 'auto'", { versionNegotiation: { mode: 'auto' } }],
  ['a pin', { versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } }],
];

for (const [i, [what, options]] of CASES.entries()) {
  test(`${what}: ferrymcp's client sends what the official v2 client sends first, and lands on the same revision`, async () => {
    const official = await sent(`official-${i}`, OfficialClient, OfficialStdio, options);
    const ours = await sent(`ferrymcp-${i}`, Client, StdioClientTransport, options);
    assert.equal(ours.methods[0], official.methods[0], `first method (official sent ${official.methods.join(', ')}; ferrymcp ${ours.methods.join(', ')})`);
    assert.deepEqual(ours.methods, official.methods);
    assert.equal(ours.version, official.version);
  });
}

// The probe waits as long as any request (the official `probe.timeoutMs` default, core's
// `ClientOptions::typescript`), not a shorter fixed window: a server that reads nothing for
// 6 s after starting (longer than core's own 5 s default) is still reached as modern, as the
// official client reaches it. Before, ferrymcp gave up at 5 s, fell back to `initialize`
// and spoke 2025 to it.
test("mode: 'auto' against a server slow to start: the probe waits the request timeout, as the official client's", async () => {
  const options = { versionNegotiation: { mode: 'auto' } };
  const env = { HOLD_MS: '6000' };
  const official = await sent('official-slow', OfficialClient, OfficialStdio, options, env);
  const ours = await sent('ferrymcp-slow', Client, StdioClientTransport, options, env);
  assert.equal(official.version, MODERN_PROTOCOL_VERSION);
  assert.deepEqual(ours.methods, official.methods);
  assert.equal(ours.version, MODERN_PROTOCOL_VERSION);
});

// `probe.timeoutMs` is how long the probe waits (core's `probe_timeout`): against a server
// that never answers `server/discover` (the pass-through drops it) and a request timeout of
// 10 minutes, a short probe timeout ends the probe, and the client falls back to
// `initialize` on the same stdio pipe and lands on a 2025 revision, as the official client
// does with the same options (before, the option was refused by name). `maxRetries` other
// than 0 stays refused by name.
test("probe.timeoutMs: a probe nobody answers ends when it says, then initialize, as the official client's", async () => {
  const options = { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 300 } }, requestTimeoutMs: 600_000 };
  const env = { DROP_METHOD: 'server/discover' };
  const official = await sent('official-silent', OfficialClient, OfficialStdio, { versionNegotiation: options.versionNegotiation }, env);
  const ours = await sent('ferrymcp-silent', Client, StdioClientTransport, options, env);
  assert.notEqual(official.version, MODERN_PROTOCOL_VERSION);
  assert.equal(ours.version, official.version);
  // Core cancels the probe it gave up on (`notifications/cancelled`, the rule for any request
  // abandoned); the official probe does not. Otherwise the same messages.
  assert.deepEqual(ours.methods.filter((m) => m !== 'notifications/cancelled'), official.methods);
  assert.deepEqual(ours.methods.slice(0, 3), ['server/discover', 'notifications/cancelled', 'initialize']);
  assert.throws(() => new Client({ name: 'c', version: '1' }, { versionNegotiation: { mode: 'auto', probe: { maxRetries: 2 } } }), /versionNegotiation\.probe\.maxRetries/);
  assert.throws(() => new Client({ name: 'c', version: '1' }, { versionNegotiation: { mode: 'auto', probe: { timeoutMs: -1 } } }), /probe\.timeoutMs must be a positive integer/);
});
