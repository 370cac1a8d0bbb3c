/** `ferrymcp/client/auth-extensions.js`: the v1 path of the machine-to-machine providers. */
export {
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
  StaticPrivateKeyJwtProvider,
  createPrivateKeyJwtAuth,
} from '../oauth-client.js';
export type { ClientCredentialsProviderOptions } from '../oauth-client.js';
