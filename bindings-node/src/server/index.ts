/**
 * `ferrymcp/server` and `ferrymcp/server/index.js`: what `@modelcontextprotocol/server` (v2)
 * and `@modelcontextprotocol/sdk/server/index.js` (v1) export: the package root (the
 * server, the types and schemas, the transports JavaScript carries), and stdio serving.
 */
export * from '../index.js';
export { serveStdio, StdioServerTransport } from '../stdio.js';
