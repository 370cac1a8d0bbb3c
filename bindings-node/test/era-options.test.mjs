// The era options of the official v2 API (issue 14): each works as in the official SDK or
// is refused by name with a `code`, never taken silently. Client `versionNegotiation` /
// `supportedProtocolVersions`, `serveStdio({ legacy, transport, maxSubscriptions })`,
// `createMcpHandler({ legacy })`, `StdioServerTransport(stdin, stdout)`, the `McpServer` options; served over real
// stdio (a child process) and real in-process transports, with the official clients as peers.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';

import { Client as OfficialClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as OfficialStdio } from '@modelcontextprotocol/client/stdio';
import { Client, InMemoryTransport, McpServer, SUPPORTED_PROTOCOL_VERSIONS, createMcpHandler } from 'ferrymcp';
import { Server as LowLevelServer } from 'ferrymcp/server/index.js';
import { StdioClientTransport, StdioServerTransport, serveStdio } from 'ferrymcp/stdio';

import { fixture } from './helpers.mjs';

const MODERN = '2026-07-28';
const info = { name: 'era-options', version: '1.0.0' };
const script = fixture('serve-stdio-options.mjs');
const stdio = (options = {}) => new StdioClientTransport({ command: process.execPath, args: [script, JSON.stringify(options)] });

/** Asserts `fn` throws a TypeError with `code` whose message names `name`. */
function throwsNaming(fn, code, name) {
  assert.throws(fn, (error) => {
    assert.equal(error.code, code, error.message);
    assert.ok(error instanceof TypeError, `${error.name}: ${error.message}`);
    assert.ok(error.message.includes(name), `${JSON.stringify(error.message)} names ${name}`);
    return true;
  });
}

test('Client versionNegotiation: what the engine cannot honour is refused by name, with a code', () => {
  const make = (options) => () => new Client(info, options);
  // probe.timeoutMs is honoured (test/version-negotiation.test.mjs); a bad value names it.
  throwsNaming(make({ versionNegotiation: { probe: { timeoutMs: 0 } } }), 'ERR_INVALID_ARG_VALUE', 'versionNegotiation.probe.timeoutMs');
  throwsNaming(make({ versionNegotiation: { mode: 'auto', probe: { maxRetries: 2 } } }), 'ERR_FERRYMCP_UNSUPPORTED', 'versionNegotiation.probe.maxRetries');
  throwsNaming(make({ versionNegotiation: { mode: { pin: '2099-01-01' } } }), 'ERR_FERRYMCP_UNSUPPORTED', "pin: '2099-01-01'");
  // As the official SDK: pinning a 2025-era revision is a mistake, not a missing feature.
  throwsNaming(make({ versionNegotiation: { mode: { pin: '2025-06-18' } } }), 'ERR_INVALID_ARG_VALUE', 'not a modern protocol revision');
  throwsNaming(make({ versionNegotiation: { mode: 'newest' } }), 'ERR_INVALID_ARG_VALUE', 'versionNegotiation.mode');
  throwsNaming(make({ versionNegotiation: { mode: 'auto', fallback: false } }), 'ERR_INVALID_ARG_VALUE', 'versionNegotiation.fallback');
  throwsNaming(make({ versionNegotiation: { probe: { timeout: 5 } } }), 'ERR_INVALID_ARG_VALUE', 'versionNegotiation.probe.timeout');
  throwsNaming(make({ era: 'modern', versionNegotiation: { mode: 'legacy' } }), 'ERR_INVALID_ARG_VALUE', "era 'modern' contradicts");
  throwsNaming(make({ supportedProtocolVersions: ['2025-06-18'] }), 'ERR_FERRYMCP_UNSUPPORTED', 'supportedProtocolVersions');
  throwsNaming(make({ noSuchOption: 1 }), 'ERR_INVALID_ARG_VALUE', 'noSuchOption');
});

