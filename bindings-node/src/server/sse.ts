/**
 * `ferrymcp/server/sse.js`: the v1 path of `SSEServerTransport`, the deprecated HTTP+SSE
 * server transport (2024-11-05: a GET opens an event stream, messages are POSTed to a
 * second endpoint). Core serves Streamable HTTP only (one endpoint, both eras, 2024-11-05
 * clients included through their Streamable HTTP fallback), so constructing one throws
 * `FerrymcpUnsupportedError` (`code` `ERR_FERRYMCP_UNSUPPORTED`) naming it: serve
 * `StreamableHTTPServerTransport` (`ferrymcp/server/streamableHttp.js`) instead. The client
 * side of HTTP+SSE (`SSEClientTransport`) does work.
 */
import { FerrymcpUnsupportedError, UNSUPPORTED } from '../auth-helpers.js';

const WHY = 'core serves Streamable HTTP only (one endpoint for both eras); serve StreamableHTTPServerTransport from ferrymcp/server/streamableHttp.js instead';

/** The official options (accepted only to be refused with the transport). */
export interface SSEServerTransportOptions {
  allowedHosts?: string[];
  allowedOrigins?: string[];
  enableDnsRebindingProtection?: boolean;
}

/** Refused at construction (see the module comment). */
export class SSEServerTransport {
  static readonly [UNSUPPORTED] = WHY;

  constructor(_endpoint?: string, _res?: unknown, _options?: SSEServerTransportOptions) {
    throw new FerrymcpUnsupportedError('SSEServerTransport', WHY);
  }
}
