/**
 * The official SDKs' standalone OAuth client functions (`buildDiscoveryUrls`,
 * `discoverOAuthProtectedResourceMetadata`, `discoverAuthorizationServerMetadata`,
 * `discoverOAuthMetadata`, `discoverOAuthServerInfo`, `selectResourceURL`, `isHttpsUrl`,
 * `startAuthorization`, `prepareAuthorizationCodeRequest`, `exchangeAuthorization`,
 * `refreshAuthorization`, `registerClient`, `selectClientAuthMethod`, `parseErrorResponse`),
 * on core's steps (`ferrymcp_core::client::auth::{discovery, flow}`), the ones the
 * transport's own OAuth runs. Every rule is core's; this module converts arguments and
 * answers and throws the official error classes: v1's (`ferrymcp/client/auth.js`) are one
 * class per OAuth error code (`server/auth/errors.js`), v2's (`ferrymcp/client`) the one
 * `OAuthError` with a `code`, so the functions are made once per flavour by
 * {@link oauthFunctions}.
 *
 * Core makes the requests: a `fetchFn` other than the global `fetch` and
 * `addClientAuthentication` are refused by name (`OAuthUnsupportedError`), never ignored.
 */
import { OAuthError as OAuthErrorV2, resourceUrlFromServerUrl } from './auth-helpers.js';
import type { AuthorizationServerMetadata, OAuthMetadata, OAuthProtectedResourceMetadata } from './auth-schemas.js';
import { OAuthUnsupportedError } from './errors.js';
import {
  oauthAuthorizationCodeForm,
  oauthBuildDiscoveryUrls,
  oauthDiscoverAuthorizationServerMetadata,
  oauthDiscoverOauthMetadata,
  oauthDiscoverProtectedResourceMetadata,
  oauthDiscoverServerInfo,
  oauthIsHttpsUrl,
  oauthParseErrorResponse,
  oauthRegisterClient,
  oauthSelectClientAuthMethod,
  oauthSelectResource,
  oauthStartAuthorization,
  oauthStoredClientInformation,
  oauthTokenGrant,
} from './native.js';
import type { OAuthClientInformationFull, OAuthClientInformationMixed, OAuthClientMetadata, OAuthClientProvider, OAuthTokens } from './oauth-client.js';
import { OAUTH_ERRORS, ServerError } from './server/auth/errors.js';
import { sdkFetch, type FetchLike } from './cross-app-access.js';

/** An OAuth error response body, as core read it. */
interface OAuthErrorBody {
  error: string;
  error_description?: string;
  error_uri?: string;
}

/** The client authentication methods core performs. */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

/** What `discoverOAuthServerInfo` answers. */
export interface OAuthServerInfo {
  authorizationServerUrl: string;
  authorizationServerMetadata?: AuthorizationServerMetadata;
  resourceMetadata?: OAuthProtectedResourceMetadata;
}

/** The part of an `OAuthClientProvider` that `selectResourceURL` asks. */
export interface ResourceUrlValidator {
  validateResourceURL?(serverUrl: string | URL, resource?: string): Promise<URL | undefined> | URL | undefined;
}

/** The official `AddClientAuthentication` (refused: core authenticates the client). */
export type AddClientAuthentication = (
  headers: Headers,
  params: URLSearchParams,
  url: string | URL,
  metadata?: AuthorizationServerMetadata,
) => void | Promise<void>;

/** The options the token requests share. */
export interface TokenOptions {
  metadata?: AuthorizationServerMetadata;
  clientInformation?: OAuthClientInformationMixed;
  resource?: URL | string;
  /** Refused: core authenticates the client (an `OAuthUnsupportedError` names it). */
  addClientAuthentication?: AddClientAuthentication;
  fetchFn?: FetchLike;
}

function refuse(where: string, option: string, value: unknown, allowed: unknown[] = []): void {
  if (value !== undefined && !allowed.includes(value)) {
    throw new OAuthUnsupportedError(`ferrymcp's ${where} does not support ${option}: core makes the HTTP requests`);
  }
}

