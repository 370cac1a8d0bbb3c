// Shared by the tests: where the fixtures are, and clients (ferrymcp's and the official
// SDKs') connected to a fixture process over stdio, and an HTTP server with a transport per
// session. Every test runs against the ferrymcp package installed from its tarball, so
// imports name 'ferrymcp' as a user's would.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { Client } from 'ferrymcp';
import { StdioClientTransport } from 'ferrymcp/stdio';

export const fixture = (name) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

/** The elicitation / sampling / roots answers the client-input tools expect. */
export const answers = {
  elicit: { action: 'accept', content: { name: 'Ada', color: 'blue', ok: true, response: 'yes', value: 'v', context: 'tests' } },
  sample: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model' },
  roots: { roots: [{ uri: 'file:///work', name: 'work' }] },
};

/** A ferrymcp Client with the input handlers set, connected to `node <file> ...args`. */
export async function connect(file, { era = 'auto', args = [], inputs = true, env } = {}) {
  const client = new Client({ name: 'ferrymcp-tests', version: '1.0.0' }, { era });
  if (inputs) {
    client.setRequestHandler('elicitation/create', async () => answers.elicit);
    client.setRequestHandler('sampling/createMessage', async () => answers.sample);
    client.setRequestHandler('roots/list', async () => answers.roots);
  }
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [file, ...args], env }));
  return client;
}

export const textOf = (result) => result.content.map((c) => c.text).join('\n');

/**
 * An HTTP server on 127.0.0.1 with one ferrymcp StreamableHTTPServerTransport per session,
 * as the official SDK's examples wire it: `build()` makes each session's server. Resolves to
 * its `url` and a `close()` that closes every transport, then the server.
 */
export async function servePerSession(build) {
  const { StreamableHTTPServerTransport } = await import('ferrymcp/server/streamableHttp.js');
  const transports = new Map();
  const http = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    let transport = id === undefined ? undefined : transports.get(id);
    if (transport === undefined) {
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => transports.set(sid, transport) });
      await build().connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: new URL(`http://127.0.0.1:${http.address().port}/mcp`),
    async close() {
      for (const open of new Set(transports.values())) await open.close();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/** A free TCP port on 127.0.0.1. */
export async function freePort() {
  const server = createTcpServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * A Python peer on the official SDK (`script`, relative to the repository, run by its
 * venv's python with the port first, then `args`), answering once its authorization
 * server metadata does.
 */
export async function officialPythonPeer(script, args = []) {
  const root = process.env.FERRYMCP_ROOT;
  assert.ok(root, 'FERRYMCP_ROOT must name the repository, whose .venv has the official mcp SDK');
  const port = await freePort();
  const child = spawn(`${root}/.venv/bin/python`, [`${root}/${script}`, String(port), ...args], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`${script} exited with ${code} before it listened`);
  });
  const base = `http://127.0.0.1:${port}`;
  // uvicorn says nothing at log level warning: the metadata answering is the event. The
  // polling ends with the race either way, so a child that failed to start (or exited) does
  // not leave it polling forever and the test file can end.
  let polling = true;
  const listening = (async () => {
    while (polling) {
      try {
        const response = await fetch(`${base}/.well-known/oauth-authorization-server`);
        if (response.ok) return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  })();
  exited.catch(() => {});
  try {
    await Promise.race([listening, exited]);
  } finally {
    polling = false;
  }
  return { url: `${base}/mcp`, base, stop: () => child.kill() };
}
