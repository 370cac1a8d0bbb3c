// Resource subscriptions an application keeps itself (the low-level
// `setRequestHandler('resources/subscribe', ...)`, as the official `resources` example
// does): the update it sends with `sendResourceUpdated` reaches the subscribed 2025-era
// connection over stdio, on ferrymcp as on the official SDK (fixtures/app-subscriptions.mjs
// on both, the official v2 client as peer). Before, core dropped the update: the
// subscription was the application's, not the session's.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { fixture } from './helpers.mjs';

function ported() {
  const path = fixture('ported-app-subscriptions.mjs');
  const text = readFileSync(fixture('app-subscriptions.mjs'), 'utf8')
    .replaceAll("'@modelcontextprotocol/server/stdio'", "'ferrymcp/stdio'")
    .replaceAll("'@modelcontextprotocol/server'", "'ferrymcp'");
  writeFileSync(path, text);
  return path;
}

/** Subscribes, raises twice (unsubscribing in between): the updates seen and the levels read. */
async function run(file) {
  const client = new Client({ name: 'subscriber', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  const updates = [];
  let updated;
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    updates.push(notification.params.uri);
    updated?.();
  });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [file] }));
  try {
    await client.subscribeResource({ uri: 'gauge://level' });
    const arrived = new Promise((resolve) => (updated = resolve));
    const first = await client.callTool({ name: 'raise' });
    await arrived;
    await client.unsubscribeResource({ uri: 'gauge://level' });
    // Sent (if at all) before the tool's answer on the same pipe: none arrives after it.
    const second = await client.callTool({ name: 'raise' });
    const read = await client.readResource({ uri: 'gauge://level' });
    return { updates, levels: [first.content[0].text, second.content[0].text, read.contents[0].text] };
  } finally {
    await client.close();
  }
}

test('an application-kept resource subscription gets its update over stdio, as on the official SDK', { timeout: 60_000 }, async () => {
  const official = await run(fixture('app-subscriptions.mjs'));
  assert.deepEqual(official, { updates: ['gauge://level'], levels: ['1', '2', '2'] });
  const ours = await run(ported());
  assert.deepEqual(ours, official);
});
