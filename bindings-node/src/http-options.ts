/**
 * The official Streamable HTTP transports' options, mapped onto core's endpoint settings.
 *
 * ferrymcp's endpoint is core's: one endpoint serves both eras (legacy sessions and
 * stateless 2026-07-28 requests), with core's session table and event store. So each
 * official option either maps to a core setting or is refused with a `TypeError` that
 * says why; none is silently dropped. Only what the author set is passed on: core checks
 * it and holds every default (the same ones a Python server gets):
 *
 * | option | in ferrymcp |
 * |---|---|
 * | `sessionIdGenerator` | written as `undefined` (the official stateless mode): core serves legacy clients without sessions, each POST on its own; a function: legacy clients get sessions, whose ID core draws from the OS's CSPRNG (the function is not called; a warning says so once); absent: stateless on the transport classes (as there), sessions on `listen()` and `createMcpHandler` |
 * | `enableJsonResponse` | `true`: core answers every request with one JSON body (what a handler sends before its answer is not delivered, as there); `false`: JSON when the answer is the request's only message, else SSE |
 * | `allowedHosts`, `allowedOrigins` | core's Host and Origin checks (core's defaults when absent: loopback names on a loopback or mounted endpoint) |
 * | `enableDnsRebindingProtection` | `true` accepted (core always checks); `false` accepts every Host and Origin, as the official SDKs |
 * | `retryInterval` | the `retry` of SSE priming events (ms) |
 * | `keepAliveMs` | the SSE keep-alive comment interval (must be positive) |
 * | `maxRequestBodySize` | the body limit (413 above it) |
 * | `eventStore` | an `EventStore` object (the official interface: `storeEvent`, `replayEventsAfter`): core stores every event of its resumable streams there (a priming event as `{}`, as the official transport does), sends it under the name the store returned, and answers a `Last-Event-ID` with what the store replays after it, then the stream's live rest (`getStreamIdForEventId` is not called: core knows the stream of every event it named; a store that does not settle within 10 s, or fails, is logged and the event goes out under core's own id); or a ferrymcp `RedisStore`: sessions, resumable events and the bus between replicas in Redis, so several replicas behind a load balancer serve one set of sessions |
 * | `onsessioninitialized`, `onsessionclosed` | called with the ID when core opens a legacy session on this transport (before the `initialize` answer leaves) and when a `DELETE` ends one; the transport's `sessionId` is the first it opened (the official one-transport-per-session wiring) |
 * | `supportedProtocolVersions` | refused: core decides the versions |
 *
 * ferrymcp adds `auth` (bearer tokens: a JS verifier says what a token is, core applies
 * the required scopes and expiry, answers 401/403 with `WWW-Authenticate` and serves the
 * protected resource metadata; handlers get the token as `extra.authInfo`),
 * `maxSessions` and `sessionIdleMs`.
 */
import { NativeEventStore, NativeRedisStore } from './native.js';
import { resolveMaxRequestBodySize } from './server/requestBody.js';
import type { AuthConfig, HttpConfig } from './native.js';

/** A verified token, as the official SDK's `AuthInfo`. */
export interface AuthInfo {
  token: string;
  clientId: string;
  scopes: string[];
  /** Seconds since the epoch. */
  expiresAt?: number;
  resource?: URL;
  extra?: Record<string, unknown>;
}

/** The official SDK's `OAuthTokenVerifier`. */
export interface OAuthTokenVerifier {
  verifyAccessToken(token: string): Promise<AuthInfo>;
}

/** A token check: the official verifier object, or a function (sync or async) that
 * returns the token's `AuthInfo` (or `true`) when it is good, and `false`/`null` or
 * throws when not. An error whose `errorCode` (or `code`) is `'insufficient_scope'`
 * answers 403 with its `scope`. */
export type TokenVerifier = OAuthTokenVerifier | ((token: string) => AuthInfo | boolean | null | undefined | Promise<AuthInfo | boolean | null | undefined>);

export interface BearerAuthOptions {
  verifier: TokenVerifier;
  /** Scopes every token must carry (core checks them against `AuthInfo.scopes`, and
   * `expiresAt` against the clock: 403 naming a missing scope, 401 for an expired token). */
  requiredScopes?: string[];
  /** The authorization servers named in the protected resource metadata. */
  authorizationServers: (string | URL)[];
  scopesSupported?: string[];
  /** The resource's canonical URL; `http://{Host}{endpoint}` when absent. */
  resource?: string | URL;
  /** How long a verification may take (10 s by default); longer refuses the token. */
  verifyTimeoutMs?: number;
}

