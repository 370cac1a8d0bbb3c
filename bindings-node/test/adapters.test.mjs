// ferrymcp/hono, ferrymcp/express and the guards of ferrymcp/node: the official app factories
// and DNS rebinding guards, by the same names. Each is served over real HTTP and driven by the
// official v2 client; a refused request is compared with the official adapter's answer to it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { describe, test } from 'node:test';

import { serve } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import * as officialExpress from '@modelcontextprotocol/express';
import * as officialHono from '@modelcontextprotocol/hono';
import * as officialNode from '@modelcontextprotocol/node';
import * as officialServer from '@modelcontextprotocol/server';
import { createMcpHandler, McpServer, validateHostHeader, validateOriginHeader } from 'ferrymcp';
import * as express from 'ferrymcp/express';
import * as hono from 'ferrymcp/hono';
import * as node from 'ferrymcp/node';
import { toNodeHandler } from 'ferrymcp/node';
import * as z from 'zod';

function build() {
  const server = new McpServer({ name: 'adapters', version: '1.0.0' });
  server.registerTool('greet', { inputSchema: z.object({ name: z.string() }) }, async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }));
  return server;
}

async function greet(url) {
  const client = new Client({ name: 'official', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    return result.content[0].text;
  } finally {
    await client.close();
  }
}

/** A raw POST with the given Host / Origin: status and body. */
async function post(port, headers) {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, body: body ? JSON.parse(body) : undefined }));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
  });
}

const REFUSED = [{ host: 'evil.example:80' }, { host: '127.0.0.1', origin: 'http://evil.example' }, { host: '127.0.0.1', origin: 'not a url' }];

describe('validateHostHeader / validateOriginHeader', () => {
  test('answer as the official functions do', () => {
    const hosts = [undefined, '', 'localhost', 'localhost:3000', '127.0.0.1:1', '[::1]:8080', 'LOCALHOST', 'evil.example', 'a b', 'x:y:z'];
    for (const h of hosts) for (const allowed of [['localhost', '127.0.0.1', '[::1]'], ['evil.example']]) assert.deepEqual(validateHostHeader(h, allowed), officialServer.validateHostHeader(h, allowed), `host ${h}`);
    const origins = [undefined, null, '', 'http://localhost:3000', 'https://127.0.0.1', 'http://evil.example', 'app://x', 'nonsense', 'file://'];
    for (const o of origins) for (const allowed of [['localhost', '127.0.0.1'], ['app://*']]) assert.deepEqual(validateOriginHeader(o, allowed), officialServer.validateOriginHeader(o, allowed), `origin ${o}`);
  });
});

describe('ferrymcp/hono', () => {
  async function run(factory, handler) {
    const app = factory.createMcpHonoApp();
    app.all('/mcp', (c) => handler.fetch(c.req.raw));
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await once(server, 'listening');
    return { server, port: server.address().port };
  }

  test('createMcpHonoApp serves createMcpHandler to the official client, and refuses as the official app does', async () => {
    const mine = await run(hono, createMcpHandler(build));
    const theirs = await run(officialHono, officialServer.createMcpHandler(() => new officialServer.McpServer({ name: 'o', version: '1' })));
    try {
      assert.equal(await greet(`http://127.0.0.1:${mine.port}/mcp`), 'Hello, Ada!');
      for (const headers of REFUSED) assert.deepEqual(await post(mine.port, headers), await post(theirs.port, headers), JSON.stringify(headers));
    } finally {
      mine.server.close();
      theirs.server.close();
    }
  });

  test('an unknown option is refused by name', () => {
    assert.throws(() => hono.createMcpHonoApp({ hots: '127.0.0.1' }), /unknown option 'hots'/);
    assert.throws(() => hono.createMcpHonoApp({ maxRequestBodySize: -1 }), RangeError);
  });
});

