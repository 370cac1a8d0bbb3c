/** `ferrymcp/client/stdio.js`: the v1 path of `StdioClientTransport`. */
export { StdioClientTransport } from '../stdio.js';
export type { StdioServerParameters } from '../stdio.js';