/** How a {@link RedisStore} keeps things; each has core's default. */
export interface RedisStoreOptions {
  /** The first part of every key (`ferrymcp`). */
  prefix?: string;
  /** Events kept per SSE stream (about 1,024). */
  eventsPerStream?: number;
  /** A stream's events are dropped this long after its last one (an hour). */
  eventsMaxAgeMs?: number;
  /** A Redis command not answered in this time fails, and the request with a 503 (1 s). */
  timeoutMs?: number;
}

/**
 * Sessions, resumable events and the bus between replicas on one Redis server
 * (`redis://[user:password@]host[:port][/db]`, `rediss://` for TLS), given to a transport as
 * `eventStore`: several replicas of a server behind a load balancer (no sticky sessions)
 * then serve the same legacy sessions, resume each other's SSE streams and reach each
 * other's clients. The connection is made on first use and remade when lost.
 */
export class RedisStore {
  /** @internal */
  readonly native: InstanceType<typeof NativeRedisStore>;

  constructor(url: string, options: RedisStoreOptions = {}) {
    if (typeof url !== 'string') throw new TypeError('RedisStore: url must be a string');
    const { prefix, eventsPerStream, eventsMaxAgeMs, timeoutMs, ...unknown } = options;
    const extra = Object.keys(unknown);
    if (extra.length > 0) throw new TypeError(`RedisStore does not take the option ${JSON.stringify(extra[0])}`);
    if (prefix !== undefined && (typeof prefix !== 'string' || prefix === '')) throw new TypeError('RedisStore: prefix must be a non-empty string');
    this.native = new NativeRedisStore(url, {
      prefix,
      eventsPerStream: positive('eventsPerStream', eventsPerStream),
      eventsMaxAgeMs: positive('eventsMaxAgeMs', eventsMaxAgeMs),
      timeoutMs: positive('timeoutMs', timeoutMs),
    });
  }

  /** The URL, its password masked. */
  get url(): string {
    return this.native.url;
  }
}

export type StreamId = string;
export type EventId = string;

/**
 * An event store of the official API: where the events of resumable SSE streams are kept
 * and named, so a client that lost a stream resumes with `Last-Event-ID` (see the table
 * above for what core does with it).
 */
export interface EventStore {
  storeEvent(streamId: StreamId, message: unknown): Promise<EventId>;
  /** Optional, as there; not called (core knows the stream of every event it named). */
  getStreamIdForEventId?(eventId: EventId): Promise<StreamId | undefined>;
  replayEventsAfter(lastEventId: EventId, options: { send: (eventId: EventId, message: unknown) => Promise<void> }): Promise<StreamId>;
}

function isEventStore(value: unknown): value is EventStore {
  const store = value as Partial<EventStore> | null;
  return typeof store === 'object' && store !== null && typeof store.storeEvent === 'function' && typeof store.replayEventsAfter === 'function';
}

/**
 * @internal The user's store as the engine calls it: `store(streamId, messageJson | null)`
 * (a priming event, `null`, is stored as `{}`, as the official transport stores it) and
 * `replay(lastEventId)` resolving to JSON text: `null` (an event the store does not know,
 * or an empty stream ID returned, as the official example store does) or
 * `{ stream, events: [[eventId, messageJson], ...] }`.
 */
function nativeEventStore(store: EventStore): InstanceType<typeof NativeEventStore> {
  const keep = async (streamId: string, message: string | null): Promise<string> => {
    const eventId = await store.storeEvent(streamId, message === null ? {} : JSON.parse(message));
    if (typeof eventId !== 'string' || eventId === '') throw new TypeError(`eventStore.storeEvent must resolve to a non-empty string, got ${String(eventId)}`);
    return eventId;
  };
  const replay = async (lastEventId: string): Promise<string> => {
    const events: [string, string][] = [];
    const send = async (eventId: string, message: unknown): Promise<void> => {
      events.push([String(eventId), JSON.stringify(message)]);
    };
    const stream = await store.replayEventsAfter(lastEventId, { send });
    if (typeof stream !== 'string' || stream === '') return 'null';
    return JSON.stringify({ stream, events });
  };
  return new NativeEventStore(keep, replay, {});
}

export interface StreamableHTTPServerTransportOptions {
  sessionIdGenerator?: (() => string) | undefined;
  onsessioninitialized?: (sessionId: string) => void | Promise<void>;
  onsessionclosed?: (sessionId: string) => void | Promise<void>;
  enableJsonResponse?: boolean;
  eventStore?: EventStore | RedisStore;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  enableDnsRebindingProtection?: boolean;
  retryInterval?: number;
  keepAliveMs?: number;
  maxRequestBodySize?: number;
  supportedProtocolVersions?: string[];
  /** Require bearer tokens (ferrymcp). */
  auth?: BearerAuthOptions;
  /** Most legacy sessions at once; more get 503 (ferrymcp; 10,000 by default). */
  maxSessions?: number;
  /** A legacy session unused this long ends (ferrymcp; 30 minutes by default). */
  sessionIdleMs?: number;
}

