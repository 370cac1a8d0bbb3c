// Echo-tool calls per second over stdio, ferrymcp and the official TypeScript SDK side by
// side: the same echo server (bench/echo-server.mjs, run as written and with its imports
// changed to 'ferrymcp'), each driven by the official v2 client and by ferrymcp's client,
// one call at a time and 16 at a time. Run it from a folder where ferrymcp and the test
// project's official SDKs are installed (scripts/test.sh builds one; BENCH=1 keeps it and
// runs this there). Prints one line per pairing; not part of the tests (timing varies).
import { readFileSync, writeFileSync } from 'node:fs';

import { Client as OfficialClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as OfficialTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from 'ferrymcp';
import { StdioClientTransport } from 'ferrymcp/stdio';

const CALLS = Number(process.env.CALLS ?? 5000);
const here = (name) => new URL(name, import.meta.url).pathname;

const official = here('echo-server.mjs');
const ported = here('echo-server-ferrymcp.mjs');
writeFileSync(
  ported,
  readFileSync(official, 'utf8').replace("'@modelcontextprotocol/server/stdio'", "'ferrymcp/stdio'").replace("'@modelcontextprotocol/server'", "'ferrymcp'"),
);

async function officialClient(server) {
  const client = new OfficialClient({ name: 'bench', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(new OfficialTransport({ command: process.execPath, args: [server] }));
  return client;
}

async function ferryClient(server) {
  const client = new Client({ name: 'bench', version: '1' }, { era: 'legacy' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [server] }));
  return client;
}

async function measure(client, concurrency) {
  const call = () => client.callTool({ name: 'echo', arguments: { text: 'hello' } });
  for (let i = 0; i < 500; i++) await call();
  const start = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < CALLS) await call();
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return Math.round(CALLS / seconds);
}

for (const [serverName, server] of [['official server', official], ['ferrymcp server', ported]]) {
  for (const [clientName, connect] of [['official client', officialClient], ['ferrymcp client', ferryClient]]) {
    const client = await connect(server);
    const sequential = await measure(client, 1);
    const parallel = await measure(client, 16);
    await client.close();
    console.log(`${serverName.padEnd(16)} ${clientName.padEnd(16)} sequential ${String(sequential).padStart(6)} calls/s   16 in flight ${String(parallel).padStart(6)} calls/s`);
  }
}
