/**
 * The official `crossAppAccess` helpers (Enterprise-Managed Authorization, SEP-990):
 * `requestJwtAuthorizationGrant` and `discoverAndRequestJwtAuthGrant` (the RFC 8693 token
 * exchange of the user's ID token for an ID-JAG at the enterprise identity provider) and
 * `exchangeJwtAuthGrant` (the RFC 7523 `jwt-bearer` grant of the ID-JAG for an access
 * token at the MCP authorization server). The requests, their checks (a token endpoint
 * must be `https` unless on a loopback host), the default `client_secret_basic` and the
 * error wording are core's (`ferrymcp_core::client::auth::cross_app`); this module converts
 * options and answers. `fetchFn` is refused by name: core makes the requests.
 */
import { OAuthUnsupportedError } from './errors.js';
import { crossAppExchangeJwtAuthGrant, crossAppRequestJwtAuthGrant } from './native.js';

/** Options of `requestJwtAuthorizationGrant`, as the official ones. */
export interface RequestJwtAuthGrantOptions {
  tokenEndpoint: string | URL;
  audience: string | URL;
  resource: string | URL;
  idToken: string;
  clientId: string;
  clientSecret?: string;
  scope?: string;
  /** Refused: core makes the request (an `OAuthUnsupportedError` names it). */
  fetchFn?: never;
}

/** Options of `discoverAndRequestJwtAuthGrant`: the identity provider's issuer URL for discovery. */
export interface DiscoverAndRequestJwtAuthGrantOptions extends Omit<RequestJwtAuthGrantOptions, 'tokenEndpoint'> {
  idpUrl: string | URL;
}

/** The ID-JAG the identity provider issued. */
export interface JwtAuthGrantResult {
  jwtAuthGrant: string;
  expiresIn?: number;
  scope?: string;
}

/** The error of a failed step: the official message, `code` ferrymcp's, `kind` core's step. */
export class CrossAppAccessError extends Error {
  readonly code = 'ERR_FERRYMCP_CROSS_APP_ACCESS';
  readonly kind: string;
  constructor(message: string, kind: string) {
    super(message);
    this.name = 'Error';
    this.kind = kind;
  }
}

/** The official `FetchLike`. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * The `fetchFn` a `CrossAppAccessProvider` hands its `assertion` callback: the global
 * `fetch`, as the official context's default. Passing it on to the helpers here means
 * "the SDK's own HTTP", which in ferrymcp is core's, so they take it; any other `fetchFn`
 * is refused by name.
 */
export const sdkFetch: FetchLike = (url, init) => fetch(url, init);

export function refuseFetchFn(where: string, options: object): void {
  const fetchFn = (options as { fetchFn?: unknown }).fetchFn;
  if (fetchFn !== undefined && fetchFn !== sdkFetch) {
    throw new OAuthUnsupportedError(`ferrymcp's ${where} does not support fetchFn: core makes the HTTP requests`);
  }
}

function fromCore(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  try {
    const body = JSON.parse(message) as { message?: unknown; kind?: unknown };
    if (typeof body.message === 'string') return new CrossAppAccessError(body.message, String(body.kind));
  } catch {
    // Not core's answer: as it came.
  }
  return error instanceof Error ? error : new Error(message);
}

function text(value: string | URL | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}

async function requestGrant(where: string, options: RequestJwtAuthGrantOptions | DiscoverAndRequestJwtAuthGrantOptions): Promise<JwtAuthGrantResult> {
  refuseFetchFn(where, options);
  const body = {
    tokenEndpoint: text((options as Partial<RequestJwtAuthGrantOptions>).tokenEndpoint),
    idpUrl: text((options as Partial<DiscoverAndRequestJwtAuthGrantOptions>).idpUrl),
    audience: String(options.audience),
    resource: String(options.resource),
    idToken: options.idToken,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    scope: options.scope,
  };
  try {
    return JSON.parse(await crossAppRequestJwtAuthGrant(JSON.stringify(body))) as JwtAuthGrantResult;
  } catch (error) {
    throw fromCore(error);
  }
}

/** The official `requestJwtAuthorizationGrant`: the RFC 8693 exchange at `tokenEndpoint`. */
export function requestJwtAuthorizationGrant(options: RequestJwtAuthGrantOptions): Promise<JwtAuthGrantResult> {
  return requestGrant('requestJwtAuthorizationGrant', options);
}

/** The official `discoverAndRequestJwtAuthGrant`: the identity provider's metadata, then the exchange. */
export function discoverAndRequestJwtAuthGrant(options: DiscoverAndRequestJwtAuthGrantOptions): Promise<JwtAuthGrantResult> {
  return requestGrant('discoverAndRequestJwtAuthGrant', options);
}

/** The official `exchangeJwtAuthGrant`: the `jwt-bearer` grant at the MCP authorization server. */
export async function exchangeJwtAuthGrant(options: {
  tokenEndpoint: string | URL;
  jwtAuthGrant: string;
  clientId: string;
  clientSecret?: string;
  authMethod?: 'client_secret_basic' | 'client_secret_post' | 'none' | string;
  fetchFn?: never;
}): Promise<{ access_token: string; token_type: string; expires_in?: number; scope?: string }> {
  refuseFetchFn('exchangeJwtAuthGrant', options);
  const body = {
    tokenEndpoint: String(options.tokenEndpoint),
    jwtAuthGrant: options.jwtAuthGrant,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    authMethod: options.authMethod,
  };
  try {
    return JSON.parse(await crossAppExchangeJwtAuthGrant(JSON.stringify(body))) as { access_token: string; token_type: string; expires_in?: number; scope?: string };
  } catch (error) {
    throw fromCore(error);
  }
}
