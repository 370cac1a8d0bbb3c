/**
 * The client side of OAuth under the official names: the `OAuthClientProvider` a transport
 * takes as `authProvider`, `UnauthorizedError`, `ClientCredentialsProvider`, and the
 * helpers user code imports.
 *
 * Core runs the whole authorization (discovery, registration, PKCE, `resource`, scopes,
 * refresh, step-up, the grants); the provider only stores and redirects. So this file
 * checks the provider once, turns it into the one function the addon calls
 * (`{op, arg}` in, the member's result as JSON out), and refuses, naming it, every member
 * whose behaviour core does not take from the provider: `addClientAuthentication`,
 * `validateResourceURL`, `prepareTokenRequest` other than the client-credentials grant,
 * the authorization-server and resource URL storage. Nothing is accepted and ignored.
 */
import { IssuerMismatchError, OAuthClientFlowError, OAuthUnsupportedError, UnauthorizedError } from './errors.js';
import { NativeOAuth, parseWwwAuthenticate } from './native.js';
import { type FetchLike, refuseFetchFn, sdkFetch } from './cross-app-access.js';

export { IssuerMismatchError, OAuthClientFlowError, OAuthUnsupportedError, UnauthorizedError };

/** RFC 7591 client metadata. */
export interface OAuthClientMetadata {
  redirect_uris?: string[];
  token_endpoint_auth_method?: string;
  grant_types?: string[];
  response_types?: string[];
  client_name?: string;
  client_uri?: string;
  scope?: string;
  [field: string]: unknown;
}

/** A client registration (pre-registered, or the answer of dynamic registration). */
export interface OAuthClientInformation {
  client_id: string;
  client_secret?: string;
  [field: string]: unknown;
}
export type OAuthClientInformationFull = OAuthClientInformation & OAuthClientMetadata;
export type OAuthClientInformationMixed = OAuthClientInformation | OAuthClientInformationFull;

/** An OAuth token response (RFC 6749 section 5.1). */
export interface OAuthTokens {
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  id_token?: string;
  [field: string]: unknown;
}

/** What discovery found (`saveDiscoveryState`). */
export interface OAuthDiscoveryState {
  authorizationServerUrl: string;
  resourceMetadataUrl?: string;
  resourceMetadata?: Record<string, unknown>;
  authorizationServerMetadata?: Record<string, unknown>;
}

type Awaitable<T> = T | Promise<T>;

