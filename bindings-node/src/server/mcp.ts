/** `ferrymcp/server/mcp.js`: the v1 path of `McpServer` (`@modelcontextprotocol/sdk/server/mcp.js`). */
export { McpServer, ResourceTemplate } from '../index.js';
export type * from '../index.js';
