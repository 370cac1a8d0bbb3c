/**
 * `Client`: the official SDK's MCP client (v1 and v2 method names) on core's dual-era
 * client.
 *
 * `connect()` opens the transport's connection (a server process, or an HTTP endpoint)
 * and runs the handshake of the era asked for: legacy `initialize` by default, as the
 * official v2 client; `versionNegotiation: { mode: 'auto' }` lets core probe
 * (`server/discover`, falling back to `initialize`). Each
 * method sends one request through core, which adds the 2026-07-28 `_meta` and answers
 * `input_required` rounds through the request handlers set here (sampling, elicitation,
 * roots), exactly as it answers a legacy server's own requests. Results are the plain objects the server sent, as the official
 * SDK returns them; failures are `McpError`s with the JSON-RPC code.
 */
import { parseParams } from './schema.js';
import type { ClientHooks, ClientTransport } from './client-transport.js';
import { ExperimentalClientTasks, notConnected } from './client-tasks.js';
import { methodOf } from './dispatch.js';
import type { MethodOrSchema } from './dispatch.js';
import { ErrorCode, McpError, fromNativeClient, invalidOption, refuseOption } from './errors.js';
import { NativeCancel, connectPort } from './native.js';
import { MODERN_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, isInputRequiredResult } from './guards.js';
import { SdkError, SdkErrorCode } from './auth-helpers.js';
import { formatIssues } from './input-required-schema.js';
import type { StandardResultSchema } from './input-required-schema.js';
import { nativeCacheStore } from './response-cache.js';
import type { ResponseCacheStore } from './response-cache.js';
import { carry, isMessageTransport } from './transport.js';
import type { Transport } from './transport.js';
import type { ClientConfig, NativeClientHandle, NativeReply, RequestConfig } from './native.js';
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  GetPromptResult,
  Implementation,
  ListPromptsResult,
  ListResourceTemplatesResult,
  ListResourcesResult,
  ListToolsResult,
  LoggingLevel,
  Notification,
  Progress,
  Prompt,
  Resource,
  Tool,
  ReadResourceResult,
  Request,
  ServerCapabilities,
} from './types.js';

export interface ListChangedOptions<T> {
  onChanged: (error: Error | null, items: T[] | null) => void;
  autoRefresh?: boolean;
  debounceMs?: number;
}

export interface ListChangedHandlers {
  tools?: ListChangedOptions<Tool>;
  prompts?: ListChangedOptions<Prompt>;
  resources?: ListChangedOptions<Resource>;
}

/** A `subscriptions/listen` filter (2026-07-28). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  taskIds?: string[];
  [key: string]: unknown;
}

/** An open `subscriptions/listen` stream; its notifications reach the notification handlers. */
export interface McpSubscription {
  /** The part of the filter the server honours (its acknowledgement). */
  readonly honoredFilter: SubscriptionFilter;
  /** Ends the subscription. Idempotent. */
  close(): Promise<void>;
  /** Resolves once ended: `'local'` (closed here), `'graceful'` (the server ended it) or `'remote'` (dropped). */
  readonly closed: Promise<'local' | 'graceful' | 'remote'>;
}

export interface ClientOptions {
  capabilities?: ClientCapabilities;
  /**
   * Which era to speak (ferrymcp): `'legacy'`, `'auto'` (probe) or `'modern'`. Absent (and no
   * `versionNegotiation.mode`): core's default for the official TypeScript client, legacy.
   */
  era?: 'auto' | 'legacy' | 'modern';
  /**
   * The official v2 option: `{mode: 'legacy'}` (initialize only; the default, as in the
   * official client, held by core: `ClientOptions::typescript`), `{mode: 'auto'}` (probe
   * with `server/discover`, waiting the request timeout, then fall back to `initialize`) or
   * `{mode: {pin: '2026-07-28'}}` (the stateless era, no fallback). `probe.timeoutMs` is how long
   * the probe waits (core's `probe_timeout`); `probe.maxRetries` other than 0 is refused.
   */
  versionNegotiation?: { mode?: 'legacy' | 'auto' | { pin: string }; probe?: { timeoutMs?: number; maxRetries?: number } };
  /** The revision asked for in a legacy `initialize` (ferrymcp). */
  legacyVersion?: string;
  /** Default request timeout in ms (60 s, as the official SDK). */
  requestTimeoutMs?: number;
  /** How long a sampling / elicitation / roots handler may take (ferrymcp; 600 s). */
  callbackTimeoutMs?: number;
  // Official options ferrymcp does not take: given a value other than their default, the
  // constructor throws naming them (see `REFUSED_OPTIONS`).
  /**
   * The official option: refresh a list when the server says it changed (a legacy
   * server's notification, or a `subscriptions/listen` stream the client opens at connect
   * on a 2026-07-28 server), then `onChanged(error, items)`; `autoRefresh` (default true)
   * and `debounceMs` (default 300) as there. Lists the server does not declare
   * `listChanged` for are skipped.
   */
  listChanged?: ListChangedHandlers;
  jsonSchemaValidator?: unknown;
  /**
   * The official multi-round-trip options (2026-07-28): `autoFulfill` (default true: the
   * engine answers `input_required` results through the request handlers set here and
   * retries) and `maxRounds` (default 10). With `autoFulfill: false` such a result rejects
   * with an `SdkError` (`UNSUPPORTED_RESULT_TYPE`) unless the call passes
   * `allowInputRequired: true`, which resolves it as it is for the caller to answer.
   */
  inputRequired?: { autoFulfill?: boolean; maxRounds?: number };
  listMaxPages?: number;
  /**
   * The official option: where the response cache keeps its entries, shared between
   * clients or persisted (an `InMemoryResponseCacheStore`, or any object with the
   * official methods). Absent, each client has its own in-memory store (512
   * `resources/read` entries, as the official default).
   */
  responseCacheStore?: ResponseCacheStore;
  cachePartition?: string;
  defaultCacheTtlMs?: number;
  supportedProtocolVersions?: string[];
  enforceStrictCapabilities?: boolean;
  debouncedNotificationMethods?: string[];
}

