/** `ferrymcp/node`: the path of `@modelcontextprotocol/node` (the Node `http` transport and adapter). */
export { NodeStreamableHTTPServerTransport } from './http.js';
export { toNodeHandler } from './http-handler.js';
export type { NodeMcpRequestHandler } from './http-handler.js';
export type { StreamableHTTPServerTransportOptions as NodeStreamableHTTPServerTransportOptions } from './http-options.js';
