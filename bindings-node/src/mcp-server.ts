/**
 * `McpServer`: the official SDK's high-level server, in both of its shapes (v2
 * `registerTool` / `registerResource` / `registerPrompt`, v1 `tool` / `resource` /
 * `prompt` and `connect(transport)`), on core's server.
 *
 * Registration turns the user's config into the MCP definition (zod schemas through
 * `z.toJSONSchema`) and hands core the definition and one dispatcher per handler; core
 * validates the definition, throwing at once with the name and the problem, and serves
 * both protocol eras. What the user gets back (`RegisteredTool` and friends) can be
 * enabled, disabled, updated and removed, which re-registers in core and tells connected
 * clients that the list changed, as the official SDK does.
 */
import { currentContext } from './context.js';
import type { HandlerContext } from './context.js';
import { methodOf, nativeHandler } from './dispatch.js';
import type { HandlerHooks, MethodOrSchema } from './dispatch.js';
import { ErrorCode, McpError, fromNative, invalidOption, refuseOption } from './errors.js';
import { validateAndWarnToolName } from './shared/toolNameValidation.js';
import { SdkError, SdkErrorCode } from './auth-helpers.js';
import { ExperimentalMcpServerTasks } from './experimental/tasks/mcp-server.js';
import { ExperimentalServerTasks } from './experimental/tasks/server.js';
import { InMemoryTaskMessageQueue } from './experimental/tasks/stores/in-memory.js';
import { ListeningTransport } from './http.js';
import { carry, isMessageTransport } from './transport.js';
import type { Transport } from './transport.js';
import type { HttpListener, ListenOptions } from './http.js';
import { NativeServer } from './native.js';
import { attachTaskStore, checkTaskStore } from './task-store.js';
import type { AttachedTaskStore } from './task-store.js';
import type { TaskStore } from './experimental/tasks/interfaces.js';
import { warnIfStdinRead } from './stdio.js';
import { SET_MAX_LISTEN_STREAMS, SET_REJECT_LEGACY } from './server-internals.js';
import { completerOf, parseParams, prepare, promptArguments } from './schema.js';
import type { AnySchema, Flavour, Prepared } from './schema.js';
import { ResourceTemplate } from './template.js';
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  GetPromptResult,
  Implementation,
  ListRootsResult,
  LoggingLevel,
  ReadResourceResult,
  ServerCapabilities,
  ToolAnnotations,
} from './types.js';

export interface McpServerOptions {
  capabilities?: ServerCapabilities;
  instructions?: string;
  /** Items per page of list results (ferrymcp; all in one page by default). */
  pageSize?: number;
  /** How long one handler may run before its request fails (ferrymcp; 600 s by default). */
  handlerTimeoutMs?: number;
  /** How long the server's own requests to the client wait (ferrymcp; 60 s by default). */
  requestTimeoutMs?: number;
  /** 2026-07-28 cache hints per cacheable method (`tools/list`, `resources/read`, ...). */
  cacheHints?: Partial<Record<CacheableMethod, CacheHint>>;
  /**
   * The keys that seal the state of 2026-07-28 multi-round requests (ferrymcp): the first
   * seals, every one opens, so replicas behind a load balancer given the same keys take
   * each other's retries, and a rotation runs `[old, new]`, `[new, old]`, then `[new]`.
   * Strings are UTF-8. Absent: the `FERRYMCP_STATE_KEY` environment variable, else a
   * random key per process.
   */
  requestStateKeys?: (string | Uint8Array)[];
  /** How long sealed request state stays valid (ferrymcp; core's default when absent). */
  requestStateTtlMs?: number;
  /**
   * The official hook that checks (and decodes) the `requestState` a handler put in its own
   * `inputRequired(...)` result, before the handler runs on the retry; a rejection answers
   * `-32602 Invalid or expired requestState`. Core seals that state inside its own, so it is
   * intact and bound to the method, target and principal before the hook sees it.
   */
  requestState?: { verify?: (state: string, ctx: HandlerContext) => unknown };
  /**
   * The official 1.x `taskStore`: where the 2025-11-25 revision's tasks are kept (any
   * object with `createTask`, `getTask`, `storeTaskResult`, `getTaskResult`,
   * `updateTaskStatus`, `listTasks`; an `InMemoryTaskStore` is core's own). Core creates a
   * task there for each task-augmented call of a tool with `execution.taskSupport`, runs the
   * tool, stores its result, and answers `tasks/get`, `tasks/result`, `tasks/list` and
   * `tasks/cancel` from it. Without it core keeps them in memory.
   */
  taskStore?: TaskStore;
  /**
   * How a handler's own `inputRequired(...)` result is served to a 2025-era request: by
   * default (`legacyShim: true`) each embedded request goes to the client as a real request
   * over the session and the handler runs again with the answers (`ctx.mcpReq.inputResponses`,
   * that round's only) and its `requestState`, for at most `maxRounds` runs (8), each request
   * waiting `roundTimeoutMs` (600 000, restarted by the client's progress); `legacyShim: false`
   * fails the request with `-32603` instead.
   */
  inputRequired?: { maxRounds?: number; roundTimeoutMs?: number; legacyShim?: boolean };
  /**
   * The 2025-era revisions `initialize` accepts, in preference order (the first answers a
   * revision not listed); 2026-07-28 entries are left to `server/discover`. A revision
   * core does not know (a draft's date) is served as the newest one it knows that is not
   * later. Default: every revision core speaks.
   */
  supportedProtocolVersions?: string[];
  [option: string]: unknown;
}

const SERVER_TAKEN_OPTIONS = new Set(['capabilities', 'instructions', 'pageSize', 'handlerTimeoutMs', 'requestTimeoutMs', 'cacheHints', 'requestStateKeys', 'requestStateTtlMs']);

