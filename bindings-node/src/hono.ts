/**
 * `ferrymcp/hono`: the path of `@modelcontextprotocol/hono`. `createMcpHonoApp()` is a Hono
 * app with the DNS rebinding guards armed on loopback binds and the JSON body parsed into
 * `c.get('parsedBody')` (413 above `maxRequestBodySize`); mount a `createMcpHandler(...)`
 * or a `WebStandardStreamableHTTPServerTransport` on it. Needs the `hono` package (a peer
 * dependency, as for the official adapter).
 */
import { Hono } from 'hono';
import type { MiddlewareHandler } from 'hono';
import { isJsonContentType } from './guards.js';
import { requestBodyTooLargeMessage, resolveMaxRequestBodySize } from './server/requestBody.js';
import { LOOPBACK_BINDS, guardRefusal, localhostAllowedHostnames, localhostAllowedOrigins, validateHostHeader, validateOriginHeader, warnUnguarded } from './host-guard.js';

export interface CreateMcpHonoAppOptions {
  host?: string;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  maxRequestBodySize?: number;
}

const KNOWN = new Set(['host', 'allowedHosts', 'allowedOrigins', 'maxRequestBodySize']);

export function hostHeaderValidation(allowedHostnames: string[]): MiddlewareHandler {
  return async (c, next) => {
    const result = validateHostHeader(c.req.header('host'), allowedHostnames);
    if (!result.ok) return c.json(guardRefusal(result.message), 403);
    return await next();
  };
}

export function localhostHostValidation(): MiddlewareHandler {
  return hostHeaderValidation(localhostAllowedHostnames());
}

export function originValidation(allowedOriginHostnames: string[]): MiddlewareHandler {
  return async (c, next) => {
    const result = validateOriginHeader(c.req.header('origin'), allowedOriginHostnames);
    if (!result.ok) return c.json(guardRefusal(result.message), 403);
    return await next();
  };
}

export function localhostOriginValidation(): MiddlewareHandler {
  return originValidation(localhostAllowedOrigins());
}

/** Reads at most `limit` bytes of the body; `undefined` past it. */
async function readBounded(request: Request, limit: number): Promise<string | undefined> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createMcpHonoApp(options: CreateMcpHonoAppOptions = {}): Hono {
  for (const key of Object.keys(options)) if (!KNOWN.has(key)) throw new TypeError(`createMcpHonoApp: unknown option '${key}'`);
  const { host = '127.0.0.1', allowedHosts, allowedOrigins } = options;
  const limit = resolveMaxRequestBodySize(options.maxRequestBodySize ?? undefined);
  const app = new Hono();
  const loopback = LOOPBACK_BINDS.includes(host);
  if (allowedHosts) app.use('*', hostHeaderValidation(allowedHosts));
  else if (loopback) app.use('*', localhostHostValidation());
  else warnUnguarded(host);
  if (allowedOrigins) app.use('*', originValidation(allowedOrigins));
  else if (loopback) app.use('*', localhostOriginValidation());
  app.use('*', async (c, next) => {
    if (c.get('parsedBody' as never) !== undefined || !isJsonContentType(c.req.header('content-type'))) return await next();
    const text = await readBounded(c.req.raw.clone(), limit);
    if (text === undefined) return c.json(guardRefusal(requestBodyTooLargeMessage(limit)), 413);
    try {
      c.set('parsedBody' as never, JSON.parse(text) as never);
    } catch {
      return c.text('Invalid JSON', 400);
    }
    return await next();
  });
  return app;
}