const TAKEN_OPTIONS = new Set([
  'capabilities',
  'era',
  'legacyVersion',
  'requestTimeoutMs',
  'callbackTimeoutMs',
  'versionNegotiation',
  'listChanged',
  'cachePartition',
  'defaultCacheTtlMs',
  'responseCacheStore',
  'inputRequired',
]);

/** The official options ferrymcp has no counterpart for, with why; each refused unless left at its default. */
const REFUSED_OPTIONS: Record<string, { default?: unknown; why: string }> = {
  jsonSchemaValidator: { why: 'the engine validates in Rust and takes no validator' },
  listMaxPages: { why: 'list methods return one page per call in ferrymcp (pass a cursor)' },
  supportedProtocolVersions: { why: 'the engine offers the revisions it speaks (a list naming exactly those, SUPPORTED_PROTOCOL_VERSIONS, is taken); choose the era with versionNegotiation' },
  enforceStrictCapabilities: { default: false, why: 'strict capability checks are not supported by ferrymcp' },
  debouncedNotificationMethods: { why: 'notification debouncing is not supported by ferrymcp' },
};

/** Throws naming the first option this client cannot honour (nothing is accepted silently). */
function checkOptions(options: ClientOptions): void {
  checkInputRequired(options.inputRequired);
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || TAKEN_OPTIONS.has(key)) continue;
    const refused = REFUSED_OPTIONS[key];
    if (refused === undefined) invalidOption('ferrymcp Client', `unknown option ${key}`);
    if (key === 'supportedProtocolVersions' && speaksEveryRevision(value)) continue;
    const atDefault = value === refused.default || (Array.isArray(value) && value.length === 0);
    if (!atDefault) refuseOption('ferrymcp Client', key, refused.why);
  }
}

/**
 * `supportedProtocolVersions` naming exactly the revisions the engine speaks (the exported
 * `SUPPORTED_PROTOCOL_VERSIONS`, with or without the stateless one) changes nothing, so it is taken.
 */
function speaksEveryRevision(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  const given = new Set(value.filter((v) => v !== MODERN_PROTOCOL_VERSION));
  return given.size === SUPPORTED_PROTOCOL_VERSIONS.length && SUPPORTED_PROTOCOL_VERSIONS.every((v) => given.has(v));
}

export interface RequestOptions {
  onprogress?: (progress: Progress) => void;
  signal?: AbortSignal;
  timeout?: number;
  resetTimeoutOnProgress?: boolean;
  maxTotalTimeout?: number;
  /** The cacheable verbs' per-call cache disposition (the official `CacheableRequestOptions`). */
  cacheMode?: CacheMode;
  /**
   * Manual multi-round mode (2026-07-28): an `input_required` result resolves as it is
   * (`{ resultType: 'input_required', inputRequests, requestState? }`) for the caller to
   * answer and retry with `inputResponses` / `requestState`; the engine answers nothing.
   */
  allowInputRequired?: boolean;
  [option: string]: unknown;
}

/** `'use'` serves a fresh cached entry, `'refresh'` refetches and stores, `'bypass'` skips the cache. */
export type CacheMode = 'use' | 'refresh' | 'bypass';