const TASK_QUEUE =
  "core delivers a task's requests itself (on the stream of a tasks/result waiting on the task, else on the session's channel), as the official InMemoryTaskMessageQueue does: an InMemoryTaskMessageQueue is taken, no other queue";

/**
 * The official server options ferrymcp has no counterpart for, with why: each is refused by
 * name (`ERR_FERRYMCP_UNSUPPORTED`) unless `isDefault` says the value changes nothing.
 */
const SERVER_REFUSED_OPTIONS: Record<string, { isDefault?: (value: unknown) => boolean; why: string }> = {
  enforceStrictCapabilities: { isDefault: (value) => value === false, why: 'strict capability checks on emitted requests are not supported by ferrymcp' },
  debouncedNotificationMethods: { isDefault: (value) => Array.isArray(value) && value.length === 0, why: 'notification debouncing is not supported by ferrymcp' },
  jsonSchemaValidator: { why: 'core validates elicitation answers (and tool arguments) in Rust and takes no validator' },
  taskMessageQueue: { isDefault: (value) => value instanceof InMemoryTaskMessageQueue, why: TASK_QUEUE },
  defaultTaskPollInterval: { why: "the task store sets each task's pollInterval (InMemoryTaskStore: 1000 ms, as the official one)" },
  maxTaskQueueSize: { why: TASK_QUEUE },
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Throws naming the first server option that cannot be honoured (nothing is accepted silently). */
function checkServerOptions(options: McpServerOptions): void {
  if (!isObject(options)) invalidOption('McpServer', 'options must be an object');
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || SERVER_TAKEN_OPTIONS.has(key)) continue;
    if (key === 'requestState') {
      if (!isObject(value)) invalidOption('McpServer', 'requestState must be an object ({ verify })');
      for (const [hook, fn] of Object.entries(value)) {
        if (hook !== 'verify') invalidOption('McpServer', `unknown option requestState.${hook}`);
        if (fn !== undefined && typeof fn !== 'function') invalidOption('McpServer', 'requestState.verify must be a function');
      }
      continue;
    }
    if (key === 'inputRequired') {
      checkInputRequired(value);
      continue;
    }
    if (key === 'taskStore') {
      checkTaskStore(value);
      continue;
    }
    if (key === 'supportedProtocolVersions') {
      // Core checks the revisions themselves (and names the one it cannot serve).
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
        invalidOption('McpServer', 'supportedProtocolVersions must be an array of revision strings');
      }
      continue;
    }
    const refused = SERVER_REFUSED_OPTIONS[key];
    if (refused === undefined) invalidOption('McpServer', `unknown option ${key}`);
    if (refused.isDefault?.(value) !== true) refuseOption('McpServer', key, refused.why);
  }
}

/** `inputRequired`: `{ legacyShim?: boolean, maxRounds?: positive integer, roundTimeoutMs?: positive number }` (RangeErrors as the official). */
function checkInputRequired(value: unknown): void {
  if (!isObject(value)) invalidOption('McpServer', 'inputRequired must be an object ({ legacyShim, maxRounds, roundTimeoutMs })');
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (key === 'legacyShim') {
      if (typeof v !== 'boolean') invalidOption('McpServer', 'inputRequired.legacyShim must be a boolean');
    } else if (key === 'maxRounds') {
      if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > 2 ** 32 - 1) throw new RangeError(`inputRequired.maxRounds must be a positive integer (got ${String(v)})`);
    } else if (key === 'roundTimeoutMs') {
      if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new RangeError(`inputRequired.roundTimeoutMs must be a positive number (got ${String(v)})`);
    } else {
      invalidOption('McpServer', `unknown option inputRequired.${key} (legacyShim, maxRounds, roundTimeoutMs)`);
    }
  }
}

/** `requestStateKeys` as bytes (core checks that there is one and none is empty). */
function stateKeys(keys: unknown): Buffer[] | undefined {
  if (keys === undefined) return undefined;
  if (!Array.isArray(keys) || keys.some((key) => typeof key !== 'string' && !(key instanceof Uint8Array))) {
    throw new TypeError('requestStateKeys must be an array of strings or Uint8Arrays');
  }
  return keys.map((key) => (typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.from(key)));
}

/** The methods whose 2026-07-28 results carry `ttlMs` and `cacheScope`. */
export type CacheableMethod =
  | 'server/discover'
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read';

