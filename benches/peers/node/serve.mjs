// What the Node echo servers of the benchmark share, so they differ only in the SDK they
// import: the echo tool, the `report` tool, the MCP_BENCH_TOOLS filler tools, and the
// transport.
//   node echo-X.mjs            serves stdio
//   node echo-X.mjs http PORT  serves Streamable HTTP on 127.0.0.1:PORT/mcp with the SDK's
//                              Node adapter (`node`: @modelcontextprotocol/node or its
//                              equivalent): 2026-07-28 requests (MCP-Protocol-Version
//                              header) statelessly through createMcpHandler, the rest
//                              through one sessionful transport per legacy session.
//                              An SDK without createMcpHandler (the v1 line) serves
//                              legacy sessions only.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

// The `report` tool (issue 17; benches/README.md, "The realistic tool"): ten arguments
// validated against a schema with a nested object and an array, a structured result checked
// against an outputSchema, and a text result of 64 KiB. Every implementation computes the
// same result from the same arguments (benches/e2e/check_tools.py compares them).
const REPORT_BYTES = 65536;
// Built once: the text is the per-call header line followed by this body, cut to 64 KiB.
const BODY = Array.from(
  { length: 1300 },
  (_, i) => `${String(i).padStart(5, '0')} The quick brown fox jumps over the "lazy" dog.\n`,
).join('');

function reportTool(z) {
  const inputSchema = z.object({
    ref: z.string(),
    title: z.string(),
    count: z.number().int(),
    ratio: z.number(),
    enabled: z.boolean(),
    level: z.enum(['low', 'medium', 'high']),
    tags: z.array(z.string()),
    owner: z.object({ name: z.string(), email: z.string(), age: z.number().int() }),
    note: z.string(),
    priority: z.number().int(),
  });
  const outputSchema = z.object({
    ref: z.string(),
    accepted: z.boolean(),
    score: z.number(),
    tag_count: z.number().int(),
    owner: z.object({ name: z.string(), domain: z.string(), adult: z.boolean() }),
    priority: z.number().int(),
    bytes: z.number().int(),
  });
  const report = async ({ ref, title, count, ratio, enabled, level, tags, owner, note, priority }) => {
    const head = `report ${ref}: ${title} (${note})\n`;
    const text = head + BODY.slice(0, REPORT_BYTES - head.length);
    const at = owner.email.indexOf('@');
    const structuredContent = {
      ref,
      accepted: enabled && level !== 'low',
      score: count * ratio,
      tag_count: tags.length,
      owner: { name: owner.name, domain: at < 0 ? '' : owner.email.slice(at + 1), adult: owner.age >= 18 },
      priority,
      bytes: text.length,
    };
    return { content: [{ type: 'text', text }], structuredContent };
  };
  const description = 'Summarise an order: a structured result and a 64 KiB text report.';
  return [{ description, inputSchema, outputSchema }, report];
}

export function echoServer(sdk, z) {
  const server = new sdk.McpServer({ name: 'echo', version: '1.0.0' });
  const input = z.object({ text: z.string() });
  const echo = async ({ text }) => ({ content: [{ type: 'text', text }] });
  server.registerTool('echo', { description: 'Echo the text back.', inputSchema: input }, echo);
  server.registerTool('report', ...reportTool(z));
  const fillers = Number(process.env.MCP_BENCH_TOOLS ?? 0);
  for (let i = 0; i < fillers; i++) {
    const name = `tool_${String(i).padStart(4, '0')}`;
    server.registerTool(name, { description: `Benchmark filler tool number ${i}.`, inputSchema: input }, echo);
  }
  return server;
}

export async function serve(sdk, z, node) {
  const [transport, port] = process.argv.slice(2);
  if (transport === 'http') {
    serveHttp(sdk, z, node, Number(port));
  } else {
    await echoServer(sdk, z).connect(new sdk.StdioServerTransport());
  }
}

function serveHttp(sdk, z, node, port) {
  const modern = sdk.createMcpHandler && node.toNodeHandler(sdk.createMcpHandler(() => echoServer(sdk, z)));
  const sessions = new Map();
  const legacy = async (req, res) => {
    const id = req.headers['mcp-session-id'];
    let transport = id && sessions.get(id);
    if (!transport) {
      transport = new node.NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (session) => sessions.set(session, transport),
        onsessionclosed: (session) => sessions.delete(session),
      });
      await echoServer(sdk, z).connect(transport);
    }
    await transport.handleRequest(req, res);
  };
  const server = createServer((req, res) => {
    const serve = modern && req.headers['mcp-protocol-version'] === '2026-07-28' ? modern : legacy;
    serve(req, res).catch(() => res.writableEnded || res.writeHead(500).end());
  });
  server.on('connection', (socket) => socket.setNoDelay(true));
  server.listen(port, '127.0.0.1');
}
