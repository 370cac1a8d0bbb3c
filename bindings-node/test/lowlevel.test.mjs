// The official low-level `Server` (v1: `setRequestHandler(ListToolsRequestSchema, ...)`) on
// ferrymcp: fixtures/lowlevel.mjs runs on the official SDK and, with only its imports
// rewritten, on ferrymcp; the official client sees the same tools, call results, paginated
// resources (the cursor passed through to the handler) and prompts. The handlers answer
// MCP's methods themselves through core (`set_feature_handler`), in both eras on ferrymcp.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { Server } from 'ferrymcp/server/index.js';

import { connect, fixture } from './helpers.mjs';

function ported() {
  const path = fixture('ported-lowlevel.mjs');
  writeFileSync(
    path,
    readFileSync(fixture('lowlevel.mjs'), 'utf8')
      .replaceAll("'@modelcontextprotocol/sdk/server/index.js'", "'ferrymcp/server/index.js'")
      .replaceAll("'@modelcontextprotocol/sdk/server/stdio.js'", "'ferrymcp/server/stdio.js'")
      .replaceAll("'@modelcontextprotocol/sdk/types.js'", "'ferrymcp/types.js'"),
  );
  return path;
}

async function answers(file, era) {
  const client = await connect(file, { era, inputs: false });
  try {
    const seen = {};
    seen.tools = (await client.listTools()).tools.map((t) => t.name);
    seen.call = (await client.callTool({ name: 'search_books', arguments: { query: 'Dune' } })).content;
    seen.pages = [];
    let cursor;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      seen.pages.push(page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    seen.prompt = (await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } })).messages[0].content.text;
    return seen;
  } finally {
    await client.close();
  }
}

describe('the low-level Server', () => {
  const ferrymcp = ported();
  test('answers as the official one (legacy), and in the 2026-07-28 era too', async () => {
    const official = await answers(fixture('lowlevel.mjs'), 'legacy');
    assert.deepEqual(official.pages, [['books://0', 'books://1'], ['books://2', 'books://3'], ['books://4']]);
    assert.equal(official.call[0].text, 'tools/call: found "Dune"');
    assert.deepEqual(await answers(ferrymcp, 'legacy'), official);
    assert.deepEqual(await answers(ferrymcp, 'modern'), official);
  });

  test('MCP methods the engine keeps are refused with a coded error', () => {
    const server = new Server({ name: 'x', version: '1' }, { capabilities: {} });
    assert.throws(() => server.setRequestHandler('initialize', async () => ({})), (error) => {
      assert.match(error.message, /initialize/);
      assert.ok(error.code !== undefined, 'a coded error');
      return true;
    });
  });
});