/** A freshness hint: `ttlMs` (0 by default) and `cacheScope` (`'private'` by default). */
export interface CacheHint {
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

export type ToolCallback = (...args: any[]) => CallToolResult | Promise<CallToolResult>;
export type ReadResourceCallback = (uri: URL, ctx: HandlerContext) => ReadResourceResult | Promise<ReadResourceResult>;
export type ReadResourceTemplateCallback = (
  uri: URL,
  variables: Record<string, string | string[]>,
  ctx: HandlerContext,
) => ReadResourceResult | Promise<ReadResourceResult>;
export type PromptCallback = (...args: any[]) => GetPromptResult | Promise<GetPromptResult>;

export interface ToolConfig {
  title?: string;
  description?: string;
  inputSchema?: AnySchema;
  outputSchema?: AnySchema;
  annotations?: ToolAnnotations;
  /** `execution.taskSupport`: the engine runs the tool as a task (tasks extension) for a
   * client that accepts tasks. */
  execution?: ToolExecution;
  /** Where a task-supporting tool's task starts: as the call arrives (the default), or when
   * the handler calls `ctx.startTask()` after gathering input by MRTR rounds; `'handler'`:
   * the handler makes its 2025-11-25 task itself (what `experimental.tasks.registerToolTask` sets). */
  taskStart?: 'atCall' | 'onRequest' | 'handler';
  icons?: unknown[];
  _meta?: Record<string, unknown>;
}

export interface ToolExecution {
  taskSupport?: 'forbidden' | 'optional' | 'required';
}

export interface PromptConfig {
  title?: string;
  description?: string;
  argsSchema?: AnySchema;
  icons?: unknown[];
  _meta?: Record<string, unknown>;
}

export type ResourceMetadata = Record<string, unknown> & {
  title?: string;
  description?: string;
  mimeType?: string;
  /** This resource's own hint for its 2026-07-28 `resources/read` results, over `cacheHints['resources/read']` field by field. */
  cacheHint?: CacheHint;
};

interface Registration {
  enabled: boolean;
  enable(): void;
  disable(): void;
  remove(): void;
}
export type RegisteredTool = Registration & ToolConfig & { handler: ToolCallback; update(updates: Partial<ToolConfig> & { name?: string; callback?: ToolCallback; enabled?: boolean }): void };
export type RegisteredResource = Registration & { name: string; metadata?: ResourceMetadata; readCallback: ReadResourceCallback; update(updates: { name?: string; metadata?: ResourceMetadata; callback?: ReadResourceCallback; enabled?: boolean }): void };
export type RegisteredResourceTemplate = Registration & { resourceTemplate: ResourceTemplate; metadata?: ResourceMetadata; readCallback: ReadResourceTemplateCallback; update(updates: { name?: string; metadata?: ResourceMetadata; callback?: ReadResourceTemplateCallback; enabled?: boolean }): void };
export type RegisteredPrompt = Registration & PromptConfig & { handler: PromptCallback; update(updates: Partial<PromptConfig> & { name?: string; callback?: PromptCallback; enabled?: boolean }): void };

/** What the official `Transport` is to `connect()`: ferrymcp's stdio, or one of its HTTP transports. */
export interface ServerTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly ferrymcpStdio?: true;
  /** @internal Serves `server` (an HTTP transport); resolves when serving ends. */
  ferrymcpServe?(server: InstanceType<typeof NativeServer>): Promise<void>;
  close?(): Promise<void>;
}

type ListKind = 'tools' | 'resources' | 'prompts';

const EMPTY_COMPLETION: CompleteResult = { completion: { values: [] } };

function definition(base: Record<string, unknown>): string {
  const clean: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(base)) if (value !== undefined) clean[key] = value;
  return JSON.stringify(clean);
}

function resourceMetadata(metadata: ResourceMetadata | undefined): ResourceMetadata {
  const { cacheHint: _cacheHint, scopeChallenge: _scopeChallenge, ...rest } = metadata ?? {};
  return rest;
}

/** A resource's own `cacheHint` for core (which checks it and puts it over `cacheHints['resources/read']`). */
function ownCacheHint(metadata: ResourceMetadata | undefined): string | undefined {
  const hint = metadata?.cacheHint;
  return hint === undefined ? undefined : JSON.stringify(hint);
}

export class McpServer {
  /** The low-level server of the official API (`server.server`). */
  readonly server: Server;
  /** Called when the connection ends. */
  onclose?: () => void;
  readonly #native: InstanceType<typeof NativeServer>;
  #taskStore: AttachedTaskStore | undefined;
  #experimental?: { tasks: ExperimentalMcpServerTasks };
  readonly #prompts = new Map<string, RegisteredPrompt>();
  readonly #promptArgs = new Map<string, Prepared | undefined>();
  readonly #templates = new Map<string, RegisteredResourceTemplate>();
  readonly #resources = new Map<string, RegisteredResource>();
  #completions = false;
  #connected = false;
  /** @internal Run around every handler (the `requestState.verify` hook). */
  readonly hooks: HandlerHooks = {};
  #http?: ServerTransport;
  /** A carried transport's `closing()`, while one is served (see `transport.ts`). */
  #carried?: () => Promise<void>;

  /**
   * The JSON Schema dialect of the definitions: draft 2020-12 as the v2 SDK lists it;
   * the v1 path's subclass (`ferrymcp/server/mcp.js`) says draft-07, as the v1 SDK.
   */
  protected static readonly schemaFlavour: Flavour = 'v2';

