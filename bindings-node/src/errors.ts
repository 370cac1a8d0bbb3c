/**
 * `McpError` and the error codes, as the official SDK names them, plus the one function
 * that turns an error from the addon into an `McpError`.
 *
 * The addon reports every failure as an Error whose message is the JSON
 * `{code, message, data}` of the MCP error (napi errors carry no other fields), so the
 * numeric code and the data survive the crossing and are restored here. The codes
 * themselves come from core (`vocabulary`), so they cannot drift from what it sends.
 */

import { SdkError, SdkErrorCode } from './auth-helpers.js';
import { vocabulary } from './native.js';

const codes = vocabulary.errorCodes;

/** JSON-RPC and MCP error codes (the official SDK's `ErrorCode`). */
export enum ErrorCode {
  ConnectionClosed = codes.connectionClosed,
  RequestTimeout = codes.requestTimeout,
  ParseError = codes.parseError,
  InvalidRequest = codes.invalidRequest,
  MethodNotFound = codes.methodNotFound,
  InvalidParams = codes.invalidParams,
  InternalError = codes.internalError,
  ResourceNotFound = codes.resourceNotFound,
  MissingRequiredClientCapability = codes.missingRequiredClientCapability,
  UnsupportedProtocolVersion = codes.unsupportedProtocolVersion,
  UrlElicitationRequired = codes.urlElicitationRequired,
}

/**
 * An official option (or option value) ferrymcp does not run: a `TypeError` naming it,
 * `code` `ERR_FERRYMCP_UNSUPPORTED`, thrown where the option is given (nothing is accepted
 * silently).
 */
export function refuseOption(where: string, option: string, why: string): never {
  throw Object.assign(new TypeError(`${where}: ${option} is not supported: ${why}`), { code: 'ERR_FERRYMCP_UNSUPPORTED' });
}

/** An option value no SDK takes (the official SDK throws too): a `TypeError`, `code` `ERR_INVALID_ARG_VALUE`. */
export function invalidOption(where: string, message: string): never {
  throw Object.assign(new TypeError(`${where}: ${message}`), { code: 'ERR_INVALID_ARG_VALUE' });
}

/** The code a cancelled request fails with. */
export const REQUEST_CANCELLED = codes.requestCancelled;

const PREFIX = /^MCP error -?\d+: /;

/** An MCP (JSON-RPC) error: `code`, `message` and optional `data`. */
export class McpError extends Error {
  readonly code: number;
  readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(`MCP error ${code}: ${message}`);
    this.name = 'McpError';
    this.code = code;
    this.data = data;
  }

  /** The message without the `MCP error <code>: ` prefix, as it goes on the wire. */
  get rawMessage(): string {
    return this.message.replace(PREFIX, '');
  }

  /**
   * The error for `code` and `data`, as the official factory chooses it: the typed
   * subclass when the data has its shape (`UrlElicitationRequiredError`,
   * `UnsupportedProtocolVersionError`, `ResourceNotFoundError`,
   * `MissingRequiredClientCapabilityError`), else a plain `McpError`.
   */
  static fromError(code: number, message: string, data?: unknown): McpError {
    const fields = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : undefined;
    if (code === ErrorCode.UrlElicitationRequired && Array.isArray(fields?.elicitations)) {
      return new UrlElicitationRequiredError(fields.elicitations as Array<Record<string, unknown>>, message);
    }
    if (code === ErrorCode.UnsupportedProtocolVersion && Array.isArray(fields?.supported) && typeof fields.requested === 'string') {
      return new UnsupportedProtocolVersionError({ supported: fields.supported as string[], requested: fields.requested }, message);
    }
    if ((code === ErrorCode.InvalidParams || code === ErrorCode.ResourceNotFound) && typeof fields?.uri === 'string' && (code === ErrorCode.ResourceNotFound || Object.keys(fields).length === 1)) {
      return new ResourceNotFoundError(fields.uri, message);
    }
    const required = fields?.requiredCapabilities;
    if (code === ErrorCode.MissingRequiredClientCapability && typeof required === 'object' && required !== null && !Array.isArray(required)) {
      return new MissingRequiredClientCapabilityError({ requiredCapabilities: required as Record<string, unknown> }, message);
    }
    return new McpError(code, message, data);
  }
}

/** A `resources/read` for a URI the server does not have (`-32602` with `data: {uri}`). */
export class ResourceNotFoundError extends McpError {
  constructor(uri: string, message = `Resource not found: ${uri}`) {
    super(ErrorCode.InvalidParams, message, { uri });
    this.name = 'ResourceNotFoundError';
  }

