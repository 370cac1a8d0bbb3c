/** `ferrymcp/server/streamableHttp.js`: the v1 path of the Node `http` transport. */
export { StreamableHTTPServerTransport } from '../http.js';
export type { EventId, EventStore, StreamId, StreamableHTTPServerTransportOptions } from '../http-options.js';
