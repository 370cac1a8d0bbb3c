// `createMcpHandler`'s response modes and its subscription bus, over a real Node http
// server with the official v2 client as the peer: `responseMode: 'json'` (one JSON body;
// listen streams stay SSE), `handler.notify` / `handler.bus` reaching `subscriptions/listen`
// streams (filtered and tagged by core), a user bus shared by two handlers,
// `maxSubscriptions`, and `close()` ending the streams.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { describe, test } from 'node:test';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, InMemoryServerEventBus, McpServer } from 'ferrymcp';
import { toNodeHandler } from 'ferrymcp/node';

import { build } from './fixtures/http-server.mjs';

const MODERN = '2026-07-28';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

async function serve(factory, options) {
  const handler = createMcpHandler(factory, options);
  const http = createServer(toNodeHandler(handler));
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${http.address().port}/mcp`;
  const close = async () => {
    await handler.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  };
  return { url, handler, close };
}

function modernCall(url, name, args = {}) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args, _meta: { progressToken: 'p', 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } },
    }),
  });
}

async function modernClient(url) {
  const client = new Client({ name: 'bus-tests', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** Notifications of `method` as they arrive, one promise after another. */
function arrivals(client, method) {
  const queue = [];
  const waiting = [];
  client.setNotificationHandler(method, (notification) => {
    const next = waiting.shift();
    if (next) next(notification);
    else queue.push(notification);
  });
  return { next: () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((resolve) => waiting.push(resolve))), queue };
}

function withResources() {
  const server = new McpServer({ name: 'bus', version: '1.0.0' }, { capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } } });
  server.registerTool('noop', { inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
  server.registerResource('a', 'mem://a', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'a' }] }));
  return server;
}

describe("responseMode", () => {
  test("'json': one JSON body even when the handler sends something first; 'auto' streams it", async () => {
    const json = await serve(() => build().server, { responseMode: 'json' });
    const auto = await serve(() => build().server);
    try {
      const one = await modernCall(json.url, 'progress');
      assert.equal(one.status, 200);
      assert.match(one.headers.get('content-type'), /^application\/json/);
      assert.equal((await one.json()).result.content[0].text, 'done');
      const streamed = await modernCall(auto.url, 'progress');
      assert.equal(streamed.headers.get('content-type'), 'text/event-stream');
      assert.match(await streamed.text(), /"done"/);
      // The official client over the JSON mode, and a listen stream there (always SSE).
      const client = await modernClient(json.url);
      assert.equal((await client.callTool({ name: 'progress', arguments: {} })).content[0].text, 'done');
      const changed = arrivals(client, 'notifications/tools/list_changed');
      const subscription = await client.listen({ toolsListChanged: true });
      assert.equal(subscription.honoredFilter.toolsListChanged, true);
      json.handler.notify.toolsChanged();
      assert.ok((await changed.next()).params._meta[SUBSCRIPTION_ID] !== undefined);
      await subscription.close();
      await client.close();
    } finally {
      await json.close();
      await auto.close();
    }
  });

  test("'sse' and unknown modes, and options of the wrong shape, throw naming them", () => {
    const factory = () => build().server;
    assert.throws(() => createMcpHandler(factory, { responseMode: 'sse' }), /responseMode: 'sse' is not supported/);
    assert.throws(() => createMcpHandler(factory, { responseMode: 'stream' }), /responseMode must be 'auto', 'json' or 'sse'/);
    assert.throws(() => createMcpHandler(factory, { responseMode: 'json', enableJsonResponse: false }), /contradicts enableJsonResponse/);
    assert.throws(() => createMcpHandler(factory, { bus: {} }), /bus must be a ServerEventBus/);
    assert.throws(() => createMcpHandler(factory, { maxSubscriptions: -1 }), /maxSubscriptions must be a whole number/);
  });
});

describe('the subscription bus', () => {
  test('handler.notify reaches the listen streams that asked, tagged; close() ends them gracefully', async () => {
    const served = await serve(withResources);
    try {
      assert.ok(served.handler.bus instanceof InMemoryServerEventBus);
      // Safe before any request (no server yet, no stream).
      served.handler.notify.toolsChanged();
      const client = await modernClient(served.url);
      const tools = arrivals(client, 'notifications/tools/list_changed');
      const updated = arrivals(client, 'notifications/resources/updated');
      const toolsOnly = await client.listen({ toolsListChanged: true });
      const resource = await client.listen({ resourceSubscriptions: ['mem://a'] });
      served.handler.notify.resourceUpdated('mem://other');
      served.handler.notify.resourceUpdated('mem://a');
      const update = await updated.next();
      assert.equal(update.params.uri, 'mem://a');
      served.handler.notify.toolsChanged();
      const change = await tools.next();
      assert.ok(change.params._meta[SUBSCRIPTION_ID] !== undefined);
      assert.equal(updated.queue.length, 0, 'mem://other reached no stream');
      // close() ends the streams (core answers each, tagged, then the endpoint stops: the
      // answer can lose the race with the connection's end, so either outcome is an end).
      await served.handler.close();
      assert.ok(['graceful', 'remote'].includes(await toolsOnly.closed));
      assert.ok(['graceful', 'remote'].includes(await resource.closed));
      await client.close();
    } finally {
      await served.close();
    }
  });

  test('a user bus shared by two handlers carries one handler\'s events to the other\'s streams', async () => {
    const listeners = new Set();
    const published = [];
    const bus = {
      publish(event) {
        published.push(event);
        for (const listener of listeners) listener(event);
      },
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const one = await serve(withResources, { bus });
    const two = await serve(withResources, { bus });
    try {
      assert.equal(one.handler.bus, bus);
      const client = await modernClient(two.url);
      await modernClient(one.url).then((c) => c.close()); // the first handler's server is built (and subscribed)
      const prompts = arrivals(client, 'notifications/prompts/list_changed');
      const subscription = await client.listen({ promptsListChanged: true });
      one.handler.notify.promptsChanged();
      await prompts.next();
      assert.deepEqual(published, [{ kind: 'prompts_list_changed' }]);
      await subscription.close();
      await client.close();
      await one.handler.close();
      assert.equal(listeners.size, 1, "close() unsubscribes the handler's listener");
    } finally {
      await one.close();
      await two.close();
    }
  });

  test('maxSubscriptions refuses one stream more, before its acknowledgement', async () => {
    const served = await serve(withResources, { maxSubscriptions: 1 });
    try {
      const client = await modernClient(served.url);
      const first = await client.listen({ toolsListChanged: true });
      await assert.rejects(client.listen({ toolsListChanged: true }), /Subscription limit reached/);
      await first.close();
      await client.close();
    } finally {
      await served.close();
    }
  });
});
