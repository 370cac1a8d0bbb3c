// `legacy: 'reject'` (the official v2 `createMcpHandler` and `serveStdio` option): a
// server for 2026-07-28 clients only, served by core. Over HTTP the raw answers are held
// to the official SDK's own endpoint built the same way, behind real Node http servers;
// over stdio (a real child process) the official v2 client in 2025 mode is refused with
// -32022 naming the supported revisions and a 2026-07-28 one is served on a fresh process.
// The official `legacy-routing` story: `isLegacyRequest` in front of a sessionful 2025
// deployment and a strict modern entry whose factory reads `ctx.era`, on one port.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { describe, test } from 'node:test';

import { Client as OfficialClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as OfficialStdio } from '@modelcontextprotocol/client/stdio';
import * as officialNode from '@modelcontextprotocol/node';
import * as officialServer from '@modelcontextprotocol/server';
import * as ferrymcp from 'ferrymcp';
import { randomUUID } from 'node:crypto';

import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from 'ferrymcp/node';

import { fixture } from './helpers.mjs';

const MODERN = '2026-07-28';

function factory({ McpServer }) {
  return () => {
    const server = new McpServer({ name: 'modern-only', version: '1.0.0' });
    server.registerTool('ping', {}, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
    return server;
  };
}

async function serve(handler) {
  const server = createServer(handler).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${server.address().port}/mcp`, close: () => server.close() };
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

/** Status, Allow header and JSON body (or null) of each legacy-era probe. */
async function probes(url) {
  const answers = [];
  const send = async (init) => {
    const response = await fetch(url, init);
    const text = await response.text();
    answers.push({ status: response.status, allow: response.headers.get('allow'), body: text === '' ? null : JSON.parse(text) });
  };
  const post = (body, extra = {}) => send({ method: 'POST', headers: { ...JSON_HEADERS, ...extra }, body: JSON.stringify(body) });
  await post(INIT);
  await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-protocol-version': '2025-06-18' });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await post({ jsonrpc: '2.0', id: 4, result: {} });
  await send({ method: 'GET', headers: { accept: 'text/event-stream' } });
  await send({ method: 'DELETE', headers: { 'mcp-session-id': 'abc' } });
  return answers;
}

describe("legacy: 'reject'", () => {
  test('createMcpHandler answers 2025-era traffic as the official endpoint does, and serves 2026-07-28 clients', async () => {
    const mine = await serve(toNodeHandler(ferrymcp.createMcpHandler(factory(ferrymcp), { legacy: 'reject' })));
    const theirs = await serve(officialNode.toNodeHandler(officialServer.createMcpHandler(factory(officialServer), { legacy: 'reject' })));
    try {
      const got = await probes(mine.url);
      const expected = await probes(theirs.url);
      // What both answer, spelled out: -32022 naming the supported revisions and the
      // requested one (initialize's, then the version header's; none made up).
      assert.equal(got[0].status, 400);
      assert.deepEqual(got[0].body.error, { code: -32022, message: 'Unsupported protocol version: 2025-11-25', data: { supported: [MODERN], requested: '2025-11-25' } });
      assert.deepEqual(got[1].body.error.data, { supported: [MODERN] });
      assert.equal(got[2].body.error.data.requested, '2025-06-18');
      assert.deepEqual([got[3].status, got[3].body], [202, null], 'a notification is taken and dropped');
      assert.deepEqual([got[4].status, got[4].body.error.code], [400, -32600]);
      assert.deepEqual([got[5].status, got[6].status], [405, 405]);
      for (const [i, answer] of got.entries()) {
        const official = expected[i];
        assert.equal(answer.status, official.status, `probe ${i}`);
        assert.deepEqual(answer.body?.error, official.body?.error, `probe ${i}`);
        // An echoed id alike; where there is none to echo the official SDK writes `id: null`
        // and core leaves the member out (as in all its refusals; the schema makes it optional).
        assert.deepEqual(answer.body?.id ?? null, official.body?.id ?? null, `probe ${i}`);
      }
      const client = new OfficialClient({ name: 'c', version: '1' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(new StreamableHTTPClientTransport(new URL(mine.url)));
      assert.equal((await client.callTool({ name: 'ping', arguments: {} })).content[0].text, 'pong');
      await client.close();
    } finally {
      mine.close();
      theirs.close();
    }
  });

  test('serveStdio refuses a 2025-era client with -32022 and serves a 2026-07-28 one', async () => {
    const script = fixture('serve-stdio-options.mjs');
    const legacy = new OfficialClient({ name: 'official', version: '2.4.0' }, { versionNegotiation: { mode: 'legacy' } });
    await assert.rejects(
      legacy.connect(new OfficialStdio({ command: process.execPath, args: [script, JSON.stringify({ legacy: 'reject' })] })),
      (error) => error.code === -32022 && error.data?.requested === '2025-11-25' && error.data.supported.includes(MODERN),
    );
    await legacy.close();
    const modern = new OfficialClient({ name: 'official', version: '2.4.0' }, { versionNegotiation: { mode: 'auto' } });
    await modern.connect(new OfficialStdio({ command: process.execPath, args: [script, JSON.stringify({ legacy: 'reject' })] }));
    try {
      assert.equal((await modern.callTool({ name: 'ping', arguments: {} })).content[0].text, 'pong');
    } finally {
      await modern.close();
    }
  });

  test('legacy-routing: isLegacyRequest routes the official clients of both eras; the strict entry\'s factory reads ctx.era', async () => {
    const buildServer = (era) => {
      const server = new ferrymcp.McpServer({ name: 'legacy-routing', version: '1.0.0' });
      server.registerTool('greet', { inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }, async ({ name }) => ({
        content: [{ type: 'text', text: `Hello, ${name}! (era=${era})` }],
      }));
      return server;
    };
    const sessions = new Map();
    const legacy = async (req, res, body) => {
      const sid = req.headers['mcp-session-id'];
      if (sid && sessions.has(sid)) return sessions.get(sid).handleRequest(req, res, body);
      if (sid || !ferrymcp.isInitializeRequest(body)) return res.writeHead(sid ? 404 : 400).end();
      const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, transport) });
      await buildServer('legacy').connect(transport);
      await transport.handleRequest(req, res, body);
    };
    const modern = toNodeHandler(ferrymcp.createMcpHandler((ctx) => buildServer(ctx.era), { legacy: 'reject' }));
    const http = await serve(async (req, res) => {
      if (req.method !== 'POST') return legacy(req, res);
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const probe = await toWebRequest(req, body);
      await ((await ferrymcp.isLegacyRequest(probe)) ? legacy(req, res, body) : modern(req, res, body));
    });
    try {
      const old = new OfficialClient({ name: 'c', version: '1' });
      await old.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      assert.match((await old.callTool({ name: 'greet', arguments: { name: 'A' } })).content[0].text, /era=legacy/);
      await old.close();
      const now = new OfficialClient({ name: 'c', version: '1' }, { versionNegotiation: { mode: 'auto' } });
      await now.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      assert.equal(now.getNegotiatedProtocolVersion(), MODERN);
      assert.equal((await now.callTool({ name: 'greet', arguments: { name: 'B' } })).content[0].text, 'Hello, B! (era=modern)');
      await now.close();
    } finally {
      http.close();
    }
  });
});
