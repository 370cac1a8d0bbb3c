/** `ferrymcp/client/stdio.js`: the v1 path of `StdioClientTransport`. */
export { StdioClientTransport, getDefaultEnvironment, DEFAULT_INHERITED_ENV_VARS } from '../stdio.js';
export type { StdioServerParameters } from '../stdio.js';