export type WebStandardStreamableHTTPServerTransportOptions = StreamableHTTPServerTransportOptions;

const REFUSED: Record<string, string> = {
  supportedProtocolVersions: 'core decides the protocol versions it serves (2024-11-05 to 2026-07-28)',
};

const ACCEPTED = new Set([
  'sessionIdGenerator', 'onsessioninitialized', 'onsessionclosed', 'enableJsonResponse', 'allowedHosts', 'allowedOrigins', 'enableDnsRebindingProtection',
  'retryInterval', 'keepAliveMs', 'maxRequestBodySize', 'auth', 'maxSessions', 'sessionIdleMs', 'eventStore', ...Object.keys(REFUSED),
]);

let warnedGenerator = false;

function positive(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > 0xffffffff) {
    throw new TypeError(`${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/**
 * `maxRequestBodySize` as the official transport takes it: any positive finite number of bytes
 * (a `RangeError` otherwise), a fraction meaning its whole part. Core counts in 32 bits; a body
 * over 4 GiB could not be held as one JavaScript string anyway, so larger limits mean 4 GiB.
 */
function bodyLimit(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  return Math.min(Math.floor(resolveMaxRequestBodySize(value as number)), 0xffffffff);
}

/** An empty host list as the official transport reads it: no Host check (core's `*`). */
function emptyMeansAny(hosts: string[] | undefined): string[] | undefined {
  return hosts?.length === 0 ? ['*'] : hosts;
}

function strings(name: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new TypeError(`${name} must be an array of strings`);
  return value;
}

/** The settings of `extra` keys the caller handles itself (`host`, `port`, `path`). */
export interface NativeHttpSettings {
  config: HttpConfig;
  verifier?: (token: string) => Promise<string>;
  redis?: InstanceType<typeof NativeRedisStore>;
  /** The application's `EventStore`, for the engine (closed with the transport). */
  events?: InstanceType<typeof NativeEventStore>;
}

/** The official transport classes, whose sessions come only from a `sessionIdGenerator`. */
const TRANSPORTS = new Set(['WebStandardStreamableHTTPServerTransport', 'NodeStreamableHTTPServerTransport', 'StreamableHTTPServerTransport']);

/** Checks the official options and maps them onto core's; throws `TypeError` on the refused ones. */
export function httpSettings(options: object, where: string, extra: readonly string[] = []): NativeHttpSettings {
  const o = options as Record<string, unknown> & StreamableHTTPServerTransportOptions;
  for (const [key, value] of Object.entries(o)) {
    if (extra.includes(key)) continue;
    if (!ACCEPTED.has(key)) throw new TypeError(`${where} does not take the option ${JSON.stringify(key)}`);
    if (key in REFUSED && value !== undefined) throw new TypeError(`${where}: ${key} is not supported: ${REFUSED[key]}`);
  }
  if (o.sessionIdGenerator !== undefined && typeof o.sessionIdGenerator !== 'function') {
    throw new TypeError(`${where}: sessionIdGenerator must be a function or undefined`);
  }
  if (typeof o.sessionIdGenerator === 'function' && !warnedGenerator) {
    warnedGenerator = true;
    process.emitWarning('ferrymcp serves legacy sessions with IDs from the OS random source; sessionIdGenerator is not called', { code: 'FERRYMCP_SESSION_IDS' });
  }
  for (const hook of ['onsessioninitialized', 'onsessionclosed'] as const) {
    if (o[hook] !== undefined && typeof o[hook] !== 'function') throw new TypeError(`${where}: ${hook} must be a function`);
    if (o[hook] !== undefined && !TRANSPORTS.has(where)) throw new TypeError(`${where}: ${hook} is not supported here (the transport classes take it)`);
  }
  if (o.enableJsonResponse !== undefined && typeof o.enableJsonResponse !== 'boolean') {
    throw new TypeError(`${where}: enableJsonResponse must be a boolean`);
  }
  if (o.enableDnsRebindingProtection !== undefined && typeof o.enableDnsRebindingProtection !== 'boolean') {
    throw new TypeError(`${where}: enableDnsRebindingProtection must be a boolean`);
  }
  const config: HttpConfig = {
    // The official transport checks Host only against a non-empty list: `[]` allows every host.
    allowedHosts: emptyMeansAny(strings('allowedHosts', o.allowedHosts)),
    dnsRebindingProtection: o.enableDnsRebindingProtection,
    allowedOrigins: strings('allowedOrigins', o.allowedOrigins),
    maxBodyBytes: bodyLimit(o.maxRequestBodySize),
    maxSessions: positive('maxSessions', o.maxSessions),
    sessionIdleMs: positive('sessionIdleMs', o.sessionIdleMs),
    keepAliveMs: positive('keepAliveMs', o.keepAliveMs),
    retryMs: positive('retryInterval', o.retryInterval),
    // The official transports are stateless without a `sessionIdGenerator` (written out as
    // `undefined` or left out; v1's transport-per-request pattern relies on it); `listen()`
    // and `createMcpHandler`, which have no such option there, keep legacy sessions unless
    // it is written out as `undefined`.
    stateless: TRANSPORTS.has(where) ? o.sessionIdGenerator === undefined : 'sessionIdGenerator' in o && o.sessionIdGenerator === undefined,
    jsonResponse: o.enableJsonResponse === true,
  };
  let redis: InstanceType<typeof NativeRedisStore> | undefined;
  let events: InstanceType<typeof NativeEventStore> | undefined;
  if (o.eventStore instanceof RedisStore) redis = o.eventStore.native;
  else if (isEventStore(o.eventStore)) events = nativeEventStore(o.eventStore);
  else if (o.eventStore !== undefined) {
    throw new TypeError(`${where}: eventStore must be an EventStore (storeEvent, replayEventsAfter) or ferrymcp's RedisStore`);
  }
  if (o.auth === undefined) return { config, redis, events };
  const { auth, verifier } = bearer(o.auth, where);
  return { config: { ...config, auth }, verifier, redis, events };
}

