/** `ferrymcp/node`: the path of `@modelcontextprotocol/node` (the Node `http` transport and adapter). */
export { NodeStreamableHTTPServerTransport } from './http.js';
export { toNodeHandler } from './http-handler.js';
export type { NodeMcpRequestHandler } from './http-handler.js';
export type { StreamableHTTPServerTransportOptions as NodeStreamableHTTPServerTransportOptions } from './http-options.js';

import type { IncomingMessage, ServerResponse } from 'node:http';
import { guardRefusal, localhostAllowedHostnames, localhostAllowedOrigins, validateHostHeader, validateOriginHeader } from './host-guard.js';

/** A request guard for `node:http`: `true` when the request may proceed, else it has answered `403`. */
export type NodeRequestGuard = (req: IncomingMessage, res: ServerResponse) => boolean;

function refuse(res: ServerResponse, message: string): false {
  res.writeHead(403, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(guardRefusal(message)));
  return false;
}

export function hostHeaderValidation(allowedHostnames: string[]): NodeRequestGuard {
  return (req, res) => {
    const result = validateHostHeader(req.headers.host, allowedHostnames);
    return result.ok || refuse(res, result.message);
  };
}

export function localhostHostValidation(): NodeRequestGuard {
  return hostHeaderValidation(localhostAllowedHostnames());
}

export function originValidation(allowedOriginHostnames: string[]): NodeRequestGuard {
  return (req, res) => {
    const result = validateOriginHeader(req.headers.origin, allowedOriginHostnames);
    return result.ok || refuse(res, result.message);
  };
}

export function localhostOriginValidation(): NodeRequestGuard {
  return originValidation(localhostAllowedOrigins());
}
