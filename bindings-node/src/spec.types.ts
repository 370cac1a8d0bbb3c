/**
 * `ferrymcp/spec.types.js`: the runtime constants of the v1 path, from core (the
 * specification's types themselves are TypeScript types: `ferrymcp/types.js`).
 *
 * `LATEST_PROTOCOL_VERSION` here is the specification's newest revision, the stateless
 * 2026-07-28 core speaks (the official 1.x package has the draft's placeholder name,
 * `DRAFT-2026-v1`); the `initialize` revision of the same name in `ferrymcp/types.js` is
 * the newest one negotiated with `initialize`, as there.
 */
import { ErrorCode } from './errors.js';
import { JSONRPC_VERSION, MODERN_PROTOCOL_VERSION } from './guards.js';

export { JSONRPC_VERSION };
export const LATEST_PROTOCOL_VERSION: string = MODERN_PROTOCOL_VERSION;
export const PARSE_ERROR: number = ErrorCode.ParseError;
export const INVALID_REQUEST: number = ErrorCode.InvalidRequest;
export const METHOD_NOT_FOUND: number = ErrorCode.MethodNotFound;
export const INVALID_PARAMS: number = ErrorCode.InvalidParams;
export const INTERNAL_ERROR: number = ErrorCode.InternalError;
export const URL_ELICITATION_REQUIRED: number = ErrorCode.UrlElicitationRequired;