  #flavour(): Flavour {
    return (this.constructor as typeof McpServer).schemaFlavour;
  }

  constructor(serverInfo: Implementation, options: McpServerOptions = {}) {
    checkServerOptions(options);
    let native: InstanceType<typeof NativeServer> | undefined;
    this.#call(() => {
      native = McpServer.#engine(JSON.stringify(serverInfo), options.instructions, {
        pageSize: options.pageSize,
        handlerTimeoutMs: options.handlerTimeoutMs,
        requestTimeoutMs: options.requestTimeoutMs,
        cacheHintsJson: options.cacheHints === undefined ? undefined : JSON.stringify(options.cacheHints),
        stateKeys: stateKeys(options.requestStateKeys),
        stateTtlMs: options.requestStateTtlMs,
        legacyShim: options.inputRequired?.legacyShim,
        inputMaxRounds: options.inputRequired?.maxRounds,
        roundTimeoutMs: options.inputRequired?.roundTimeoutMs,
        supportedProtocolVersions: options.supportedProtocolVersions,
      });
    });
    this.#native = native!;
    this.hooks.verifyRequestState = options.requestState?.verify;
    this.hooks.onerror = (error) => this.server.onerror?.(error);
    this.server = new Server(this, this.#native);
    if (options.capabilities !== undefined) this.server.registerCapabilities(options.capabilities);
    if (options.taskStore !== undefined) this.#taskStore = attachTaskStore(this.#native, options.taskStore as TaskStore);
  }

  // -- tools -------------------------------------------------------------------------

  registerTool(name: string, config: ToolConfig, callback: ToolCallback): RegisteredTool {
    validateAndWarnToolName(name);
    const tool = { ...config, handler: callback, enabled: true } as RegisteredTool;
    let currentName = name;
    const add = () => {
      const input = prepare(tool.inputSchema, 'input', this.#flavour());
      const output = prepare(tool.outputSchema, 'output', this.#flavour());
      const v1 = this.#flavour() === 'v1';
      // The tool's error text for invalid arguments: the v1 SDK writes its McpError's
      // message (`MCP error -32602: ...`), the v2 SDK the bare message.
      const invalidArguments = (error: unknown) => (!v1 && error instanceof McpError ? new Error(error.rawMessage) : error);
      // No promise of its own: a schema that decides at once calls the tool at once (the
      // dispatch settles whatever comes back, value or promise).
      const run = (args: Record<string, unknown>, ctx: HandlerContext): unknown => {
        if (input === undefined) return tool.handler(ctx);
        let parsed: unknown;
        try {
          parsed = input.parseNow(args, `tool ${currentName}`);
        } catch (error) {
          throw invalidArguments(error);
        }
        if (parsed instanceof Promise) {
          return parsed.then(
            (value: unknown) => tool.handler(value, ctx),
            (error: unknown) => {
              throw invalidArguments(error);
            },
          );
        }
        return tool.handler(parsed, ctx);
      };
      const def = definition({
        name: currentName,
        title: tool.title,
        description: tool.description,
        inputSchema: input?.json ?? { type: 'object', properties: {} },
        outputSchema: output?.json,
        annotations: tool.annotations,
        // The v1 SDK lists every tool's task support, `forbidden` unless given.
        execution: tool.execution ?? (v1 ? { taskSupport: 'forbidden' } : undefined),
        icons: tool.icons,
        _meta: tool._meta,
      });
      this.#call(() => this.#native.addTool(def, nativeHandler('tools/call', 'tool', run, this.hooks), tool.taskStart, input?.checksArguments));
    };
    const drop = () => this.#native.removeTool(currentName);
    Object.assign(tool, this.#lifecycle('tools', tool, add, drop), {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the official SDK's signature
      update: (updates: Record<string, any>) => {
        if (tool.enabled) drop();
        if (typeof updates.name === 'string' && updates.name !== currentName) validateAndWarnToolName(updates.name);
        if (typeof updates.name === 'string') currentName = updates.name;
        if (updates.callback) tool.handler = updates.callback;
        if (updates.paramsSchema) tool.inputSchema = updates.paramsSchema;
        for (const key of ['title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'execution', 'icons', '_meta'] as const) {
          if (key in updates) Object.assign(tool, { [key]: updates[key] });
        }
        if (typeof updates.enabled === 'boolean') tool.enabled = updates.enabled;
        if (tool.enabled) add();
        this.#changed('tools');
      },
    });
    add();
    this.#changed('tools');
    return tool;
  }

  /** v1: `tool(name, [description], [paramsSchema | annotations, [annotations]], callback)`. */
  tool(name: string, ...rest: unknown[]): RegisteredTool {
    const config: ToolConfig = {};
    if (typeof rest[0] === 'string') config.description = rest.shift() as string;
    if (rest.length > 1) {
      const first = rest[0] as Record<string, unknown>;
      const looksLikeAnnotations = typeof first === 'object' && first !== null && Object.values(first).every((v) => typeof v !== 'object' || v === null);
      if (!looksLikeAnnotations || Object.keys(first).length === 0) {
        config.inputSchema = rest.shift() as AnySchema;
        if (rest.length > 1) config.annotations = rest.shift() as ToolAnnotations;
      } else {
        config.annotations = rest.shift() as ToolAnnotations;
      }
    }
    return this.registerTool(name, config, rest[0] as ToolCallback);
  }

  // -- resources ---------------------------------------------------------------------

  registerResource(name: string, uri: string, config: ResourceMetadata, callback: ReadResourceCallback): RegisteredResource;
  registerResource(name: string, template: ResourceTemplate, config: ResourceMetadata, callback: ReadResourceTemplateCallback): RegisteredResourceTemplate;
  registerResource(
    name: string,
    uriOrTemplate: string | ResourceTemplate,
    config: ResourceMetadata,
    callback: ReadResourceCallback | ReadResourceTemplateCallback,
  ): RegisteredResource | RegisteredResourceTemplate {
    if (typeof uriOrTemplate === 'string') return this.#staticResource(name, uriOrTemplate, config, callback as ReadResourceCallback);
    return this.#templateResource(name, uriOrTemplate, config, callback as ReadResourceTemplateCallback);
  }

  /** v1: `resource(name, uriOrTemplate, [metadata], callback)`. */
  resource(name: string, uriOrTemplate: string | ResourceTemplate, ...rest: unknown[]): RegisteredResource | RegisteredResourceTemplate {
    const metadata = (rest.length > 1 ? rest.shift() : {}) as ResourceMetadata;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- v1's overloads, resolved by registerResource
    return this.registerResource(name, uriOrTemplate as any, metadata, rest[0] as any);
  }

  #staticResource(name: string, uri: string, config: ResourceMetadata, callback: ReadResourceCallback): RegisteredResource {
    const resource = { name, metadata: config, readCallback: callback, enabled: true } as RegisteredResource;
    let currentUri = uri;
    const add = () => {
      const run = (payload: { uri: string }, ctx: HandlerContext) => resource.readCallback(new URL(payload.uri), ctx);
      const def = definition({ uri: currentUri, name: resource.name, ...resourceMetadata(resource.metadata) });
      this.#call(() => this.#native.addResource(def, nativeHandler('resources/read', 'other', run, this.hooks), ownCacheHint(resource.metadata)));
      this.#resources.set(currentUri, resource);
    };
    const drop = () => {
      this.#native.removeResource(currentUri);
      this.#resources.delete(currentUri);
    };
    Object.assign(resource, this.#lifecycle('resources', resource, add, drop), {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the official SDK's signature
      update: (updates: Record<string, any>) => {
        if (resource.enabled) drop();
        if (typeof updates.uri === 'string') currentUri = updates.uri;
        if (typeof updates.name === 'string') resource.name = updates.name;
        if (updates.metadata) resource.metadata = updates.metadata;
        if (updates.callback) resource.readCallback = updates.callback;
        if (typeof updates.enabled === 'boolean') resource.enabled = updates.enabled;
        if (resource.enabled) add();
        this.#changed('resources');
      },
    });
    add();
    this.#changed('resources');
    return resource;
  }

  #templateResource(name: string, template: ResourceTemplate, config: ResourceMetadata, callback: ReadResourceTemplateCallback): RegisteredResourceTemplate {
    const entry = { resourceTemplate: template, metadata: config, readCallback: callback, enabled: true } as RegisteredResourceTemplate;
    let currentName = name;
    const text = () => entry.resourceTemplate.uriTemplate.toString();
    const add = () => {
      const run = (payload: { uri: string; variables: Record<string, string | string[]> }, ctx: HandlerContext) =>
        entry.readCallback(new URL(payload.uri), payload.variables, ctx);
      const def = definition({ uriTemplate: text(), name: currentName, ...resourceMetadata(entry.metadata) });
      const listCallback = entry.resourceTemplate.listCallback;
      const lister = listCallback && nativeHandler('resources/list', 'other', (_payload: unknown, ctx: HandlerContext) => listCallback(ctx));
      this.#call(() => this.#native.addResourceTemplate(def, nativeHandler('resources/read', 'other', run, this.hooks), lister, ownCacheHint(entry.metadata)));
      this.#templates.set(text(), entry);
      if (entry.resourceTemplate.hasCompleteCallbacks()) this.#enableCompletions();
    };
    const drop = () => {
      this.#native.removeResourceTemplate(text());
      this.#templates.delete(text());
    };
    Object.assign(entry, this.#lifecycle('resources', entry, add, drop), {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the official SDK's signature
      update: (updates: Record<string, any>) => {
        if (entry.enabled) drop();
        if (typeof updates.name === 'string') currentName = updates.name;
        if (updates.template) entry.resourceTemplate = updates.template;
        if (updates.metadata) entry.metadata = updates.metadata;
        if (updates.callback) entry.readCallback = updates.callback;
        if (typeof updates.enabled === 'boolean') entry.enabled = updates.enabled;
        if (entry.enabled) add();
        this.#changed('resources');
      },
    });
    add();
    this.#changed('resources');
    return entry;
  }

  // -- prompts -----------------------------------------------------------------------

  registerPrompt(name: string, config: PromptConfig, callback: PromptCallback): RegisteredPrompt {
    const prompt = { ...config, handler: callback, enabled: true } as RegisteredPrompt;
    let currentName = name;
    const add = () => {
      const args = prepare(prompt.argsSchema, 'input', this.#flavour());
      const run = async (payload: Record<string, unknown>, ctx: HandlerContext) => {
        if (args === undefined) return prompt.handler(ctx);
        return prompt.handler(await args.parse(payload, `prompt ${currentName}`), ctx);
      };
      const def = definition({
        name: currentName,
        title: prompt.title,
        description: prompt.description,
        arguments: promptArguments(args),
        icons: prompt.icons,
        _meta: prompt._meta,
      });
      this.#call(() => this.#native.addPrompt(def, nativeHandler('prompts/get', 'other', run, this.hooks)));
      this.#prompts.set(currentName, prompt);
      this.#promptArgs.set(currentName, args);
      if (Object.values(args?.shape ?? {}).some((field) => completerOf(field))) this.#enableCompletions();
    };
    const drop = () => {
      this.#native.removePrompt(currentName);
      this.#prompts.delete(currentName);
      this.#promptArgs.delete(currentName);
    };
    Object.assign(prompt, this.#lifecycle('prompts', prompt, add, drop), {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the official SDK's signature
      update: (updates: Record<string, any>) => {
        if (prompt.enabled) drop();
        if (typeof updates.name === 'string') currentName = updates.name;
        if (updates.callback) prompt.handler = updates.callback;
        for (const key of ['title', 'description', 'argsSchema', 'icons', '_meta'] as const) {
          if (key in updates) Object.assign(prompt, { [key]: updates[key] });
        }
        if (typeof updates.enabled === 'boolean') prompt.enabled = updates.enabled;
        if (prompt.enabled) add();
        this.#changed('prompts');
      },
    });
    add();
    this.#changed('prompts');
    return prompt;
  }

  /** v1: `prompt(name, [description], [argsSchema], callback)`. */
  prompt(name: string, ...rest: unknown[]): RegisteredPrompt {
    const config: PromptConfig = {};
    if (typeof rest[0] === 'string') config.description = rest.shift() as string;
    if (rest.length > 1) config.argsSchema = rest.shift() as AnySchema;
    return this.registerPrompt(name, config, rest[0] as PromptCallback);
  }

  // -- completions -------------------------------------------------------------------

  #enableCompletions(): void {
    if (this.#completions) return;
    this.#completions = true;
    this.#native.setCompletionHandler(nativeHandler('completion/complete', 'other', (params) => this.#complete(params)));
  }

  async #complete(params: { ref: Record<string, string>; argument: { name: string; value: string }; context?: { arguments?: Record<string, string> } }): Promise<CompleteResult> {
    const { ref, argument, context } = params;
    let complete: ((value: string, context?: { arguments?: Record<string, string> }) => string[] | Promise<string[]>) | undefined;
    if (ref.type === 'ref/prompt') {
      const prompt = this.#prompts.get(ref.name);
      if (prompt === undefined) throw new McpError(ErrorCode.InvalidParams, `Prompt ${ref.name} not found`);
      complete = completerOf(this.#promptArgs.get(ref.name)?.shape?.[argument.name]);
    } else if (ref.type === 'ref/resource') {
      const template = this.#templates.get(ref.uri);
      if (template === undefined && !this.#resources.has(ref.uri)) {
        throw new McpError(ErrorCode.InvalidParams, `Resource template ${ref.uri} not found`);
      }
      complete = template?.resourceTemplate.completeCallback(argument.name);
    }
    if (complete === undefined) return EMPTY_COMPLETION;
    // Core holds the answer to the protocol's 100-value cap (and fills `total`/`hasMore`).
    return { completion: { values: await complete(argument.value, context) } };
  }

  // -- connection --------------------------------------------------------------------

  /** @internal `serveStdio({ maxSubscriptions })`: core's cap on open listen streams. */
  [SET_MAX_LISTEN_STREAMS](cap: number): void {
    this.#native.setMaxListenStreams(cap);
  }

  /** @internal `serveStdio({ legacy: 'reject' })`: core serves 2026-07-28 clients only. */
  [SET_REJECT_LEGACY](reject: boolean): void {
    this.#native.setRejectLegacy(reject);
  }

  /** Starts serving over the transport (ferrymcp's stdio); resolves once serving. */
  async connect(transport: ServerTransport | Transport): Promise<void> {
    if (isMessageTransport(transport)) return this.#serveMessages(transport);
    if (typeof transport?.ferrymcpServe === 'function') return this.#serveHttp(transport);
    if (transport?.ferrymcpStdio !== true) {
      throw new Error(
        'ferrymcp McpServer.connect() takes a StdioServerTransport (ferrymcp/stdio), a Streamable HTTP transport (ferrymcp/node, WebStandardStreamableHTTPServerTransport), or a Transport object (start, send, close, onmessage)',
      );
    }
    if (this.#connected) throw new Error('McpServer is already connected');
    warnIfStdinRead();
    this.#connected = true;
    (transport as { attach?: (server: McpServer) => void }).attach?.(this);
    this.#native.serveStdio().then(
      () => this.#closed(transport),
      (error: unknown) => {
        transport.onerror?.(fromNative(error));
        this.#closed(transport);
      },
    );
  }

  /** Serves a `Transport` whose messages JavaScript carries (see `transport.ts`). */
  async #serveMessages(transport: Transport): Promise<void> {
    if (this.#connected) throw new Error('McpServer is already connected');
    this.#connected = true;
    const { port, release, closing } = carry(transport);
    this.#carried = closing;
    this.#native
      .servePort(port)
      .then(
        () => this.#closed({}),
        (error: unknown) => {
          transport.onerror?.(fromNative(error));
          this.#closed({});
        },
      )
      .finally(release);
    await transport.start();
  }

  #closed(transport: ServerTransport): void {
    this.#connected = false;
    if (this.#http === transport) this.#http = undefined;
    transport.onclose?.();
    this.onclose?.();
  }

  #serveHttp(transport: ServerTransport): void {
    if (this.#connected) throw new Error('McpServer is already connected');
    this.#connected = true;
    this.#http = transport;
    transport.ferrymcpServe!(this.#native).then(
      () => this.#closed(transport),
      (error: unknown) => {
        transport.onerror?.(fromNative(error));
        this.#closed(transport);
      },
    );
  }

  /**
   * Serves Streamable HTTP (both eras) on core's built-in server (ferrymcp): resolves
   * once listening, with the endpoint's URL and `close()`. 127.0.0.1 and a port the OS
   * picks by default; takes the HTTP transports' options too.
   */
  async listen(options: ListenOptions = {}): Promise<HttpListener> {
    const transport = new ListeningTransport(options);
    this.#serveHttp(transport);
    return transport.listening;
  }

  /** Ends the connection (or the HTTP serving). */
  async close(): Promise<void> {
    const http = this.#http;
    this.#http = undefined;
    await http?.close?.();
    await this.#native.close();
    const carried = this.#carried;
    this.#carried = undefined;
    await carried?.();
    this.#taskStore?.close();
  }

  /** v1's `server.experimental.tasks`: `registerToolTask` (see `ExperimentalMcpServerTasks`). */
  get experimental(): { tasks: ExperimentalMcpServerTasks } {
    this.#experimental ??= { tasks: new ExperimentalMcpServerTasks(this) };
    return this.#experimental;
  }

  isConnected(): boolean {
    return this.#connected;
  }

  // -- notifications -----------------------------------------------------------------

  sendToolListChanged(): void {
    this.#notify(this.#native.notifyToolsChanged());
  }

  sendResourceListChanged(): void {
    this.#notify(this.#native.notifyResourcesChanged());
  }

  sendPromptListChanged(): void {
    this.#notify(this.#native.notifyPromptsChanged());
  }

  /** `notifications/resources/updated` to the clients subscribed to `uri`. */
  async sendResourceUpdated(params: { uri: string }): Promise<void> {
    await this.#native.notifyResourceUpdated(params.uri);
  }

  /**
   * `notifications/message`: inside a handler, on that request (both eras); elsewhere,
   * to every connected legacy session whose level allows it.
   */
  async sendLoggingMessage(params: { level: LoggingLevel; data: unknown; logger?: string }, _sessionId?: string): Promise<void> {
    const ctx = currentContext.getStore();
    if (ctx !== undefined) return ctx.log(params.level, params.data, params.logger);
    await this.#native.notifyLog(params.level, JSON.stringify(params.data ?? null), params.logger);
  }

  #notify(sending: Promise<void>): void {
    sending.catch(() => undefined);
  }

  #changed(kind: ListKind): void {
    if (!this.#connected) return;
    if (kind === 'tools') this.sendToolListChanged();
    else if (kind === 'resources') this.sendResourceListChanged();
    else this.sendPromptListChanged();
  }

  #call(register: () => void): void {
    try {
      register();
    } catch (error) {
      if (error instanceof RangeError || error instanceof TypeError) throw error;
      throw new Error(fromNative(error).rawMessage, { cause: error });
    }
  }

  /**
   * The engine's server. A sealing key shorter than core's floor (`requestStateKeys`, else
   * `FERRYMCP_STATE_KEY`) is a `RangeError` (`code` `ERR_OUT_OF_RANGE`), as the official
   * `createRequestStateCodec` throws for a short key; the message is core's.
   */
  static #engine(...args: ConstructorParameters<typeof NativeServer>): InstanceType<typeof NativeServer> {
    try {
      return new NativeServer(...args);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'InvalidArg') {
        throw Object.assign(new RangeError(`McpServer: ${(error as Error).message}`), { code: 'ERR_OUT_OF_RANGE' });
      }
      // An option core refused (it names the option): the author's mistake, as the TypeScript layer's own checks.
      const refused = fromNative(error);
      if (refused.code === ErrorCode.InvalidParams) invalidOption('McpServer', refused.rawMessage);
      throw error;
    }
  }

  #lifecycle(kind: ListKind, item: { enabled: boolean }, add: () => void, drop: () => void): Registration {
    return {
      enabled: item.enabled,
      enable: () => {
        if (item.enabled) return;
        item.enabled = true;
        add();
        this.#changed(kind);
      },
      disable: () => {
        if (!item.enabled) return;
        item.enabled = false;
        drop();
        this.#changed(kind);
      },
      remove: () => {
        if (item.enabled) drop();
        item.enabled = false;
        this.#changed(kind);
      },
    };
  }
}