/** The official SDK's `OAuthClientProvider`: storage and the redirect; core does the rest. */
export interface OAuthClientProvider {
  readonly redirectUrl: string | URL | undefined;
  clientMetadataUrl?: string;
  readonly clientMetadata: OAuthClientMetadata;
  state?(): Awaitable<string>;
  clientInformation(): Awaitable<OAuthClientInformationMixed | undefined>;
  saveClientInformation?(clientInformation: OAuthClientInformationMixed): Awaitable<void>;
  tokens(): Awaitable<OAuthTokens | undefined>;
  saveTokens(tokens: OAuthTokens): Awaitable<void>;
  redirectToAuthorization(authorizationUrl: URL): Awaitable<void>;
  saveCodeVerifier(codeVerifier: string): Awaitable<void>;
  codeVerifier(): Awaitable<string>;
  invalidateCredentials?(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Awaitable<void>;
  saveDiscoveryState?(state: OAuthDiscoveryState): Awaitable<void>;
  discoveryState?(): Awaitable<OAuthDiscoveryState | undefined>;
  /** Refused: core decides the `resource` parameter (RFC 8707). */
  validateResourceURL?(serverUrl: string | URL, resource?: string): Promise<URL | undefined>;
  /** Only the client-credentials grant (`grant_type=client_credentials`, optional `scope`). */
  prepareTokenRequest?(scope?: string): Awaitable<URLSearchParams | undefined>;
  /** Refused: core authenticates the client as its registration says. */
  addClientAuthentication?: unknown;
}

/** The official `AuthProvider` of v2: a bearer token read once, at connect. */
export interface AuthProvider {
  token(): Promise<string | undefined> | string | undefined;
}

/** Members of the official interface core cannot take from a provider, with why. */
const REFUSED: Record<string, string> = {
  addClientAuthentication: 'core authenticates the client at the token endpoint as its registration says (client_secret_basic, client_secret_post, none)',
  validateResourceURL: 'core decides the RFC 8707 resource parameter from the protected resource metadata',
  saveAuthorizationServerUrl: 'core keeps the authorization server of a connection itself',
  authorizationServerUrl: 'core keeps the authorization server of a connection itself',
  saveResourceUrl: 'core keeps the resource of a connection itself',
  resourceUrl: 'core keeps the resource of a connection itself',
};

/** Whether `provider` is an `OAuthClientProvider` (rather than an `AuthProvider` with `token()`). */
export function isOAuthClientProvider(provider: unknown): provider is OAuthClientProvider {
  const p = provider as Record<string, unknown> | undefined;
  return typeof p?.tokens === 'function' && typeof p?.clientInformation === 'function';
}

/** The grant `prepareTokenRequest` asks for: client credentials, or a `CrossAppAccessProvider`'s. */
async function grantOf(provider: OAuthClientProvider, where: string): Promise<'authorization_code' | 'client_credentials' | 'cross_app_access'> {
  if (provider instanceof CrossAppAccessProvider) return 'cross_app_access';
  if (typeof provider.prepareTokenRequest !== 'function') return 'authorization_code';
  const params = await provider.prepareTokenRequest(provider.clientMetadata?.scope);
  if (params === undefined) return 'authorization_code';
  const names = [...new URLSearchParams(params).keys()];
  if (params.get('grant_type') === 'client_credentials' && names.every((n) => n === 'grant_type' || n === 'scope')) {
    return 'client_credentials';
  }
  throw new OAuthUnsupportedError(
    `${where}: authProvider.prepareTokenRequest() asks for ${params.toString()}; ferrymcp runs only grant_type=client_credentials (with scope) from it`,
  );
}

export function checkProvider(provider: OAuthClientProvider, where: string): void {
  const p = provider as unknown as Record<string, unknown>;
  // A CrossAppAccessProvider's URL storage is fed by core before each assertion (see `bridge`).
  const fed = provider instanceof CrossAppAccessProvider ? CROSS_APP_FED : [];
  for (const [name, why] of Object.entries(REFUSED)) {
    if (p[name] !== undefined && !fed.includes(name)) throw new OAuthUnsupportedError(`${where} does not support authProvider.${name}: ${why}`);
  }
  for (const name of ['tokens', 'saveTokens', 'clientInformation', 'redirectToAuthorization', 'saveCodeVerifier', 'codeVerifier']) {
    if (typeof p[name] !== 'function') throw new TypeError(`${where}: the OAuthClientProvider has no ${name}() method`);
  }
  if (provider.clientMetadataUrl !== undefined) validateClientMetadataUrl(provider.clientMetadataUrl);
  const expected = (provider as { expectedIssuer?: unknown }).expectedIssuer;
  if (expected !== undefined) {
    throw new OAuthUnsupportedError(`${where} does not support expectedIssuer: core does not pin a registration to an authorization server it names`);
  }
}

/** The client metadata core registers with: `redirectUrl` first among the redirect URIs. */
function metadataOf(provider: OAuthClientProvider): OAuthClientMetadata {
  const metadata = { ...(provider.clientMetadata ?? {}) };
  const redirect = provider.redirectUrl === undefined ? undefined : String(provider.redirectUrl);
  if (redirect !== undefined) {
    const others = (metadata.redirect_uris ?? []).filter((uri) => uri !== redirect);
    metadata.redirect_uris = [redirect, ...others];
  }
  return metadata;
}

const json = (value: unknown): string => JSON.stringify(value ?? null);

/** The provider as the function the addon calls. */
function bridge(provider: OAuthClientProvider): (callJson: string) => Promise<string> {
  return async (callJson) => {
    const { op, arg } = JSON.parse(callJson) as { op: string; arg: unknown };
    switch (op) {
      case 'tokens':
        return json(await provider.tokens());
      case 'saveTokens':
        return json(await provider.saveTokens(arg as OAuthTokens));
      case 'clientInformation':
        return json(await provider.clientInformation());
      case 'saveClientInformation':
        return json(await provider.saveClientInformation?.(arg as OAuthClientInformationMixed));
      case 'redirectToAuthorization':
        return json(await provider.redirectToAuthorization(new URL(arg as string)));
      case 'invalidateCredentials':
        return json(await provider.invalidateCredentials?.(arg as 'all' | 'client' | 'tokens'));
      case 'state':
        return json(await provider.state?.());
      case 'saveCodeVerifier':
        return json(await provider.saveCodeVerifier(arg as string));
      case 'codeVerifier':
        return json(await provider.codeVerifier());
      case 'saveDiscoveryState': {
        const kept = arg as Record<string, unknown>;
        const state: OAuthDiscoveryState = {
          authorizationServerUrl: kept.authorization_server_url as string,
          resourceMetadataUrl: kept.resource_metadata_url as string | undefined,
          resourceMetadata: kept.resource_metadata as Record<string, unknown> | undefined,
          authorizationServerMetadata: kept.authorization_server_metadata as Record<string, unknown> | undefined,
        };
        return json(await provider.saveDiscoveryState?.(state));
      }
      case 'discoveryState': {
        const state = await provider.discoveryState?.();
        if (state === undefined || state === null) return json(null);
        return json({
          authorization_server_url: state.authorizationServerUrl,
          resource_metadata_url: state.resourceMetadataUrl,
          resource_metadata: state.resourceMetadata,
          authorization_server_metadata: state.authorizationServerMetadata,
        });
      }
      case 'assertion':
        return json(await crossAppAssertion(provider as CrossAppAccessProvider, arg as CoreAssertionContext));
      default:
        throw new Error(`unknown OAuth provider call ${op}`);
    }
  };
}

/** Core's OAuth state for one provider, checked once. */
export async function nativeOAuth(provider: OAuthClientProvider, where: string): Promise<InstanceType<typeof NativeOAuth>> {
  checkProvider(provider, where);
  const grant = await grantOf(provider, where);
  try {
    return new NativeOAuth(
      {
        clientMetadataJson: JSON.stringify(metadataOf(provider)),
        clientMetadataUrl: provider.clientMetadataUrl,
        grant,
        hasState: typeof provider.state === 'function',
      },
      bridge(provider),
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const body = message.startsWith('{') ? (JSON.parse(message) as { message: string }) : { message };
    throw new TypeError(`${where}: ${body.message}`, { cause: error });
  }
}

/** The official check of a client ID metadata document URL: HTTPS with a path. */
export function validateClientMetadataUrl(url: string | undefined): void {
  if (url === undefined) return;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol !== 'https:' || parsed.pathname === '/') {
    throw new TypeError(`clientMetadataUrl must be an HTTPS URL with a non-root pathname, got: ${url}`);
  }
}

/** The parameters of a response's `WWW-Authenticate` `Bearer` challenge (parsed by core). */
export function extractWWWAuthenticateParams(res: Response): {
  resourceMetadataUrl?: URL;
  scope?: string;
  error?: string;
  errorDescription?: string;
} {
  const header = res.headers.get('WWW-Authenticate');
  if (!header) return {};
  const params = JSON.parse(parseWwwAuthenticate(header)) as Record<string, string | undefined>;
  let resourceMetadataUrl: URL | undefined;
  try {
    resourceMetadataUrl = params.resource_metadata === undefined ? undefined : new URL(params.resource_metadata);
  } catch {
    resourceMetadataUrl = undefined;
  }
  return { resourceMetadataUrl, scope: params.scope, error: params.error, errorDescription: params.error_description };
}

/** The `resource_metadata` URL of a response's challenge (deprecated in the official SDK). */
export function extractResourceMetadataUrl(res: Response): URL | undefined {
  return extractWWWAuthenticateParams(res).resourceMetadataUrl;
}

export interface ClientCredentialsProviderOptions {
  clientId: string;
  clientSecret: string;
  clientName?: string;
  scope?: string;
  expectedIssuer?: string;
}

/**
 * A pre-registered confidential client (id and secret, `client_secret_basic`) that never
 * sends a user anywhere, tokens kept in memory: what the two machine providers share.
 */
abstract class PreRegisteredProvider implements OAuthClientProvider {
  #tokens?: OAuthTokens;
  readonly #info: OAuthClientInformation;
  readonly #metadata: OAuthClientMetadata;
  readonly #flow: string;

