// Change notifications on ferrymcp's Client against ferrymcp's Node conformance fixture
// over stdio (a real process): the official `listChanged` option refreshing the tool list
// after a real change (the fixture's `test_trigger_tool_change`), in both eras (a
// `subscriptions/listen` stream the engine opens on 2026-07-28), and `listen()` itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client as OfficialClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as OfficialStdio } from '@modelcontextprotocol/client/stdio';
import { Client } from 'ferrymcp';
import { StdioClientTransport } from 'ferrymcp/stdio';

import { fixture } from './helpers.mjs';

const EVERYTHING = fixture('everything.mjs');

async function connect(era, options = {}) {
  const client = new Client({ name: 'ferrymcp-listen-tests', version: '1.0.0' }, { era, ...options });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING] }));
  return client;
}

/** A `listChanged.tools` handler whose calls arrive as promises, one after another. */
function changes({ autoRefresh, debounceMs = 20 } = {}) {
  const queue = [];
  const waiting = [];
  const onChanged = (error, items) => {
    const outcome = { error, items };
    const next = waiting.shift();
    if (next) next(outcome);
    else queue.push(outcome);
  };
  const next = () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((resolve) => waiting.push(resolve)));
  return { options: { listChanged: { tools: { onChanged, autoRefresh, debounceMs } } }, next, queue };
}

for (const era of ['modern', 'legacy']) {
  test(`listChanged refreshes the tool list after a change (${era})`, async () => {
    const seen = changes();
    const client = await connect(era, seen.options);
    assert.equal(client.getProtocolEra(), era);
    await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
    const { error, items } = await seen.next();
    assert.equal(error, null);
    assert.ok(items.some((tool) => tool.name === 'test_simple_text'), JSON.stringify(items));
    await client.close();
  });
}

// The official `autoOpenedSubscription`: the stream `listChanged` opened at connect() on a
// 2026-07-28 connection, with the filter the server honoured (the same the official client
// gets from the same server), closable; none on a legacy connection.
test('autoOpenedSubscription: the listen stream listChanged opened (modern, as the official client has it), none on legacy', async () => {
  const listChanged = { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => {} } };
  const official = new OfficialClient({ name: 'official', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, listChanged });
  await official.connect(new OfficialStdio({ command: process.execPath, args: [EVERYTHING] }));
  const theirs = official.autoOpenedSubscription?.honoredFilter;
  await official.close();
  assert.ok(theirs?.toolsListChanged, JSON.stringify(theirs));

  const client = await connect('modern', { listChanged });
  const auto = client.autoOpenedSubscription;
  assert.ok(auto, 'a listChanged option opens a subscription on a modern connection');
  assert.deepEqual(auto.honoredFilter, theirs);
  await auto.close();
  assert.equal(await auto.closed, 'local');
  await client.close();
  assert.equal(client.autoOpenedSubscription, undefined);

  const legacy = await connect('legacy', { listChanged });
  assert.equal(legacy.autoOpenedSubscription, undefined);
  await legacy.close();
});

test('listChanged without autoRefresh calls onChanged(null, null)', async () => {
  const seen = changes({ autoRefresh: false });
  const client = await connect('modern', seen.options);
  await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
  assert.deepEqual(await seen.next(), { error: null, items: null });
  await client.close();
});

test('listChanged options are checked as the official client checks them', () => {
  const make = (tools) => new Client({ name: 'c', version: '1' }, { listChanged: { tools } });
  assert.throws(() => make({ onChanged: () => {}, debounceMs: -1 }), /Invalid tools listChanged options: debounceMs/);
  assert.throws(() => make({ onChanged: () => {}, autoRefresh: 'yes' }), /Invalid tools listChanged options: autoRefresh/);
  assert.throws(() => make({}), /Invalid tools listChanged options: onChanged must be a function/);
});

test('listen() delivers to the notification handlers until closed', async () => {
  const client = await connect('modern');
  const notifications = [];
  let notified;
  client.setNotificationHandler('notifications/tools/list_changed', (n) => {
    notifications.push(n);
    notified?.();
  });
  const subscription = await client.listen({ toolsListChanged: true });
  assert.deepEqual(subscription.honoredFilter, { toolsListChanged: true });
  const arrived = new Promise((resolve) => (notified = resolve));
  await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
  await arrived;
  assert.equal(notifications.length, 1);
  assert.ok(notifications[0].params._meta['io.modelcontextprotocol/subscriptionId'] !== undefined);
  await subscription.close();
  assert.equal(await subscription.closed, 'local');
  await client.close();
});

test('listen() on a legacy connection is refused naming the revisions', async () => {
  const client = await connect('legacy');
  await assert.rejects(client.listen({ toolsListChanged: true }), /2026-07-28/);
  await client.close();
});
