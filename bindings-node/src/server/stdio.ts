/** `ferrymcp/server/stdio.js`: the v1 path of `StdioServerTransport`. */
export { StdioServerTransport } from '../stdio.js';
