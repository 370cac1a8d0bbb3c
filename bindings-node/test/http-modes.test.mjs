// The official transports' stateless mode (`sessionIdGenerator: undefined`, written out)
// and JSON-response mode (`enableJsonResponse: true`), served by core: the official v1
// and v2 clients against a ferrymcp server behind a Node http server, and raw POSTs that
// show what goes over the wire (no Mcp-Session-Id; one JSON body per request).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { describe, test } from 'node:test';

import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { NodeStreamableHTTPServerTransport } from 'ferrymcp/node';

import { build } from './fixtures/http-server.mjs';

async function serve(options) {
  const { server } = build();
  const transport = new NodeStreamableHTTPServerTransport(options);
  await server.connect(transport);
  const http = createServer((req, res) => transport.handleRequest(req, res));
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${http.address().port}/mcp`;
  return { url, close: async () => (await server.close(), await new Promise((resolve) => http.close(resolve))) };
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
const post = (url, body, extra = {}) => fetch(url, { method: 'POST', headers: { ...HEADERS, ...extra }, body: JSON.stringify(body) });

describe('stateless mode', () => {
  test('no session: initialize and every later POST stand alone; GET is 405', async () => {
    const served = await serve({ sessionIdGenerator: undefined });
    try {
      const init = await post(served.url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT });
      assert.equal(init.status, 200);
      assert.equal(init.headers.get('mcp-session-id'), null);
      // A request with no session and no initialize before it on this connection.
      const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } };
      const answered = await post(served.url, call, { 'mcp-protocol-version': '2025-11-25' });
      assert.equal(answered.status, 200);
      assert.equal((await answered.json()).result.content[0].text, 'hi');
      assert.equal((await fetch(served.url, { headers: { accept: 'text/event-stream' } })).status, 405);
    } finally {
      await served.close();
    }
  });

  test('the official v1 and v2 clients work against it', async () => {
    const served = await serve({ sessionIdGenerator: undefined });
    try {
      const v1 = new V1Client({ name: 'v1', version: '1' });
      const v1Transport = new V1HttpTransport(new URL(served.url));
      await v1.connect(v1Transport);
      assert.equal(v1Transport.sessionId, undefined);
      assert.equal((await v1.callTool({ name: 'echo', arguments: { text: 'one' } })).content[0].text, 'one');
      await v1.close();
      const v2 = new V2Client({ name: 'v2', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
      await v2.connect(new V2HttpTransport(new URL(served.url)));
      assert.equal((await v2.callTool({ name: 'echo', arguments: { text: 'two' } })).content[0].text, 'two');
      await v2.close();
    } finally {
      await served.close();
    }
  });
});

describe('JSON-response mode', () => {
  test('a request that sends progress first is still answered with one JSON body', async () => {
    const served = await serve({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'progress', arguments: {}, _meta: { progressToken: 't' } } };
      const answered = await post(served.url, call, { 'mcp-protocol-version': '2025-11-25' });
      assert.equal(answered.status, 200);
      assert.match(answered.headers.get('content-type'), /^application\/json/);
      const body = await answered.json();
      assert.equal(body.id, 3);
      assert.equal(body.result.content[0].text, 'done');
    } finally {
      await served.close();
    }
  });

  test('without it, the same request streams its progress before the answer', async () => {
    const served = await serve({ sessionIdGenerator: undefined });
    try {
      const call = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'progress', arguments: {}, _meta: { progressToken: 't' } } };
      const answered = await post(served.url, call, { 'mcp-protocol-version': '2025-11-25' });
      assert.match(answered.headers.get('content-type'), /^text\/event-stream/);
      const text = await answered.text();
      assert.equal((text.match(/notifications\/progress/g) ?? []).length, 3);
      assert.match(text, /"id":4/);
    } finally {
      await served.close();
    }
  });
});

describe('transport per request (v1 stateless pattern)', () => {
  test('a transport without sessionIdGenerator is stateless, so a fresh server and transport per request serve the official v1 client', async () => {
    const { WebStandardStreamableHTTPServerTransport } = await import('ferrymcp/server/webStandardStreamableHttp.js');
    const built = [];
    const http = createServer(async (req, res) => {
      const transport = new NodeStreamableHTTPServerTransport();
      const { server } = build();
      built.push(server);
      await server.connect(transport);
      await transport.handleRequest(req, res);
    });
    await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const client = new V1Client({ name: 'official-v1', version: '1.0.0' });
      await client.connect(new V1HttpTransport(new URL(`http://127.0.0.1:${http.address().port}/mcp`)));
      assert.equal(client.transport.sessionId, undefined);
      assert.ok((await client.listTools()).tools.length > 0);
      await client.close();
      assert.ok(built.length >= 3, `one server per request (${built.length})`);
      assert.equal(new WebStandardStreamableHTTPServerTransport().sessionId, undefined);
    } finally {
      await Promise.all(built.map((server) => server.close()));
      await new Promise((resolve) => http.close(resolve));
    }
  });
});

describe('one transport per session (the official wiring)', () => {
  test('onsessioninitialized / onsessionclosed and sessionId route each session to its own transport, for the official v1 client', async () => {
    const { isInitializeRequest } = await import('ferrymcp/types.js');
    const transports = {};
    const events = [];
    const servers = [];
    const http = createServer(async (req, res) => {
      // the body of a POST is read here, as express.json() would; a GET or DELETE is left unread
      const chunks = [];
      if (req.method === 'POST') for await (const chunk of req) chunks.push(chunk);
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
      const id = req.headers['mcp-session-id'];
      let transport = id && transports[id];
      if (!transport && !id && req.method === 'POST' && isInitializeRequest(body)) {
        transport = new NodeStreamableHTTPServerTransport({
          sessionIdGenerator: () => 'unused',
          onsessioninitialized: (sid) => {
            events.push(`open ${sid}`);
            transports[sid] = transport;
          },
          onsessionclosed: (sid) => {
            events.push(`close ${sid}`);
            delete transports[sid];
          },
        });
        const { server } = build();
        servers.push(server);
        await server.connect(transport);
      }
      if (!transport) {
        res.writeHead(400).end('no session');
        return;
      }
      await transport.handleRequest(req, res, body);
    });
    await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${http.address().port}/mcp`);
    try {
      const clients = [];
      for (let i = 0; i < 2; i++) {
        const client = new V1Client({ name: `official-v1-${i}`, version: '1.0.0' });
        const transport = new V1HttpTransport(url);
        await client.connect(transport);
        assert.ok((await client.listTools()).tools.length > 0);
        clients.push([client, transport]);
      }
      const ids = clients.map(([, t]) => t.sessionId);
      assert.equal(new Set(ids).size, 2);
      assert.deepEqual(Object.keys(transports).sort(), [...ids].sort());
      for (const id of ids) assert.equal(transports[id].sessionId, id);
      await clients[0][1].terminateSession();
      await clients[0][0].close();
      assert.deepEqual(events, [`open ${ids[0]}`, `open ${ids[1]}`, `close ${ids[0]}`]);
      assert.ok((await clients[1][0].listTools()).tools.length > 0);
      await clients[1][0].close();
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      await new Promise((resolve) => http.close(resolve));
    }
  });

  test('listen() and createMcpHandler refuse the session hooks by name', async () => {
    const { createMcpHandler } = await import('ferrymcp');
    assert.throws(() => createMcpHandler(() => build().server, { onsessioninitialized: () => {} }), /onsessioninitialized is not supported here/);
  });
});
