// Transports that JavaScript carries (the official `Transport` interface): ferrymcp's
// `McpServer.connect()` and `Client.connect()` take any object with start / send / close /
// onmessage / onclose, and run the engine over it. The peers are real: the official SDK's
// own InMemoryTransport, client and server; a user-written transport over a real TCP
// socket (ReadBuffer + serializeMessage); ferrymcp's InMemoryTransport.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { describe, test } from 'node:test';

import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import * as officialTypes from '@modelcontextprotocol/sdk/types.js';
import * as officialV2Server from '@modelcontextprotocol/server';
import { InMemoryTransport as OfficialInMemory } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as OfficialServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client, InMemoryTransport, McpServer, ReadBuffer, Server, serializeMessage } from 'ferrymcp';
import { InMemoryTransport as V1InMemory } from 'ferrymcp/inMemory.js';
import { InMemoryTransport as ServerInMemory } from 'ferrymcp/server';
import * as types from 'ferrymcp/types.js';
import * as ferrymcpServer from 'ferrymcp/server';
import * as ferrymcpClient from 'ferrymcp/client';
import { z } from 'zod';

function ferryServer() {
  const server = new McpServer({ name: 'carried', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }, ctx) => {
    await ctx.mcpReq.log('info', `adding ${a} and ${b}`);
    return { content: [{ type: 'text', text: String(a + b) }] };
  });
  server.registerTool('wait', { inputSchema: { ms: z.number() } }, async ({ ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { content: [{ type: 'text', text: `waited ${ms}` }] };
  });
  return server;
}

function officialServer() {
  const server = new OfficialServer({ name: 'official', version: '1.0.0' });
  server.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
  }));
  return server;
}

