/** The official v1 path `@modelcontextprotocol/sdk/shared/transport.js`. */
export type { MessageExtraInfo, Transport, TransportSendOptions } from '../transport.js';
