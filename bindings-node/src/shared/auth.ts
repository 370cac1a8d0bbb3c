/**
 * v1's `@modelcontextprotocol/sdk/shared/auth.js`: the OAuth wire schemas and their types
 * (see `../auth-schemas.ts`).
 */
export * from '../auth-schemas.js';
export type {
  OAuthClientInformation,
  OAuthClientInformationFull,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '../oauth-client.js';