/** The official `MAX_CACHE_TTL_MS`: no entry lives longer than 24 hours. */
export const MAX_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

/** Options of the cacheable verbs, with `cacheMode` defaulting to `'use'`. */
function cacheable(options: RequestOptions | undefined): RequestOptions {
  return { ...options, cacheMode: options?.cacheMode ?? 'use' };
}

type RequestHandler = (request: Request, extra: { signal: AbortSignal }) => unknown;
type NotificationHandler = (notification: Notification) => void | Promise<void>;

interface ServerDetails {
  protocolVersion: string;
  modern: boolean;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
  /** The `server/discover` result the details came from (modern connections that probed). */
  discover?: DiscoverResult;
}

/** A `server/discover` result (2026-07-28), as the server sent it. */
export interface DiscoverResult {
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  serverInfo?: Implementation;
  instructions?: string;
  [key: string]: unknown;
}

const INPUT_METHODS = ['sampling/createMessage', 'elicitation/create', 'roots/list'];
/** The client capability that announces each of `INPUT_METHODS`. */
const CAPABILITY_OF: Record<string, string> = { 'sampling/createMessage': 'sampling', 'elicitation/create': 'elicitation', 'roots/list': 'roots' };

/** v1 passes a result schema before the options; v2 passes the options alone. */
function optionsOf(schemaOrOptions: unknown, options: RequestOptions | undefined): RequestOptions | undefined {
  if (options !== undefined) return options;
  const candidate = schemaOrOptions as Record<string, unknown> | undefined;
  if (candidate === undefined || candidate === null) return undefined;
  const looksLikeSchema = '_zod' in candidate || '_def' in candidate || '~standard' in candidate || typeof candidate.parse === 'function';
  return looksLikeSchema ? undefined : (candidate as RequestOptions);
}

export class Client {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  fallbackNotificationHandler?: NotificationHandler;
  readonly #info: Implementation;
  readonly #options: ClientOptions;
  #capabilities: ClientCapabilities;
  readonly #requestHandlers = new Map<string, RequestHandler>();
  readonly #notificationHandlers = new Map<string, NotificationHandler>();
  #native?: NativeClientHandle;
  #transport?: ClientTransport;
  /**
   * Holds Node's event loop open while connected, as the official SDK's open pipes or
   * stream do: the engine's own callbacks into JS are weak (they must not keep a closed
   * client's process alive), so without this a script awaiting a server's notification
   * could see Node exit first. Released on `close()` and when the server goes away.
   */
  #alive?: ReturnType<typeof setInterval>;
  #server?: ServerDetails;
  #autoSubscription?: McpSubscription;
  /** The engine's store for `responseCacheStore`, held for as long as this client. */
  readonly #cacheStore?: ReturnType<typeof nativeCacheStore>;

  constructor(clientInfo: Implementation, options: ClientOptions = {}) {
    checkOptions(options);
    checkListChanged(options.listChanged);
    if (options.responseCacheStore !== undefined) this.#cacheStore = nativeCacheStore(options.responseCacheStore);
    this.#info = clientInfo;
    this.#options = { ...options, era: eraOf(options) };
    this.#capabilities = { ...(options.capabilities ?? {}) };
  }

  registerCapabilities(capabilities: ClientCapabilities): void {
    this.#capabilities = { ...this.#capabilities, ...capabilities };
  }

  /** Answers the server's sampling, elicitation or roots requests (either era). */
  setRequestHandler(methodOrSchema: MethodOrSchema, handler: RequestHandler): void {
    const method = methodOf(methodOrSchema);
    if (!INPUT_METHODS.includes(method)) throw new Error(`ferrymcp clients answer ${INPUT_METHODS.join(', ')}; not ${method}`);
    this.#requestHandlers.set(method, handler);
  }

  removeRequestHandler(methodOrSchema: MethodOrSchema): void {
    this.#requestHandlers.delete(methodOf(methodOrSchema));
  }

