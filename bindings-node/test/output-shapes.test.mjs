// SEP-2106 through the Node binding (core's): an `outputSchema` whose root is an array, and
// a `structuredContent` that is one, served by ferrymcp and by the official SDK behind real
// Node http servers; the official v2 client, in 2026-07-28 and in 2025 mode, gets the same
// listing and the same result from both (the array as it is, or wrapped as `{result}` with
// the schema for a 2025 client, and a text rendering the tool did not write).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { test } from 'node:test';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import * as officialNode from '@modelcontextprotocol/node';
import * as officialServer from '@modelcontextprotocol/server';
import * as ferrymcp from 'ferrymcp';
import { toNodeHandler } from 'ferrymcp/node';
import * as z from 'zod';

function factory({ McpServer }) {
  return () => {
    const server = new McpServer({ name: 'shapes', version: '1.0.0' });
    server.registerTool('forecast', { inputSchema: z.object({}), outputSchema: z.array(z.object({ hour: z.string(), celsius: z.number() })) }, async () => ({
      content: [],
      structuredContent: [{ hour: '09:00', celsius: 18 }, { hour: '10:00', celsius: 19 }],
    }));
    return server;
  };
}

async function serve(handler) {
  const server = createServer(handler).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: new URL(`http://127.0.0.1:${server.address().port}/mcp`), close: () => server.close() };
}

async function run(url, mode) {
  const client = new Client({ name: 'c', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(url));
  try {
    const { tools } = await client.listTools();
    const result = await client.callTool({ name: 'forecast', arguments: {} });
    return { outputSchema: tools[0].outputSchema, structuredContent: result.structuredContent, content: result.content };
  } finally {
    await client.close();
  }
}

test('an array outputSchema and structuredContent, both eras, as the official server', async () => {
  const mine = await serve(toNodeHandler(ferrymcp.createMcpHandler(factory(ferrymcp))));
  const theirs = await serve(officialNode.toNodeHandler(officialServer.createMcpHandler(factory(officialServer))));
  try {
    const forecast = [{ hour: '09:00', celsius: 18 }, { hour: '10:00', celsius: 19 }];
    for (const mode of ['auto', 'legacy']) {
      const got = await run(mine.url, mode);
      assert.deepEqual(got, await run(theirs.url, mode), mode);
      assert.deepEqual(got.content, [{ type: 'text', text: JSON.stringify(forecast) }], `${mode}: the text rendering`);
      if (mode === 'auto') {
        assert.equal(got.outputSchema.type, 'array');
        assert.deepEqual(got.structuredContent, forecast);
      } else {
        assert.deepEqual(got.outputSchema.required, ['result']);
        assert.equal(got.outputSchema.properties.result.type, 'array');
        assert.deepEqual(got.structuredContent, { result: forecast });
      }
    }
  } finally {
    mine.close();
    theirs.close();
  }
});
