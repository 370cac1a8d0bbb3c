// The v1 paths added for issue 14, against the official v1 package (1.x) where it has the
// same name: `server/sse.js` (refused by name at construction), `spec.types.js`,
// `shared/mediaType.js`, `shared/protocol.js`, `shared/stdio.js` and `server/completable.js`,
// the last driven by the official v1 client over real stdio.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as officialSpec from '@modelcontextprotocol/sdk/spec.types.js';
import * as officialMedia from '@modelcontextprotocol/sdk/shared/mediaType.js';
import * as officialProtocol from '@modelcontextprotocol/sdk/shared/protocol.js';
import { Client as OfficialV1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as OfficialV1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SSEServerTransport } from 'ferrymcp/server/sse.js';
import * as spec from 'ferrymcp/spec.types.js';
import { isJsonContentType, mediaTypeEssence } from 'ferrymcp/shared/mediaType.js';
import { DEFAULT_REQUEST_TIMEOUT_MSEC, Protocol, mergeCapabilities } from 'ferrymcp/shared/protocol.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from 'ferrymcp/shared/stdio.js';
import { COMPLETABLE_SYMBOL, McpZodTypeKind, completable, getCompleter, isCompletable, unwrapCompletable } from 'ferrymcp/server/completable.js';
import { DEFAULT_REQUEST_TIMEOUT_MSEC as coreTimeout, MODERN_PROTOCOL_VERSION, STDIO_DEFAULT_MAX_BUFFER_SIZE as coreStdioMax } from 'ferrymcp';
import { z } from 'zod';

import { fixture } from './helpers.mjs';

test('server/sse.js: SSEServerTransport is refused at construction, by name, with a code', () => {
  assert.throws(() => new SSEServerTransport('/messages', {}), (error) => {
    assert.equal(error.code, 'ERR_FERRYMCP_UNSUPPORTED');
    assert.equal(error.api, 'SSEServerTransport');
    assert.match(error.message, /SSEServerTransport/);
    assert.match(error.message, /StreamableHTTPServerTransport/);
    return true;
  });
});

test("spec.types.js: the official constants, from core (LATEST_PROTOCOL_VERSION is the stateless revision, the official draft's placeholder aside)", () => {
  for (const [name, value] of Object.entries(officialSpec)) {
    if (name === 'LATEST_PROTOCOL_VERSION') continue;
    assert.equal(spec[name], value, name);
  }
  assert.equal(spec.LATEST_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION);
  assert.deepEqual(Object.keys(spec).sort(), Object.keys(officialSpec).sort());
});

test('shared/mediaType.js: the same answers as the official helpers', () => {
  const headers = [
    'application/json',
    'Application/JSON; charset=utf-8',
    ' application/json ;charset=UTF-8',
    'application/json, text/plain',
    'application/json; charset=utf-8, text/html',
    'text/event-stream',
    'text/plain;charset=utf-8',
    '',
    undefined,
    null,
  ];
  for (const header of headers) {
    assert.equal(isJsonContentType(header), officialMedia.isJsonContentType(header), `isJsonContentType(${JSON.stringify(header)})`);
    assert.equal(mediaTypeEssence(header), officialMedia.mediaTypeEssence(header), `mediaTypeEssence(${JSON.stringify(header)})`);
  }
});

test('shared/protocol.js and shared/stdio.js: mergeCapabilities as the official one, the defaults from core, Protocol refused by name', () => {
  const cases = [
    [{ tools: { listChanged: true }, logging: {} }, { tools: { listChanged: false }, resources: { subscribe: true } }],
    [{ experimental: { a: { x: 1 } } }, { experimental: { b: {} }, logging: undefined }],
    [{ sampling: {} }, { sampling: [] }],
  ];
  for (const [base, more] of cases) assert.deepEqual(mergeCapabilities(base, more), officialProtocol.mergeCapabilities(base, more));
  assert.equal(DEFAULT_REQUEST_TIMEOUT_MSEC, officialProtocol.DEFAULT_REQUEST_TIMEOUT_MSEC);
  assert.equal(DEFAULT_REQUEST_TIMEOUT_MSEC, coreTimeout);
  assert.equal(STDIO_DEFAULT_MAX_BUFFER_SIZE, coreStdioMax);
  class Custom extends Protocol {}
  assert.throws(() => new Custom(), (error) => error.code === 'ERR_FERRYMCP_UNSUPPORTED' && error.api === 'Protocol');
});

test('server/completable.js: the helpers see what completable() set, and the official v1 client completes over stdio', async () => {
  const complete = (value) => ['red', 'green', 'blue'].filter((c) => c.startsWith(value));
  const schema = completable(z.string(), complete);
  assert.equal(isCompletable(schema), true);
  assert.equal(isCompletable(z.string()), false);
  assert.equal(getCompleter(schema), complete);
  assert.equal(getCompleter(z.number()), undefined);
  assert.equal(unwrapCompletable(schema), schema);
  assert.equal(typeof schema[COMPLETABLE_SYMBOL], 'function');
  assert.equal(McpZodTypeKind.Completable, 'McpCompletable');

  const client = new OfficialV1Client({ name: 'official-v1', version: '1.32.2' });
  await client.connect(new OfficialV1Stdio({ command: process.execPath, args: [fixture('completable-v1.mjs')] }));
  try {
    const result = await client.complete({ ref: { type: 'ref/prompt', name: 'paint' }, argument: { name: 'color', value: 'g' } });
    assert.deepEqual(result.completion.values, ['green']);
  } finally {
    await client.close();
  }
});
