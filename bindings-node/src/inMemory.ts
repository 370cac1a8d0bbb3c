/** The official v1 path `@modelcontextprotocol/sdk/inMemory.js`. */
export { InMemoryTransport } from './transport.js';
