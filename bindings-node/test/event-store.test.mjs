// An application's `EventStore` (the official interface: storeEvent, replayEventsAfter)
// given to the Streamable HTTP transport as `eventStore`: core keeps every event of its
// resumable streams there, sends it under the name the store returned, and answers a
// client's `Last-Event-ID` with what the store replays after it. The peer is the official
// v1 client over a real HTTP server: a tool closes its SSE stream mid-call (SEP-1699), the
// client comes back with the last name it saw, and gets the rest of the call.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { test } from 'node:test';

import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as OfficialHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from 'ferrymcp/server/mcp.js';
import { StreamableHTTPServerTransport } from 'ferrymcp/server/streamableHttp.js';

/** A store of the official shape, written here: names `<stream>.<n>`, kept in a list. */
class ListStore {
  events = [];
  replays = [];
  #replayed;
  replayed = new Promise((resolve) => (this.#replayed = resolve));

  async storeEvent(streamId, message) {
    const eventId = `${streamId}.${this.events.length + 1}`;
    this.events.push({ eventId, streamId, message });
    return eventId;
  }

  async replayEventsAfter(lastEventId, { send }) {
    this.replays.push(lastEventId);
    const at = this.events.findIndex((e) => e.eventId === lastEventId);
    if (at < 0) return '';
    const { streamId } = this.events[at];
    for (const e of this.events.slice(at + 1)) if (e.streamId === streamId) await send(e.eventId, e.message);
    this.#replayed();
    return streamId;
  }
}

/** Serves a fresh server per session on a Node `http` server, the official v1 wiring. */
async function serve(store) {
  const transports = new Map();
  const http = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    let transport = id === undefined ? undefined : transports.get(id);
    if (transport === undefined) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: store,
        retryInterval: 1,
        onsessioninitialized: (sessionId) => transports.set(sessionId, transport),
      });
      const server = new McpServer({ name: 'event-store', version: '1.0.0' }, { capabilities: { logging: {} } });
      server.tool('work', 'Logs, drops its stream, logs again', {}, async (_args, extra) => {
        await server.sendLoggingMessage({ level: 'info', data: 'one' }, extra.sessionId);
        extra.closeSSEStream();
        await server.sendLoggingMessage({ level: 'info', data: 'two' }, extra.sessionId);
        await store.replayed;
        return { content: [{ type: 'text', text: 'done' }] };
      });
      await server.connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const close = async () => {
    for (const transport of new Set(transports.values())) await transport.close();
    await new Promise((resolve) => http.close(resolve));
  };
  return { url: new URL(`http://127.0.0.1:${http.address().port}/mcp`), close };
}

test('a user EventStore keeps the events, names them, and the official client resumes from its names', async () => {
  const store = new ListStore();
  const { url, close } = await serve(store);
  const client = new OfficialClient({ name: 'official-v1', version: '1.0.0' });
  const logs = [];
  client.setNotificationHandler((await import('@modelcontextprotocol/sdk/types.js')).LoggingMessageNotificationSchema, (n) => {
    logs.push(n.params.data);
  });
  try {
    await client.connect(new OfficialHttp(url));
    const tokens = [];
    const result = await client.callTool({ name: 'work', arguments: {} }, undefined, { onresumptiontoken: (token) => tokens.push(token) });
    assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
    assert.deepEqual(logs, ['one', 'two']);
    const names = store.events.map((e) => e.eventId);
    // Every event the client was told of is one the store named, and it resumed from one.
    assert.ok(tokens.length > 0, 'the client saw event ids');
    for (const token of tokens) assert.ok(names.includes(token), `${token} is not a name the store gave (${names.join(', ')})`);
    assert.equal(store.replays.length, 1, `replays: ${store.replays.join(', ')}`);
    assert.ok(names.includes(store.replays[0]));
    // The store holds the call's messages as the official JSONRPCMessage objects, a priming event as {}.
    const stream = store.events.find((e) => e.eventId === store.replays[0]).streamId;
    const messages = store.events.filter((e) => e.streamId === stream).map((e) => e.message);
    assert.deepEqual(messages[0], {}, 'the priming event');
    assert.deepEqual(
      messages.filter((m) => m.method === 'notifications/message').map((m) => m.params.data),
      ['one', 'two'],
    );
    assert.ok(messages.some((m) => m.result?.content?.[0]?.text === 'done'), 'the answer is stored too');
  } finally {
    await client.close();
    await close();
  }
});

test('eventStore must be an EventStore or a RedisStore: anything else is refused by name', () => {
  assert.throws(() => new StreamableHTTPServerTransport({ eventStore: { storeEvent() {} } }), /eventStore must be an EventStore \(storeEvent, replayEventsAfter\)/);
});