/** The `{ params, result }` of v2's three-argument handler forms; another key is refused by name. */
function checkSchemas<T extends { params: unknown }>(schemas: T, what: string, keys: string[]): T {
  if (typeof schemas !== 'object' || schemas === null) throw new TypeError(`${what}: the second argument must be a handler or { params${keys.includes('result') ? ', result' : ''} }`);
  for (const key of Object.keys(schemas)) if (!keys.includes(key)) throw new TypeError(`${what}: unknown schema key '${key}'`);
  if (schemas.params === undefined) throw new TypeError(`${what}: { params } is required`);
  return schemas;
}

/**
 * The low-level server of the official API, as far as `McpServer` users reach into it:
 * client input and logging from inside a handler, and resource-update notifications.
 */
export class Server {
  readonly #owner!: McpServer;
  readonly #native!: InstanceType<typeof NativeServer>;

  /**
   * `new Server(serverInfo, options)`: the official low-level server, standing alone
   * (it is the `server` of an `McpServer` of its own, which runs it; handlers come from
   * `setRequestHandler`). The two-argument internal form wires an `McpServer`'s own.
   */
  constructor(serverInfo: Implementation, options?: McpServerOptions);
  constructor(owner: McpServer, native: InstanceType<typeof NativeServer>);
  constructor(first: McpServer | Implementation, second?: McpServerOptions | InstanceType<typeof NativeServer>) {
    if (!(first instanceof McpServer)) {
      return new McpServer(first, (second ?? {}) as McpServerOptions).server;
    }
    this.#owner = first;
    this.#native = second as InstanceType<typeof NativeServer>;
  }

