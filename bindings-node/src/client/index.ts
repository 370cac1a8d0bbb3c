/**
 * `ferrymcp/client` and `ferrymcp/client/index.js`: what `@modelcontextprotocol/client` (v2)
 * and `@modelcontextprotocol/sdk/client/index.js` (v1) export: the package root (`Client`,
 * its HTTP transports, the types and schemas, `InMemoryTransport`).
 */
export * from '../index.js';
// The fetch middleware helpers (v2's client root and v1's `client/middleware.js`).
export { applyMiddlewares, createMiddleware, withLogging, withOAuth } from './middleware.js';
export { getSupportedElicitationModes } from '../elicitation-modes.js';
export { withInputRequired } from '../input-required-schema.js';
export type { LoggingOptions, Middleware, RequestLogEntry } from './middleware.js';
// v2's client root: the deprecated HTTP+SSE transport's error.
export { SseError } from '../http-errors.js';
