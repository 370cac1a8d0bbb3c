/**
 * The official v1 path `@modelcontextprotocol/sdk/server/auth/errors.js`: v1's OAuth error
 * classes, one per OAuth error code (`errorCode`), for token verifiers and OAuth handlers.
 * A token verifier given to ferrymcp's `auth` option may throw them: core answers
 * `InsufficientScopeError` with 403 `insufficient_scope` and the others with 401
 * `invalid_token`, the message as `error_description`.
 */

/** An OAuth error of v1: the class says the code (`errorCode`), the instance the message. */
export class OAuthError extends Error {
  declare static errorCode: string;
  readonly errorUri?: string;

  constructor(message: string, errorUri?: string) {
    super(message);
    if (errorUri !== undefined) this.errorUri = errorUri;
    this.name = new.target.name;
  }

  get errorCode(): string {
    return (this.constructor as typeof OAuthError).errorCode;
  }

  toResponseObject(): { error: string; error_description: string; error_uri?: string } {
    const body: { error: string; error_description: string; error_uri?: string } = { error: this.errorCode, error_description: this.message };
    if (this.errorUri) body.error_uri = this.errorUri;
    return body;
  }
}

export class InvalidRequestError extends OAuthError {
  static override errorCode = 'invalid_request';
}
export class InvalidClientError extends OAuthError {
  static override errorCode = 'invalid_client';
}
export class InvalidGrantError extends OAuthError {
  static override errorCode = 'invalid_grant';
}
export class UnauthorizedClientError extends OAuthError {
  static override errorCode = 'unauthorized_client';
}
export class UnsupportedGrantTypeError extends OAuthError {
  static override errorCode = 'unsupported_grant_type';
}
export class InvalidScopeError extends OAuthError {
  static override errorCode = 'invalid_scope';
}
export class AccessDeniedError extends OAuthError {
  static override errorCode = 'access_denied';
}
export class ServerError extends OAuthError {
  static override errorCode = 'server_error';
}
export class TemporarilyUnavailableError extends OAuthError {
  static override errorCode = 'temporarily_unavailable';
}
export class UnsupportedResponseTypeError extends OAuthError {
  static override errorCode = 'unsupported_response_type';
}
export class UnsupportedTokenTypeError extends OAuthError {
  static override errorCode = 'unsupported_token_type';
}
export class InvalidTokenError extends OAuthError {
  static override errorCode = 'invalid_token';
}
export class MethodNotAllowedError extends OAuthError {
  static override errorCode = 'method_not_allowed';
}
export class TooManyRequestsError extends OAuthError {
  static override errorCode = 'too_many_requests';
}
export class InvalidClientMetadataError extends OAuthError {
  static override errorCode = 'invalid_client_metadata';
}
export class InsufficientScopeError extends OAuthError {
  static override errorCode = 'insufficient_scope';
}
export class InvalidTargetError extends OAuthError {
  static override errorCode = 'invalid_target';
}

/** An OAuth error with a code of its own (not one of the classes above). */
export class CustomOAuthError extends OAuthError {
  private readonly customErrorCode: string;

  constructor(customErrorCode: string, message: string, errorUri?: string) {
    super(message, errorUri);
    this.customErrorCode = customErrorCode;
  }

  override get errorCode(): string {
    return this.customErrorCode;
  }
}

/** Each error code's class. */
export const OAUTH_ERRORS: Readonly<Record<string, typeof OAuthError>> = Object.fromEntries(
  [
    InvalidRequestError,
    InvalidClientError,
    InvalidGrantError,
    UnauthorizedClientError,
    UnsupportedGrantTypeError,
    InvalidScopeError,
    AccessDeniedError,
    ServerError,
    TemporarilyUnavailableError,
    UnsupportedResponseTypeError,
    UnsupportedTokenTypeError,
    InvalidTokenError,
    MethodNotAllowedError,
    TooManyRequestsError,
    InvalidClientMetadataError,
    InsufficientScopeError,
    InvalidTargetError,
  ].map((cls) => [cls.errorCode, cls]),
);