  /**
   * Answers requests for `method` (a request schema, as v1 code passes, or the name)
   * with `handler(request, extra)`: one of MCP's feature methods (`tools/list`,
   * `tools/call`, `resources/read`, ...), which the application then answers itself in
   * both eras, or a method of its own. A later call replaces the handler.
   */
  setRequestHandler(
    methodOrSchema: MethodOrSchema,
    handler: (request: { method: string; params?: Record<string, unknown> }, extra: HandlerContext) => unknown,
  ): void;
  /**
   * v2's form for a method of the application's own: `params` (any Standard Schema) checks
   * and parses the request's params (`-32602` when they do not fit) and `handler(params, ctx)`
   * receives the parsed value; `result` is the result's type (not checked, as there).
   */
  setRequestHandler(method: string, schemas: { params: unknown; result?: unknown }, handler: (params: never, ctx: HandlerContext) => unknown): void;
  setRequestHandler(
    methodOrSchema: MethodOrSchema,
    handlerOrSchemas: ((request: { method: string; params?: Record<string, unknown> }, extra: HandlerContext) => unknown) | { params: unknown; result?: unknown },
    maybeHandler?: (params: never, ctx: HandlerContext) => unknown,
  ): void {
    const method = methodOf(methodOrSchema);
    let run: (params: Record<string, unknown>, ctx: HandlerContext) => unknown;
    if (typeof handlerOrSchemas === 'function') {
      const handler = handlerOrSchemas;
      run = (params, ctx) => handler({ method, params }, ctx);
    } else {
      if (typeof maybeHandler !== 'function') throw new TypeError('setRequestHandler: handler is required');
      const schemas = checkSchemas(handlerOrSchemas, 'setRequestHandler', ['params', 'result']);
      const handler = maybeHandler as (params: unknown, ctx: HandlerContext) => unknown;
      run = async (params, ctx) => handler(await parseParams(schemas.params, params, method), ctx);
    }
    try {
      this.#native.setRequestHandler(method, nativeHandler(method, 'other', run, this.#owner.hooks));
    } catch (error) {
      throw fromNative(error);
    }
  }

