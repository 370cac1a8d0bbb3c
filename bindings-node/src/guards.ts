/**
 * The official SDK's constants, type guards and small helpers that user code imports
 * (`LATEST_PROTOCOL_VERSION`, `isInitializeRequest`, `isJsonContentType`, ...). The
 * revisions come from core (`vocabulary`), so they cannot drift from what the engine
 * speaks; the guards check the shape the official ones check.
 */
import { vocabulary } from './native.js';

/** The newest revision negotiated with `initialize` (the official constant). */
export const LATEST_PROTOCOL_VERSION: string = vocabulary.latestProtocolVersion;
/** The revision assumed when an HTTP request names none. */
export const DEFAULT_NEGOTIATED_PROTOCOL_VERSION: string = vocabulary.defaultNegotiatedVersion;
/** The `initialize` revisions ferrymcp speaks, newest first (as the official list is ordered). */
export const SUPPORTED_PROTOCOL_VERSIONS: string[] = vocabulary.protocolVersions.filter((v) => v !== vocabulary.modernProtocolVersion).reverse();
/** The stateless revision (2026-07-28), which ferrymcp speaks beside the `initialize` ones. */
export const MODERN_PROTOCOL_VERSION: string = vocabulary.modernProtocolVersion;
export const JSONRPC_VERSION = '2.0';

/** The `_meta` keys MCP reserves, from core (the official `*_META_KEY` constants). */
export const PROTOCOL_VERSION_META_KEY: string = vocabulary.metaKeys.protocolVersion;
export const CLIENT_CAPABILITIES_META_KEY: string = vocabulary.metaKeys.clientCapabilities;
export const CLIENT_INFO_META_KEY: string = vocabulary.metaKeys.clientInfo;
export const LOG_LEVEL_META_KEY: string = vocabulary.metaKeys.logLevel;
export const SERVER_INFO_META_KEY: string = vocabulary.metaKeys.serverInfo;
export const SUBSCRIPTION_ID_META_KEY: string = vocabulary.metaKeys.subscriptionId;
export const RELATED_TASK_META_KEY: string = vocabulary.metaKeys.relatedTask;
const [traceparent, tracestate, baggage] = vocabulary.traceContextKeys;
/** The W3C trace-context keys `_meta` may carry. */
export const TRACEPARENT_META_KEY: string = traceparent;
export const TRACESTATE_META_KEY: string = tracestate;
export const BAGGAGE_META_KEY: string = baggage;

/** The JSON-RPC error codes, from core (the official numeric constants). */
export const PARSE_ERROR: number = vocabulary.errorCodes.parseError;
export const INVALID_REQUEST: number = vocabulary.errorCodes.invalidRequest;
export const METHOD_NOT_FOUND: number = vocabulary.errorCodes.methodNotFound;
export const INVALID_PARAMS: number = vocabulary.errorCodes.invalidParams;
export const INTERNAL_ERROR: number = vocabulary.errorCodes.internalError;

/**
 * The engine's defaults under the official constants' names. They are core's values, which
 * differ from the official SDK's where the engines differ: a stdio message may be up to
 * 32 MiB (official: 10 MiB).
 */
export const DEFAULT_REQUEST_TIMEOUT_MSEC: number = vocabulary.defaults.requestTimeoutMs;
export const DEFAULT_MAX_REQUEST_BODY_SIZE: number = vocabulary.defaults.maxRequestBodySize;
export const STDIO_DEFAULT_MAX_BUFFER_SIZE: number = vocabulary.defaults.stdioMaxMessageSize;

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown) => typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));

/** An `initialize` request (with or without its JSON-RPC envelope). */
export function isInitializeRequest(value: unknown): boolean {
  if (!isObject(value) || value.method !== 'initialize' || !isObject(value.params)) return false;
  const { protocolVersion, capabilities, clientInfo } = value.params;
  return typeof protocolVersion === 'string' && isObject(capabilities) && isObject(clientInfo) && typeof clientInfo.name === 'string' && typeof clientInfo.version === 'string';
}

/** The `notifications/initialized` notification. */
export function isInitializedNotification(value: unknown): boolean {
  return isObject(value) && value.method === 'notifications/initialized';
}

/** A JSON-RPC request: `jsonrpc`, `id` and `method`. */
export function isJSONRPCRequest(value: unknown): boolean {
  return isObject(value) && value.jsonrpc === JSONRPC_VERSION && isId(value.id) && typeof value.method === 'string';
}

/** A JSON-RPC notification: `jsonrpc` and `method`, no `id`. */
export function isJSONRPCNotification(value: unknown): boolean {
  return isObject(value) && value.jsonrpc === JSONRPC_VERSION && !('id' in value) && typeof value.method === 'string';
}

/** A JSON-RPC success response. */
export function isJSONRPCResultResponse(value: unknown): boolean {
  return isObject(value) && value.jsonrpc === JSONRPC_VERSION && isId(value.id) && isObject(value.result);
}

/** A JSON-RPC error response. */
export function isJSONRPCErrorResponse(value: unknown): boolean {
  return isObject(value) && value.jsonrpc === JSONRPC_VERSION && isObject(value.error) && Number.isInteger(value.error.code) && typeof value.error.message === 'string';
}

export { isJSONRPCResultResponse as isJSONRPCResponse, isJSONRPCErrorResponse as isJSONRPCError };

/** `value` as a JSON-RPC message (request, notification or response); throws when it is none. */
export function parseJSONRPCMessage(value: unknown): { jsonrpc: '2.0'; [key: string]: unknown } {
  if (isJSONRPCRequest(value) || isJSONRPCNotification(value) || isJSONRPCResultResponse(value) || isJSONRPCErrorResponse(value)) {
    return value as { jsonrpc: '2.0'; [key: string]: unknown };
  }
  throw new TypeError(`not a JSON-RPC 2.0 message: ${JSON.stringify(value)?.slice(0, 200)}`);
}

/** A 2026-07-28 result that asks the client for input (`resultType: 'input_required'`). */
export function isInputRequiredResult(value: unknown): boolean {
  return isObject(value) && value.resultType === 'input_required';
}

/**
 * Whether a `Content-Type` header value is `application/json` (parameters such as
 * `charset` allowed; a joined duplicate header is not).
 */
export function isJsonContentType(header: string | null | undefined): boolean {
  if (header === 'application/json') return true;
  if (typeof header !== 'string') return false;
  const [essence = '', ...rest] = header.split(';');
  if (rest.join(';').includes(',') || essence.includes(',')) return false;
  return essence.trim().toLowerCase() === 'application/json';
}

/** The name to show for a tool, prompt or resource: `title`, then `annotations.title`, then `name`. */
export function getDisplayName(metadata: { name: string; title?: string; annotations?: { title?: string } }): string {
  if (metadata.title !== undefined && metadata.title !== '') return metadata.title;
  if (metadata.annotations?.title) return metadata.annotations.title;
  return metadata.name;
}
