// The official v2 client's manual multi-round mode on ferrymcp's `Client` (2026-07-28):
// `inputRequired: { autoFulfill: false }` makes an `input_required` result reject with the
// official `SdkError` (`UNSUPPORTED_RESULT_TYPE`) instead of being answered, and a call
// passing `allowInputRequired: true` gets the result as it is, for the caller to answer and
// retry with `inputResponses` / `requestState`; `maxRounds` caps the automatic rounds. The
// server is a real stdio child (ferrymcp's manual-rounds fixture) and the official v2 SDK's
// server over HTTP.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { describe, test } from 'node:test';

import { McpServer as OfficialServer, createMcpHandler, inputRequired as officialInputRequired } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { Client as OfficialClient, withInputRequired as officialWithInputRequired } from '@modelcontextprotocol/client';
import { StdioClientTransport as OfficialStdio } from '@modelcontextprotocol/client/stdio';
import { Client, SdkError, SdkErrorCode, StreamableHTTPClientTransport, isInputRequiredResult } from 'ferrymcp';
import { withInputRequired } from 'ferrymcp/client';
import { StdioClientTransport } from 'ferrymcp/stdio';
import * as z from 'zod/v4';

import { fixture } from './helpers.mjs';

const CONFIRM = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };

/** A ferrymcp client on the 2026-07-28 era with `options`, counting the elicitations it answers. */
async function connectStdio(options) {
  const client = new Client({ name: 'manual-mode', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {}, url: {} } }, ...options });
  const answered = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    answered.push(request.params.mode ?? 'form');
    return request.params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: { confirm: true } };
  });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [fixture('manual-rounds.mjs')] }));
  return { client, answered };
}

/** The official example's manual loop: send with `allowInputRequired`, answer, retry. */
async function manualLoop(client, name, args) {
  let inputResponses;
  let requestState;
  const seen = [];
  for (let round = 0; round < 10; round++) {
    const value = await client.request(
      { method: 'tools/call', params: { name, arguments: args, ...(inputResponses && { inputResponses }), ...(requestState && { requestState }) } },
      { allowInputRequired: true },
    );
    if (!isInputRequiredResult(value)) return { final: value, seen };
    assert.equal(value.resultType, 'input_required');
    seen.push(Object.keys(value.inputRequests ?? {}));
    inputResponses = {};
    for (const [key, entry] of Object.entries(value.inputRequests ?? {})) {
      inputResponses[key] = entry.method === 'elicitation/create' ? { action: 'accept', content: { confirm: true } } : {};
    }
    requestState = value.requestState;
  }
  throw new Error('no final result within 10 rounds');
}

