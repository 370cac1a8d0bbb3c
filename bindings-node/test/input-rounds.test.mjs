// Parity of the 2026-07-28 input rounds between the two bindings: the same handler shape
// (two inputs awaited together, then a third, no keys given) in a Node server and a
// Python server, each a real child process driven by raw JSON-RPC lines over stdio as a
// modern client drives it. The rounds they answer (keys, grouping, what each input asks)
// must be the same, and the ones core decides: one round for the pair, one for the third.
// The Python twin runs on the repository's venv (FERRYMCP_ROOT, set by scripts/test.sh,
// which installs the wheel there before the Node tests).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { test } from 'node:test';

import { fixture } from './helpers.mjs';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'input-rounds-test', version: '1.0.0' },
};

/** Calls `three_inputs` round after round, answering each input with its own message. */
async function rounds(command, args) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line);
    waiting.get(message.id)?.(message);
  });
  const call = (id, params) =>
    new Promise((resolve) => {
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params })}\n`);
    });
  const seen = [];
  let params = { name: 'three_inputs', arguments: {}, _meta: META };
  for (let id = 1; id <= 5; id++) {
    const { result, error } = await call(id, params);
    assert.equal(error, undefined, JSON.stringify(error));
    if (result.resultType !== 'input_required') {
      // `isError: false` is stated by the Python dialect only (as the official Python server writes a result).
      seen.push({ resultType: result.resultType, content: result.content, isError: result.isError === true });
      break;
    }
    seen.push({ resultType: result.resultType, inputRequests: result.inputRequests });
    const inputResponses = Object.fromEntries(
      Object.entries(result.inputRequests).map(([key, ask]) => [key, { action: 'accept', content: { v: ask.params.message } }]),
    );
    params = { name: 'three_inputs', arguments: {}, inputResponses, requestState: result.requestState, _meta: META };
  }
  child.stdin.end();
  await once(child, 'exit');
  return seen;
}

test('a Python and a Node server group the same inputs into the same rounds', async () => {
  const root = process.env.FERRYMCP_ROOT;
  assert.ok(root, 'FERRYMCP_ROOT must name the repository, whose .venv has the ferrymcp wheel installed');
  const [node, python] = await Promise.all([
    rounds(process.execPath, [fixture('input-rounds.mjs')]),
    rounds(`${root}/.venv/bin/python`, [`${root}/bindings-python/tests/process/input_rounds.py`]),
  ]);
  assert.deepEqual(python, node);
  const keys = node.map((round) => Object.keys(round.inputRequests ?? {}));
  assert.deepEqual(keys, [['input-0', 'input-1'], ['input-2'], []]);
  assert.deepEqual(node[0].inputRequests['input-1'].params.message, 'second');
  assert.equal(node[2].resultType, 'complete');
  assert.equal(node[2].content[0].text, 'first second third');
});
