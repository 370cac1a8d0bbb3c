/** `ferrymcp/client/streamableHttp.js`: the v1 path of `StreamableHTTPClientTransport`. */
export { StreamableHTTPClientTransport } from '../http-client.js';
export type { AuthProvider, StreamableHTTPClientTransportOptions } from '../http-client.js';
