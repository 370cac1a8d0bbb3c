/**
 * `ferrymcp/express`: the path of `@modelcontextprotocol/express`. `createMcpExpressApp()` is
 * an Express app with the DNS rebinding guards armed on loopback binds and `express.json()`;
 * mount a `NodeStreamableHTTPServerTransport` or `toNodeHandler(createMcpHandler(...))` on it.
 * Needs the `express` package (a peer dependency, as for the official adapter).
 *
 * `getOAuthProtectedResourceMetadataUrl` is the package root's. `requireBearerAuth` is the
 * Express bearer middleware: core's policy decides (see `bearer-gate.ts`), `req.auth` carries
 * the accepted token to `toNodeHandler` and the transports. Not run yet:
 * `mcpAuthMetadataRouter` (the engine's endpoints take `auth: { verifier, ... }` instead, and
 * serve the metadata themselves): calling it throws `ERR_FERRYMCP_UNSUPPORTED`.
 */
import express from 'express';
export { getOAuthProtectedResourceMetadataUrl } from './auth-helpers.js';
export { requireBearerAuthMiddleware as requireBearerAuth } from './bearer-gate.js';
export type { BearerAuthMiddlewareOptions } from './bearer-gate.js';
export type { OAuthTokenVerifier } from './http-options.js';
export { mcpAuthMetadataRouter } from './server/auth/router.js';
import type { Express, RequestHandler } from 'express';
import { LOOPBACK_BINDS, guardRefusal, localhostAllowedHostnames, localhostAllowedOrigins, validateHostHeader, validateOriginHeader, warnUnguarded } from './host-guard.js';

export interface CreateMcpExpressAppOptions {
  host?: string;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  /** `express.json()`'s `limit` (a byte count or a size such as `'4mb'`). */
  jsonLimit?: string | number;
}

const KNOWN = new Set(['host', 'allowedHosts', 'allowedOrigins', 'jsonLimit']);

export function hostHeaderValidation(allowedHostnames: string[]): RequestHandler {
  return (req, res, next) => {
    const result = validateHostHeader(req.headers.host, allowedHostnames);
    if (!result.ok) {
      res.status(403).json(guardRefusal(result.message));
      return;
    }
    next();
  };
}

export function localhostHostValidation(): RequestHandler {
  return hostHeaderValidation(localhostAllowedHostnames());
}

export function originValidation(allowedOriginHostnames: string[]): RequestHandler {
  return (req, res, next) => {
    const result = validateOriginHeader(req.headers.origin, allowedOriginHostnames);
    if (!result.ok) {
      res.status(403).json(guardRefusal(result.message));
      return;
    }
    next();
  };
}

export function localhostOriginValidation(): RequestHandler {
  return originValidation(localhostAllowedOrigins());
}

export function createMcpExpressApp(options: CreateMcpExpressAppOptions = {}): Express {
  return createApp(options, KNOWN, 'createMcpExpressApp', true);
}

/**
 * The app both SDK versions build: v2 (`ferrymcp/express`) guards Host and Origin, v1
 * (`ferrymcp/server/express.js`, options `host` and `allowedHosts`) Host only.
 */
export function createApp(options: CreateMcpExpressAppOptions, known: Set<string>, name: string, origins: boolean): Express {
  for (const key of Object.keys(options)) if (!known.has(key)) throw new TypeError(`${name}: unknown option '${key}'`);
  const { host = '127.0.0.1', allowedHosts, allowedOrigins, jsonLimit } = options;
  const app = express();
  const loopback = LOOPBACK_BINDS.includes(host);
  if (allowedHosts) app.use(hostHeaderValidation(allowedHosts));
  else if (loopback) app.use(localhostHostValidation());
  else warnUnguarded(host);
  if (origins && allowedOrigins) app.use(originValidation(allowedOrigins));
  else if (origins && loopback) app.use(localhostOriginValidation());
  app.use(express.json(jsonLimit !== undefined ? { limit: jsonLimit } : undefined));
  return app;
}
