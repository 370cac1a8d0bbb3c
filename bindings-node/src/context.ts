/**
 * What a handler receives as its last argument: the official SDK's `extra` (v1:
 * `signal`, `requestId`, `_meta`, `sendNotification`, `sendRequest`) and `ctx` (v2:
 * `ctx.mcpReq.{id, method, _meta, signal, log, elicitInput, requestSampling, send,
 * notify}`) in one object, backed by the addon's per-request `NativeContext`.
 *
 * Everything is lazy: a handler that never looks at `signal` costs no cancellation
 * watcher. Client input (`elicitInput`, `createMessage`, `listRoots`, `send`) goes through
 * core, which makes it a server-to-client request on a legacy session or a 2026-07-28
 * `input_required` round; after asking, `idle()` is called once the current macrotask is
 * over, so inputs asked together travel in one round (see the addon's context.rs).
 *
 * The context of the running handler is also kept in an AsyncLocalStorage, so the v1
 * habit of calling `server.server.elicitInput(...)` or `server.sendLoggingMessage(...)`
 * inside a tool reaches the request that tool serves.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

import { ErrorCode, McpError, REQUEST_CANCELLED, fromNative } from './errors.js';
import type { AuthInfo } from './http-options.js';
import type { NativeContext } from './native.js';
import type { RequestTaskStore } from './experimental/tasks/interfaces.js';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
  LoggingLevel,
  Notification,
  Request,
  RequestId,
  RequestMeta,
} from './types.js';

export const currentContext = new AsyncLocalStorage<HandlerContext>();

/** Options of one input request; `inputKey` names it in a 2026-07-28 round (ferrymcp). */
export interface InputOptions {
  inputKey?: string;
}

/** The v2 `ctx.mcpReq`. */
export interface McpRequestContext {
  readonly id: RequestId;
  readonly method: string;
  readonly _meta?: RequestMeta;
  readonly signal: AbortSignal;
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** A 2026-07-28 retry's `inputResponses` (this round's), for a handler that returned `inputRequired(...)` itself. */
  readonly inputResponses?: Record<string, unknown>;
  /** The `requestState` of the handler's own `inputRequired(...)` result, on the retry (decoded by the server's `requestState.verify` hook when it has one). */
  requestState<T = unknown>(): T | undefined;
  elicitInput(params: ElicitRequestParams, options?: InputOptions): Promise<ElicitResult>;
  requestSampling(params: CreateMessageRequestParams, options?: InputOptions): Promise<CreateMessageResult>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the official SDK's signature: the caller picks the type
  send(request: Request, ...rest: unknown[]): Promise<any>;
  notify(notification: Notification): Promise<void>;
}

export class HandlerContext {
  readonly #native: NativeContext;
  readonly #method: string;
  #signal?: AbortSignal;
  #idleScheduled = false;
  #mcpReq?: McpRequestContext;
  #requestState: { value: unknown } | undefined;

  constructor(native: NativeContext, method: string) {
    this.#native = native;
    this.#method = method;
  }

  /** The request's id. */
  get requestId(): RequestId {
    return JSON.parse(this.#native.requestIdJson) as RequestId;
  }

  /** The request's `_meta` as the client sent it. */
  get _meta(): RequestMeta | undefined {
    const meta = this.#native.metaJson;
    return meta === null ? undefined : (JSON.parse(meta) as RequestMeta);
  }

  /** Aborts when the client cancels the request. */
  get signal(): AbortSignal {
    if (this.#signal === undefined) {
      const controller = new AbortController();
      this.#signal = controller.signal;
      this.#native.waitCancelled().then(
        (cancelled) => cancelled && controller.abort(new McpError(REQUEST_CANCELLED, 'Request cancelled by the client')),
        () => undefined,
      );
    }
    return this.#signal;
  }

  /** The transport's session id: Streamable HTTP's `Mcp-Session-Id` (none on stdio, stateless HTTP or a 2026-07-28 request). */
  get sessionId(): string | undefined {
    return this.#native.sessionId ?? undefined;
  }

  /** v1's `extra.taskRequestedTtl`: the `ttl` of a task-augmented call of a `registerToolTask` tool. */
  get taskRequestedTtl(): number | undefined {
    return this.#native.taskRequestedTtl ?? undefined;
  }

