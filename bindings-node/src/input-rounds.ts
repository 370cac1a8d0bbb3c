/**
 * The manual multi-round API of the official v2 SDK (protocol revision 2026-07-28): a
 * handler returns `inputRequired({ inputRequests, requestState })` itself and, on the
 * client's retry, reads `ctx.mcpReq.inputResponses` and `ctx.mcpReq.requestState()`.
 *
 * These helpers only build and read plain values. The protocol is core's: it checks the
 * returned result (at least one of the two members, every input request's client
 * capability), seals the handler's `requestState` inside its own sealed state (bound to the
 * method, target and principal, with an expiry), opens it on the retry and hands the
 * handler this round's `inputResponses`. On a 2025-era request core's legacy shim sends each
 * input request to the client and runs the handler again with the answers (the official
 * `inputRequired.legacyShim`, on by default; `false` fails the request loudly).
 *
 * `createRequestStateCodec` is the official application-side helper that seals a typed
 * payload into the `requestState` string (HMAC-SHA-256, an expiry, an optional binding to
 * the caller): ferrymcp's own implementation with `node:crypto`, its tokens its own.
 */

import type { HandlerContext } from './context.js';
import { vocabulary } from './native.js';
import { prepare } from './schema.js';
import type { CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, Root } from './types.js';

/** One request the client is asked to answer (`{ method, params }`). */
export interface InputRequest {
  method: string;
  params?: Record<string, unknown>;
}
export type InputRequests = Record<string, InputRequest>;
export type InputResponses = Record<string, unknown>;

/** A result asking the client for input (2026-07-28). */
export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests?: InputRequests;
  requestState?: string;
  [key: string]: unknown;
}

