/**
 * The official SDK's OAuth and SDK error classes and the resource-URL helpers user code
 * calls directly (`OAuthError`, `OAuthErrorCode`, `SdkError`, `SdkErrorCode`,
 * `resourceUrlFromServerUrl`, `checkResourceAllowed`,
 * `getOAuthProtectedResourceMetadataUrl`). They are values and URL arithmetic, no protocol
 * decision: the engine's own bearer checks and metadata documents stay in core.
 *
 * The official helpers that do decide protocol behaviour and that core does not expose yet
 * (the framework-free bearer gate, the OAuth metadata responses, the
 * manual multi-round API) are exported as functions that throw a
 * `FerrymcpUnsupportedError` (`code` `ERR_FERRYMCP_UNSUPPORTED`) naming themselves, so that
 * ported code fails where it uses them, never silently.
 */

/** The OAuth 2.0 error codes (RFC 6749 and its extensions), as the official `OAuthErrorCode`. */
export enum OAuthErrorCode {
  InvalidRequest = 'invalid_request',
  InvalidClient = 'invalid_client',
  InvalidGrant = 'invalid_grant',
  UnauthorizedClient = 'unauthorized_client',
  UnsupportedGrantType = 'unsupported_grant_type',
  InvalidScope = 'invalid_scope',
  AccessDenied = 'access_denied',
  ServerError = 'server_error',
  TemporarilyUnavailable = 'temporarily_unavailable',
  UnsupportedResponseType = 'unsupported_response_type',
  UnsupportedTokenType = 'unsupported_token_type',
  InvalidToken = 'invalid_token',
  MethodNotAllowed = 'method_not_allowed',
  TooManyRequests = 'too_many_requests',
  InvalidClientMetadata = 'invalid_client_metadata',
  InvalidRedirectUri = 'invalid_redirect_uri',
  InsufficientScope = 'insufficient_scope',
  InvalidTarget = 'invalid_target',
  InvalidDpopProof = 'invalid_dpop_proof',
  UseDpopNonce = 'use_dpop_nonce',
}

/** An OAuth error answer's body (RFC 6749 §5.2). */
export interface OAuthErrorBody {
  error: string;
  error_description?: string;
  error_uri?: string;
}

function isInstanceOf(cls: unknown, value: unknown): boolean {
  if (typeof cls !== 'function') throw new TypeError('isInstance must be called on the class (write `v => OAuthError.isInstance(v)` in callbacks)');
  return value instanceof (cls as new (...args: never[]) => unknown);
}

/** An OAuth error: `code` is the OAuth error string (`invalid_token`, ...), `errorUri` optional. */
export class OAuthError extends Error {
  readonly code: string;
  readonly errorUri?: string;

  constructor(code: OAuthErrorCode | string, message: string, errorUri?: string) {
    super(message);
    this.name = 'OAuthError';
    this.code = code;
    if (errorUri !== undefined) this.errorUri = errorUri;
  }

  /** The error as an OAuth error response body. */
  toResponseObject(): OAuthErrorBody {
    const body: OAuthErrorBody = { error: this.code, error_description: this.message };
    if (this.errorUri !== undefined) body.error_uri = this.errorUri;
    return body;
  }

  /** An `OAuthError` from an authorization server's error response body. */
  static fromResponse(body: OAuthErrorBody): OAuthError {
    return new OAuthError(body.error, body.error_description ?? body.error, body.error_uri);
  }

  static isInstance(this: unknown, value: unknown): boolean {
    return isInstanceOf(this, value);
  }
}

/** Codes of the errors the SDK raises locally (never sent on the wire), as the official `SdkErrorCode`. */
export enum SdkErrorCode {
  NotConnected = 'NOT_CONNECTED',
  AlreadyConnected = 'ALREADY_CONNECTED',
  NotInitialized = 'NOT_INITIALIZED',
  CapabilityNotSupported = 'CAPABILITY_NOT_SUPPORTED',
  RequestTimeout = 'REQUEST_TIMEOUT',
  ConnectionClosed = 'CONNECTION_CLOSED',
  SendFailed = 'SEND_FAILED',
  InvalidResult = 'INVALID_RESULT',
  UnsupportedResultType = 'UNSUPPORTED_RESULT_TYPE',
  InputRequiredRoundsExceeded = 'INPUT_REQUIRED_ROUNDS_EXCEEDED',
  ListPaginationExceeded = 'LIST_PAGINATION_EXCEEDED',
  MethodNotSupportedByProtocolVersion = 'METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION',
  EraNegotiationFailed = 'ERA_NEGOTIATION_FAILED',
  ClientHttpNotImplemented = 'CLIENT_HTTP_NOT_IMPLEMENTED',
  ClientHttpAuthentication = 'CLIENT_HTTP_AUTHENTICATION',
  ClientHttpForbidden = 'CLIENT_HTTP_FORBIDDEN',
  ClientHttpUnexpectedContent = 'CLIENT_HTTP_UNEXPECTED_CONTENT',
  ClientHttpFailedToOpenStream = 'CLIENT_HTTP_FAILED_TO_OPEN_STREAM',
  ClientHttpFailedToTerminateSession = 'CLIENT_HTTP_FAILED_TO_TERMINATE_SESSION',
}

