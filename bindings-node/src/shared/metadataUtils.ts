/** The official v1 path `@modelcontextprotocol/sdk/shared/metadataUtils.js`. */
export { getDisplayName } from '../guards.js';