export interface InputRequiredSpec {
  inputRequests?: InputRequests;
  requestState?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function buildInputRequired(spec: InputRequiredSpec): InputRequiredResult {
  if (!isObject(spec)) throw new TypeError('inputRequired() takes { inputRequests?, requestState? }');
  for (const key of Object.keys(spec)) {
    if (key !== 'inputRequests' && key !== 'requestState') throw new TypeError(`inputRequired(): unknown member '${key}'`);
  }
  const { inputRequests, requestState } = spec;
  if (inputRequests !== undefined && !isObject(inputRequests)) throw new TypeError('inputRequired(): inputRequests must be an object of { method, params }');
  if (requestState !== undefined && typeof requestState !== 'string') throw new TypeError('inputRequired(): requestState must be a string');
  if ((inputRequests === undefined || Object.keys(inputRequests).length === 0) && requestState === undefined) {
    throw new TypeError('inputRequired() needs inputRequests (at least one) or requestState: an input_required result carries at least one of the two');
  }
  return {
    resultType: 'input_required',
    ...(spec.inputRequests !== undefined && { inputRequests: spec.inputRequests as InputRequests }),
    ...(requestState !== undefined && { requestState }),
  };
}

/** A form elicitation's params: a Standard Schema or zod `requestedSchema` becomes its JSON Schema. */
function formParams(params: ElicitRequestParams): Record<string, unknown> {
  if (!isObject(params)) throw new TypeError('inputRequired.elicit() takes the elicitation params ({ message, requestedSchema })');
  const schema = params.requestedSchema as unknown;
  const isPlainJson = schema === undefined || (isObject(schema) && !('~standard' in schema) && !('_def' in schema) && !('_zod' in schema));
  const requestedSchema = isPlainJson ? schema : prepare(schema, 'input', 'v2')?.json;
  return { ...params, mode: 'form', requestedSchema };
}

export interface InputRequiredBuilder {
  (spec: InputRequiredSpec): InputRequiredResult;
  /** A form-mode `elicitation/create` input request. */
  elicit(params: ElicitRequestParams): InputRequest;
  /** A URL-mode `elicitation/create` input request (no `elicitationId` on this revision). */
  elicitUrl(params: { message: string; url: string; [key: string]: unknown }): InputRequest;
  /** A `sampling/createMessage` input request. */
  createMessage(params: CreateMessageRequestParams): InputRequest;
  /** A `roots/list` input request. */
  listRoots(): InputRequest;
}

/** Builds the `input_required` result a handler returns, and its input requests. */
export const inputRequired: InputRequiredBuilder = Object.assign(buildInputRequired, {
  elicit: (params: ElicitRequestParams): InputRequest => ({ method: 'elicitation/create', params: formParams(params) }),
  elicitUrl: (params: { message: string; url: string; [key: string]: unknown }): InputRequest => {
    if (!isObject(params) || typeof params.url !== 'string') throw new TypeError('inputRequired.elicitUrl() takes { message, url }');
    return { method: 'elicitation/create', params: { ...params, mode: 'url' } };
  },
  createMessage: (params: CreateMessageRequestParams): InputRequest => ({ method: 'sampling/createMessage', params: params as Record<string, unknown> }),
  listRoots: (): InputRequest => ({ method: 'roots/list' }),
});

/** One entry of `inputResponses`, by what kind of answer it is. */
export type InputResponseView =
  | { kind: 'missing' }
  | { kind: 'elicit'; action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }
  | { kind: 'sampling'; result: CreateMessageResult }
  | { kind: 'roots'; roots: Root[] };

/** Reads `responses[key]` as an elicitation, sampling or roots answer (`missing` when it is none). */
export function inputResponse(responses: InputResponses | undefined, key: string): InputResponseView {
  const entry = isObject(responses) ? responses[key] : undefined;
  if (!isObject(entry)) return { kind: 'missing' };
  const action = entry.action;
  if (action === 'accept' || action === 'decline' || action === 'cancel') {
    return isObject(entry.content) ? { kind: 'elicit', action, content: entry.content } : { kind: 'elicit', action };
  }
  if (Array.isArray(entry.roots)) return { kind: 'roots', roots: entry.roots as Root[] };
  if (typeof entry.role === 'string' && entry.content !== undefined) return { kind: 'sampling', result: entry as unknown as CreateMessageResult };
  return { kind: 'missing' };
}

interface StandardSchemaLike {
  '~standard': { validate(value: unknown): { value?: unknown; issues?: unknown } | Promise<unknown> };
}

/**
 * The content of an accepted elicitation answer under `key` (`undefined` when missing,
 * declined or cancelled); with `schema` (any Standard Schema, validating synchronously),
 * `undefined` too when the content does not fit it.
 */
export function acceptedContent<T extends Record<string, unknown> = Record<string, unknown>>(responses: InputResponses | undefined, key: string, schema?: unknown): T | undefined {
  const view = inputResponse(responses, key);
  if (view.kind !== 'elicit' || view.action !== 'accept' || view.content === undefined) return undefined;
  if (schema === undefined) return view.content as T;
  const standard = (schema as Partial<StandardSchemaLike>)['~standard'];
  if (standard === undefined || typeof standard.validate !== 'function') throw new TypeError('acceptedContent(responses, key, schema): schema must be a Standard Schema (zod, valibot, arktype, ...)');
  const outcome = standard.validate(view.content);
  if (outcome instanceof Promise) throw new TypeError('acceptedContent(responses, key, schema) needs a schema that validates synchronously');
  const result = outcome as { value?: unknown; issues?: unknown };
  return result.issues === undefined ? (result.value as T) : undefined;
}

export interface RequestStateCodecOptions {
  /** The HMAC key: at least 32 bytes (a string is UTF-8). */
  key: Uint8Array | string;
  /** How long a minted state is accepted (600 s by default). */
  ttlSeconds?: number;
  /** Binds a state to the caller: its value at `mint` must match at `verify`. */
  bind?: (ctx: HandlerContext) => string;
}

export interface RequestStateCodec<T = unknown> {
  mint(payload: T, ctx?: HandlerContext): Promise<string>;
  verify(state: string, ctx: HandlerContext): Promise<T>;
}

const TOKEN_PREFIX = 'fm1.';
const b64url = (bytes: Buffer | Uint8Array) => Buffer.from(bytes).toString('base64url');

type NodeCrypto = typeof import('node:crypto');
let cryptoModule: Promise<NodeCrypto> | undefined;

/** `node:crypto`, loaded on the first mint or verify: importing it costs every process that
 * imports ferrymcp 1.3 MB of RSS and 10-16 ms of startup (benches/README.md, "Startup and
 * idle RSS (2026-11-28)"), and only a server with a request-state codec needs it. */
function nodeCrypto(): Promise<NodeCrypto> {
  cryptoModule ??= import('node:crypto');
  return cryptoModule;
}

/**
 * Seals a typed payload into a `requestState` string and opens it again: `verify` throws on
 * a token it did not mint (HMAC-SHA-256), an expired one, or one bound to another caller.
 * Its `verify` is what `new McpServer(info, { requestState: { verify } })` takes.
 */
export function createRequestStateCodec<T = unknown>(options: RequestStateCodecOptions): RequestStateCodec<T> {
  if (!isObject(options)) throw new TypeError('createRequestStateCodec takes { key, ttlSeconds?, bind? }');
  for (const name of Object.keys(options)) {
    if (name !== 'key' && name !== 'ttlSeconds' && name !== 'bind') throw new TypeError(`createRequestStateCodec: unknown option '${name}'`);
  }
  const key = typeof options.key === 'string' ? Buffer.from(options.key, 'utf8') : options.key instanceof Uint8Array ? Buffer.from(options.key) : undefined;
  if (key === undefined) throw new TypeError('createRequestStateCodec: key must be a Uint8Array or a string');
  const least = vocabulary.defaults.minStateKeyLen;
  if (key.byteLength < least) throw new RangeError(`createRequestStateCodec: key must be at least ${least} bytes (got ${key.byteLength})`);
  const ttlSeconds = options.ttlSeconds ?? 600;
  if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds)) throw new RangeError('createRequestStateCodec: ttlSeconds must be a finite number');
  const { bind } = options;
  if (bind !== undefined && typeof bind !== 'function') throw new TypeError('createRequestStateCodec: bind must be a function');
  // Separate MAC domains for the body and the binding tag, under the one key.
  const mac = (crypto: NodeCrypto, domain: string, text: string) =>
    crypto.createHmac('sha256', key).update(domain).update('\0').update(text).digest();
  const bindTag = (crypto: NodeCrypto, ctx: HandlerContext) => b64url(mac(crypto, 'bind', bind!(ctx)).subarray(0, 16));
  const now = () => Math.floor(Date.now() / 1000);
  return {
    async mint(payload, ctx) {
      const crypto = await nodeCrypto();
      const envelope: { p: T; exp: number; b?: string } = { p: payload, exp: now() + ttlSeconds };
      if (bind !== undefined) {
        if (ctx === undefined) throw new TypeError('createRequestStateCodec: mint(payload, ctx) needs ctx when bind is given');
        envelope.b = bindTag(crypto, ctx);
      }
      const body = b64url(Buffer.from(JSON.stringify(envelope), 'utf8'));
      return `${TOKEN_PREFIX}${body}.${b64url(mac(crypto, 'body', TOKEN_PREFIX + body))}`;
    },
    async verify(state, ctx) {
      const crypto = await nodeCrypto();
      if (typeof state !== 'string' || !state.startsWith(TOKEN_PREFIX)) throw new Error('malformed');
      const dot = state.lastIndexOf('.');
      if (dot <= TOKEN_PREFIX.length) throw new Error('malformed');
      const body = state.slice(TOKEN_PREFIX.length, dot);
      const given = Buffer.from(state.slice(dot + 1), 'base64url');
      const expected = mac(crypto, 'body', TOKEN_PREFIX + body);
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw new Error('mac');
      let envelope: { p: T; exp: unknown; b?: unknown };
      try {
        envelope = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof envelope;
      } catch {
        throw new Error('malformed');
      }
      if (typeof envelope.exp !== 'number' || envelope.exp < now()) throw new Error('expired');
      if (bind !== undefined) {
        const tag = Buffer.from(bindTag(crypto, ctx));
        const sent = Buffer.from(typeof envelope.b === 'string' ? envelope.b : '');
        if (sent.length !== tag.length || !crypto.timingSafeEqual(sent, tag)) throw new Error('bind');
      } else if (envelope.b !== undefined) {
        throw new Error('bind');
      }
      return envelope.p;
    },
  };
}