  setNotificationHandler(methodOrSchema: MethodOrSchema, handler: NotificationHandler): void;
  /** v2's form for a notification of the server's own: `handler(params)` gets the params `schemas.params` parsed (a mismatch goes to `onerror`). */
  setNotificationHandler(method: string, schemas: { params: unknown }, handler: (params: never) => unknown): void;
  setNotificationHandler(methodOrSchema: MethodOrSchema, handlerOrSchemas: NotificationHandler | { params: unknown }, maybeHandler?: (params: never) => unknown): void {
    const method = methodOf(methodOrSchema);
    if (typeof handlerOrSchemas === 'function') {
      this.#notificationHandlers.set(method, handlerOrSchemas);
      return;
    }
    const keys = Object.keys(handlerOrSchemas ?? {});
    if (typeof maybeHandler !== 'function' || keys.some((key) => key !== 'params') || handlerOrSchemas.params === undefined) {
      throw new TypeError('setNotificationHandler: takes (method, handler) or (method, { params }, handler)');
    }
    const handler = maybeHandler as (params: unknown) => unknown;
    this.#notificationHandlers.set(method, async (notification) => {
      await handler(await parseParams(handlerOrSchemas.params, notification.params as Record<string, unknown> | undefined, method));
    });
  }

  /** Opens the transport's connection (starts the server, or reaches its URL) and runs the handshake. */
  async connect(transport: ClientTransport | Transport): Promise<void> {
    if (isMessageTransport(transport)) transport = new CarriedTransport(transport);
    if (typeof transport?.ferrymcpOpen !== 'function') {
      throw new TypeError(
        'ferrymcp Client.connect() takes a ferrymcp transport: StdioClientTransport (ferrymcp/stdio), StreamableHTTPClientTransport or SSEClientTransport (ferrymcp, ferrymcp/client/streamableHttp.js, ferrymcp/client/sse.js), or a Transport object (start, send, close, onmessage)',
      );
    }
    // A request kind is routed to JS when its handler is set, or when the capability is
    // declared (the handler may be set after connect(), as the official client allows).
    const capabilities = this.#capabilities as Record<string, unknown>;
    const handled = (method: string) => this.#requestHandlers.has(method) || capabilities[CAPABILITY_OF[method]] !== undefined;
    try {
      this.#native = await transport.ferrymcpOpen(
        {
          infoJson: JSON.stringify(this.#info),
          capabilitiesJson: JSON.stringify(this.#capabilities),
          era: this.#options.era,
          legacyVersion: this.#options.legacyVersion,
          requestTimeoutMs: this.#options.requestTimeoutMs,
          callbackTimeoutMs: this.#options.callbackTimeoutMs,
          sampling: handled('sampling/createMessage'),
          elicitation: handled('elicitation/create'),
          roots: handled('roots/list'),
          listChangedJson: listChangedJson(this.#options.listChanged),
          cachePartition: this.#options.cachePartition,
          defaultCacheTtlMs: this.#options.defaultCacheTtlMs,
          cacheStore: this.#cacheStore?.id,
          answerInput: this.#options.inputRequired?.autoFulfill,
          maxInputRounds: this.#options.inputRequired?.maxRounds,
          probeTimeoutMs: this.#options.versionNegotiation?.probe?.timeoutMs,
        },
        {
          onRequest: (method, paramsJson, reply) => this.#answer(method, paramsJson, reply),
          onNotification: (method, paramsJson) => this.#notified(method, paramsJson),
          onListChanged: (list, outcomeJson) => this.#listChanged(list, outcomeJson),
          onClose: () => this.#lost(),
          close: () => this.close(),
        },
      );
    } catch (error) {
      throw this.#failed(error, transport);
    }
    this.#transport = transport;
    this.#server = JSON.parse(this.#native.serverJson) as ServerDetails;
    const auto = this.#native.autoSubscription();
    this.#autoSubscription = auto === null || auto === undefined ? undefined : subscriptionOf(auto);
    // A transport JavaScript carries holds the loop open itself if it must (a socket does;
    // the in-memory pair does not, as with the official SDK).
    if (!(transport instanceof CarriedTransport)) this.#alive ??= setInterval(() => {}, 2 ** 31 - 1);
  }

  #answer(method: string, paramsJson: string, reply: NativeReply): void {
    const handler = this.#requestHandlers.get(method);
    const answering = (async () => {
      if (handler === undefined) throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
      return handler({ method, params: JSON.parse(paramsJson) }, { signal: new AbortController().signal });
    })();
    answering.then(
      (result) => reply.resolve(JSON.stringify(result ?? {})),
      (error: unknown) => {
        const mcp = error instanceof McpError ? error : new McpError(ErrorCode.InternalError, error instanceof Error ? error.message : String(error));
        reply.reject(mcp.code, mcp.rawMessage, mcp.data === undefined ? undefined : JSON.stringify(mcp.data));
      },
    );
  }

  /** The server went away by itself: later requests fail at once, and `onclose` fires. */
  #lost(): void {
    const native = this.#native;
    if (native === undefined) return;
    this.#native = undefined;
    native.close().finally(() => this.#closed());
  }

  #closed(): void {
    this.#autoSubscription = undefined;
    clearInterval(this.#alive);
    this.#alive = undefined;
    this.#transport?.ferrymcpClosed?.();
    this.onclose?.();
    this.#transport?.onclose?.();
  }

  #listChanged(list: string, outcomeJson: string): void {
    const handler = this.#options.listChanged?.[list as keyof ListChangedHandlers] as ListChangedOptions<unknown> | undefined;
    if (handler === undefined) return;
    const outcome = JSON.parse(outcomeJson) as { items?: unknown[] | null; error?: string };
    if (outcome.error !== undefined) handler.onChanged(new Error(outcome.error), null);
    else handler.onChanged(null, outcome.items ?? null);
  }

  /**
   * Opens a `subscriptions/listen` stream (2026-07-28 only; a legacy connection is refused
   * naming the revision). Resolves on the server's acknowledgement; the notifications it
   * carries reach the handlers set with `setNotificationHandler`.
   */
  async listen(filter: SubscriptionFilter, options?: RequestOptions): Promise<McpSubscription> {
    const native = this.#native;
    if (native === undefined) throw new McpError(ErrorCode.ConnectionClosed, 'Not connected');
    let subscription: Awaited<ReturnType<NativeClientHandle['listen']>>;
    try {
      subscription = await native.listen(JSON.stringify(filter ?? {}), options?.timeout);
    } catch (error) {
      throw this.#failed(error);
    }
    options?.signal?.addEventListener('abort', () => void subscription.close(), { once: true });
    return subscriptionOf(subscription);
  }

  /**
   * The `subscriptions/listen` stream the `listChanged` option opened at `connect()` on a
   * 2026-07-28 connection (core opens it), as the official client's; `undefined` on a
   * legacy connection or when the server declares none of the lists.
   */
  get autoOpenedSubscription(): McpSubscription | undefined {
    return this.#autoSubscription;
  }

  /** Experimental features (the official `client.experimental`): `tasks` (see `client-tasks.ts`). */
  get experimental(): { tasks: ExperimentalClientTasks } {
    return { tasks: new ExperimentalClientTasks(() => this.#native ?? notConnected()) };
  }

  /** Tells the server the client's roots changed (`notifications/roots/list_changed`). */
  async sendRootsListChanged(): Promise<void> {
    const native = this.#native;
    if (native === undefined) throw new McpError(ErrorCode.ConnectionClosed, 'Not connected');
    try {
      await native.sendRootsListChanged();
    } catch (error) {
      throw this.#failed(error);
    }
  }

  /**
   * An error from the engine as the official client throws it: an HTTP answer that failed
   * the request as the transport's official HTTP error (see http-errors.ts).
   */
  #failed(error: unknown, transport: ClientTransport | undefined = this.#transport): Error {
    const failure = fromNativeClient(error);
    return transport?.ferrymcpHttpError?.(failure) ?? failure;
  }

  #notified(method: string, paramsJson: string): void {
    const handler = this.#notificationHandlers.get(method) ?? this.fallbackNotificationHandler;
    if (handler === undefined) return;
    Promise.resolve()
      .then(() => handler({ method, params: JSON.parse(paramsJson) }))
      .catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }

  getServerCapabilities(): ServerCapabilities | undefined {
    return this.#server?.capabilities;
  }

  getServerVersion(): Implementation | undefined {
    return this.#server?.serverInfo;
  }

  getInstructions(): string | undefined {
    return this.#server?.instructions;
  }

  getNegotiatedProtocolVersion(): string | undefined {
    return this.#server?.protocolVersion;
  }

  /**
   * The `server/discover` result of this connection: the one core's probe (or pin) got, or
   * the last {@link discover} call's; `undefined` on a legacy connection.
   */
  getDiscoverResult(): DiscoverResult | undefined {
    return this.#server?.discover;
  }

  /** Sends `server/discover` (2026-07-28) and keeps its result for {@link getDiscoverResult}. */
  async discover(options?: RequestOptions): Promise<DiscoverResult> {
    const result = await this.request<DiscoverResult>({ method: 'server/discover' }, options);
    if (this.#server !== undefined) this.#server.discover = result;
    return result;
  }

  /** `'modern'` (2026-07-28, stateless) or `'legacy'` (initialize). */
  getProtocolEra(): 'modern' | 'legacy' | undefined {
    return this.#server === undefined ? undefined : this.#server.modern ? 'modern' : 'legacy';
  }

  /** Any request by method; v1's `request(request, resultSchema, options)` also works. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the official SDK's signature: the caller picks the type
  request<T = any>(request: Request, schemaOrOptions?: unknown, options?: RequestOptions): Promise<T> {
    return this.#request<T>(request, schemaOrOptions, options);
  }

  /** `request`; `validateTool` (a `tools/call`'s tool) has the engine check the result against the tool's `outputSchema` before answering. */
  async #request<T>(request: Request, schemaOrOptions: unknown, options: RequestOptions | undefined, validateTool?: string): Promise<T> {
    const native = this.#native;
    if (native === undefined) throw new McpError(ErrorCode.ConnectionClosed, 'Not connected');
    const opts = optionsOf(schemaOrOptions, options) ?? {};
    opts.signal?.throwIfAborted?.();
    const config: RequestConfig = {
      timeoutMs: opts.timeout,
      resetTimeoutOnProgress: opts.resetTimeoutOnProgress,
      maxTotalTimeoutMs: opts.maxTotalTimeout,
      cacheMode: opts.cacheMode,
      validateTool,
      allowInputRequired: opts.allowInputRequired === true,
    };
    const onprogress = opts.onprogress;
    const progress = onprogress && ((json: string) => onprogress(JSON.parse(json) as Progress));
    let cancel: InstanceType<typeof NativeCancel> | undefined;
    let unlisten = () => {};
    if (opts.signal !== undefined) {
      const token = new NativeCancel();
      const abort = () => token.cancel();
      opts.signal.addEventListener('abort', abort, { once: true });
      unlisten = () => opts.signal?.removeEventListener('abort', abort);
      cancel = token;
    }
    let result: unknown;
    try {
      result = JSON.parse(await native.request(request.method, JSON.stringify(request.params ?? {}), config, progress, cancel));
    } catch (error) {
      // The connection ended under this call: `onclose` fires now, not only when the
      // core's (weak) close callback gets to run.
      if (native.isClosed) this.#lost();
      throw this.#failed(error);
    } finally {
      unlisten();
    }
    // An `input_required` result the caller asked for is handed back as it is, unvalidated,
    // as the official v2 client does.
    if (config.allowInputRequired && isInputRequiredResult(result)) return result as T;
    // v1's `request(request, resultSchema)`: the result is validated (and parsed) by the
    // schema, and a mismatch rejects with the schema's error, as there.
    const schema = schemaOrOptions as { safeParse?: (value: unknown) => { success: boolean; data?: unknown; error?: unknown } } | undefined;
    if (options !== undefined || typeof schema?.safeParse === 'function') {
      const parsed = schema?.safeParse?.(result);
      if (parsed !== undefined) {
        if (!parsed.success) throw parsed.error instanceof Error ? parsed.error : new Error(String(parsed.error));
        return parsed.data as T;
      }
    }
    // v2's `request(request, resultSchema)` with any Standard Schema (valibot, arktype,
    // `withInputRequired(...)`): a mismatch is v2's `SdkError` `INVALID_RESULT`.
    const standard = (schemaOrOptions as Partial<StandardResultSchema> | undefined)?.['~standard'];
    if (typeof standard?.validate === 'function') {
      const outcome = await standard.validate(result);
      if (outcome.issues !== undefined && outcome.issues.length > 0) {
        throw new SdkError(SdkErrorCode.InvalidResult, `Invalid result for ${request.method}: ${formatIssues(outcome.issues)}`);
      }
      return (outcome as { value: unknown }).value as T;
    }
    return result as T;
  }

  ping(options?: RequestOptions): Promise<Record<string, never>> {
    return this.request({ method: 'ping' }, options);
  }

  listTools(params?: Record<string, unknown>, options?: RequestOptions): Promise<ListToolsResult> {
    return this.request({ method: 'tools/list', params }, cacheable(options));
  }

  /**
   * Calls a tool. A result that is not an error must carry `structuredContent` matching
   * the tool's `outputSchema` (learnt from `tools/list`, listed first when unknown), as in
   * the official client: otherwise it rejects with an `McpError` (`InvalidRequest` when
   * missing, `InvalidParams` when it does not match).
   */
  async callTool(params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> }, schemaOrOptions?: unknown, options?: RequestOptions): Promise<CallToolResult> {
    return this.#request<CallToolResult>({ method: 'tools/call', params }, optionsOf(schemaOrOptions, options), undefined, params.name);
  }

  listResources(params?: Record<string, unknown>, options?: RequestOptions): Promise<ListResourcesResult> {
    return this.request({ method: 'resources/list', params }, cacheable(options));
  }

  listResourceTemplates(params?: Record<string, unknown>, options?: RequestOptions): Promise<ListResourceTemplatesResult> {
    return this.request({ method: 'resources/templates/list', params }, cacheable(options));
  }

  readResource(params: { uri: string }, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.request({ method: 'resources/read', params }, cacheable(options));
  }

  subscribeResource(params: { uri: string }, options?: RequestOptions): Promise<Record<string, never>> {
    return this.request({ method: 'resources/subscribe', params }, options);
  }

  unsubscribeResource(params: { uri: string }, options?: RequestOptions): Promise<Record<string, never>> {
    return this.request({ method: 'resources/unsubscribe', params }, options);
  }

  listPrompts(params?: Record<string, unknown>, options?: RequestOptions): Promise<ListPromptsResult> {
    return this.request({ method: 'prompts/list', params }, cacheable(options));
  }

  getPrompt(params: { name: string; arguments?: Record<string, string> }, options?: RequestOptions): Promise<GetPromptResult> {
    return this.request({ method: 'prompts/get', params }, options);
  }

  complete(params: { ref: Record<string, unknown>; argument: { name: string; value: string }; context?: Record<string, unknown> }, options?: RequestOptions): Promise<CompleteResult> {
    return this.request({ method: 'completion/complete', params }, options);
  }

  setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<Record<string, never>> {
    return this.request({ method: 'logging/setLevel', params: { level } }, options);
  }

  /**
   * Closes the connection: a server process is stopped (stdin closed, SIGTERM, SIGKILL),
   * an HTTP session ended (DELETE).
   */
  async close(): Promise<void> {
    const native = this.#native;
    this.#native = undefined;
    if (native === undefined) return;
    await native.close();
    await this.#transport?.ferrymcpClosing?.();
    this.#closed();
  }
}