  /** Stops serving the application's own request `method`. */
  removeRequestHandler(methodOrSchema: MethodOrSchema): void {
    this.#native.removeRequestHandler(methodOf(methodOrSchema));
  }

  /**
   * Calls `handler(notification)` for each client notification `method` (a notification
   * schema, as v1 code passes, or the name): `notifications/roots/list_changed`, or one of
   * the application's own. A later call replaces the handler; what it throws goes to
   * `onerror`. The engine's own (`notifications/cancelled`, `notifications/progress`) are
   * refused.
   */
  setNotificationHandler(methodOrSchema: MethodOrSchema, handler: (notification: { method: string; params?: Record<string, unknown> }) => unknown): void;
  /** v2's form for a notification of the application's own: `handler(params)` gets the params `schemas.params` parsed (a mismatch goes to `onerror`). */
  setNotificationHandler(method: string, schemas: { params: unknown }, handler: (params: never) => unknown): void;
  setNotificationHandler(
    methodOrSchema: MethodOrSchema,
    handlerOrSchemas: ((notification: { method: string; params?: Record<string, unknown> }) => unknown) | { params: unknown },
    maybeHandler?: (params: never) => unknown,
  ): void {
    const method = methodOf(methodOrSchema);
    let run: (params: Record<string, unknown>) => unknown;
    if (typeof handlerOrSchemas === 'function') {
      const handler = handlerOrSchemas;
      run = (params) => handler({ method, params });
    } else {
      if (typeof maybeHandler !== 'function') throw new TypeError('setNotificationHandler: handler is required');
      const schemas = checkSchemas(handlerOrSchemas, 'setNotificationHandler', ['params']);
      const handler = maybeHandler as (params: unknown) => unknown;
      run = async (params) => handler(await parseParams(schemas.params, params, method));
    }
    const deliver = (paramsJson: string) => {
      Promise.resolve()
        .then(() => run(JSON.parse(paramsJson) as Record<string, unknown>))
        .catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
    };
    try {
      this.#native.setNotificationHandler(method, deliver);
    } catch (error) {
      throw fromNative(error);
    }
  }