/** A local SDK error: `code` (an `SdkErrorCode` string) and optional `data`. */
export class SdkError extends Error {
  readonly code: SdkErrorCode | string;
  readonly data?: unknown;

  constructor(code: SdkErrorCode | string, message: string, data?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SdkError';
    this.code = code;
    if (data !== undefined) this.data = data;
  }

  static isInstance(this: unknown, value: unknown): boolean {
    return isInstanceOf(this, value);
  }
}

/** What an `SdkHttpError` carries: the HTTP status of the answer that failed, and more. */
export interface SdkHttpErrorData {
  status: number;
  statusText?: string;
  [key: string]: unknown;
}

/** An `SdkError` for an HTTP answer that failed an exchange: `status` and `statusText` read from `data`. */
export class SdkHttpError extends SdkError {
  declare readonly data: SdkHttpErrorData;

  constructor(code: SdkErrorCode | string, message: string, data: SdkHttpErrorData) {
    super(code, message, data);
    this.name = 'SdkHttpError';
  }

  get status(): number {
    return this.data.status;
  }

  get statusText(): string | undefined {
    return this.data.statusText;
  }
}

const asUrl = (url: URL | string): URL => new URL(typeof url === 'string' ? url : url.href);

/** The RFC 8707 resource indicator of a server URL: the URL without its fragment. */
export function resourceUrlFromServerUrl(url: URL | string): URL {
  const resource = asUrl(url);
  resource.hash = '';
  return resource;
}

/**
 * Whether `requestedResource` lies under `configuredResource`: the same origin, and its
 * path the configured path or below it (path segments compared whole).
 */
export function checkResourceAllowed(options: { requestedResource: URL | string; configuredResource: URL | string }): boolean {
  const requested = asUrl(options.requestedResource);
  const configured = asUrl(options.configuredResource);
  if (requested.origin !== configured.origin) return false;
  const withSlash = (path: string) => (path.endsWith('/') ? path : `${path}/`);
  return requested.pathname.length >= configured.pathname.length && withSlash(requested.pathname).startsWith(withSlash(configured.pathname));
}

/**
 * Where a server at `serverUrl` publishes its protected resource metadata (RFC 9728 §3.1):
 * the well-known prefix, then the server's path without one trailing slash, and its query
 * (the fragment dropped).
 */
export function getOAuthProtectedResourceMetadataUrl(serverUrl: URL): string {
  const url = asUrl(serverUrl);
  const path = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  return `${url.origin}/.well-known/oauth-protected-resource${path}${url.search}`;
}

/** An official API ferrymcp does not run yet: `code` is `ERR_FERRYMCP_UNSUPPORTED`, `api` its name. */
export class FerrymcpUnsupportedError extends Error {
  readonly code = 'ERR_FERRYMCP_UNSUPPORTED';
  readonly api: string;

  constructor(api: string, why: string) {
    super(`ferrymcp does not support ${api} yet: ${why}`);
    this.name = 'FerrymcpUnsupportedError';
    this.api = api;
  }
}

/** Marks the placeholders below (scripts/surface-diff.mjs counts them apart). */
export const UNSUPPORTED = Symbol.for('ferrymcp.unsupported');

export type Placeholder = ((...args: any[]) => never) & { [UNSUPPORTED]: string };

/** @internal A class the package exports by its official name only to refuse it at construction (`FerrymcpUnsupportedError` naming it). */
export function placeholderClass(api: string, why: string): new (...args: any[]) => never {
  const cls = class {
    static readonly [UNSUPPORTED] = why;
    constructor(..._args: unknown[]) {
      throw new FerrymcpUnsupportedError(api, why);
    }
  };
  Object.defineProperty(cls, 'name', { value: api });
  return cls as unknown as new (...args: any[]) => never;
}

/** @internal */
export function placeholder(api: string, why: string): Placeholder {
  const fn = () => {
    throw new FerrymcpUnsupportedError(api, why);
  };
  Object.defineProperty(fn, 'name', { value: api });
  return Object.assign(fn, { [UNSUPPORTED]: why });
}

const BEARER = "core checks bearer tokens on the endpoints it serves: pass `auth: { verifier, requiredScopes, resourceServerUrl }` to the transport or createMcpHandler instead";
const METADATA = 'core serves the protected resource metadata on the endpoints it protects (`auth` option); a framework-free metadata response is not exposed';

export const legacyStatelessFallback: Placeholder = placeholder('legacyStatelessFallback', "core serves legacy clients on the same endpoint (createMcpHandler's legacy: 'stateless' is the default)");
export const requireScopes: Placeholder = placeholder('requireScopes', BEARER);
export const oauthMetadataResponse: Placeholder = placeholder('oauthMetadataResponse', METADATA);
export const buildOAuthProtectedResourceMetadata: Placeholder = placeholder('buildOAuthProtectedResourceMetadata', METADATA);