  protected constructor(
    name: string,
    options: { clientId: string; clientSecret: string; expectedIssuer?: string },
    metadata: OAuthClientMetadata,
    flow: string,
  ) {
    if (options.expectedIssuer !== undefined) {
      throw new OAuthUnsupportedError(`${name}: expectedIssuer is not supported (core does not pin a registration to an authorization server)`);
    }
    this.#info = { client_id: options.clientId, client_secret: options.clientSecret };
    this.#metadata = metadata;
    this.#flow = flow;
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return this.#metadata;
  }

  clientInformation(): OAuthClientInformation {
    return this.#info;
  }

  tokens(): OAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
  }

  redirectToAuthorization(): void {
    throw new Error(`redirectToAuthorization is not used for ${this.#flow} flow`);
  }

  saveCodeVerifier(): void {
    // No authorization code in this grant.
  }

  codeVerifier(): string {
    throw new Error(`codeVerifier is not used for ${this.#flow} flow`);
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.#tokens = undefined;
  }
}

/**
 * Machine to machine: the `client_credentials` grant with a pre-registered client (id and
 * secret, `client_secret_basic`), tokens kept in memory. Core runs the grant.
 */
export class ClientCredentialsProvider extends PreRegisteredProvider {
  constructor(options: ClientCredentialsProviderOptions) {
    const metadata = {
      client_name: options.clientName ?? 'client-credentials-client',
      redirect_uris: [],
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'client_secret_basic',
      scope: options.scope,
    };
    super('ClientCredentialsProvider', options, metadata, 'client_credentials');
  }