/**
 * @internal A token verifier (a function or an `OAuthTokenVerifier`) as core's
 * `BearerVerifier` takes it from JavaScript: the token's verdict as JSON (`required`: the
 * scopes an `insufficient_scope` refusal names when the verifier names none).
 */
export function verdictOf(given: unknown, where: string, required: string): (token: string) => Promise<string> {
  const object = given as { verifyAccessToken?: (token: string) => unknown } | undefined;
  const verify =
    typeof given === 'function'
      ? (given as (token: string) => unknown)
      : typeof object?.verifyAccessToken === 'function'
        ? (token: string) => object.verifyAccessToken!(token)
        : undefined;
  if (verify === undefined) throw Object.assign(new TypeError(`${where} must be a function or an OAuthTokenVerifier`), { code: 'ERR_INVALID_ARG_VALUE' });
  return async (token: string): Promise<string> => JSON.stringify(await verdict(verify, token, required));
}

function bearer(options: BearerAuthOptions, where: string): { auth: AuthConfig; verifier: (token: string) => Promise<string> } {
  const auth: AuthConfig = {
    requiredScopes: strings('auth.requiredScopes', options.requiredScopes),
    authorizationServers: (options.authorizationServers ?? []).map(String),
    scopesSupported: strings('auth.scopesSupported', options.scopesSupported),
    resource: options.resource === undefined ? undefined : String(options.resource),
    verifyTimeoutMs: positive('auth.verifyTimeoutMs', options.verifyTimeoutMs),
  };
  const verifier = verdictOf(options.verifier, `${where}: auth.verifier`, (auth.requiredScopes ?? []).join(' '));
  return { auth, verifier };
}

/** What the verifier said, for core (which applies the scope and expiry policy). */
type Verdict = { ok: true; authInfo: Record<string, unknown> } | { ok: false; message?: string; scope?: string };

async function verdict(verify: (token: string) => unknown, token: string, required: string): Promise<Verdict> {
  let info: unknown;
  try {
    info = await verify(token);
  } catch (error) {
    const e = error as { errorCode?: unknown; code?: unknown; scope?: unknown; message?: unknown };
    const message = typeof e?.message === 'string' && e.message !== '' ? e.message : 'the token was refused';
    if (e?.errorCode === 'insufficient_scope' || e?.code === 'insufficient_scope') {
      return { ok: false, message, scope: typeof e.scope === 'string' ? e.scope : required };
    }
    return { ok: false, message };
  }
  if (info === false || info === null || info === undefined) return { ok: false };
  if (info === true) return { ok: true, authInfo: { token, clientId: '', scopes: [] } };
  const { clientId, scopes, expiresAt, resource, extra } = info as Partial<AuthInfo>;
  return {
    ok: true,
    authInfo: {
      token,
      clientId: typeof clientId === 'string' ? clientId : '',
      scopes: Array.isArray(scopes) ? scopes.map(String) : [],
      expiresAt: typeof expiresAt === 'number' && Number.isFinite(expiresAt) ? Math.floor(expiresAt) : undefined,
      resource: resource === undefined ? undefined : String(resource),
      extra,
    },
  };
}