/** A transport of the kind the official docs teach users to write: newline-delimited JSON on a socket. */
class SocketTransport {
  #buffer = new ReadBuffer();
  constructor(socket) {
    this.socket = socket;
  }
  async start() {
    this.socket.on('data', (chunk) => {
      this.#buffer.append(chunk);
      for (let message = this.#buffer.readMessage(); message !== null; message = this.#buffer.readMessage()) this.onmessage?.(message);
    });
    this.socket.on('close', () => this.onclose?.());
    this.socket.on('error', (error) => this.onerror?.(error));
  }
  async send(message) {
    this.socket.write(serializeMessage(message));
  }
  async close() {
    this.socket.end();
  }
}

describe('transports JavaScript carries', () => {
  test('ferrymcp server and client over InMemoryTransport: calls, logs, both eras', async () => {
    assert.equal(V1InMemory, InMemoryTransport, 'ferrymcp/inMemory.js is the v1 path of the same class');
    assert.equal(ServerInMemory, InMemoryTransport);
    for (const era of ['legacy', 'modern']) {
      const server = ferryServer();
      const client = new Client({ name: 'c', version: '1.0.0' }, { era });
      const logs = [];
      client.setNotificationHandler('notifications/message', (n) => logs.push(n.params.data));
      const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
      await server.connect(serverEnd);
      await client.connect(clientEnd);
      assert.equal(client.getProtocolEra(), era);
      const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      assert.deepEqual(result.content, [{ type: 'text', text: '5' }]);
      if (era === 'legacy') assert.deepEqual(logs, ['adding 2 and 3'], 'the log sent before the answer has arrived');
      const closed = new Promise((resolve) => (server.onclose = resolve));
      await client.close();
      await closed;
    }
  });

  test('answers stay matched to their requests when many are in flight', async () => {
    const server = ferryServer();
    const client = new Client({ name: 'c', version: '1.0.0' });
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await server.connect(serverEnd);
    await client.connect(clientEnd);
    const calls = Array.from({ length: 200 }, (_, i) => client.callTool({ name: 'add', arguments: { a: i, b: 1000 } }));
    const results = await Promise.all(calls);
    results.forEach((result, i) => assert.equal(result.content[0].text, String(i + 1000)));
    await client.close();
    await server.close();
  });

  test("the official client drives a ferrymcp server over the official SDK's InMemoryTransport", async () => {
    const server = ferryServer();
    const [clientEnd, serverEnd] = OfficialInMemory.createLinkedPair();
    await server.connect(serverEnd);
    const client = new OfficialClient({ name: 'official-client', version: '1.0.0' });
    await client.connect(clientEnd);
    assert.equal(client.getServerVersion().name, 'carried');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['add', 'wait']);
    const result = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
    assert.deepEqual(result.content, [{ type: 'text', text: '42' }]);
    const invalid = await client.callTool({ name: 'add', arguments: { a: 'x' } });
    assert.equal(invalid.isError, true, 'bad arguments are a tool error, and the connection keeps working');
    assert.equal((await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).content[0].text, '2');
    const closed = new Promise((resolve) => (server.onclose = resolve));
    await client.close();
    await closed;
  });

  test("a ferrymcp client drives the official server over the official SDK's InMemoryTransport", async () => {
    const server = officialServer();
    const [clientEnd, serverEnd] = OfficialInMemory.createLinkedPair();
    await server.connect(serverEnd);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(clientEnd);
    assert.equal(client.getProtocolEra(), 'legacy', 'the official v1 server answers initialize only');
    assert.equal(client.getServerVersion().name, 'official');
    const result = await client.callTool({ name: 'add', arguments: { a: 4, b: 5 } });
    assert.deepEqual(result.content, [{ type: 'text', text: '9' }]);
    let serverClosed = false;
    server.server.onclose = () => (serverClosed = true);
    await client.close();
    assert.equal(serverClosed, true, 'as with the official client, the transport and its peer are closed once close() returns');
  });

  test("closing a ferrymcp server over the official InMemoryTransport has closed the official client's end when it returns", async () => {
    const server = ferryServer();
    const [clientEnd, serverEnd] = OfficialInMemory.createLinkedPair();
    await server.connect(serverEnd);
    const client = new OfficialClient({ name: 'official-client', version: '1.0.0' });
    await client.connect(clientEnd);
    assert.equal((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).content[0].text, '3');
    let clientClosed = false;
    client.onclose = () => (clientClosed = true);
    await server.close();
    assert.equal(clientClosed, true);
  });

  test('a user-written transport over a real TCP socket, both ends ferrymcp', async () => {
    const server = ferryServer();
    const accepted = new Promise((resolve) => {
      const listener = net.createServer((socket) => resolve({ socket, listener }));
      listener.listen(0, '127.0.0.1', () => connectClient(listener.address().port));
    });
    let clientSocket;
    const connected = new Promise((resolve) => (connectClient.resolve = resolve));
    function connectClient(port) {
      clientSocket = net.connect(port, '127.0.0.1', () => connectClient.resolve());
    }
    const { socket, listener } = await accepted;
    await connected;
    await server.connect(new SocketTransport(socket));
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(new SocketTransport(clientSocket));
    const results = await Promise.all([
      client.callTool({ name: 'wait', arguments: { ms: 30 } }),
      client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }),
    ]);
    assert.deepEqual(results.map((r) => r.content[0].text), ['waited 30', '3']);
    // The server's side of the socket goes away: the client's pending call fails, not hangs.
    const pending = client.callTool({ name: 'wait', arguments: { ms: 10_000 } });
    const clientClosed = new Promise((resolve) => (client.onclose = resolve));
    socket.destroy();
    await assert.rejects(pending, (error) => typeof error.code === 'number');
    await clientClosed;
    listener.close();
    await once(listener, 'close');
    await server.close();
  });

  test("a transport whose send throws reports it to onerror; the process does not crash", async () => {
    const server = ferryServer();
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    const errors = [];
    serverEnd.onerror = (error) => errors.push(error.message);
    const send = serverEnd.send.bind(serverEnd);
    let broken = false;
    serverEnd.send = (message) => {
      if (broken) throw new Error('socket is gone');
      return send(message);
    };
    await server.connect(serverEnd);
    const client = new Client({ name: 'c', version: '1.0.0' }, { requestTimeoutMs: 300, era: 'auto' });
    await client.connect(clientEnd);
    broken = true;
    await assert.rejects(client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }), (error) => typeof error.code === 'number');
    assert.deepEqual(errors, ['socket is gone']);
    await client.close();
    await server.close();
  });

  test('a transport closed by its owner ends the server connection', async () => {
    const server = ferryServer();
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await server.connect(serverEnd);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(clientEnd);
    const serverClosed = new Promise((resolve) => (server.onclose = resolve));
    const clientClosed = new Promise((resolve) => (client.onclose = resolve));
    await serverEnd.close();
    await serverClosed;
    await clientClosed;
    await assert.rejects(client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }), (error) => typeof error.code === 'number');
  });

  test('both ends are told the negotiated revision; versionNegotiation picks the era', async () => {
    for (const [versionNegotiation, era] of [[{ mode: 'legacy' }, 'legacy'], [{ mode: 'auto' }, 'modern'], [{ mode: { pin: types.MODERN_PROTOCOL_VERSION } }, 'modern']]) {
      const server = ferryServer();
      const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
      const told = {};
      clientEnd.setProtocolVersion = (v) => (told.client = v);
      serverEnd.setProtocolVersion = (v) => (told.server = v);
      const seen = [];
      const onmessage = (m) => seen.push(m);
      serverEnd.onmessage = onmessage;
      await server.connect(serverEnd);
      const client = new Client({ name: 'c', version: '1.0.0' }, { versionNegotiation });
      await client.connect(clientEnd);
      assert.equal(client.getProtocolEra(), era);
      await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
      assert.equal(told.client, client.getNegotiatedProtocolVersion());
      assert.equal(told.server, told.client, `${era}: the server end learnt the same revision`);
      const initialize = seen.find((m) => m.method === 'initialize');
      assert.equal(era === 'legacy', initialize !== undefined);
      if (initialize) assert.ok(types.isInitializeRequest(initialize) && officialTypes.isInitializeRequest(initialize));
      assert.ok(!types.isInitializeRequest(seen.find((m) => m.method === 'tools/call')));
      await client.close();
      await server.close();
    }
    assert.throws(() => new Client({ name: 'c', version: '1' }, { versionNegotiation: { mode: { pin: '2025-11-25' } } }), /pin: '2025-11-25' } is not a modern protocol revision/);
    assert.throws(() => new Client({ name: 'c', version: '1' }, { versionNegotiation: { mode: 'auto', probe: { maxRetries: 1 } } }), /versionNegotiation\.probe\.maxRetries/);
    // Nothing is accepted silently: an official option ferrymcp cannot honour, or an unknown one, throws naming it;
    // a store that is not one names what it lacks.
    assert.throws(() => new Client({ name: 'c', version: '1' }, { responseCacheStore: {} }), /responseCacheStore must be a ResponseCacheStore/);
    assert.throws(() => new Client({ name: 'c', version: '1' }, { enforceStrictCapabilities: true }), /enforceStrictCapabilities/);
    assert.throws(() => new Client({ name: 'c', version: '1' }, { requestTimeoutMS: 5 }), /unknown option requestTimeoutMS/);
    new Client({ name: 'c', version: '1' }, { enforceStrictCapabilities: false, debouncedNotificationMethods: [] });
  });

  test("v2's _meta keys, error codes and defaults, from core, by the official names", () => {
    const same = [
      'PROTOCOL_VERSION_META_KEY', 'CLIENT_CAPABILITIES_META_KEY', 'CLIENT_INFO_META_KEY', 'LOG_LEVEL_META_KEY', 'SERVER_INFO_META_KEY',
      'SUBSCRIPTION_ID_META_KEY', 'RELATED_TASK_META_KEY', 'TRACEPARENT_META_KEY', 'TRACESTATE_META_KEY', 'BAGGAGE_META_KEY',
      'PARSE_ERROR', 'INVALID_REQUEST', 'METHOD_NOT_FOUND', 'INVALID_PARAMS', 'INTERNAL_ERROR',
      'DEFAULT_REQUEST_TIMEOUT_MSEC', 'DEFAULT_MAX_REQUEST_BODY_SIZE',
    ];
    for (const name of same) {
      assert.equal(ferrymcpServer[name], officialV2Server[name], name);
      assert.equal(ferrymcpClient[name], officialV2Server[name], name);
    }
    // The engine reads stdio messages of up to 32 MiB (the official transport: 10 MiB).
    assert.equal(ferrymcpServer.STDIO_DEFAULT_MAX_BUFFER_SIZE, 32 * 1024 * 1024);
    assert.ok(ferrymcpServer.STDIO_DEFAULT_MAX_BUFFER_SIZE > officialV2Server.STDIO_DEFAULT_MAX_BUFFER_SIZE);
  });

  test("the official SDK's constants and guards, by the same names", () => {
    assert.equal(types.LATEST_PROTOCOL_VERSION, officialTypes.LATEST_PROTOCOL_VERSION);
    assert.equal(types.DEFAULT_NEGOTIATED_PROTOCOL_VERSION, officialTypes.DEFAULT_NEGOTIATED_PROTOCOL_VERSION);
    assert.equal(types.SUPPORTED_PROTOCOL_VERSIONS[0], officialTypes.SUPPORTED_PROTOCOL_VERSIONS[0], 'newest first');
    for (const version of types.SUPPORTED_PROTOCOL_VERSIONS) assert.ok(officialTypes.SUPPORTED_PROTOCOL_VERSIONS.includes(version), version);
    for (const header of ['application/json', 'Application/JSON; charset=utf-8', 'text/plain', 'application/json, text/plain', '', undefined, null]) {
      assert.equal(types.isJsonContentType(header), header === 'application/json' || header === 'Application/JSON; charset=utf-8', String(header));
    }
    assert.ok(types.isInputRequiredResult({ resultType: 'input_required', inputRequests: {} }));
    assert.ok(!types.isInputRequiredResult({ resultType: 'complete' }));
    assert.equal(types.getDisplayName({ name: 'n', title: 'T' }), 'T');
    assert.equal(types.getDisplayName({ name: 'n', annotations: { title: 'A' } }), 'A');
    assert.equal(types.getDisplayName({ name: 'n' }), 'n');
    const error = new types.UrlElicitationRequiredError([{ mode: 'url', url: 'https://x', elicitationId: '1', message: 'go' }]);
    const official = new officialTypes.UrlElicitationRequiredError([{ mode: 'url', url: 'https://x', elicitationId: '1', message: 'go' }]);
    assert.deepEqual([error.code, error.message, error.data], [official.code, official.message, official.data]);
    assert.ok(error instanceof types.McpError);
  });

  test('a request handler set after connect() answers, when the capability was declared', async () => {
    for (const era of ['legacy', 'modern']) {
      const server = new McpServer({ name: 'asks', version: '1.0.0' });
      server.registerTool('ask', {}, async (ctx) => {
        const reply = await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: 'capital?' } }], maxTokens: 5 });
        return { content: [{ type: 'text', text: reply.content.text }] };
      });
      const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
      await server.connect(serverEnd);
      const client = new Client({ name: 'c', version: '1.0.0' }, { era, capabilities: { sampling: {} } });
      await client.connect(clientEnd);
      client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' }));
      const result = await client.callTool({ name: 'ask', arguments: {} });
      assert.deepEqual(result.content, [{ type: 'text', text: 'Paris' }], era);
      await client.close();
      await server.close();
    }
  });

  test("ferrymcp's sendRootsListChanged() reaches the official server's handler", async () => {
    const official = new OfficialServer({ name: 'official-roots', version: '1.0.0' });
    let arrived;
    const changed = new Promise((resolve) => (arrived = resolve));
    official.server.setNotificationHandler(officialTypes.RootsListChangedNotificationSchema, (n) => arrived(n.method));
    const [clientEnd, serverEnd] = OfficialInMemory.createLinkedPair();
    await official.connect(serverEnd);
    const client = new Client({ name: 'c', version: '1.0.0' }, { era: 'legacy', capabilities: { roots: { listChanged: true } } });
    await client.connect(clientEnd);
    await client.sendRootsListChanged();
    assert.equal(await changed, 'notifications/roots/list_changed');
    await client.close();
    await official.close();
  });

  test("client notifications reach the low-level server's handlers", async () => {
    const server = new Server({ name: 'notified', version: '1.0.0' }, { capabilities: {} });
    const seen = [];
    let arrived;
    const next = () => new Promise((resolve) => (arrived = resolve));
    server.setNotificationHandler(types.RootsListChangedNotificationSchema, (n) => { seen.push(n); arrived(); });
    server.setNotificationHandler('com.example/poke', (n) => { seen.push(n); arrived(); });
    const [clientEnd, serverEnd] = OfficialInMemory.createLinkedPair();
    await server.connect(serverEnd);
    const client = new OfficialClient({ name: 'official-client', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
    await client.connect(clientEnd);
    let waiting = next();
    await client.sendRootsListChanged();
    await waiting;
    waiting = next();
    await client.notification({ method: 'com.example/poke', params: { n: 1 } });
    await waiting;
    assert.deepEqual(seen.map((n) => n.method), ['notifications/roots/list_changed', 'com.example/poke']);
    assert.deepEqual(seen[1].params, { n: 1 });
    assert.throws(() => server.setNotificationHandler('notifications/progress', () => {}), (error) => typeof error.code === 'number');
    await client.close();
  });
});
