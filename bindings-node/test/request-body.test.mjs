// The v1 paths `server/requestBody.js`, `server/sseKeepAlive.js` and the redirect helpers of
// `shared/transport.js`, each compared with the official v1 package on the same inputs
// (real `Request`s, real timers, two real local HTTP servers as two origins), and the HTTP
// endpoint's batch cap and 413 against the official v1 server's.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';

import * as officialBody from '@modelcontextprotocol/sdk/server/requestBody.js';
import * as officialKeepAlive from '@modelcontextprotocol/sdk/server/sseKeepAlive.js';
import * as officialTransport from '@modelcontextprotocol/sdk/shared/transport.js';
import * as body from 'ferrymcp/server/requestBody.js';
import * as keepAlive from 'ferrymcp/server/sseKeepAlive.js';
import * as transport from 'ferrymcp/shared/transport.js';

/** What a call gives: its value, or the error it throws or rejects with (name and message). */
async function outcome(call) {
  try {
    return { value: await call() };
  } catch (error) {
    return { error: { name: error.name, message: error.message } };
  }
}

const encoder = new TextEncoder();

/** A POST whose body is a stream of `chunks` (strings or bytes), optionally failing after them. */
function streamed(chunks, { fail, headers } = {}) {
  const stream = new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      if (fail) controller.error(new Error(fail));
      else controller.close();
    },
  });
  return new Request('http://localhost/mcp', { method: 'POST', body: stream, duplex: 'half', headers });
}

test('server/requestBody.js: the constants, the 413 message and the option resolution are the official ones, from core', () => {
  assert.equal(body.DEFAULT_MAX_REQUEST_BODY_SIZE, officialBody.DEFAULT_MAX_REQUEST_BODY_SIZE);
  assert.equal(body.MAX_BATCH_SIZE, officialBody.MAX_BATCH_SIZE);
  for (const n of [1, 1024, 1.5, 4 * 1024 * 1024, 1e21, Number.NaN]) {
    assert.equal(body.requestBodyTooLargeMessage(n), officialBody.requestBodyTooLargeMessage(n), String(n));
  }
  for (const value of [undefined, 1, 10.5, 4096, 0, -1, Number.NaN, Infinity, -Infinity, '10', null, {}, true]) {
    const ours = (() => { try { return { value: body.resolveMaxRequestBodySize(value) }; } catch (e) { return { error: [e.constructor.name, e.message] }; } })();
    const theirs = (() => { try { return { value: officialBody.resolveMaxRequestBodySize(value) }; } catch (e) { return { error: [e.constructor.name, e.message] }; } })();
    assert.deepEqual(ours, theirs, String(value));
  }
  assert.throws(() => body.resolveMaxRequestBodySize(0), { name: 'RangeError', message: 'maxRequestBodySize must be a positive number of bytes, got 0' });
});

test('a transport given maxRequestBodySize accepts or refuses it as the official transport does (RangeError for anything but a positive finite number)', async () => {
  const ours = await import('ferrymcp/server/streamableHttp.js');
  const theirs = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const made = (module, value) => {
    try {
      new module.StreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: value });
      return 'made';
    } catch (e) {
      return [e.constructor.name, e.message];
    }
  };
  for (const value of [undefined, 1, 10.5, 4096, 2 ** 40, 0, -1, Number.NaN, Infinity, '10', null, true]) {
    assert.deepEqual(made(ours, value), made(theirs, value), String(value));
  }
});

