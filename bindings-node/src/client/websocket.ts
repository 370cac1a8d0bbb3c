/**
 * `ferrymcp/client/websocket.js`: the v1 path of `WebSocketClientTransport`. MCP has no
 * WebSocket transport in its specification and core has no such client, so constructing one
 * throws `FerrymcpUnsupportedError` (`code` `ERR_FERRYMCP_UNSUPPORTED`) naming it; connect
 * with `StreamableHTTPClientTransport` or a `Transport` object of your own instead.
 */
import { placeholderClass } from '../auth-helpers.js';

export const WebSocketClientTransport = placeholderClass(
  'WebSocketClientTransport',
  'core has no WebSocket client (not a transport of the specification); use StreamableHTTPClientTransport, or a Transport object (start, send, close, onmessage) carrying the socket',
);