test('Client versionNegotiation over stdio: mode absent is legacy (as the official SDK), auto and the pin are modern, the default probe policy and the full supportedProtocolVersions list are taken', async () => {
  const cases = [
    [{ versionNegotiation: {} }, 'legacy'],
    [{ versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS }, 'legacy'],
    [{ versionNegotiation: { mode: 'auto', probe: { maxRetries: 0 } } }, 'modern'],
    [{ versionNegotiation: { mode: { pin: MODERN }, probe: {} }, supportedProtocolVersions: [MODERN, ...SUPPORTED_PROTOCOL_VERSIONS] }, 'modern'],
  ];
  for (const [options, era] of cases) {
    const client = new Client(info, options);
    await client.connect(stdio());
    try {
      assert.equal(client.getProtocolEra(), era, JSON.stringify(options));
      const result = await client.callTool({ name: 'ping', arguments: {} });
      assert.equal(result.content[0].text, 'pong');
    } finally {
      await client.close();
    }
  }
});

/** Runs the fixture with `options` and resolves with its exit code and stderr. */
function runRefused(options) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, JSON.stringify(options)], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

test("serveStdio: unknown options are refused by name in the serving process; legacy: 'serve' serves the official v1-style (legacy) and v2 clients", async () => {
  for (const [options, code, name] of [
    [{ legacy: 'sometimes' }, 'ERR_INVALID_ARG_VALUE', 'legacy must be'],
    [{ keepAliveMs: 5 }, 'ERR_INVALID_ARG_VALUE', 'keepAliveMs'],
    [{ maxSubscriptions: -1 }, 'ERR_INVALID_ARG_VALUE', 'maxSubscriptions'],
  ]) {
    const { code: exit, stderr } = await runRefused(options);
    assert.equal(exit, 3, stderr);
    assert.match(stderr, new RegExp(`^REFUSED ${code} serveStdio: .*${name.replace(/[.*+?^${}()|[\]\\']/g, '\\$&')}`, 'm'));
  }
  for (const versionNegotiation of [{ mode: 'legacy' }, { mode: { pin: MODERN } }]) {
    const official = new OfficialClient({ name: 'official', version: '2.4.0' }, { versionNegotiation });
    await official.connect(new OfficialStdio({ command: process.execPath, args: [script, JSON.stringify({ legacy: 'serve' })] }));
    try {
      const result = await official.callTool({ name: 'ping', arguments: {} });
      assert.equal(result.content[0].text, 'pong', JSON.stringify(versionNegotiation));
    } finally {
      await official.close();
    }
  }
});

test('serveStdio({ maxSubscriptions }): one listen stream more is refused before its acknowledgement', async () => {
  const client = new Client(info, { versionNegotiation: { mode: 'auto' } });
  await client.connect(stdio({ maxSubscriptions: 1 }));
  try {
    assert.equal(client.getProtocolEra(), 'modern');
    const first = await client.listen({ toolsListChanged: true });
    await assert.rejects(client.listen({ toolsListChanged: true }), /Subscription limit reached/);
    await first.close();
  } finally {
    await client.close();
  }
});

test('serveStdio({ transport }): serves the given Transport object instead of the process stdio (the official client on the other end)', async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const errors = [];
  const handle = serveStdio(() => {
    const server = new McpServer({ name: 'in-memory', version: '1.0.0' });
    server.registerTool('ping', {}, async () => ({ content: [{ type: 'text', text: 'pong over memory' }] }));
    return server;
  }, { transport: serverSide, onerror: (error) => errors.push(error) });
  const official = new OfficialClient({ name: 'official', version: '2.4.0' });
  await official.connect(clientSide);
  try {
    const tools = await official.listTools();
    assert.deepEqual(tools.tools.map((t) => t.name), ['ping']);
    const result = await official.callTool({ name: 'ping', arguments: {} });
    assert.equal(result.content[0].text, 'pong over memory');
  } finally {
    await official.close();
    await handle.close();
  }
  assert.deepEqual(errors, []);
  throwsNaming(() => serveStdio(() => new McpServer(info), { transport: {} }), 'ERR_INVALID_ARG_VALUE', 'transport must be');
});