test('readRequestBody: the same text or refusal as the official one, with and without Content-Length, buffered and streamed', async () => {
  const big = 'x'.repeat(officialBody.DEFAULT_MAX_REQUEST_BODY_SIZE + 1);
  // Each case builds a fresh request per call (a body reads once) and names the limit.
  const cases = [
    ['no body', () => new Request('http://localhost/mcp'), undefined],
    ['empty body', () => new Request('http://localhost/mcp', { method: 'POST', body: '' }), 10],
    ['under the limit, no Content-Length', () => new Request('http://localhost/mcp', { method: 'POST', body: 'hello' }), 10],
    ['exactly the limit', () => new Request('http://localhost/mcp', { method: 'POST', body: 'x'.repeat(10) }), 10],
    ['one over, no Content-Length', () => new Request('http://localhost/mcp', { method: 'POST', body: 'x'.repeat(11) }), 10],
    ['declared over the limit', () => new Request('http://localhost/mcp', { method: 'POST', body: 'tiny', headers: { 'content-length': '11' } }), 10],
    ['declared under, sent over', () => streamed(['x'.repeat(8), 'x'.repeat(8)], { headers: { 'content-length': '4' } }), 10],
    ['declared unreadable', () => streamed(['abc'], { headers: { 'content-length': 'lots' } }), 10],
    ['default limit, over', () => new Request('http://localhost/mcp', { method: 'POST', body: big }), undefined],
    ['default limit, under', () => new Request('http://localhost/mcp', { method: 'POST', body: '{"a":1}' }), undefined],
    ['streamed chunks within', () => streamed(['{"json', 'rpc":', '"2.0"}']), 64],
    ['streamed, over at the third chunk', () => streamed(['aaaa', 'bbbb', 'cccc', 'dddd']), 10],
    ['a character split across chunks', () => streamed([encoder.encode('é€').slice(0, 1), encoder.encode('é€').slice(1, 4), encoder.encode('é€').slice(4)]), 64],
    ['a byte-order mark and a bad byte', () => streamed([new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xff, 0x62])]), 64],
    ['a failing stream', () => streamed(['abc'], { fail: 'the client went away' }), 64],
  ];
  for (const [name, make, limit] of cases) {
    const ours = await outcome(() => body.readRequestBody(make(), limit));
    const theirs = await outcome(() => officialBody.readRequestBody(make(), limit));
    assert.deepEqual(ours, theirs, name);
  }
  // A declared size over the limit is refused without reading: the body is left unused.
  const declared = new Request('http://localhost/mcp', { method: 'POST', body: 'tiny', headers: { 'content-length': '99' } });
  assert.deepEqual(await body.readRequestBody(declared, 10), { tooLarge: true });
  assert.equal(declared.bodyUsed, false);
  // The read stops at the chunk that crosses the limit: later chunks are never pulled.
  let pulled = 0;
  const endless = new ReadableStream({ pull(controller) { pulled += 1; controller.enqueue(encoder.encode('xxxx')); } }, { highWaterMark: 0 });
  const request = new Request('http://localhost/mcp', { method: 'POST', body: endless, duplex: 'half' });
  assert.deepEqual(await body.readRequestBody(request, 10), { tooLarge: true });
  assert.ok(pulled <= 4, `pulled ${pulled} chunks`);
});

test('server/sseKeepAlive.js: the default is core\'s (the official one); the timer ticks unref\'d; bad delays arm nothing', async () => {
  assert.equal(keepAlive.DEFAULT_SSE_KEEP_ALIVE_MS, officialKeepAlive.DEFAULT_SSE_KEEP_ALIVE_MS);
  for (const delay of [0, 0.5, -1, Number.NaN, Infinity, -Infinity, '100', undefined, null]) {
    assert.equal(keepAlive.armSseKeepAlive(delay, () => {}), undefined, String(delay));
    assert.equal(officialKeepAlive.armSseKeepAlive(delay, () => {}), undefined, String(delay));
  }
  for (const arm of [keepAlive.armSseKeepAlive, officialKeepAlive.armSseKeepAlive]) {
    let ticks = 0;
    let third;
    const ticked = new Promise((resolve) => { third = resolve; });
    const timer = arm(1, () => { ticks += 1; if (ticks === 3) third(); });
    assert.equal(timer.hasRef(), false, 'the timer does not keep the process alive');
    await ticked;
    clearInterval(timer);
    assert.equal(ticks, 3);
  }
  // A delay past the longest timer is clamped to it (Node would otherwise warn and fire at once).
  const warnings = [];
  const onWarning = (warning) => warnings.push(warning.name);
  process.on('warning', onWarning);
  let fired = false;
  const timer = keepAlive.armSseKeepAlive(2 ** 40, () => { fired = true; });
  await new Promise((resolve) => setTimeout(resolve, 20));
  clearInterval(timer);
  process.off('warning', onWarning);
  assert.deepEqual(warnings, []);
  assert.equal(fired, false);
});