describe('ferrymcp/express', () => {
  async function run(factory, handle) {
    const app = factory.createMcpExpressApp();
    app.all('/mcp', (req, res) => void handle(req, res, req.body));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { server, port: server.address().port };
  }

  test('createMcpExpressApp serves the Node transport to the official client, and refuses as the official app does', async () => {
    const transport = new node.NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await build().connect(transport);
    const mine = await run(express, (req, res, body) => transport.handleRequest(req, res, body));
    const official = officialServer.createMcpHandler(() => new officialServer.McpServer({ name: 'o', version: '1' }));
    const theirs = await run(officialExpress, officialNode.toNodeHandler(official));
    try {
      assert.equal(await greet(`http://127.0.0.1:${mine.port}/mcp`), 'Hello, Ada!');
      for (const headers of REFUSED) assert.deepEqual(await post(mine.port, headers), await post(theirs.port, headers), JSON.stringify(headers));
    } finally {
      mine.server.close();
      theirs.server.close();
      await transport.close();
    }
  });

  test('an unknown option is refused by name', () => {
    assert.throws(() => express.createMcpExpressApp({ jsonlimit: '1mb' }), /unknown option 'jsonlimit'/);
  });
});

describe('ferrymcp/node guards', () => {
  async function run(guards, handler) {
    const server = createServer((req, res) => {
      for (const guard of guards) if (!guard(req, res)) return;
      handler(req, res);
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { server, port: server.address().port };
  }

  test('localhostHostValidation / localhostOriginValidation in front of toNodeHandler, as the official guards', async () => {
    const mine = await run([node.localhostHostValidation(), node.localhostOriginValidation()], toNodeHandler(createMcpHandler(build)));
    const theirs = await run([officialNode.localhostHostValidation(), officialNode.localhostOriginValidation()], officialNode.toNodeHandler(officialServer.createMcpHandler(() => new officialServer.McpServer({ name: 'o', version: '1' }))));
    try {
      assert.equal(await greet(`http://127.0.0.1:${mine.port}/mcp`), 'Hello, Ada!');
      for (const headers of REFUSED) assert.deepEqual(await post(mine.port, headers), await post(theirs.port, headers), JSON.stringify(headers));
    } finally {
      mine.server.close();
      theirs.server.close();
    }
  });
});

describe('ferrymcp/server/express.js (v1)', () => {
  test("v1's createMcpExpressApp serves the v1 transport to the official v1 client, refuses a foreign Host as v1 does, and takes v1's options only", async () => {
    const { createMcpExpressApp } = await import('ferrymcp/server/express.js');
    const { createMcpExpressApp: officialApp } = await import('@modelcontextprotocol/sdk/server/express.js');
    const { StreamableHTTPServerTransport } = await import('ferrymcp/server/streamableHttp.js');
    const { Client: V1Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport: V1Transport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await build().connect(transport);
    const listen = async (app) => {
      const server = app.listen(0, '127.0.0.1');
      await once(server, 'listening');
      return { server, port: server.address().port };
    };
    const mineApp = createMcpExpressApp();
    mineApp.post('/mcp', (req, res) => void transport.handleRequest(req, res, req.body));
    const theirsApp = officialApp();
    theirsApp.post('/mcp', (_req, res) => void res.status(500).end());
    const mine = await listen(mineApp);
    const theirs = await listen(theirsApp);
    try {
      const client = new V1Client({ name: 'official-v1', version: '1.0.0' });
      await client.connect(new V1Transport(new URL(`http://127.0.0.1:${mine.port}/mcp`)));
      const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
      assert.equal(result.content[0].text, 'Hello, Ada!');
      await client.close();
      for (const headers of [{ host: 'evil.example:80' }, { host: 'a b' }]) assert.deepEqual(await post(mine.port, headers), await post(theirs.port, headers), JSON.stringify(headers));
      assert.throws(() => createMcpExpressApp({ allowedOrigins: ['x'] }), /unknown option 'allowedOrigins'/);
    } finally {
      mine.server.close();
      theirs.server.close();
      await transport.close();
    }
  });
});
