/** `ferrymcp/node`: the path of `@modelcontextprotocol/node` (the Node `http` transport). */
export { NodeStreamableHTTPServerTransport } from './http.js';
export type { StreamableHTTPServerTransportOptions as NodeStreamableHTTPServerTransportOptions } from './http-options.js';
