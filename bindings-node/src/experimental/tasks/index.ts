/** `ferrymcp/experimental/tasks/index.js`: everything of the v1 tasks paths ferrymcp has. */
export * from './types.js';
export * from './helpers.js';
export * from './client.js';
export * from './server.js';
export * from './mcp-server.js';
export * from './interfaces.js';
export * from './stores/in-memory.js';
export { takeResult, toArrayAsync } from '../../shared/responseMessage.js';
