/**
 * The official v1 path `@modelcontextprotocol/sdk/server/auth/router.js`:
 * `getOAuthProtectedResourceMetadataUrl` works; the Express routers of an authorization
 * server and of the metadata documents are not run by ferrymcp (the engine serves the
 * protected resource metadata on the endpoints it protects: the `auth` option) and throw
 * `ERR_FERRYMCP_UNSUPPORTED` naming themselves.
 */
import { FerrymcpUnsupportedError, UNSUPPORTED } from '../../auth-helpers.js';

export { getOAuthProtectedResourceMetadataUrl } from '../../auth-helpers.js';

const WHY = 'ferrymcp is no OAuth authorization server; the engine serves the protected resource metadata on the endpoints it protects (`auth: { verifier, authorizationServers }`)';

function refusing(api: string): (...args: unknown[]) => never {
  const fn = () => {
    throw new FerrymcpUnsupportedError(api, WHY);
  };
  Object.defineProperty(fn, 'name', { value: api });
  return Object.assign(fn, { [UNSUPPORTED]: WHY });
}

export const mcpAuthRouter = refusing('mcpAuthRouter');
export const mcpAuthMetadataRouter = refusing('mcpAuthMetadataRouter');
export const createOAuthMetadata = refusing('createOAuthMetadata');