// Two origins: two servers on different ports. Paths:
//   /ok            200, echoing the method and body
//   /to?s=S&l=L    status S with Location L
//   /chain/N       302 to /chain/N-1 until 0, then 200
let originA;
let originB;
const servers = [];
const hits = [];

async function origin(name) {
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const url = new URL(req.url, 'http://localhost');
    hits.push(`${name} ${req.method} ${url.pathname}`);
    if (url.pathname === '/ok') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`${name} ${req.method} ${text}`);
    } else if (url.pathname === '/to') {
      res.writeHead(Number(url.searchParams.get('s')), { location: url.searchParams.get('l') }).end('redirect body');
    } else if (url.pathname.startsWith('/chain/')) {
      const left = Number(url.pathname.slice('/chain/'.length));
      if (left === 0) res.writeHead(200).end(`${name} end of chain`);
      else res.writeHead(302, { location: `/chain/${left - 1}` }).end();
    } else {
      res.writeHead(404).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return `http://127.0.0.1:${server.address().port}`;
}

before(async () => {
  originA = await origin('A');
  originB = await origin('B');
});
after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

/** What a fetch answered: status, Location and text, or how it failed. */
async function fetched(call) {
  try {
    const response = await call();
    return { status: response.status, location: response.headers.get('location'), text: await response.text() };
  } catch (error) {
    return { error: error.name };
  }
}

const to = (status, location) => `${originA}/to?s=${status}&l=${encodeURIComponent(location)}`;