/** `inputRequired`: `{ autoFulfill?: boolean, maxRounds?: positive integer }`. */
function checkInputRequired(value: unknown): void {
  if (value === undefined) return;
  const where = 'ferrymcp Client';
  if (typeof value !== 'object' || value === null) invalidOption(where, 'inputRequired must be an object ({ autoFulfill, maxRounds })');
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (key === 'autoFulfill') {
      if (typeof v !== 'boolean') invalidOption(where, 'inputRequired.autoFulfill must be a boolean');
    } else if (key === 'maxRounds') {
      if (!(Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 2 ** 32 - 1)) invalidOption(where, 'inputRequired.maxRounds must be a non-negative integer');
    } else {
      invalidOption(where, `inputRequired.${key} is not an option (autoFulfill, maxRounds)`);
    }
  }
}

/** A native subscription as the official `McpSubscription`. */
function subscriptionOf(subscription: Awaited<ReturnType<NativeClientHandle['listen']>>): McpSubscription {
  return {
    honoredFilter: JSON.parse(subscription.honoredJson) as SubscriptionFilter,
    close: async () => {
      await subscription.close();
    },
    closed: subscription.closed() as Promise<'local' | 'graceful' | 'remote'>,
  };
}

/** The official client's checks of `listChanged` (before connecting). */
function checkListChanged(config: ListChangedHandlers | undefined): void {
  if (config === undefined) return;
  for (const list of ['tools', 'prompts', 'resources'] as const) {
    const options = config[list] as ListChangedOptions<unknown> | undefined;
    if (options === undefined) continue;
    if (options.autoRefresh !== undefined && typeof options.autoRefresh !== 'boolean') {
      throw new Error(`Invalid ${list} listChanged options: autoRefresh must be a boolean`);
    }
    const ms = options.debounceMs;
    if (ms !== undefined && !(Number.isInteger(ms) && ms >= 0)) {
      throw new Error(`Invalid ${list} listChanged options: debounceMs must be a non-negative integer`);
    }
    if (typeof options.onChanged !== 'function') {
      throw new TypeError(`Invalid ${list} listChanged options: onChanged must be a function`);
    }
  }
}