  get uri(): string {
    return (this.data as { uri: string }).uri;
  }
}

/** A tool needs the user to visit URLs first (`-32042`, the elicitations in `data`). */
export class UrlElicitationRequiredError extends McpError {
  constructor(elicitations: Array<Record<string, unknown>>, message = `URL elicitation${elicitations.length > 1 ? 's' : ''} required`) {
    super(ErrorCode.UrlElicitationRequired, message, { elicitations });
    this.name = 'UrlElicitationRequiredError';
  }

  get elicitations(): Array<Record<string, unknown>> {
    return (this.data as { elicitations?: Array<Record<string, unknown>> } | undefined)?.elicitations ?? [];
  }
}

/** A request named a protocol revision the receiver does not speak (`-32022`; `supported` and `requested` in `data`). */
export class UnsupportedProtocolVersionError extends McpError {
  constructor(data: { supported: string[]; requested: string }, message = `Unsupported protocol version: ${data.requested}`) {
    super(ErrorCode.UnsupportedProtocolVersion, message, data);
    this.name = 'UnsupportedProtocolVersionError';
  }

  /** The revisions the receiver speaks. */
  get supported(): string[] {
    return (this.data as { supported: string[] }).supported;
  }

  /** The revision that was asked for. */
  get requested(): string {
    return (this.data as { requested: string }).requested;
  }
}

/** A request needs client capabilities the client did not declare (`-32021`; the missing ones in `data.requiredCapabilities`). */
export class MissingRequiredClientCapabilityError extends McpError {
  constructor(data: { requiredCapabilities: Record<string, unknown> }, message = `Missing required client capabilities: ${Object.keys(data.requiredCapabilities).join(', ')}`) {
    super(ErrorCode.MissingRequiredClientCapability, message, data);
    this.name = 'MissingRequiredClientCapabilityError';
  }

  get requiredCapabilities(): Record<string, unknown> {
    return (this.data as { requiredCapabilities: Record<string, unknown> }).requiredCapabilities;
  }
}

/** The official v2 name of the same class and codes. */
export { McpError as ProtocolError, ErrorCode as ProtocolErrorCode };

