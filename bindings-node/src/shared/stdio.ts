/** The official v1 path `@modelcontextprotocol/sdk/shared/stdio.js`. */
export { ReadBuffer, deserializeMessage, serializeMessage } from '../transport.js';
