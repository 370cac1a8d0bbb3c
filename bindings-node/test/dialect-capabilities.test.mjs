// The capabilities a server declares are the official TypeScript server's for the same
// code (the Node binding's dialect, core/src/server/dialect.rs): an McpServer declares each
// list `{ listChanged: true }` once registered, `logging` only when the application gives
// it (and only then serves `logging/setLevel` and sends log messages), never
// `resources.subscribe` of its own (and without it answers `resources/subscribe` -32601, as
// the official server does); a low-level Server declares exactly what it was given.
// The peer is the official v1 client, over stdio (a child process) and Streamable HTTP.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as OfficialStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as OfficialHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { fixture, servePerSession } from './helpers.mjs';
import { build } from './fixtures/declared.mjs';

/** `build(shape)` per session on a Node `http` server (the official v1 wiring), with the official client's transport to it. */
async function serveHttp(shape) {
  const served = await servePerSession(() => build(shape));
  return { transport: new OfficialHttp(served.url), close: served.close };
}

const TRANSPORTS = {
  stdio: async (shape) => ({
    transport: new OfficialStdio({ command: process.execPath, args: [fixture('declared.mjs'), shape] }),
    close: async () => {},
  }),
  http: serveHttp,
};

/** The official v1 client connected to `shape` over `how`, with the log messages it receives. */
async function open(how, shape) {
  const served = await TRANSPORTS[how](shape);
  const client = new OfficialClient({ name: 'official-v1', version: '1.32.2' });
  const logs = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params.data));
  await client.connect(served.transport);
  return {
    client,
    logs,
    close: async () => {
      await client.close();
      await served.close();
    },
  };
}

const LISTS = { tools: { listChanged: true }, resources: { listChanged: true } };

for (const how of Object.keys(TRANSPORTS)) {
  describe(`declared capabilities, the official v1 client over ${how}`, () => {
    test('an McpServer without logging: the lists only; logging/setLevel and resources/subscribe -32601, log messages not sent', async () => {
      const { client, logs, close } = await open(how, 'mcp');
      try {
        assert.deepEqual(client.getServerCapabilities(), LISTS);
        await assert.rejects(client.setLoggingLevel('debug'), (error) => error.code === -32601);
        // No `subscribe` declared: no subscriptions served, as the official McpServer (no handler).
        for (const verb of ['subscribeResource', 'unsubscribeResource']) {
          await assert.rejects(client[verb]({ uri: 'declared://readme' }), (error) => error.code === -32601);
        }
        const result = await client.callTool({ name: 'shout', arguments: {} });
        assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
        // A message the handler sent would have arrived before its answer.
        assert.deepEqual(logs, []);
      } finally {
        await close();
      }
    });

    test('an McpServer with logging declared: logging too, setLevel served, messages sent', async () => {
      const { client, logs, close } = await open(how, 'mcp-logging');
      try {
        assert.deepEqual(client.getServerCapabilities(), { ...LISTS, logging: {} });
        assert.deepEqual(await client.setLoggingLevel('debug'), {});
        await client.callTool({ name: 'shout', arguments: {} });
        assert.deepEqual(logs, ['shouted']);
      } finally {
        await close();
      }
    });

    test('a low-level Server declares exactly its capabilities', async () => {
      const { client, close } = await open(how, 'lowlevel');
      try {
        assert.deepEqual(client.getServerCapabilities(), { tools: {} });
        assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['noop']);
        await assert.rejects(client.setLoggingLevel('info'), (error) => error.code === -32601);
      } finally {
        await close();
      }
    });
  });
}
