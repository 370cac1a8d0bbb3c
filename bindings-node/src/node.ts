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
  headers: IncomingMessage['headers'];
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

const one = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * A Node request as a web-standard `Request` (for `handler.fetch()` and hand-wired routing),
 * as `@modelcontextprotocol/node` builds it: `http://` + `Host` (or `:authority`) + the
 * request path; every header but HTTP/2 pseudo-headers; and the body, for methods other than
 * GET and HEAD: `parsedBody` JSON-encoded (with its `Content-Length`) when a body parser
 * already read the stream, else the stream read to its end as text, up to
 * `maxRequestBodySize` (beyond, or a larger `Content-Length`: a `RequestBodyTooLargeError`,
 * `status` 413).
 */
export async function toWebRequest(req: NodeIncomingMessageLike, parsedBody?: unknown, options: ToWebRequestOptions = {}): Promise<Request> {
  for (const key of Object.keys(options)) if (key !== 'maxRequestBodySize') throw new TypeError(`toWebRequest: unknown option '${key}'`);
  const limit = options.maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  if (!Number.isFinite(limit) || limit < 0) throw new TypeError(`toWebRequest: maxRequestBodySize must be a number >= 0, got ${String(limit)}`);
  const method = (req.method ?? 'GET').toUpperCase();
  const host = one(req.headers.host) ?? one(req.headers[':authority']) ?? 'localhost';
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  let body: string | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    if (parsedBody === undefined) {
      if (Number(one(req.headers['content-length'])) > limit) throw new RequestBodyTooLargeError(limit);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk as Uint8Array);
        size += bytes.length;
        if (size > limit) throw new RequestBodyTooLargeError(limit);
        chunks.push(bytes);
      }
      if (size > 0) body = Buffer.concat(chunks).toString('utf8');
    } else {
      const encoded = JSON.stringify(parsedBody) as string | undefined;
      headers.delete('content-encoding');
      headers.delete('transfer-encoding');
      if (encoded === undefined) headers.delete('content-length');
      else {
        body = encoded;
        headers.set('content-length', String(Buffer.byteLength(encoded)));
      }
    }
  }
  return new Request(`http://${host}${req.url ?? '/'}`, { method, headers, body });
}
