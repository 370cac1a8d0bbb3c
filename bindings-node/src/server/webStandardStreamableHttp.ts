/** `ferrymcp/server/webStandardStreamableHttp.js`: the v1 path of the web-standard transport. */
export { WebStandardStreamableHTTPServerTransport } from '../http.js';
export type { WebStandardStreamableHTTPServerTransportOptions } from '../http-options.js';
