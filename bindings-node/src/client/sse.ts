/** `ferrymcp/client/sse.js`: the v1 path of `SSEClientTransport`. */
export { SSEClientTransport } from '../http-client.js';
export type { SSEClientTransportOptions } from '../http-client.js';
export { SseError } from '../http-errors.js';
export type { SseErrorEvent } from '../http-errors.js';