/** The global `fetch` (the official default) or the SDK's own are core's requests too. */
function refuseFetch(where: string, fetchFn: FetchLike | undefined): void {
  refuse(where, 'fetchFn', fetchFn, [sdkFetch, globalThis.fetch]);
}

const text = (value: string | URL | undefined): string | undefined => (value === undefined ? undefined : String(value));

/**
 * The official functions with `toError` making the OAuth error of an authorization
 * server's error body (v1: the code's class; v2: `OAuthError`).
 */
export function oauthFunctions(toError: (body: OAuthErrorBody) => Error) {
  function fromCore(error: unknown): Error {
    const message = error instanceof Error ? error.message : String(error);
    try {
      const body = JSON.parse(message) as { message?: unknown; oauth?: OAuthErrorBody };
      if (body.oauth) return toError(body.oauth);
      if (typeof body.message === 'string') return new Error(body.message);
    } catch {
      // Not core's answer: as it came.
    }
    return error instanceof Error ? error : new Error(message);
  }

  async function call<T>(step: Promise<string>): Promise<T> {
    try {
      return JSON.parse(await step) as T;
    } catch (error) {
      throw fromCore(error);
    }
  }

  function callSync<T>(step: () => T): T {
    try {
      return step();
    } catch (error) {
      throw fromCore(error);
    }
  }

  /** Where to look for an authorization server's metadata, RFC 8414 first, then OpenID Connect. */
  function buildDiscoveryUrls(authorizationServerUrl: string | URL): { url: URL; type: 'oauth' | 'oidc' }[] {
    const urls = callSync(() => JSON.parse(oauthBuildDiscoveryUrls(String(authorizationServerUrl))) as { url: string; type: 'oauth' | 'oidc' }[]);
    return urls.map(({ url, type }) => ({ url: new URL(url), type }));
  }

  /** RFC 9728 protected resource metadata of `serverUrl` (an absent document is an error). */
  function discoverOAuthProtectedResourceMetadata(
    serverUrl: string | URL,
    opts?: { protocolVersion?: string; resourceMetadataUrl?: string | URL },
    fetchFn?: FetchLike,
  ): Promise<OAuthProtectedResourceMetadata> {
    refuseFetch('discoverOAuthProtectedResourceMetadata', fetchFn);
    const options = { serverUrl: String(serverUrl), resourceMetadataUrl: text(opts?.resourceMetadataUrl), protocolVersion: opts?.protocolVersion };
    return call(oauthDiscoverProtectedResourceMetadata(JSON.stringify(options)));
  }

  /** An authorization server's metadata (RFC 8414, then OpenID Connect); `undefined` when none answers. */
  async function discoverAuthorizationServerMetadata(
    authorizationServerUrl: string | URL,
    { fetchFn, protocolVersion }: { fetchFn?: FetchLike; protocolVersion?: string } = {},
  ): Promise<AuthorizationServerMetadata | undefined> {
    refuseFetch('discoverAuthorizationServerMetadata', fetchFn);
    const options = { authorizationServerUrl: String(authorizationServerUrl), protocolVersion };
    return (await call<AuthorizationServerMetadata | null>(oauthDiscoverAuthorizationServerMetadata(JSON.stringify(options)))) ?? undefined;
  }

  /** @deprecated as the official one: RFC 8414 metadata alone; `undefined` for a 404. */
  async function discoverOAuthMetadata(
    issuer: string | URL,
    { authorizationServerUrl, protocolVersion }: { authorizationServerUrl?: string | URL; protocolVersion?: string } = {},
    fetchFn?: FetchLike,
  ): Promise<OAuthMetadata | undefined> {
    refuseFetch('discoverOAuthMetadata', fetchFn);
    const options = { authorizationServerUrl: String(authorizationServerUrl ?? issuer), protocolVersion };
    return (await call<OAuthMetadata | null>(oauthDiscoverOauthMetadata(JSON.stringify(options)))) ?? undefined;
  }

  /** The authorization server of an MCP server and its metadata (protected resource metadata when there is some). */
  async function discoverOAuthServerInfo(
    serverUrl: string | URL,
    opts?: { resourceMetadataUrl?: URL; fetchFn?: FetchLike },
  ): Promise<OAuthServerInfo> {
    refuseFetch('discoverOAuthServerInfo', opts?.fetchFn);
    const options = { serverUrl: String(serverUrl), resourceMetadataUrl: text(opts?.resourceMetadataUrl) };
    const info = await call<OAuthServerInfo>(oauthDiscoverServerInfo(JSON.stringify(options)));
    return {
      authorizationServerUrl: info.authorizationServerUrl,
      authorizationServerMetadata: info.authorizationServerMetadata,
      resourceMetadata: info.resourceMetadata,
    };
  }

  /** The RFC 8707 resource indicator for `serverUrl`: the provider's choice, else the metadata's `resource` once core checked it. */
  async function selectResourceURL(
    serverUrl: string | URL,
    provider: ResourceUrlValidator,
    resourceMetadata?: OAuthProtectedResourceMetadata,
  ): Promise<URL | undefined> {
    if (provider.validateResourceURL) return await provider.validateResourceURL(resourceUrlFromServerUrl(serverUrl), resourceMetadata?.resource);
    if (!resourceMetadata) return undefined;
    const resource = callSync(() => oauthSelectResource(String(serverUrl), resourceMetadata.resource));
    return resource == null ? undefined : new URL(resource);
  }

  /** Whether `value` is an `https` URL with a path (a client ID metadata document URL). */
  function isHttpsUrl(value?: string): boolean {
    return value ? oauthIsHttpsUrl(value) : false;
  }

  /** The authorization URL (PKCE S256) and the code verifier to keep. */
  function startAuthorization(
    authorizationServerUrl: string | URL,
    options: {
      metadata?: AuthorizationServerMetadata;
      clientInformation: OAuthClientInformationMixed;
      redirectUrl: string | URL;
      scope?: string;
      state?: string;
      resource?: URL | string;
    },
  ): Promise<{ authorizationUrl: URL; codeVerifier: string }> {
    try {
      const body = {
        authorizationServerUrl: String(authorizationServerUrl),
        metadata: options.metadata,
        clientId: options.clientInformation.client_id,
        redirectUrl: String(options.redirectUrl),
        scope: options.scope || undefined,
        state: options.state || undefined,
        resource: options.resource === undefined ? undefined : String(options.resource),
      };
      const { authorizationUrl, codeVerifier } = callSync(() => JSON.parse(oauthStartAuthorization(JSON.stringify(body))) as { authorizationUrl: string; codeVerifier: string });
      return Promise.resolve({ authorizationUrl: new URL(authorizationUrl), codeVerifier });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** The authorization code grant's parameters. */
  function prepareAuthorizationCodeRequest(authorizationCode: string, codeVerifier: string, redirectUri: string | URL): URLSearchParams {
    return new URLSearchParams(JSON.parse(oauthAuthorizationCodeForm(authorizationCode, codeVerifier, String(redirectUri))) as [string, string][]);
  }

  function tokenGrant(where: string, authorizationServerUrl: string | URL, options: TokenOptions, grant: Record<string, unknown>): Promise<OAuthTokens> {
    refuse(where, 'addClientAuthentication', options.addClientAuthentication);
    refuseFetch(where, options.fetchFn);
    const body = {
      authorizationServerUrl: String(authorizationServerUrl),
      metadata: options.metadata,
      clientInformation: options.clientInformation,
      resource: options.resource === undefined ? undefined : String(options.resource),
      ...grant,
    };
    return call(oauthTokenGrant(JSON.stringify(body)));
  }

  /** Trades an authorization code for tokens. */
  async function exchangeAuthorization(
    authorizationServerUrl: string | URL,
    options: TokenOptions & { clientInformation: OAuthClientInformationMixed; authorizationCode: string; codeVerifier: string; redirectUri: string | URL },
  ): Promise<OAuthTokens> {
    const grant = { authorizationCode: options.authorizationCode, codeVerifier: options.codeVerifier, redirectUri: String(options.redirectUri) };
    return tokenGrant('exchangeAuthorization', authorizationServerUrl, options, grant);
  }

  /** Trades a refresh token for tokens (the refresh token kept when no new one comes). */
  async function refreshAuthorization(
    authorizationServerUrl: string | URL,
    options: TokenOptions & { clientInformation: OAuthClientInformationMixed; refreshToken: string },
  ): Promise<OAuthTokens> {
    return tokenGrant('refreshAuthorization', authorizationServerUrl, options, { refreshToken: options.refreshToken });
  }

  /**
   * v1's `fetchToken`: the provider's `prepareTokenRequest(clientMetadata.scope)`, else the
   * authorization code grant with its code verifier and redirect URL, sent with the
   * provider's stored client information (refused by core when stamped for another
   * authorization server). `addClientAuthentication` is refused by name.
   */
  async function fetchToken(
    provider: OAuthClientProvider,
    authorizationServerUrl: string | URL,
    { metadata, resource, authorizationCode, fetchFn }: { metadata?: AuthorizationServerMetadata; resource?: URL; authorizationCode?: string; fetchFn?: FetchLike } = {},
  ): Promise<OAuthTokens> {
    refuse('fetchToken', 'authProvider.addClientAuthentication', provider.addClientAuthentication);
    refuseFetch('fetchToken', fetchFn);
    const issuer = String(authorizationServerUrl);
    const stored = async (): Promise<OAuthClientInformationMixed | undefined> => {
      const information = await provider.clientInformation();
      return callSync(() => JSON.parse(oauthStoredClientInformation(JSON.stringify(information ?? null), issuer)) as OAuthClientInformationMixed | null) ?? undefined;
    };
    let clientInformation = await stored();
    let params = provider.prepareTokenRequest ? await provider.prepareTokenRequest(provider.clientMetadata.scope) : undefined;
    if (!params) {
      if (!authorizationCode) throw new Error('Either provider.prepareTokenRequest() or authorizationCode is required');
      if (!provider.redirectUrl) throw new Error('redirectUrl is required for authorization_code flow');
      params = prepareAuthorizationCodeRequest(authorizationCode, await provider.codeVerifier(), provider.redirectUrl);
    }
    // A provider may fill in its client information while the request is prepared.
    clientInformation ??= await stored();
    return tokenGrant('fetchToken', authorizationServerUrl, { metadata, clientInformation, resource }, { form: [...params] });
  }

  /** Dynamic client registration (RFC 7591); `scope`, when given, replaces the metadata's. */
  async function registerClient(
    authorizationServerUrl: string | URL,
    options: { metadata?: AuthorizationServerMetadata; clientMetadata: OAuthClientMetadata; scope?: string; fetchFn?: FetchLike },
  ): Promise<OAuthClientInformationFull> {
    refuseFetch('registerClient', options.fetchFn);
    const body = { authorizationServerUrl: String(authorizationServerUrl), metadata: options.metadata, clientMetadata: options.clientMetadata, scope: options.scope };
    return call(oauthRegisterClient(JSON.stringify(body)));
  }

  /** How the client authenticates at the token endpoint, given the methods the server supports. */
  function selectClientAuthMethod(clientInformation: OAuthClientInformationMixed, supportedMethods: string[]): ClientAuthMethod {
    return callSync(() => oauthSelectClientAuthMethod(JSON.stringify(clientInformation), supportedMethods)) as ClientAuthMethod;
  }

  /** The OAuth error of an error answer (a `Response` or its body). */
  async function parseErrorResponse(input: Response | string): Promise<Error> {
    const status = input instanceof Response ? input.status : undefined;
    const body = input instanceof Response ? await input.text() : input;
    return toError(JSON.parse(oauthParseErrorResponse(status, body)) as OAuthErrorBody);
  }

  return {
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
  };
}

/** v1's errors: the class of the OAuth error code, `ServerError` for any other. */
export const v1OAuthFunctions = oauthFunctions(({ error, error_description, error_uri }) => new (OAUTH_ERRORS[error] ?? ServerError)(error_description || '', error_uri));

/** v2's errors: the one `OAuthError`, its `code` the OAuth error code. */
export const v2OAuthFunctions = oauthFunctions((body) => OAuthErrorV2.fromResponse(body));
