/**
 * The official v1 path `@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js`.
 * The Express bearer middleware is not run by ferrymcp: core checks tokens on the endpoints
 * it serves (`auth: { verifier, requiredScopes }`), and a verifier may throw the
 * `InvalidTokenError` / `InsufficientScopeError` of `ferrymcp/server/auth/errors.js`.
 */
export { requireBearerAuth } from '../../../auth-helpers.js';
