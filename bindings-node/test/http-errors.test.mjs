// The HTTP errors of the client transports, against a server on node:http that fails on
// purpose (404, 500, 401 without an authorization scheme, a body that is not JSON, a
// refused DELETE, every request refused): ferrymcp's client through v1's import paths
// and through v2's, and the official v1 and v2 clients against the same server. What
// each throws is compared whole: its class (by name, and `instanceof` the class the
// import path exports), `name`, `code`, `message`, `data`, `status`, `statusText` and
// `event`.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';

import { Client as OfficialV1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as OfficialV1Sse, SseError as OfficialV1SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as OfficialV1Http, StreamableHTTPError as OfficialStreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as officialV2 from '@modelcontextprotocol/client';
import * as ferryV2 from 'ferrymcp/client';
import { Client as FerryV1Client } from 'ferrymcp/client/index.js';
import { SSEClientTransport as FerryV1Sse, SseError as FerryV1SseError } from 'ferrymcp/client/sse.js';
import { StreamableHTTPClientTransport as FerryV1Http, StreamableHTTPError as FerryStreamableHTTPError } from 'ferrymcp/client/streamableHttp.js';

/** Each line's client, transports and error classes, as the import paths export them. */
const lines = {
  v1: {
    official: { Client: OfficialV1Client, Http: OfficialV1Http, Sse: OfficialV1Sse, HttpError: OfficialStreamableHTTPError, SdkError: undefined, SseError: OfficialV1SseError },
    ferrymcp: { Client: FerryV1Client, Http: FerryV1Http, Sse: FerryV1Sse, HttpError: FerryStreamableHTTPError, SdkError: undefined, SseError: FerryV1SseError },
  },
  v2: {
    official: { Client: officialV2.Client, Http: officialV2.StreamableHTTPClientTransport, Sse: officialV2.SSEClientTransport, HttpError: officialV2.SdkHttpError, SdkError: officialV2.SdkError, SseError: officialV2.SseError },
    ferrymcp: { Client: ferryV2.Client, Http: ferryV2.StreamableHTTPClientTransport, Sse: ferryV2.SSEClientTransport, HttpError: ferryV2.SdkHttpError, SdkError: ferryV2.SdkError, SseError: ferryV2.SseError },
  },
};

function reply(res, status, type, body = '', headers = {}) {
  res.writeHead(status, { ...(type && { 'content-type': type }), ...headers });
  res.end(body);
}

function result(res, id, value, headers) {
  reply(res, 200, 'application/json', JSON.stringify({ jsonrpc: '2.0', id, result: value }), headers);
}

/**
 * `/all<status>` answers every request with `<status>`. `/mcp` is a 2025-06-18 server with
 * a session (no GET stream: 405), whose DELETE fails (500) and whose tools fail as named:
 * `e404`, `e500` (an HTML page), `e401` (no `WWW-Authenticate`), `text` (200, text/plain).
 */
async function handle(req, res) {
  const url = new URL(req.url, 'http://localhost');
  let body = '';
  for await (const chunk of req) body += chunk;
  const all = /^\/all(\d{3})$/.exec(url.pathname);
  if (all) return reply(res, Number(all[1]), 'text/plain', `refused with ${all[1]}`);
  if (req.method === 'GET') return reply(res, 405, 'text/plain', 'no stream here');
  if (req.method === 'DELETE') return reply(res, 500, 'text/plain', 'cannot end it');
  const message = JSON.parse(body);
  if (message.id === undefined) return reply(res, 202);
  if (message.method === 'initialize') {
    const info = { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'failing', version: '1' } };
    return result(res, message.id, info, { 'mcp-session-id': 'session-1' });
  }
  if (message.method === 'tools/list') return result(res, message.id, { tools: [{ name: 'ok', inputSchema: { type: 'object' } }] });
  if (message.method !== 'tools/call') {
    const error = { code: -32601, message: 'Method not found' };
    return reply(res, 200, 'application/json', JSON.stringify({ jsonrpc: '2.0', id: message.id, error }));
  }
  switch (message.params?.name) {
    case 'e404':
      return reply(res, 404, 'text/plain', 'no such thing');
    case 'e500':
      return reply(res, 500, 'text/html', '<h1>boom</h1>');
    case 'e401':
      return reply(res, 401, 'text/plain', 'who are you');
    case 'text':
      return reply(res, 200, 'text/plain', 'hello');
    default:
      return result(res, message.id, { content: [{ type: 'text', text: 'fine' }] });
  }
}

let server;
let base;