test('fetchWithinOrigin / followWithinOrigin / unfollowedRedirect: the official redirects followed and refused, over real HTTP', async () => {
  const cases = [
    ['GET, 302 within', to(302, '/ok'), undefined],
    ['GET, 301 within, absolute', to(301, `${originA}/ok`), undefined],
    ['GET, 303 within', to(303, '/ok'), undefined],
    ['GET, 302 to another origin', to(302, `${originB}/ok?secret=1#frag`), undefined],
    ['GET, 307 to another origin', to(307, `${originB}/ok`), undefined],
    ['POST, 307 within keeps the body', to(307, '/ok'), { method: 'POST', body: 'payload' }],
    ['POST, 308 within keeps the body', to(308, '/ok'), { method: 'POST', body: 'payload' }],
    ['POST, 302 within is not followed', to(302, '/ok'), { method: 'POST', body: 'payload' }],
    ['post, 303 within is not followed', to(303, '/ok'), { method: 'post', body: 'payload' }],
    ['GET with userinfo added', to(302, `http://user:pw@127.0.0.1:${new URL(originA).port}/ok`), undefined],
    ['GET, 300 is no redirect', to(300, '/ok'), undefined],
    ['GET, 302 without a usable Location', to(302, 'http://['), undefined],
    ['five redirects', `${originA}/chain/5`, undefined],
    ['six redirects', `${originA}/chain/6`, undefined],
    ['redirect: manual passes through', to(302, '/ok'), { redirect: 'manual' }],
    ['redirect: error passes through', to(302, '/ok'), { redirect: 'error' }],
    ['redirect: follow is still within origin', to(302, `${originB}/ok`), { redirect: 'follow' }],
  ];
  const ours = transport.fetchWithinOrigin();
  const theirs = officialTransport.fetchWithinOrigin();
  for (const [name, url, init] of cases) {
    hits.length = 0;
    const a = await fetched(() => ours(url, init));
    const oursHits = [...hits];
    hits.length = 0;
    const b = await fetched(() => theirs(url, init));
    assert.deepEqual(a, b, name);
    assert.deepEqual(oursHits, hits, `${name}: the same requests made`);
  }
  // Followed: the final answer; refused: the redirect itself, which unfollowedRedirect describes.
  assert.equal((await fetched(() => ours(to(302, '/ok')))).text, 'A GET ');
  assert.equal((await fetched(() => ours(to(307, '/ok'), { method: 'POST', body: 'p' }))).text, 'A POST p');
  assert.equal((await fetched(() => ours(`${originA}/chain/6`))).status, 302);
  const refused = await ours(to(302, `${originB}/ok?secret=1#frag`));
  assert.equal(transport.unfollowedRedirect(refused, to(302, '')), `Redirect to ${originB}/ok not followed`);

  // unfollowedRedirect on responses as a runtime gives them (url set or not), and on made ones.
  const made = (status, location) => new Response(null, { status, headers: location === undefined ? {} : { location } });
  const describe = [
    [made(302, 'http://other.example/path?q=1#h'), 'https://site.example/mcp'],
    [made(302, 'http://u:p@other.example/path'), 'http://site.example/mcp'],
    [made(307, '/relative?x'), 'https://site.example/mcp'],
    [made(308, 'https://other.example:8443/a'), 'http://site.example/mcp'],
    [made(302, undefined), 'http://site.example/mcp'],
    [made(302, 'http://['), 'http://site.example/mcp'],
    [made(200, '/elsewhere'), 'http://site.example/mcp'],
    [made(304, '/elsewhere'), 'http://site.example/mcp'],
    [refused, 'http://ignored.example/'],
  ];
  for (const [response, requestUrl] of describe) {
    assert.equal(transport.unfollowedRedirect(response, requestUrl), officialTransport.unfollowedRedirect(response, requestUrl), `${response.status} ${response.headers.get('location')}`);
  }
  assert.equal(transport.unfollowedRedirect(made(302, 'http://other.example/p?q#h'), 'https://site.example/'), 'Redirect to plain http not followed; try https://other.example/p instead');

  // followWithinOrigin on its own: a response that is no redirect is used as it is.
  assert.equal(transport.followWithinOrigin(fetch, `${originA}/ok`, undefined, made(200)), undefined);
  assert.equal(officialTransport.followWithinOrigin(fetch, `${originA}/ok`, undefined, made(200)), undefined);
  const followed = transport.followWithinOrigin(fetch, `${originA}/x`, undefined, made(302, '/ok'));
  assert.equal(await (await followed).text(), 'A GET ');
  assert.equal(transport.followWithinOrigin(fetch, `${originA}/x`, undefined, made(302, '/ok'), 5), undefined, 'the sixth redirect is not followed');
});

test('isWithinOrigin and fetchLeavingRedirects: as the official ones', async () => {
  const pairs = [
    ['http://a.example/x', 'http://a.example/y'],
    ['http://a.example/x', 'https://a.example/y'],
    ['https://a.example/x', 'http://a.example/y'],
    ['http://a.example:8080/x', 'https://a.example:8080/y'],
    ['http://a.example/x', 'https://a.example:8443/y'],
    ['http://a.example:80/x', 'https://a.example/y'],
    ['http://a.example/x', 'http://b.example/y'],
    ['http://a.example:1/x', 'http://a.example:2/y'],
    ['http://u@a.example/x', 'http://a.example/y'],
  ];
  for (const [from, target] of pairs) {
    assert.equal(transport.isWithinOrigin(new URL(from), new URL(target)), officialTransport.isWithinOrigin(new URL(from), new URL(target)), `${from} -> ${target}`);
  }
  // A fetch that leaves redirects to itself is kept as it is, and follows across origins.
  for (const module of [transport, officialTransport]) {
    const leaving = module.fetchLeavingRedirects();
    assert.equal(module.fetchWithinOrigin(leaving), leaving);
    const response = await leaving(to(302, `${originB}/ok`));
    assert.equal(await response.text(), 'B GET ');
    const wrapped = module.fetchLeavingRedirects(async (url, init) => new Response(`seen ${url} ${init?.method}`));
    assert.equal(await (await wrapped('http://x.example/', { method: 'PUT' })).text(), 'seen http://x.example/ PUT');
  }
  assert.notEqual(transport.fetchWithinOrigin(fetch), fetch);
});

