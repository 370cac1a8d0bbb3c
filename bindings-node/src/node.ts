/** `ferrymcp/node`: the path of `@modelcontextprotocol/node` (the Node `http` transport and adapter). */
export { NodeStreamableHTTPServerTransport } from './http.js';
export { toNodeHandler } from './http-handler.js';
export type { NodeMcpRequestHandler } from './http-handler.js';
export type { StreamableHTTPServerTransportOptions as NodeStreamableHTTPServerTransportOptions } from './http-options.js';

import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from './guards.js';
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

/** What `toWebRequest` reads of a Node request (an `IncomingMessage`, an Express `req`). */
export interface NodeIncomingMessageLike extends AsyncIterable<unknown> {
  method?: string;
  url?: string;
  originalUrl?: string;
  headers: IncomingMessage['headers'];
  socket?: { encrypted?: boolean } | null;
}

export interface ToWebRequestOptions {
  /** Most body bytes read from the stream (default `DEFAULT_MAX_REQUEST_BODY_SIZE`, 4 MiB). */
  maxRequestBodySize?: number;
}

/** The body of a request past `maxRequestBodySize` (`status` 413). */
class RequestBodyTooLargeError extends Error {
  readonly status = 413;
  constructor(limit: number) {
    super(`Request body exceeds ${limit} bytes`);
    this.name = 'RequestBodyTooLargeError';
  }
}

/**
 * A Node request as a web-standard `Request` (for `handler.fetch()` and hand-wired routing):
 * the URL from `Host` and the request path, every header, and the body: `parsedBody`
 * (JSON-encoded) when a body parser already read it, else the stream read to its end, up
 * to `maxRequestBodySize` (beyond: a `RequestBodyTooLargeError`, `status` 413).
 */
export async function toWebRequest(req: NodeIncomingMessageLike, parsedBody?: unknown, options: ToWebRequestOptions = {}): Promise<Request> {
  for (const key of Object.keys(options)) if (key !== 'maxRequestBodySize') throw new TypeError(`toWebRequest: unknown option '${key}'`);
  const limit = options.maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  const method = (req.method ?? 'GET').toUpperCase();
  const scheme = req.socket?.encrypted ? 'https' : 'http';
  const url = new URL(req.originalUrl ?? req.url ?? '/', `${scheme}://${req.headers.host ?? 'localhost'}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  let body: string | Uint8Array | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    if (parsedBody !== undefined) {
      body = typeof parsedBody === 'string' ? parsedBody : JSON.stringify(parsedBody);
      headers.delete('content-length');
    } else {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
        size += bytes.length;
        if (size > limit) throw new RequestBodyTooLargeError(limit);
        chunks.push(bytes);
      }
      body = new Uint8Array(Buffer.concat(chunks));
    }
  }
  return new Request(url, { method, headers, body });
}
