/** The official v1 path `@modelcontextprotocol/sdk/shared/auth-utils.js`. */
export { checkResourceAllowed, resourceUrlFromServerUrl } from '../auth-helpers.js';
