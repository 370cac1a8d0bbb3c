/** `ferrymcp/server/mcp.js`: the v1 path of `McpServer` (`@modelcontextprotocol/sdk/server/mcp.js`). */
import { McpServer as V2McpServer } from '../index.js';
import type { Flavour } from '../schema.js';

export { ResourceTemplate } from '../index.js';
export type * from '../index.js';

/** `McpServer` as the v1 SDK lists schemas: JSON Schema draft-07 (zod 3 and zod 4 alike). */
export class McpServer extends V2McpServer {
  protected static override readonly schemaFlavour: Flavour = 'v1';
}