  /** v1's `extra.taskStore`: core's 2025-11-25 task store for this request (see `RequestTaskStore`). */
  get taskStore(): RequestTaskStore {
    const call = async <T>(op: string, ...args: unknown[]): Promise<T> => {
      try {
        return JSON.parse(await this.#native.taskStore(op, JSON.stringify(args))) as T;
      } catch (error) {
        throw fromNative(error);
      }
    };
    return {
      createTask: (taskParams) => call('createTask', { ttl: taskParams?.ttl ?? undefined, pollInterval: taskParams?.pollInterval }),
      getTask: (taskId) => call('getTask', taskId),
      storeTaskResult: (taskId, status, result) => call('storeTaskResult', taskId, status, result),
      getTaskResult: (taskId) => call('getTaskResult', taskId),
      updateTaskStatus: (taskId, status, statusMessage) => call('updateTaskStatus', taskId, status, statusMessage),
      listTasks: (cursor) => call('listTasks', cursor),
    };
  }

  get protocolVersion(): string {
    return this.#native.protocolVersion;
  }

  /** The id of the task this call runs as (tasks extension), if it runs as one. */
  get taskId(): string | undefined {
    return this.#native.taskId ?? undefined;
  }

  /** Turns this call into a task (a tool registered with `taskStart: 'onRequest'`): the
   * client gets the task handle and the tool goes on in it, its input from here on going
   * through the task. Returns whether the call runs as a task now. */
  startTask(): boolean {
    return this.#native.startTask();
  }

  /** Whether the request came statelessly (MCP 2026-07-28). */
  get isModern(): boolean {
    return this.#native.isModern;
  }

  get clientInfo(): Implementation {
    return JSON.parse(this.#native.clientInfoJson) as Implementation;
  }

  /** The verified bearer token of this request (HTTP with `auth` only), as the official
   * SDK's `extra.authInfo`; core checked its scopes and expiry before the handler ran. */
  get authInfo(): AuthInfo | undefined {
    const json = this.#native.authInfoJson;
    if (json === null || json === undefined) return undefined;
    const { resource, ...rest } = JSON.parse(json) as Omit<AuthInfo, 'resource'> & { resource?: string };
    return resource === undefined ? rest : { ...rest, resource: new URL(resource) };
  }

  /** A 2026-07-28 retry's `inputResponses` (this round's only, as the client sent them). */
  get inputResponses(): Record<string, unknown> | undefined {
    const json = this.#native.inputResponsesJson;
    return json === null || json === undefined ? undefined : (JSON.parse(json) as Record<string, unknown>);
  }

  /** The `requestState` the handler's own `inputRequired(...)` result carried, as echoed back (core checked it is intact). */
  get rawRequestState(): string | undefined {
    return this.#native.requestState ?? undefined;
  }

  /** @internal What `ctx.mcpReq.requestState()` returns: the server's `requestState.verify` hook's answer. */
  setRequestState(value: unknown): void {
    this.#requestState = { value };
  }

  /** The request state as the handler reads it (decoded by the verify hook when the server has one, else the string). */
  requestState<T = unknown>(): T | undefined {
    return (this.#requestState === undefined ? this.rawRequestState : this.#requestState.value) as T | undefined;
  }

  get clientCapabilities(): ClientCapabilities {
    return JSON.parse(this.#native.clientCapabilitiesJson) as ClientCapabilities;
  }

  /** Reports progress under the client's token (skipped when it sent none). */
  async reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    await this.#native.reportProgress(progress, total, message);
  }

  /** Sends `notifications/message`, if the client's logging level lets it through. */
  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    await this.#native.log(level, JSON.stringify(data ?? null), logger);
  }

  /** Any client input by method: a request (legacy) or an MRTR input (2026-07-28). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the official SDK's signature: the caller picks the type
  async input(method: string, params: unknown, key?: string): Promise<any> {
    const pending = this.#native.input(method, JSON.stringify(params ?? {}), key);
    this.#scheduleIdle();
    try {
      return JSON.parse(await pending);
    } catch (error) {
      throw passThrough(fromNative(error));
    }
  }

  elicitInput(params: ElicitRequestParams, options?: InputOptions): Promise<ElicitResult> {
    return this.input('elicitation/create', params, options?.inputKey);
  }

  createMessage(params: CreateMessageRequestParams, options?: InputOptions): Promise<CreateMessageResult> {
    return this.input('sampling/createMessage', params, options?.inputKey);
  }

  listRoots(params?: unknown, options?: InputOptions): Promise<ListRootsResult> {
    return this.input('roots/list', params ?? {}, options?.inputKey);
  }

  /** v1 `extra.sendRequest`: any request to the client (schema and options ignored). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the official SDK's signature: the caller picks the type
  sendRequest(request: Request, ..._rest: unknown[]): Promise<any> {
    return this.input(request.method, request.params ?? {});
  }

  /**
   * v1 `extra.sendNotification` and v2 `ctx.mcpReq.notify`: a notification about this
   * request, sent on the way it answers. Progress goes through core's rule (the client's
   * token); anything else, `notifications/message` included, is sent as given, as the
   * official SDKs do: only `mcpReq.log` applies the client's level (on a 2026-07-28
   * request, its `_meta` logLevel), a notification written out is the handler's choice.
   */
  async sendNotification(notification: Notification): Promise<void> {
    const params = (notification.params ?? {}) as { progress: number; total?: number; message?: string };
    if (notification.method === 'notifications/progress') return this.reportProgress(params.progress, params.total, params.message);
    await this.#native.notify(notification.method, JSON.stringify(notification.params ?? {}));
  }

  /** Reads one of this server's own resources. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the official SDK's signature: the caller picks the type
  async readResource(uri: string): Promise<any> {
    try {
      return JSON.parse(await this.#native.readResource(uri));
    } catch (error) {
      throw fromNative(error);
    }
  }

  get mcpReq(): McpRequestContext {
    if (this.#mcpReq === undefined) {
      // The getters below read this context when called; their own `this` is the literal.
      // eslint-disable-next-line @typescript-eslint/no-this-alias
      const self = this;
      this.#mcpReq = {
        get id() {
          return self.requestId;
        },
        method: this.#method,
        get _meta() {
          return self._meta;
        },
        get signal() {
          return self.signal;
        },
        log: (level, data, logger) => self.log(level, data, logger),
        get inputResponses() {
          return self.inputResponses;
        },
        requestState: <T>() => self.requestState<T>(),
        elicitInput: (params, options) => self.elicitInput(params, options),
        requestSampling: (params, options) => self.createMessage(params, options),
        send: (request) => self.sendRequest(request),
        notify: (notification) => self.sendNotification(notification),
      };
    }
    return this.#mcpReq;
  }

  /**
   * The official v2 shape's HTTP details: `closeSSE()` closes this request's SSE stream on
   * a legacy HTTP session (the client resumes it with `Last-Event-ID`, SEP-1699); over
   * stdio and on 2026-07-28 requests it does nothing. `authInfo` is the request's token.
   */
  get http(): { authInfo?: AuthInfo; closeSSE: () => void } {
    return { authInfo: this.authInfo, closeSSE: () => this.closeSSEStream() };
  }

  /** v1 `extra.closeSSEStream()`: as `ctx.http.closeSSE()`. */
  closeSSEStream(): void {
    this.#native.closeSseStream();
  }

  #scheduleIdle(): void {
    if (this.#idleScheduled) return;
    this.#idleScheduled = true;
    setImmediate(() => {
      this.#idleScheduled = false;
      this.#native.idle();
    });
  }
}

const PASS_THROUGH = Symbol.for('ferrymcp.passThrough');

/** Marks an error of the client-input machinery that must reach the client as a JSON-RPC error. */
function passThrough(error: McpError): McpError {
  if (error.code !== ErrorCode.InternalError) Object.defineProperty(error, PASS_THROUGH, { value: true });
  return error;
}

/** Whether a thrown error is a protocol error that a tool must not turn into `isError`. */
export function isProtocolFailure(error: unknown): error is McpError {
  return (
    error instanceof McpError &&
    (error.code === ErrorCode.UrlElicitationRequired || (error as unknown as Record<symbol, unknown>)[PASS_THROUGH] === true)
  );
}

/** The v1 name of the handler's last argument. */
export type RequestHandlerExtra = HandlerContext;
/** The v2 name of the handler's last argument. */
export type ServerContext = HandlerContext;

/**
 * What a v2 server factory (`createMcpHandler(factory)`, `serveStdio(factory)`) receives.
 * The official SDK builds one instance per request (HTTP) or connection (stdio) and tells the
 * factory that unit's `era`, `authInfo` and `requestInfo`; ferrymcp builds one instance that
 * serves every unit, so these read the request being handled when a handler reads them (a
 * tool's closure over `ctx.era` answers per request, as there). Read while the factory runs,
 * outside any request, `era` throws saying so rather than guess, except on an endpoint
 * that serves one era only (`legacy: 'reject'`: `'modern'`).
 */
export interface McpServerFactoryContext {
  readonly era: 'legacy' | 'modern';
  readonly authInfo?: AuthInfo;
  readonly requestInfo?: undefined;
}

/**
 * `only`: the one era the endpoint serves (`'modern'` for `legacy: 'reject'`), which the
 * factory may then read while it runs, as the official example `legacy-routing` does
 * (`(ctx) => buildServer(ctx.era)` behind `legacy: 'reject'`).
 */
export function factoryContext(only?: 'legacy' | 'modern'): McpServerFactoryContext {
  return {
    get era(): 'legacy' | 'modern' {
      const ctx = currentContext.getStore();
      if (ctx === undefined && only !== undefined) return only;
      if (ctx === undefined)
        throw new Error('ctx.era is known only while a request is handled: ferrymcp serves both eras from the one server the factory builds (read it inside a handler)');
      return ctx.isModern ? 'modern' : 'legacy';
    },
    get authInfo(): AuthInfo | undefined {
      return currentContext.getStore()?.authInfo;
    },
    requestInfo: undefined,
  };
}
