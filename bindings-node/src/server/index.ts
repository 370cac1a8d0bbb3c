/** `ferrymcp/server`: the server half of the package root, and stdio serving. */
export { McpServer, ResourceTemplate, Server, completable, McpError, ErrorCode } from '../index.js';
export { serveStdio, StdioServerTransport } from '../stdio.js';
export { NodeStreamableHTTPServerTransport, WebStandardStreamableHTTPServerTransport } from '../http.js';
export { createMcpHandler } from '../http-handler.js';