/** An error the addon threw or rejected with, as an `McpError`. */
export function fromNative(error: unknown): McpError {
  if (error instanceof McpError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (message.startsWith('{"code":')) {
    try {
      const body = JSON.parse(message) as { code: number; message: string; data?: unknown };
      // A URL elicitation the server requires is the typed `UrlElicitationRequiredError`, as
      // both official clients (v1 and v2) raise it; other codes stay plain (v2's other typed
      // errors would change v1's codes: its `ResourceNotFoundError` is -32602, v1's -32002).
      const elicitations = (body.data as { elicitations?: unknown } | undefined)?.elicitations;
      if (body.code === ErrorCode.UrlElicitationRequired && Array.isArray(elicitations)) return McpError.fromError(body.code, body.message, body.data);
      return new McpError(body.code, body.message, body.data);
    } catch {
      // Not ours after all: fall through.
    }
  }
  return new McpError(ErrorCode.InternalError, message);
}

/**
 * The official SDK's `UnauthorizedError`: the server wants authorization the client could
 * not get by itself. After `connect()` throws it with `redirected` true, the user is on
 * the way to the authorization URL (the provider's `redirectToAuthorization` ran): finish
 * with `transport.finishAuth(...)`. `code` and `data` are the MCP error's, as core sent it.
 */
export class UnauthorizedError extends Error {
  readonly code: number;
  readonly data?: unknown;

  constructor(message?: string, code: number = ErrorCode.ConnectionClosed, data?: unknown) {
    super(message ?? 'Unauthorized');
    this.name = 'UnauthorizedError';
    this.code = code;
    this.data = data;
  }

  /** Whether the user was sent to the authorization server (finish with `finishAuth`). */
  get redirected(): boolean {
    return (this.data as { oauth?: { redirected?: boolean } } | undefined)?.oauth?.redirected === true;
  }
}

/** An OAuth provider member or provider class ferrymcp does not run, named in the message. */
export class OAuthUnsupportedError extends TypeError {
  readonly code = 'ERR_FERRYMCP_OAUTH_UNSUPPORTED';
  constructor(message: string) {
    super(message);
    this.name = 'OAuthUnsupportedError';
  }
}

/**
 * The official base of the OAuth client flow's typed errors (`instanceof` catches the
 * family). `code` is the MCP error's, as core failed the request with it.
 */
export class OAuthClientFlowError extends Error {
  readonly code: number = ErrorCode.ConnectionClosed;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * The official `IssuerMismatchError`: an authorization server's issuer is not the one
 * expected, a mix-up indication that ends the flow. `kind` `'metadata'`: the `issuer` of
 * the fetched metadata is not the one its address was built from (RFC 8414 section 3.3);
 * `'authorization_response'`: the redirect's `iss` is not the recorded issuer, or is
 * missing although the server promises it (RFC 9207). Core runs both checks; the message
 * is the official one (its values JSON-quoted). `received` may be an attacker's on the
 * authorization-response path: never show it to users.
 */
export class IssuerMismatchError extends OAuthClientFlowError {
  readonly kind: 'metadata' | 'authorization_response';
  readonly expected: string | undefined;
  readonly received: string | undefined;

  constructor(kind: 'metadata' | 'authorization_response', expected: string | undefined, received: string | undefined) {
    const where = kind === 'metadata' ? 'authorization server metadata (RFC 8414 §3.3)' : 'authorization response (RFC 9207)';
    super(`Issuer mismatch in ${where}: expected ${JSON.stringify(expected)}, received ${JSON.stringify(received)}`);
    this.kind = kind;
    this.expected = expected;
    this.received = received;
  }
}

/**
 * An error of a client connection: `IssuerMismatchError` when core's issuer check failed,
 * `UnauthorizedError` when authorization failed otherwise, an `OAuthUnsupportedError` (a
 * provider member refused, by name) as it is, else `fromNative`.
 */
export function fromNativeClient(error: unknown): Error {
  if (error instanceof UnauthorizedError || error instanceof OAuthUnsupportedError || error instanceof OAuthClientFlowError) return error;
  const local = sdkErrorOf(error);
  if (local !== undefined) return local;
  const failure = fromNative(error);
  const oauth = (failure.data as { oauth?: unknown } | undefined)?.oauth;
  if (oauth !== undefined && typeof oauth === 'object') {
    const issuer = (oauth as { issuer?: { check?: string; expected?: string; received?: string } }).issuer;
    if (issuer?.check === 'metadata' || issuer?.check === 'authorization_response') {
      const mismatch = new IssuerMismatchError(issuer.check, issuer.expected, issuer.received);
      return Object.assign(mismatch, { code: failure.code });
    }
    return new UnauthorizedError(failure.rawMessage, failure.code, failure.data);
  }
  return failure;
}

/** The wire message of any thrown value. */
export function messageOf(error: unknown): string {
  if (error instanceof McpError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Core's client errors the official SDK raises as local `SdkError`s (a string `code`):
 * an `input_required` result left unanswered (`inputRequired.autoFulfill: false` without
 * `allowInputRequired`), or still asking after `inputRequired.maxRounds` rounds. The
 * messages are the official client's.
 */
function sdkErrorOf(error: unknown): SdkError | undefined {
  const message = error instanceof Error ? error.message : '';
  if (!message.startsWith('{"code":') || !message.includes('"sdk":')) return undefined;
  let body: { sdk?: string; data?: { method?: string; rounds?: number; lastResult?: unknown } };
  try {
    body = JSON.parse(message) as typeof body;
  } catch {
    return undefined;
  }
  const data = body.data ?? {};
  if (body.sdk === SdkErrorCode.UnsupportedResultType) {
    return new SdkError(
      SdkErrorCode.UnsupportedResultType,
      `Unsupported result type 'input_required' for ${data.method}: multi-round-trip auto-fulfilment is not enabled on this instance — pass allowInputRequired: true to handle it manually, or enable inputRequired.autoFulfill`,
      data,
    );
  }
  if (body.sdk === SdkErrorCode.InputRequiredRoundsExceeded) {
    const last = (data.lastResult ?? {}) as { inputRequests?: unknown; requestState?: unknown };
    const lastResult = { inputRequests: last.inputRequests ?? {}, ...(last.requestState !== undefined && { requestState: last.requestState }) };
    return new SdkError(
      SdkErrorCode.InputRequiredRoundsExceeded,
      `Multi-round-trip request '${data.method}' still required input after ${data.rounds} rounds (inputRequired.maxRounds)`,
      { rounds: data.rounds, lastResult },
    );
  }
  return undefined;
}
