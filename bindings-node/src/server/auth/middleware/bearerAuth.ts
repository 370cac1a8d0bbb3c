/**
 * The official v1 path `@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js`:
 * the Express bearer middleware, by core's policy (see `bearer-gate.ts`); a verifier may
 * throw the `InvalidTokenError` / `InsufficientScopeError` of
 * `ferrymcp/server/auth/errors.js`. `req.auth` carries the accepted token on.
 */
export { requireBearerAuthMiddleware as requireBearerAuth } from '../../../bearer-gate.js';
export type { BearerAuthMiddlewareOptions } from '../../../bearer-gate.js';
