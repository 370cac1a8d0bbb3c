// Drives a `ferrymcp bridge` or `ferrymcp gateway` HTTP endpoint with the official
// TypeScript SDK's client (installed in tests/interop by scripts/test.sh).
//
// Run by cli/tests/proxy.rs: `node proxy_client.mjs SERVER CLIENT PREFIX`. SERVER is the
// bridge's or gateway's HTTP endpoint (an `http://` URL), or a JSON array, the command line
// of a stdio server that the SDK launches itself (`["ferrymcp","bridge","--stdio",URL]`);
// CLIENT `v1` (@modelcontextprotocol/sdk, 2025-11-25), `v2-legacy` or `v2-modern`
// (@modelcontextprotocol/client, pinned to 2025-11-25 or 2026-07-28); PREFIX the gateway's
// namespace of the upstream (`alpha__`) or empty. Lists the tools, calls one, one that
// reports progress, one that asks for elicitation (answered here), gets a prompt that does
// not exist (the error's code is recorded), and prints one JSON object with what it saw,
// which the Rust test checks.
import { createRequire } from 'node:module';

// The SDKs come from tests/interop/node_modules (this file is outside that project).
const require = createRequire(new URL('../../../tests/interop/package.json', import.meta.url));
const [server, kind, prefix = ''] = process.argv.slice(2);
const overHttp = /^https?:\/\//.test(server);
const stdio = overHttp ? undefined : JSON.parse(server);
const progress = [];
const asked = [];
const answer = (message) => {
  asked.push(message);
  return { action: 'accept', content: { response: 'from typescript' } };
};

let client;
let era;
if (kind === 'v1') {
  const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const { ElicitRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
  client = new Client({ name: 'official-v1', version: '1' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => answer(request.params.message));
  const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
  await client.connect(
    overHttp
      ? new StreamableHTTPClientTransport(new URL(server))
      : new StdioClientTransport({ command: stdio[0], args: stdio.slice(1) }),
  );
} else {
  const { Client, StreamableHTTPClientTransport } = require('@modelcontextprotocol/client');
  const mode = kind === 'v2-modern' ? { pin: '2026-07-28' } : 'legacy';
  client = new Client(
    { name: 'official-v2', version: '2' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
  );
  client.setRequestHandler('elicitation/create', async (request) => answer(request.params.message));
  const { StdioClientTransport } = require('@modelcontextprotocol/client/stdio');
  await client.connect(
    overHttp
      ? new StreamableHTTPClientTransport(new URL(server))
      : new StdioClientTransport({ command: stdio[0], args: stdio.slice(1) }),
  );
  era = client.getProtocolEra();
}

const text = (result) => result.content.map((c) => c.text).join('\n');
const call = (name, args, options) =>
  kind === 'v1'
    ? client.callTool({ name: prefix + name, arguments: args }, undefined, options)
    : client.callTool({ name: prefix + name, arguments: args }, options);

const { tools } = await client.listTools();
const simple = await call('test_simple_text', {});
await call('test_tool_with_progress', {}, { onprogress: (p) => progress.push(p.progress) });
const elicited = await call('test_elicitation', { message: 'Your answer?' });
const error = await client.getPrompt({ name: `${prefix}no_such_prompt` }).then(
  () => null,
  (e) => e.code,
);
console.log(
  JSON.stringify({
    server: client.getServerVersion()?.name,
    era: era ?? 'legacy',
    tools: tools.map((tool) => tool.name),
    simple: text(simple),
    progress,
    asked,
    elicited: text(elicited),
    error,
  }),
);
await client.close();
