/** The official v1 path `@modelcontextprotocol/sdk/shared/stdio.js`. */
export { ReadBuffer, deserializeMessage, serializeMessage } from '../transport.js';
/** The longest stdio message (one line) the engine reads, from core (the official name). */
export { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '../guards.js';
