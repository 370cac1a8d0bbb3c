// What both Node echo servers of the benchmark share, so they differ only in the SDK they
// import: the echo tool, the MCP_BENCH_TOOLS filler tools, and the transport.
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

export function echoServer(sdk, z) {
  const server = new sdk.McpServer({ name: 'echo', version: '1.0.0' });
  const input = z.object({ text: z.string() });
  const echo = async ({ text }) => ({ content: [{ type: 'text', text }] });
  server.registerTool('echo', { description: 'Echo the text back.', inputSchema: input }, echo);
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