/** `listChanged` without its functions, for the engine. */
function listChangedJson(config: ListChangedHandlers | undefined): string | undefined {
  if (config === undefined) return undefined;
  const lists: Record<string, { autoRefresh?: boolean; debounceMs?: number }> = {};
  for (const list of ['tools', 'prompts', 'resources'] as const) {
    const options = config[list];
    if (options !== undefined) lists[list] = { autoRefresh: options.autoRefresh, debounceMs: options.debounceMs };
  }
  return JSON.stringify(lists);
}

/** The era `options` ask for: ferrymcp's `era`, or the official `versionNegotiation`. */
function eraOf(options: ClientOptions): ClientOptions['era'] {
  const where = 'ferrymcp Client';
  const negotiation = options.versionNegotiation;
  if (options.era !== undefined && options.era !== 'auto' && options.era !== 'legacy' && options.era !== 'modern') {
    invalidOption(where, `era must be 'auto', 'legacy' or 'modern', not ${JSON.stringify(options.era)}`);
  }
  // Neither given: core's default for the official TypeScript client (ClientOptions::typescript:
  // the plain initialize handshake, as the official v2 client), not decided here.
  if (negotiation === undefined) return options.era;
  if (typeof negotiation !== 'object' || negotiation === null) invalidOption(where, 'versionNegotiation must be an object ({ mode, probe })');
  for (const key of Object.keys(negotiation)) {
    if (key !== 'mode' && key !== 'probe') invalidOption(where, `versionNegotiation.${key} is not an option (mode, probe)`);
  }
  checkProbe(negotiation.probe);
  // `mode` absent: core's default, as with no versionNegotiation at all.
  const mode = negotiation.mode;
  let era: ClientOptions['era'];
  if (mode === undefined) era = options.era;
  else if (mode === 'legacy' || mode === 'auto') era = mode;
  else if (typeof mode === 'object' && mode !== null && typeof mode.pin === 'string') era = pinnedEra(mode.pin);
  else invalidOption(where, `versionNegotiation.mode must be 'legacy', 'auto' or { pin: '<revision>' }, not ${JSON.stringify(mode)}`);
  if (options.era !== undefined && options.era !== era) invalidOption(where, `era '${options.era}' contradicts versionNegotiation (${era})`);
  return era;
}