test("createMcpHandler({ legacy }): 'stateless' and 'reject' are taken (modern-only.test.mjs serves the latter), a handler function is a mistake (as the official SDK says)", () => {
  const factory = () => new McpServer(info);
  const handler = createMcpHandler(factory, { legacy: 'stateless' });
  handler.close();
  createMcpHandler(factory, { legacy: 'reject' }).close();
  throwsNaming(() => createMcpHandler(factory, { legacy: () => new Response() }), 'ERR_INVALID_ARG_VALUE', 'isLegacyRequest');
  throwsNaming(() => createMcpHandler(factory, { legacy: 'serve' }), 'ERR_INVALID_ARG_VALUE', 'legacy must be');
  throwsNaming(() => createMcpHandler(factory, { responseMode: 'sse' }), 'ERR_FERRYMCP_UNSUPPORTED', "responseMode: 'sse'");
});

test('StdioServerTransport(stdin, stdout): the process streams are taken, other streams are refused by name', () => {
  new StdioServerTransport();
  new StdioServerTransport(process.stdin, process.stdout);
  throwsNaming(() => new StdioServerTransport(new PassThrough()), 'ERR_FERRYMCP_UNSUPPORTED', 'stdin stream');
  throwsNaming(() => new StdioServerTransport(process.stdin, new PassThrough()), 'ERR_FERRYMCP_UNSUPPORTED', 'stdout stream');
});

test('McpServer / Server options: the official ones ferrymcp cannot run are refused by name, their defaults are taken, and the server still serves the official client', async () => {
  const make = (options) => () => new McpServer(info, options);
  // supportedProtocolVersions is core's (supported-versions.test.mjs); a revision it cannot serve is refused.
  throwsNaming(make({ supportedProtocolVersions: ['2023-01-01'] }), 'ERR_INVALID_ARG_VALUE', 'supportedProtocolVersions: "2023-01-01"');
  throwsNaming(make({ enforceStrictCapabilities: true }), 'ERR_FERRYMCP_UNSUPPORTED', 'enforceStrictCapabilities');
  throwsNaming(make({ debouncedNotificationMethods: ['notifications/tools/list_changed'] }), 'ERR_FERRYMCP_UNSUPPORTED', 'debouncedNotificationMethods');
  throwsNaming(make({ jsonSchemaValidator: {} }), 'ERR_FERRYMCP_UNSUPPORTED', 'jsonSchemaValidator');
  // inputRequired ({ legacyShim, maxRounds, roundTimeoutMs }) is core's legacy shim (legacy-shim.test.mjs).
  throwsNaming(make({ inputRequired: { autoFulfill: true } }), 'ERR_INVALID_ARG_VALUE', 'inputRequired.autoFulfill');
  throwsNaming(make({ requestState: { encode: () => '' } }), 'ERR_INVALID_ARG_VALUE', 'requestState.encode');
  // taskStore is core's 2025-11-25 task store (spec-tasks.test.mjs); an object without its methods is refused.
  throwsNaming(make({ taskStore: {} }), 'ERR_INVALID_ARG_VALUE', 'taskStore');
  throwsNaming(make({ sessionTimeout: 5 }), 'ERR_INVALID_ARG_VALUE', 'unknown option sessionTimeout');
  throwsNaming(() => new LowLevelServer(info, { taskMessageQueue: {} }), 'ERR_FERRYMCP_UNSUPPORTED', 'taskMessageQueue');

  // The defaults change nothing, so they are taken; the server answers the official client.
  const server = new McpServer(info, {
    supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
    enforceStrictCapabilities: false,
    debouncedNotificationMethods: [],
    inputRequired: { legacyShim: false },
    requestState: { verify: (state) => state },
  });
  server.registerTool('ping', {}, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const official = new OfficialClient({ name: 'official', version: '2.4.0' });
  await official.connect(clientSide);
  try {
    assert.equal((await official.callTool({ name: 'ping', arguments: {} })).content[0].text, 'pong');
  } finally {
    await official.close();
    await server.close();
  }
});
