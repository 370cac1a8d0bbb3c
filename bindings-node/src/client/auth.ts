/** `ferrymcp/client/auth.js`: the v1 path of the client's OAuth (`OAuthClientProvider`, `UnauthorizedError`, the helpers). */
export {
  UnauthorizedError,
  auth,
  extractResourceMetadataUrl,
  extractWWWAuthenticateParams,
  isOAuthClientProvider,
  validateClientMetadataUrl,
} from '../oauth-client.js';
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
