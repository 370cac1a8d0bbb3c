// The elicitation modes a client admits: `getSupportedElicitationModes` (v2's client root,
// v1's `client/index.js`) reads a capability as the official clients do, and a ferrymcp
// client refuses an `elicitation/create` in a mode it did not declare, before its handler
// runs, with the official client's error. The reference is the official v2 client against
// the same official server, over the official SDK's InMemoryTransport; the official v1
// client refuses the same requests, with its message prefixed twice on the wire
// ("MCP error -32602: " inside the message, a v1 artifact ferrymcp does not copy).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { Client as OfficialClient, getSupportedElicitationModes as officialV1Modes } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as OfficialInMemory } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as OfficialServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitRequestSchema as OfficialElicitRequestSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as OfficialV2Client, getSupportedElicitationModes as officialV2Modes } from '@modelcontextprotocol/client';
import { Client, ElicitRequestSchema, getSupportedElicitationModes } from 'ferrymcp/client';
import { getSupportedElicitationModes as v1PathModes } from 'ferrymcp/client/index.js';
import { z } from 'zod';

const capabilities = [undefined, {}, { form: {} }, { url: {} }, { form: {}, url: {} }, { form: { applyDefaults: true } }];

/** An official server whose tool sends `elicitation/create` in `mode` and reports what came back. */
function officialServer() {
  const server = new OfficialServer({ name: 'asks', version: '1.0.0' });
  server.registerTool('ask', { description: 'asks the user in the given mode', inputSchema: { mode: z.enum(['form', 'url']) } }, async ({ mode }) => {
    const params =
      mode === 'url'
        ? { mode: 'url', message: 'Sign in', url: 'https://example.com/sign-in', elicitationId: 'e-1' }
        : { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };
    try {
      const answer = await server.server.request({ method: 'elicitation/create', params }, ElicitResultSchema);
      return { content: [{ type: 'text', text: `answered ${answer.action}` }] };
    } catch (error) {
      return { content: [{ type: 'text', text: `refused ${error.code}: ${error.message}` }] };
    }
  });
  return server;
}

/** What the `ask` tool reports in each mode for a client made by `make` declaring `elicitation`. */
async function asked(make, elicitation, schema) {
  const server = officialServer();
  const [clientEnd, serverEnd] = OfficialInMemory.createLinkedPair();
  await server.connect(serverEnd);
  const client = make({ name: 'c', version: '1.0.0' }, { capabilities: { elicitation } });
  const seen = [];
  client.setRequestHandler(schema, async (request) => {
    seen.push(request.params.mode ?? 'form');
    return { action: 'decline' };
  });
  await client.connect(clientEnd);
  const reports = {};
  for (const mode of ['form', 'url']) {
    const result = await client.callTool({ name: 'ask', arguments: { mode } });
    reports[mode] = result.content[0].text;
  }
  await client.close();
  return { reports, seen };
}

describe('elicitation modes', () => {
  test('getSupportedElicitationModes reads a capability as the official v1 and v2 clients do', () => {
    assert.equal(v1PathModes, getSupportedElicitationModes);
    for (const capability of capabilities) {
      const ours = getSupportedElicitationModes(capability);
      assert.deepEqual(ours, officialV1Modes(capability), JSON.stringify(capability));
      assert.deepEqual(ours, officialV2Modes(capability), JSON.stringify(capability));
    }
  });

  for (const elicitation of [{ form: {} }, { url: {} }, {}, { form: {}, url: {} }]) {
    test(`a client declaring elicitation ${JSON.stringify(elicitation)} answers each mode as the official client does`, async () => {
      const official = await asked((info, options) => new OfficialV2Client(info, options), elicitation, 'elicitation/create');
      const ours = await asked((info, options) => new Client(info, options), elicitation, ElicitRequestSchema);
      assert.deepEqual(ours, official);
      const v1 = await asked((info, options) => new OfficialClient(info, options), elicitation, OfficialElicitRequestSchema);
      assert.deepEqual(v1.seen, ours.seen);
      for (const mode of ['form', 'url']) assert.equal(v1.reports[mode], ours.reports[mode].replace('-32602: ', '-32602: MCP error -32602: '));
      const modes = getSupportedElicitationModes(elicitation);
      for (const mode of ['form', 'url']) {
        const admitted = mode === 'form' ? modes.supportsFormMode : modes.supportsUrlMode;
        if (admitted) assert.equal(ours.reports[mode], 'answered decline');
        else assert.match(ours.reports[mode], /^refused -32602: .*Client does not support (form|URL)-mode elicitation requests$/);
      }
    });
  }
});