  /** Stops delivering client notification `method`. */
  removeNotificationHandler(methodOrSchema: MethodOrSchema): void {
    this.#native.removeNotificationHandler(methodOf(methodOrSchema));
  }

  /** Called with what a notification handler throws. */
  onerror?: (error: Error) => void;

  /** Connects the server to a transport (its `McpServer`'s `connect`). */
  connect(transport: Parameters<McpServer['connect']>[0]): ReturnType<McpServer['connect']> {
    return this.#owner.connect(transport);
  }

  #context(what: string): HandlerContext {
    const ctx = currentContext.getStore();
    if (ctx === undefined) throw new McpError(ErrorCode.InvalidRequest, `${what} can only be called while a request is being handled`);
    return ctx;
  }

  #experimental?: { tasks: ExperimentalServerTasks };

  /** v1's `server.experimental.tasks`: `elicitInputStream`, `createMessageStream`, `requestStream` (see `ExperimentalServerTasks`). */
  get experimental(): { tasks: ExperimentalServerTasks } {
    this.#experimental ??= { tasks: new ExperimentalServerTasks(this) };
    return this.#experimental;
  }

  elicitInput(params: ElicitRequestParams): Promise<ElicitResult> {
    return this.#context('elicitInput').elicitInput(params);
  }

  createMessage(params: CreateMessageRequestParams): Promise<CreateMessageResult> {
    return this.#context('createMessage').createMessage(params);
  }

  listRoots(params?: unknown): Promise<ListRootsResult> {
    return this.#context('listRoots').listRoots(params);
  }

  /**
   * A function that sends `notifications/elicitation/complete` for `elicitationId` (the end
   * of a URL-mode elicitation done out of band), on the way the request being handled
   * answers: create it inside the handler that asked (`relatedRequestId`, when given, must
   * be that request's id).
   */
  createElicitationCompletionNotifier(elicitationId: string, options?: { relatedRequestId?: unknown }): () => Promise<void> {
    const ctx = this.#context('createElicitationCompletionNotifier');
    for (const key of Object.keys(options ?? {})) {
      if (key !== 'relatedRequestId') invalidOption('createElicitationCompletionNotifier', `unknown option ${key}`);
    }
    const related = options?.relatedRequestId;
    if (related !== undefined && related !== ctx.requestId) {
      invalidOption('createElicitationCompletionNotifier', 'relatedRequestId must be the id of the request being handled (its notifications go on the way it answers)');
    }
    if ((ctx.clientCapabilities as { elicitation?: { url?: unknown } }).elicitation?.url === undefined) {
      throw new SdkError(SdkErrorCode.CapabilityNotSupported, 'Client does not support URL elicitation (required for notifications/elicitation/complete)');
    }
    return () => ctx.sendNotification({ method: 'notifications/elicitation/complete', params: { elicitationId } });
  }

  /**
   * Merges `capabilities` over what the server declares (members replace, objects merge one
   * level deep, as the official SDK merges them); only before connecting, as there.
   */
  registerCapabilities(capabilities: ServerCapabilities): void {
    if (this.#owner.isConnected()) throw new Error('Cannot register capabilities after connecting to transport');
    try {
      this.#native.registerCapabilities(JSON.stringify(capabilities));
    } catch (error) {
      throw fromNative(error);
    }
  }

  getClientCapabilities(): ClientCapabilities | undefined {
    return currentContext.getStore()?.clientCapabilities;
  }

  getClientVersion(): Implementation | undefined {
    return currentContext.getStore()?.clientInfo;
  }

  sendLoggingMessage(params: { level: LoggingLevel; data: unknown; logger?: string }): Promise<void> {
    return this.#owner.sendLoggingMessage(params);
  }

  async sendResourceUpdated(params: { uri: string }): Promise<void> {
    await this.#native.notifyResourceUpdated(params.uri);
  }

  sendToolListChanged(): Promise<void> {
    return this.#native.notifyToolsChanged();
  }

  sendResourceListChanged(): Promise<void> {
    return this.#native.notifyResourcesChanged();
  }

  sendPromptListChanged(): Promise<void> {
    return this.#native.notifyPromptsChanged();
  }

  close(): Promise<void> {
    return this.#owner.close();
  }
}
