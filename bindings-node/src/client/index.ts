/** `ferrymcp/client` and `ferrymcp/client/index.js`: the v1 and v2 paths of `Client`. */
export { Client, McpError, ErrorCode } from '../index.js';
export type { ClientOptions, RequestOptions } from '../index.js';
