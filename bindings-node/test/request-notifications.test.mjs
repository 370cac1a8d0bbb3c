// Notifications a handler sends about its request (`ctx.mcpReq.notify`), 2026-07-28 and
// 2025: a `notifications/message` written out is sent as given, on the request's own
// stream, as the official SDK does (its `streaming` and `parallel-calls` examples count
// on it); `ctx.mcpReq.log` applies the client's level, which on a 2026-07-28 request is its
// `_meta` logLevel (none: no log message). The same server runs on ferrymcp and on the
// official SDK behind a real Node http server; the official v2 client is the peer of both.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { describe, test } from 'node:test';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import * as officialNode from '@modelcontextprotocol/node';
import * as officialServer from '@modelcontextprotocol/server';
import * as ferrymcp from 'ferrymcp';
import { toNodeHandler } from 'ferrymcp/node';
import * as z from 'zod';

const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

function build({ McpServer }) {
  return () => {
    const server = new McpServer({ name: 'notes', version: '1.0.0' }, { capabilities: { logging: {} } });
    server.registerTool('tick', { inputSchema: z.object({ caller: z.string(), count: z.number() }) }, async ({ caller, count }, ctx) => {
      for (let i = 1; i <= count; i++) {
        await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data: `[${caller}] tick ${i}` } });
      }
      await ctx.mcpReq.log('warning', `[${caller}] logged`);
      await ctx.mcpReq.log('debug', `[${caller}] debug`);
      return { content: [{ type: 'text', text: `[${caller}] done` }] };
    });
    return server;
  };
}

async function serve(handler) {
  const server = createServer(handler).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: new URL(`http://127.0.0.1:${server.address().port}/mcp`), close: () => server.close() };
}

async function client(url, mode) {
  const c = new Client({ name: 'c', version: '1.0.0' }, { versionNegotiation: { mode } });
  const seen = [];
  c.setNotificationHandler('notifications/message', (n) => seen.push(n.params.data));
  await c.connect(new StreamableHTTPClientTransport(url));
  return { c, seen };
}

/** What each of two concurrent callers, and one caller asking for logs at `info`, receive. */
async function run(url, mode) {
  const a = await client(url, mode);
  const b = await client(url, mode);
  await Promise.all([
    a.c.callTool({ name: 'tick', arguments: { caller: 'A', count: 3 } }),
    b.c.callTool({ name: 'tick', arguments: { caller: 'B', count: 2 } }),
  ]);
  // The level key is 2026-07-28 envelope vocabulary: a 2025 client (which has set no level
  // here, so gets every log) sends none.
  const leveled = await client(url, mode);
  const _meta = mode === 'auto' ? { [LOG_LEVEL]: 'info' } : undefined;
  await leveled.c.callTool({ name: 'tick', arguments: { caller: 'L', count: 1 }, _meta });
  const era = a.c.getNegotiatedProtocolVersion?.() ?? null;
  await Promise.all([a.c.close(), b.c.close(), leveled.c.close()]);
  return { era, a: a.seen, b: b.seen, leveled: leveled.seen };
}

describe('notifications about a request', () => {
  for (const mode of ['auto', 'legacy']) {
    test(`ctx.mcpReq.notify sends notifications/message as given, mcpReq.log keeps the level (${mode} client, HTTP)`, async () => {
      const mine = await serve(toNodeHandler(ferrymcp.createMcpHandler(build(ferrymcp))));
      const theirs = await serve(officialNode.toNodeHandler(officialServer.createMcpHandler(build(officialServer))));
      try {
        const got = await run(mine.url, mode);
        const expected = await run(theirs.url, mode);
        assert.deepEqual(got, expected, 'as the official server');
        const logs = mode === 'auto' ? [] : ['logged', 'debug'];
        assert.deepEqual(got.a, ['[A] tick 1', '[A] tick 2', '[A] tick 3', ...logs.map((l) => `[A] ${l}`)], 'each caller gets its own, in order; a 2026-07-28 one no log without a level');
        assert.deepEqual(got.b, ['[B] tick 1', '[B] tick 2', ...logs.map((l) => `[B] ${l}`)]);
        if (mode === 'auto') assert.deepEqual(got.leveled, ['[L] tick 1', '[L] logged'], 'a 2026-07-28 request with _meta logLevel info gets the warning log, not the debug one');
        else assert.deepEqual(got.leveled, ['[L] tick 1', '[L] logged', '[L] debug'], 'no level set on a 2025 session: every log');
      } finally {
        mine.close();
        theirs.close();
      }
    });
  }
});
