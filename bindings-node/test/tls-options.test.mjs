// ferrymcp's explicit TLS option for the Node HTTP client transports: `tls: { ca, cert,
// key }` (PEM file paths). A ferrymcp server serving TLS itself is reached trusting the
// test's CA through `tls.ca`, and refused without it (the platform store emptied; in a
// child process, whose environment the test sets); a Node https server that demands a
// client certificate signed by that CA (mutual TLS), serving a ferrymcp McpServer through
// `toNodeHandler`, is reached with `tls.cert`/`tls.key` and refused without them.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';

import { Client, McpServer, StreamableHTTPClientTransport, createMcpHandler } from 'ferrymcp';
import { toNodeHandler } from 'ferrymcp/node';
import * as z from 'zod';

const run = promisify(execFile);
const openssl = spawnSync('sh', ['-c', 'command -v openssl'], { encoding: 'utf8' }).stdout.trim();
if (!openssl) assert.ok(!process.env.CI, 'CI must have openssl');

let dir;
let server;
let listener;
let mutual;
let handler;
const path = (name) => join(dir, name);

function echoServer() {
  const mcp = new McpServer({ name: 'tls-options', version: '1.0.0' });
  mcp.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return mcp;
}

before(async () => {
  if (!openssl) return;
  dir = mkdtempSync(join(tmpdir(), 'ferrymcp-tls-options-'));
  const ssl = (...args) => run(openssl, args, { cwd: dir });
  await ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=ca');
  writeFileSync(path('server.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  writeFileSync(path('client.cnf'), 'extendedKeyUsage=clientAuth\n');
  for (const name of ['server', 'client']) {
    await ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    await ssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', '1', '-extfile', `${name}.cnf`);
  }
  server = echoServer();
  listener = await server.listen({ port: 0, tls: { cert: path('server.pem'), key: path('server.key') } });
  handler = createMcpHandler(() => echoServer());
  const https = createServer(
    { key: readFileSync(path('server.key')), cert: readFileSync(path('server.pem')), ca: readFileSync(path('ca.pem')), requestCert: true, rejectUnauthorized: true },
    toNodeHandler(handler),
  );
  await new Promise((resolve) => https.listen(0, '127.0.0.1', resolve));
  mutual = { https, url: new URL(`https://127.0.0.1:${https.address().port}/mcp`) };
});

after(async () => {
  await server?.close();
  await handler?.close();
  mutual?.https.closeAllConnections();
  await new Promise((resolve) => (mutual ? mutual.https.close(resolve) : resolve()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** ferrymcp's client in a child process with `env`, connecting with `tls`: what it printed, or its error. */
async function callFromChild(url, tls, env = {}) {
  const script = `
    import { Client, StreamableHTTPClientTransport } from 'ferrymcp';
    const [url, tls, era] = [process.argv[1], JSON.parse(process.argv[2]), process.argv[3]];
    const client = new Client({ name: 'tls-options-test', version: '1' }, { era });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { tls }));
      const result = await client.callTool({ name: 'echo', arguments: { text: 'über TLS' } });
      console.log(result.content[0].text);
      await client.close();
    } catch (error) {
      console.log('refused: ' + error.message);
      process.exit(0);
    }`;
  const results = [];
  for (const era of ['legacy', 'auto']) {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, url.href, JSON.stringify(tls), era], {
      env: { ...process.env, ...env },
      cwd: new URL('.', import.meta.url).pathname,
      timeout: 30_000,
    });
    results.push(stdout.trim());
  }
  assert.equal(results[0], results[1], 'both eras agree');
  return results[0];
}

test('tls.ca makes the server trusted; without it the certificate is refused', { skip: !openssl }, async () => {
  mkdirSync(path('empty'), { recursive: true });
  const untrusting = { SSL_CERT_FILE: path('server.cnf'), SSL_CERT_DIR: path('empty') };
  assert.equal(await callFromChild(listener.url, { ca: path('ca.pem') }, untrusting), 'über TLS');
  assert.match(await callFromChild(listener.url, {}, untrusting), /^refused: .*certificate/);
});

test('mutual TLS: a client certificate from tls.cert and tls.key', { skip: !openssl }, async () => {
  const client = new Client({ name: 'mtls', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(mutual.url, { tls: { ca: path('ca.pem'), cert: path('client.pem'), key: path('client.key') } }));
  assert.equal((await client.callTool({ name: 'echo', arguments: { text: 'mutual' } })).content[0].text, 'mutual');
  await client.close();
  assert.match(await callFromChild(mutual.url, { ca: path('ca.pem') }), /^refused: /);
});

test('the tls option is checked, by name', () => {
  const url = new URL('https://127.0.0.1:9/mcp');
  assert.throws(() => new StreamableHTTPClientTransport(url, { tls: { cert: 'c.pem' } }), /tls\.cert and tls\.key go together/);
  assert.throws(() => new StreamableHTTPClientTransport(url, { tls: { ca: 'a.pem', passphrase: 'x' } }), /does not support tls\.passphrase/);
  assert.throws(() => new StreamableHTTPClientTransport(url, { tls: { ca: 1 } }), /tls\.ca must be the path of a PEM file/);
  assert.throws(() => new StreamableHTTPClientTransport(url, { requestInit: { dispatcher: {} } }), /requestInit\.dispatcher/);
});
