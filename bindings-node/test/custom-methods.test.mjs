// v2's three-argument setRequestHandler / setNotificationHandler for methods of the
// application's own, driven by the official v2 client in both eras over stdio.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { Client as OfficialClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as OfficialStdio } from '@modelcontextprotocol/client/stdio';
import { Client as FerryClient, McpServer } from 'ferrymcp';
import { StdioClientTransport as FerryStdio } from 'ferrymcp/stdio';
import * as z from 'zod';

import { fixture } from './helpers.mjs';

const CLIENTS = { official: [OfficialClient, OfficialStdio], ferrymcp: [FerryClient, FerryStdio] };

for (const [who, [Client, StdioClientTransport]] of Object.entries(CLIENTS)) for (const mode of ['auto', 'legacy']) {
  describe(`custom methods, ${who} client (${mode})`, () => {
    test('params are parsed by their schema (defaults applied), notifications reach both sides, bad params are -32602', async () => {
      const client = new Client({ name: 'official', version: '1.0.0' }, { versionNegotiation: { mode } });
      const stages = [];
      client.setNotificationHandler('acme/searchProgress', { params: z.object({ stage: z.string(), pct: z.number() }) }, (params) => void stages.push(params.stage));
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [fixture('custom-methods.mjs')] }));
      try {
        const result = await client.request({ method: 'acme/search', params: { query: 'mcp' } }, z.object({ items: z.array(z.string()) }));
        assert.deepEqual(result.items, ['mcp-0', 'mcp-1']);
        assert.deepEqual(stages, ['start']);
        await assert.rejects(client.request({ method: 'acme/search', params: { query: 7 } }, z.object({})), (error) => {
          assert.equal(error.code, -32602);
          assert.match(error.message, /Invalid params for acme\/search: query: /);
          return true;
        });
        // ferrymcp's Client has no notification() for a method of the application's own yet
        if (who === 'ferrymcp') return;
        await client.notification({ method: 'acme/ping', params: { n: 1 } });
        await client.notification({ method: 'acme/ping', params: { n: 'x' } });
        await client.notification({ method: 'acme/ping', params: { n: 2 } });
        const { pings } = await client.request({ method: 'acme/pings', params: {} }, z.object({ pings: z.array(z.number()) }));
        assert.deepEqual(pings, [1, 2]);
      } finally {
        await client.close();
      }
    });
  });
}

test('the three-argument forms refuse what they cannot honour, by name', () => {
  const { server } = new McpServer({ name: 's', version: '1' });
  assert.throws(() => server.setRequestHandler('acme/x', { params: z.object({}), results: z.object({}) }, () => ({})), /unknown schema key 'results'/);
  assert.throws(() => server.setRequestHandler('acme/x', { params: z.object({}) }), /handler is required/);
  assert.throws(() => server.setNotificationHandler('acme/y', { result: z.object({}) }, () => undefined), /unknown schema key 'result'/);
});