before(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** What a caller can inspect of an error, with the exported class it is an instance of. */
function shape(error, exports) {
  const { HttpError, SdkError, SseError } = exports;
  return {
    class: error.constructor.name,
    instanceOf: [
      error instanceof HttpError && HttpError.name,
      SdkError !== undefined && error instanceof SdkError && SdkError.name,
      error instanceof SseError && SseError.name,
    ].filter(Boolean),
    name: error.name,
    code: error.code,
    message: error.message,
    data: error.data,
    status: error.status,
    statusText: error.statusText,
    event: error.event && { type: error.event.type, code: error.event.code, message: error.event.message },
  };
}

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected a rejection');
}

/** The error `connect()` throws through `transport` of `exports`, on `path`. */
async function connectError(exports, transport, path) {
  const client = new exports.Client({ name: 'errors', version: '1' });
  const error = await rejection(client.connect(new exports[transport](new URL(`${base}${path}`))));
  await client.close().catch(() => {});
  return shape(error, exports);
}

/** The errors each tool's call throws on one connection (and that calls still work after them), and `terminateSession()`'s. */
async function callErrors(exports) {
  const client = new exports.Client({ name: 'errors', version: '1' });
  const transport = new exports.Http(new URL(`${base}/mcp`));
  await client.connect(transport);
  const errors = {};
  for (const tool of ['e404', 'e500', 'e401', 'text']) {
    errors[tool] = shape(await rejection(client.callTool({ name: tool, arguments: {} })), exports);
    assert.deepEqual((await client.callTool({ name: 'ok', arguments: {} })).content, [{ type: 'text', text: 'fine' }]);
  }
  errors.terminateSession = shape(await rejection(transport.terminateSession()), exports);
  await client.close();
  return errors;
}

for (const [line, { official, ferrymcp }] of Object.entries(lines)) {
  test(`${line}: a call the server answers with an HTTP error (404, 500, 401, text/plain) and a refused DELETE throw what the official ${line} client throws`, async () => {
    const expected = await callErrors(official);
    assert.deepEqual(await callErrors(ferrymcp), expected);
    // The error a v1 program catches has the status as `code`; a v2 program's, as `status`.
    const statusOf = line === 'v1' ? (e) => e.code : (e) => e.status;
    assert.deepEqual([expected.e404, expected.e500, expected.e401].map(statusOf), [404, 500, 401]);
  });

  test(`${line}: connect() through StreamableHTTPClientTransport to an endpoint that refuses everything (404, 500, 401, 405) throws what the official ${line} client throws`, async () => {
    for (const status of [404, 500, 401, 405]) {
      const expected = await connectError(official, 'Http', `/all${status}`);
      assert.equal(line === 'v1' ? expected.code : expected.status, status);
      assert.deepEqual(await connectError(ferrymcp, 'Http', `/all${status}`), expected, `HTTP ${status}`);
    }
  });

  test(`${line}: connect() through SSEClientTransport to an endpoint whose stream is refused (404, 405) throws the official SseError`, async () => {
    for (const status of [404, 405]) {
      const expected = await connectError(official, 'Sse', `/all${status}`);
      assert.equal(expected.code, status);
      assert.deepEqual(await connectError(ferrymcp, 'Sse', `/all${status}`), expected, `HTTP ${status}`);
    }
  });

  test(`${line}: SSEClientTransport, a refusal other than 400, 404 or 405: ferrymcp tried only the Streamable POST (a deliberate difference)`, async () => {
    // The official transport's first request is the GET of the stream (refused: SseError);
    // ferrymcp's is the `initialize` POST, which falls back to the stream only when
    // refused as old servers refuse it, so the refused POST is what it reports.
    for (const status of [500, 401]) {
      const theirs = await connectError(official, 'Sse', `/all${status}`);
      assert.deepEqual([theirs.class, theirs.code], ['SseError', status]);
      const ours = await connectError(ferrymcp, 'Sse', `/all${status}`);
      assert.deepEqual(ours, shape(new Error(`Error POSTing to endpoint (HTTP ${status}): refused with ${status}`), ferrymcp));
    }
  });
}

test('one client, two lines: the error class follows the import path of the transport', async () => {
  // The same ferrymcp Client class, through v1's transport: StreamableHTTPError, not SdkHttpError.
  assert.equal(FerryV1Client, ferryV2.Client);
  const v1 = await connectError({ ...lines.v1.ferrymcp, Client: ferryV2.Client }, 'Http', '/all404');
  assert.deepEqual([v1.class, v1.code], ['StreamableHTTPError', 404]);
  const v2 = await connectError({ ...lines.v2.ferrymcp, Client: FerryV1Client }, 'Http', '/all404');
  assert.deepEqual([v2.class, v2.code, v2.status], ['SdkHttpError', 'CLIENT_HTTP_NOT_IMPLEMENTED', 404]);
  // SdkHttpError is an SdkError, with the official static guard.
  assert.ok(ferryV2.SdkHttpError.isInstance(new ferryV2.SdkHttpError(ferryV2.SdkErrorCode.ClientHttpNotImplemented, 'x', { status: 500 })));
});