/** A per-session HTTP server of `sdk` (ferrymcp's v1 paths or the official package's). */
async function serve(sdk, transportOptions = {}) {
  const { McpServer } = await import(`${sdk}/server/mcp.js`);
  const { StreamableHTTPServerTransport } = await import(`${sdk}/server/streamableHttp.js`);
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    let session = id === undefined ? undefined : sessions.get(id);
    if (session === undefined) {
      session = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => sessions.set(sid, session), ...transportOptions });
      await new McpServer({ name: 'batches', version: '1.0.0' }).connect(session);
    }
    await session.handleRequest(req, res);
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const url = `http://127.0.0.1:${http.address().port}/mcp`;
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = (message, extra = {}) => fetch(url, { method: 'POST', headers: { ...headers, ...extra }, body: typeof message === 'string' ? message : JSON.stringify(message) });
  const initialize = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  await initialize.text();
  const session = { 'mcp-session-id': initialize.headers.get('mcp-session-id'), 'mcp-protocol-version': '2025-03-26' };
  assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status, 202);
  return {
    post: (message) => post(message, session),
    async close() {
      for (const open of new Set(sessions.values())) await open.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

const pings = (n) => Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'ping' }));

test('Streamable HTTP: a 101-message batch and an oversized body get the official v1 server\'s status and error; a 100-message batch is refused by core', async () => {
  const limit = 8192;
  const ours = await serve('ferrymcp', { maxRequestBodySize: limit });
  const theirs = await serve('@modelcontextprotocol/sdk', { maxRequestBodySize: limit });
  try {
    // Core's transport-level refusals leave the id out (see core's server/http/reply.rs);
    // the official server's say `"id": null`. Status and error are compared whole.
    const refusal = async (server, message) => {
      const response = await server.post(message);
      const { id, ...rest } = await response.json();
      return { status: response.status, body: rest, id };
    };
    const over = await refusal(ours, pings(101));
    const officialOver = await refusal(theirs, pings(101));
    assert.deepEqual(over.body, officialOver.body);
    assert.equal(over.status, officialOver.status);
    assert.deepEqual(over, { status: 400, body: { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: Batch must not exceed 100 messages' } }, id: undefined });
    assert.equal(officialOver.id, null);

    const big = { jsonrpc: '2.0', id: 9, method: 'ping', params: { pad: 'x'.repeat(2 * limit) } };
    const tooLarge = await refusal(ours, big);
    const officialTooLarge = await refusal(theirs, big);
    assert.deepEqual({ ...tooLarge, id: null }, officialTooLarge);
    assert.deepEqual(tooLarge.body.error, { code: -32000, message: body.requestBodyTooLargeMessage(limit) });

    // Within the cap the official v1 server serves the batch (one SSE stream with 100
    // answers); core refuses every batch over Streamable HTTP, as the official Python SDK.
    const official = await theirs.post(pings(100));
    assert.equal(official.status, 200);
    assert.equal(((await official.text()).match(/"result":\{\}/g) ?? []).length, 100);
    const within = await refusal(ours, pings(100));
    assert.deepEqual(within, { status: 400, body: { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request: JSON-RPC batches are not accepted over Streamable HTTP' } }, id: undefined });

    // The endpoint carries on.
    const ping = await ours.post({ jsonrpc: '2.0', id: 42, method: 'ping' });
    assert.equal(ping.status, 200);
    assert.match(await ping.text(), /"id":42/);
  } finally {
    await ours.close();
    await theirs.close();
  }
});
