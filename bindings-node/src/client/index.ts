/**
 * `ferrymcp/client` and `ferrymcp/client/index.js`: what `@modelcontextprotocol/client` (v2)
 * and `@modelcontextprotocol/sdk/client/index.js` (v1) export: the package root (`Client`,
 * its HTTP transports, the types and schemas, `InMemoryTransport`).
 */
export * from '../index.js';
