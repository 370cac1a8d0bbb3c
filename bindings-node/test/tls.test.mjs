// https:// from Node: a ferrymcp server serving TLS itself (`listen({ tls: { cert, key } })`,
// PEM files), reached by ferrymcp's client trusting the test's CA through SSL_CERT_FILE (the
// platform store's usual override; the client is a child process, since the variable is
// read when a client connects) and by Node's own https with that CA; without it the
// certificate is refused, saying so.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';

import { McpServer } from 'ferrymcp';
import * as z from 'zod';

const run = promisify(execFile);
const openssl = spawnSync('sh', ['-c', 'command -v openssl'], { encoding: 'utf8' }).stdout.trim();
if (!openssl) assert.ok(!process.env.CI, 'CI must have openssl');

let dir;
let server;
let listener;
const path = (name) => join(dir, name);

before(async () => {
  if (!openssl) return;
  dir = mkdtempSync(join(tmpdir(), 'ferrymcp-tls-'));
  const ssl = (...args) => run(openssl, args, { cwd: dir });
  await ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=ca');
  await ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=x');
  writeFileSync(path('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await ssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'ext.cnf');
  server = new McpServer({ name: 'tls', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  listener = await server.listen({ port: 0, tls: { cert: path('server.pem'), key: path('server.key') } });
});

after(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** ferrymcp's client in a child process with `env`: what it printed, or its error. */
async function callFromChild(env) {
  const script = `
    import { Client, StreamableHTTPClientTransport } from 'ferrymcp';
    const client = new Client({ name: 'tls-test', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[1])));
      const result = await client.callTool({ name: 'echo', arguments: { text: 'über TLS' } });
      console.log(result.content[0].text);
      await client.close();
    } catch (error) {
      console.log('refused: ' + error.message);
      process.exit(0);
    }`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, listener.url.href], {
    env: { ...process.env, ...env },
    cwd: new URL('.', import.meta.url).pathname,
    timeout: 30_000,
  });
  return stdout.trim();
}

test('ferrymcp serves https:// and its client trusts SSL_CERT_FILE', { skip: !openssl }, async () => {
  assert.equal(listener.url.protocol, 'https:');
  assert.equal(await callFromChild({ SSL_CERT_FILE: path('ca.pem') }), 'über TLS');
  mkdirSync(path('empty'));
  const refused = await callFromChild({ SSL_CERT_FILE: path('ext.cnf'), SSL_CERT_DIR: path('empty') });
  assert.match(refused, /^refused: .*certificate/);
});

test("Node's own https client reaches it with the CA", { skip: !openssl }, async () => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const status = await new Promise((resolve, reject) => {
    const req = request(listener.url, {
      method: 'POST',
      ca: readFileSync(path('ca.pem')),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    }, (res) => { res.resume(); resolve(res.statusCode); });
    req.on('error', reject);
    req.end(body);
  });
  assert.equal(status, 400, 'a legacy ping without a session: the endpoint answered over TLS');
});

test('listen() checks its tls option', async () => {
  const other = new McpServer({ name: 's', version: '1' });
  await assert.rejects(async () => other.listen({ tls: { cert: 1 } }), /tls must be \{ cert, key \}/);
  await assert.rejects(other.listen({ port: 0, tls: { cert: '/nonexistent.pem', key: '/nonexistent.key' } }), /nonexistent\.pem/);
});
