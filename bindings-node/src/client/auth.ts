/** `ferrymcp/client/auth.js`: the v1 path of the client's OAuth (`OAuthClientProvider`, `UnauthorizedError`, the helpers). */
export {
  UnauthorizedError,
  auth,
  extractResourceMetadataUrl,
  extractWWWAuthenticateParams,
  isOAuthClientProvider,
  validateClientMetadataUrl,
} from '../oauth-client.js';
import { v1OAuthFunctions } from '../oauth-functions.js';
// The standalone steps on core's, throwing v1's OAuth error classes.
export const {
  buildDiscoveryUrls,
  discoverAuthorizationServerMetadata,
  discoverOAuthMetadata,
  discoverOAuthProtectedResourceMetadata,
  discoverOAuthServerInfo,
  exchangeAuthorization,
  fetchToken,
  isHttpsUrl,
  parseErrorResponse,
  prepareAuthorizationCodeRequest,
  refreshAuthorization,
  registerClient,
  selectClientAuthMethod,
  selectResourceURL,
  startAuthorization,
} = v1OAuthFunctions;
export type { AddClientAuthentication, ClientAuthMethod, OAuthServerInfo } from '../oauth-functions.js';
export type {
  AuthProvider,
  OAuthClientInformation,
  OAuthClientInformationFull,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '../oauth-client.js';