describe("the client's manual multi-round mode", () => {
  test('autoFulfill: false refuses an input_required result with the official SdkError, answering nothing', async () => {
    const { client, answered } = await connectStdio({ inputRequired: { autoFulfill: false } });
    try {
      await assert.rejects(client.callTool({ name: 'deploy', arguments: { env: 'prod' } }), (error) => {
        assert.ok(error instanceof SdkError, `${error}`);
        assert.equal(error.code, SdkErrorCode.UnsupportedResultType);
        assert.deepEqual(error.data, { resultType: 'input_required', method: 'tools/call' });
        assert.match(error.message, /allowInputRequired: true/);
        return true;
      });
      assert.deepEqual(answered, []);
    } finally {
      await client.close();
    }
  });

  test('allowInputRequired: true hands each round back; the caller retries until the final result (stdio)', async () => {
    const { client, answered } = await connectStdio({ inputRequired: { autoFulfill: false } });
    try {
      const { final, seen } = await manualLoop(client, 'deploy', { env: 'staging' });
      assert.deepEqual(seen, [['confirm'], ['auth']]);
      assert.equal(final.content[0].text, 'deployed to staging (last round: auth)');
      assert.deepEqual(answered, [], 'the engine answered nothing itself');
    } finally {
      await client.close();
    }
  });

  test('allowInputRequired also works with auto-fulfilment on, which stays the default', async () => {
    const { client, answered } = await connectStdio({});
    try {
      const first = await client.callTool({ name: 'deploy', arguments: { env: 'dev' } }, { allowInputRequired: true });
      assert.ok(isInputRequiredResult(first));
      assert.deepEqual(Object.keys(first.inputRequests), ['confirm']);
      assert.deepEqual(answered, []);
      const auto = await client.callTool({ name: 'deploy', arguments: { env: 'dev' } });
      assert.equal(auto.content[0].text, 'deployed to dev (last round: auth)');
      assert.deepEqual(answered, ['form', 'url']);
    } finally {
      await client.close();
    }
  });

  test('maxRounds caps the automatic rounds: INPUT_REQUIRED_ROUNDS_EXCEEDED with the last result', async () => {
    const { client, answered } = await connectStdio({ inputRequired: { maxRounds: 1 } });
    try {
      await assert.rejects(client.callTool({ name: 'deploy', arguments: { env: 'prod' } }), (error) => {
        assert.ok(error instanceof SdkError, `${error}`);
        assert.equal(error.code, SdkErrorCode.InputRequiredRoundsExceeded);
        assert.equal(error.data.rounds, 1);
        assert.deepEqual(Object.keys(error.data.lastResult.inputRequests), ['auth']);
        assert.equal(typeof error.data.lastResult.requestState, 'string');
        assert.match(error.message, /still required input after 1 rounds/);
        return true;
      });
      assert.deepEqual(answered, ['form']);
    } finally {
      await client.close();
    }
  });

  test('a Standard Schema result schema, and withInputRequired around one, behave as on the official v2 client', async () => {
    // A hand-written Standard Schema (what valibot or arktype give): a final tools/call result
    // must have text content; the value it returns is its own (marked), so a pass-through is seen.
    const finalResult = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: (value) =>
          typeof value?.content?.[0]?.text === 'string'
            ? { value: { ...value, checked: true } }
            : { issues: [{ message: 'expected text content', path: ['content', { key: 0 }] }, { message: 'and nothing else' }] },
      },
    };
    const outcome = async (promise) => {
      try {
        return { value: await promise };
      } catch (error) {
        return { error: [error.constructor.name, error.code, error.message] };
      }
    };
    const run = async (client, wrap) => {
      const call = (request, schema, options) => outcome(client.request(request, schema, options));
      const deploy = (more) => ({ method: 'tools/call', params: { name: 'deploy', arguments: { env: 'prod' }, ...more } });
      const answers = (round) => ({
        inputResponses: Object.fromEntries(Object.keys(round.inputRequests).map((key) => [key, { action: 'accept', content: { confirm: true } }])),
        requestState: round.requestState,
      });
      const first = (await call(deploy(), wrap(finalResult), { allowInputRequired: true })).value;
      const second = (await call(deploy(answers(first)), wrap(finalResult), { allowInputRequired: true })).value;
      return {
        // An input_required result passes as it is (the schema's own value is not used).
        first: { resultType: first.resultType, asked: Object.keys(first.inputRequests), checked: first.checked },
        second: { resultType: second.resultType, asked: Object.keys(second.inputRequests), checked: second.checked },
        // Without allowInputRequired an input_required result is refused before any schema.
        refused: await call(deploy(), finalResult, {}),
        // The final result through the schema: validated, and the schema's value returned.
        // (ferrymcp's client keeps a complete result's `resultType: 'complete'`, which the
        // official v2 client strips; compared without it.)
        complete: await call(deploy(answers(second)), wrap(finalResult), { allowInputRequired: true }).then(({ value, error }) => {
          if (value === undefined) return { error };
          const { resultType, ...rest } = value;
          assert.ok(resultType === undefined || resultType === 'complete');
          return { value: rest };
        }),
        // A result the schema rejects: v2's SdkError INVALID_RESULT, the issues in one line.
        invalid: await call({ method: 'tools/list' }, wrap(finalResult), {}),
      };
    };
    const options = { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {}, url: {} } }, inputRequired: { autoFulfill: false } };
    const ours = new Client({ name: 'manual-mode', version: '1.0.0' }, options);
    await ours.connect(new StdioClientTransport({ command: process.execPath, args: [fixture('manual-rounds.mjs')] }));
    const theirs = new OfficialClient({ name: 'manual-mode', version: '1.0.0' }, options);
    await theirs.connect(new OfficialStdio({ command: process.execPath, args: [fixture('manual-rounds.mjs')] }));
    try {
      const got = await run(ours, withInputRequired);
      const expected = await run(theirs, officialWithInputRequired);
      assert.deepEqual(got, expected);
      assert.deepEqual(got.first, { resultType: 'input_required', asked: ['confirm'], checked: undefined });
      assert.deepEqual(got.second.asked, ['auth']);
      assert.equal(got.refused.error[1], SdkErrorCode.UnsupportedResultType);
      assert.equal(got.complete.value.checked, true);
      assert.deepEqual(got.invalid.error.slice(0, 2), ['SdkError', SdkErrorCode.InvalidResult]);
    } finally {
      await ours.close();
      await theirs.close();
    }
  });

  test('bad inputRequired values are refused by name', () => {
    assert.throws(() => new Client({ name: 'c', version: '1' }, { inputRequired: { autoFulfill: 'no' } }), { code: 'ERR_INVALID_ARG_VALUE', message: /inputRequired\.autoFulfill/ });
    assert.throws(() => new Client({ name: 'c', version: '1' }, { inputRequired: { maxRounds: -1 } }), { code: 'ERR_INVALID_ARG_VALUE', message: /inputRequired\.maxRounds/ });
    assert.throws(() => new Client({ name: 'c', version: '1' }, { inputRequired: { pace: 1 } }), { code: 'ERR_INVALID_ARG_VALUE', message: /inputRequired\.pace/ });
  });

  test('against the official v2 server over HTTP: the manual loop reaches its final result', async () => {
    const handler = createMcpHandler(() => {
      const server = new OfficialServer({ name: 'official-rounds', version: '1.0.0' });
      server.registerTool('confirm', { inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => {
        const answer = ctx.mcpReq.inputResponses?.ok;
        if (answer?.action === 'accept') return { content: [{ type: 'text', text: `confirmed ${env}` }] };
        return officialInputRequired({ inputRequests: { ok: officialInputRequired.elicit({ message: `Deploy to ${env}?`, requestedSchema: CONFIRM }) } });
      });
      return server;
    });
    const http = createServer(toNodeHandler(handler)).listen(0, '127.0.0.1');
    await once(http, 'listening');
    const client = new Client({ name: 'manual-mode', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } }, inputRequired: { autoFulfill: false } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${http.address().port}/mcp`)));
      assert.equal(client.getProtocolEra(), 'modern');
      await assert.rejects(client.callTool({ name: 'confirm', arguments: { env: 'prod' } }), { code: SdkErrorCode.UnsupportedResultType });
      const { final, seen } = await manualLoop(client, 'confirm', { env: 'prod' });
      assert.deepEqual(seen, [['ok']]);
      assert.equal(final.content[0].text, 'confirmed prod');
    } finally {
      await client.close();
      http.close();
    }
  });
});