  prepareTokenRequest(scope?: string): URLSearchParams {
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) params.set('scope', scope);
    return params;
  }
}

function refusedClass(name: string, why: string): new (...args: unknown[]) => never {
  const refused = class {
    constructor() {
      throw new OAuthUnsupportedError(`ferrymcp does not provide ${name}: ${why}`);
    }
  };
  Object.defineProperty(refused, 'name', { value: name });
  return refused as unknown as new (...args: unknown[]) => never;
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const CROSS_APP_FED = ['saveAuthorizationServerUrl', 'authorizationServerUrl', 'saveResourceUrl', 'resourceUrl'];

/** What core asks a `CrossAppAccessProvider` for, after discovery: the official context's fields. */
interface CoreAssertionContext {
  authorizationServerUrl: string;
  resourceUrl: string;
  scope: string | null;
}

/**
 * The assertion for one token request, the official way: the discovered URLs stored on
 * the provider, then its `prepareTokenRequest(scope)`, whose `jwt-bearer` parameters core
 * sends (with `resource` and the client's authentication). A subclass's
 * `prepareTokenRequest` asking for anything else is refused by name.
 */
async function crossAppAssertion(provider: CrossAppAccessProvider, context: CoreAssertionContext): Promise<string> {
  provider.saveAuthorizationServerUrl(context.authorizationServerUrl);
  provider.saveResourceUrl(context.resourceUrl);
  const scope = context.scope ?? undefined;
  const params = await provider.prepareTokenRequest(scope);
  const names = [...params.keys()];
  const assertion = params.get('assertion');
  if (
    params.get('grant_type') !== JWT_BEARER ||
    typeof assertion !== 'string' ||
    (params.get('scope') ?? undefined) !== scope ||
    !names.every((n) => n === 'grant_type' || n === 'assertion' || n === 'scope')
  ) {
    throw new OAuthUnsupportedError(
      `CrossAppAccessProvider.prepareTokenRequest() asks for ${params.toString()}; ferrymcp sends only grant_type=${JWT_BEARER} with the assertion and the selected scope`,
    );
  }
  return assertion;
}

/** What the official `assertion` callback is given. */
export interface CrossAppAccessContext {
  /** The MCP server's authorization server (its metadata's `issuer`): the ID-JAG's audience. */
  authorizationServerUrl: string;
  /** The MCP server's resource (RFC 9728 protected resource metadata). */
  resourceUrl: string;
  scope?: string;
  /** The SDK's HTTP; the cross-app helpers of this package take it (core makes their requests). */
  fetchFn: FetchLike;
}

export type AssertionCallback = (context: CrossAppAccessContext) => string | Promise<string>;

export interface CrossAppAccessProviderOptions {
  assertion: AssertionCallback;
  clientId: string;
  clientSecret: string;
  clientName?: string;
  /** Refused by name: core makes the authorization server's requests. */
  fetchFn?: never;
  /** Refused by name, as for `ClientCredentialsProvider`. */
  expectedIssuer?: never;
}

/**
 * Cross-App Access (Enterprise-Managed Authorization, SEP-990): the `jwt-bearer` grant of
 * an ID-JAG, which `assertion` obtains from the enterprise identity provider, at the
 * authorization server the MCP server's protected resource metadata names. Core runs the
 * discovery, the checks and the token request (`client_secret_basic`); tokens are kept in
 * memory, and a fresh assertion is asked for whenever a new token is needed (no refresh).
 */
export class CrossAppAccessProvider extends PreRegisteredProvider {
  readonly #assertion: AssertionCallback;
  #authorizationServerUrl?: string;
  #resourceUrl?: string;

  constructor(options: CrossAppAccessProviderOptions) {
    refuseFetchFn('CrossAppAccessProvider', options);
    if (typeof options.assertion !== 'function') throw new TypeError('CrossAppAccessProvider: assertion must be a function');
    const metadata = {
      client_name: options.clientName ?? 'cross-app-access-client',
      redirect_uris: [],
      grant_types: [JWT_BEARER],
      token_endpoint_auth_method: 'client_secret_basic',
    };
    super('CrossAppAccessProvider', options, metadata, 'jwt-bearer');
    this.#assertion = options.assertion;
  }

  /** The authorization server discovery found (set before each assertion). */
  saveAuthorizationServerUrl(authorizationServerUrl: string): void {
    this.#authorizationServerUrl = authorizationServerUrl;
  }

  authorizationServerUrl(): string | undefined {
    return this.#authorizationServerUrl;
  }

  /** The resource discovery found (set before each assertion). */
  saveResourceUrl(resourceUrl: string): void {
    this.#resourceUrl = resourceUrl;
  }

  resourceUrl(): string | undefined {
    return this.#resourceUrl;
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const authorizationServerUrl = this.#authorizationServerUrl;
    const resourceUrl = this.#resourceUrl;
    if (!authorizationServerUrl) {
      throw new Error('Authorization server URL not available. Ensure auth() has been called first.');
    }
    if (!resourceUrl) {
      throw new Error(
        'Resource URL not available \u2014 server may not implement RFC 9728 Protected Resource Metadata (required for Cross-App Access), or auth() has not been called',
      );
    }
    const jwtAuthGrant = await this.#assertion({ authorizationServerUrl, resourceUrl, scope, fetchFn: sdkFetch });
    const params = new URLSearchParams({ grant_type: JWT_BEARER, assertion: jwtAuthGrant });
    if (scope) params.set('scope', scope);
    return params;
  }
}

/** `private_key_jwt` (RFC 7523) client authentication is not in core yet. */
export const PrivateKeyJwtProvider = refusedClass('PrivateKeyJwtProvider', 'private_key_jwt client authentication (RFC 7523) is not implemented; use ClientCredentialsProvider (client_secret_basic)');
export const StaticPrivateKeyJwtProvider = refusedClass('StaticPrivateKeyJwtProvider', 'private_key_jwt client authentication (RFC 7523) is not implemented');

/** Refused: client authentication is core's (no `private_key_jwt` yet). */
export function createPrivateKeyJwtAuth(..._options: unknown[]): never {
  throw new OAuthUnsupportedError('ferrymcp does not provide createPrivateKeyJwtAuth: private_key_jwt client authentication (RFC 7523) is not implemented');
}

/**
 * Refused: the standalone `auth()` runs the flow outside a transport; in ferrymcp the
 * transport runs it (`authProvider`), and `transport.finishAuth()` finishes it.
 */
export function auth(..._args: unknown[]): never {
  throw new OAuthUnsupportedError('ferrymcp does not provide auth(): pass the provider as the transport\'s authProvider and finish with transport.finishAuth()');
}
