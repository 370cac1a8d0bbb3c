// `client.getDiscoverResult()` and `client.discover()` against the official v2 server over
// real HTTP, compared with what the official v2 client records for the same server: the
// probe's `server/discover` result on a modern connection, nothing on a legacy one.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';

import { Client as OfficialClient, StreamableHTTPClientTransport as OfficialHttp } from '@modelcontextprotocol/client';
import { toNodeHandler as officialToNodeHandler } from '@modelcontextprotocol/node';
import { McpServer as OfficialServer, createMcpHandler as officialCreateMcpHandler } from '@modelcontextprotocol/server';
import { Client, StreamableHTTPClientTransport } from 'ferrymcp';

const MODERN = '2026-07-28';

async function officialHttpServer() {
  const handler = officialCreateMcpHandler(() => {
    const server = new OfficialServer({ name: 'official-v2', version: '2.4.0' }, { instructions: 'be brief' });
    server.registerTool('noop', { description: 'does nothing' }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
    return server;
  });
  const http = createServer(officialToNodeHandler(handler));
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: new URL(`http://127.0.0.1:${http.address().port}/mcp`),
    close: async () => {
      await handler.close?.();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/** The parts of a discover result that do not vary between two answers of one server. */
const stable = (result) => result && { ...result, _meta: undefined };

test('getDiscoverResult: the probe result on a modern connection (as the official client has it), undefined on a legacy one; discover() asks again', async () => {
  const server = await officialHttpServer();
  try {
    const official = new OfficialClient({ name: 'official', version: '2.4.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await official.connect(new OfficialHttp(server.url));
    const expected = official.getDiscoverResult();
    await official.close();
    assert.ok(expected?.supportedVersions?.includes(MODERN), 'the official client recorded a discover result');

    for (const versionNegotiation of [{ mode: 'auto' }, { mode: { pin: MODERN } }]) {
      const client = new Client({ name: 'ferrymcp', version: '1.0.0' }, { versionNegotiation });
      await client.connect(new StreamableHTTPClientTransport(server.url));
      try {
        assert.equal(client.getProtocolEra(), 'modern');
        assert.deepEqual(stable(client.getDiscoverResult()), stable(expected), JSON.stringify(versionNegotiation));
        const again = await client.discover();
        assert.deepEqual(stable(again), stable(expected));
        assert.equal(client.getDiscoverResult(), again);
      } finally {
        await client.close();
      }
    }

    const legacy = new Client({ name: 'ferrymcp', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    await legacy.connect(new StreamableHTTPClientTransport(server.url));
    try {
      assert.equal(legacy.getProtocolEra(), 'legacy');
      assert.equal(legacy.getDiscoverResult(), undefined);
    } finally {
      await legacy.close();
    }
  } finally {
    await server.close();
  }
});