/**
 * `{ pin }`: the stateless revision core speaks works; a 2025-era revision is refused as
 * the official SDK refuses it (pinning is for 2026-07-28 and later); a revision core does
 * not know is refused by name.
 */
function pinnedEra(pin: string): 'modern' {
  if (pin === MODERN_PROTOCOL_VERSION) return 'modern';
  if (SUPPORTED_PROTOCOL_VERSIONS.includes(pin)) {
    invalidOption('ferrymcp Client', `versionNegotiation: { pin: '${pin}' } is not a modern protocol revision: pinning is for ${MODERN_PROTOCOL_VERSION} and later; use mode: 'legacy' for 2025-era servers`);
  }
  refuseOption('ferrymcp Client', `versionNegotiation: { pin: '${pin}' }`, `the engine speaks the stateless revision ${MODERN_PROTOCOL_VERSION} only`);
}

/**
 * The official `probe` policy: `timeoutMs` is how long the engine's `server/discover` probe
 * waits (core's `probe_timeout`; absent, core's default for this client: the request
 * timeout, as the official one); `maxRetries` other than its default 0 is refused by name
 * (the engine never re-sends a timed-out probe, and retries only on the -32022 correction).
 */
function checkProbe(probe: unknown): void {
  if (probe === undefined) return;
  if (typeof probe !== 'object' || probe === null) invalidOption('ferrymcp Client', 'versionNegotiation.probe must be an object ({ timeoutMs, maxRetries })');
  for (const [key, value] of Object.entries(probe)) {
    if (value === undefined) continue;
    if (key === 'maxRetries' && value === 0) continue;
    if (key === 'timeoutMs') {
      if (!(Number.isInteger(value) && (value as number) > 0 && (value as number) <= 2 ** 32 - 1)) {
        invalidOption('ferrymcp Client', `versionNegotiation.probe.timeoutMs must be a positive integer (ms), got ${String(value)}`);
      }
      continue;
    }
    if (key === 'maxRetries') {
      refuseOption('ferrymcp Client', 'versionNegotiation.probe.maxRetries', 'the engine never re-sends a timed-out probe (give probe.timeoutMs the whole wait)');
    }
    invalidOption('ferrymcp Client', `versionNegotiation.probe.${key} is not an option (timeoutMs, maxRetries)`);
  }
}

/**
 * A `Transport` object for `Client.connect()`: its messages are carried to and from the
 * engine through a native port (see `transport.ts`); `start()` runs once the port is wired.
 */
class CarriedTransport implements ClientTransport {
  readonly #transport: Transport;
  #release?: () => void;
  #closing?: () => Promise<void>;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  async ferrymcpOpen(config: ClientConfig, hooks: ClientHooks): Promise<NativeClientHandle> {
    const { port, release, closing } = carry(this.#transport);
    this.#release = release;
    this.#closing = closing;
    const connecting = connectPort(port, config, hooks.onRequest, hooks.onNotification, hooks.onClose, hooks.onListChanged);
    connecting.catch(release);
    await this.#transport.start();
    const native = await connecting;
    const { protocolVersion } = JSON.parse(native.serverJson) as { protocolVersion?: string };
    if (protocolVersion !== undefined) this.#transport.setProtocolVersion?.(protocolVersion);
    return native;
  }

  ferrymcpClosed(): void {
    this.#release?.();
  }

  async ferrymcpClosing(): Promise<void> {
    await this.#closing?.();
  }
}
