// The echo server of the side-by-side benchmark, written once against the official v2
// SDK; bench/echo.mjs runs it as it is and with its imports changed to 'ferrymcp'.
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const server = new McpServer({ name: 'echo', version: '1.0.0' });
server.registerTool('echo', { description: 'Echoes its text', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
  content: [{ type: 'text', text }],
}));
await server.connect(new StdioServerTransport());
