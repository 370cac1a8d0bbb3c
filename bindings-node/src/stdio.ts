/**
 * stdio, both ways, under the official names: `serveStdio(factory)` (v2),
 * `StdioServerTransport` for `server.connect(...)` (v1), and `StdioClientTransport` for
 * `client.connect(...)`.
 *
 * The transports are descriptions, not pipes: the Rust core reads and writes stdio (or
 * the child's pipes) itself, off the JS thread. Do not read `process.stdin` or write
 * protocol data to `process.stdout` in a server that serves stdio; log to stderr.
 */
import type { ClientHooks, ClientTransport } from './client-transport.js';
import type { McpServer, ServerTransport } from './mcp-server.js';
import { PassThrough } from 'node:stream';
import type { Stream, Writable } from 'node:stream';
import { childEnvironment, childEnvironmentVars, spawnClient } from './native.js';
import type { ClientConfig, NativeClientHandle } from './native.js';
import { factoryContext } from './context.js';
import { invalidOption, refuseOption } from './errors.js';
import { isMessageTransport } from './transport.js';
import type { Transport } from './transport.js';
import { SET_MAX_LISTEN_STREAMS, SET_REJECT_LEGACY } from './server-internals.js';
import type { McpServerFactoryContext } from './context.js';

/**
 * Warns (once) when this process's own code reads `process.stdin` while the engine serves
 * it: Node's stream and the engine would split the frames between them. Touching
 * `process.stdin` without reading it is fine: Node makes the pipe's description
 * non-blocking, and the engine reads either a description of its own (a pipe, on Linux),
 * with per-call non-blocking reads (a socket, what `child_process` gives), or on a thread
 * that waits for readiness (anything else); it never changes the flags Node's handle
 * shares, so the binding needs no choice of its own here (core's `transport/polled.rs`).
 * Called synchronously as serving starts.
 * @internal
 */
export function warnIfStdinRead(): void {
  const stdin = process.stdin;
  if (warnedStdinRead || (stdin.readableFlowing !== true && stdin.listenerCount('readable') === 0)) return;
  warnedStdinRead = true;
  process.emitWarning(
    'process.stdin is being read by this process (a data or readable listener, or resume()) while a ferrymcp stdio server reads it too: ' +
      'frames Node reads are lost to the server. Leave stdin to the server, or serve another transport.',
    { code: 'FERRYMCP_STDIN_READ' },
  );
}
let warnedStdinRead = false;

/** This process's stdin and stdout, for `McpServer.connect()`. */
export class StdioServerTransport implements ServerTransport {
  readonly ferrymcpStdio = true as const;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  /**
   * The official `(stdin?, stdout?)`: this process's own `process.stdin` / `process.stdout`
   * (or nothing) work; other streams are refused by name (core reads and writes the
   * process's descriptors itself; serve a stream with a `Transport` object instead).
   */
  constructor(stdin?: unknown, stdout?: unknown) {
    if (stdin !== undefined && stdin !== process.stdin) {
      refuseOption('StdioServerTransport', 'a stdin stream other than process.stdin', 'core reads the process\'s standard input itself; connect a Transport object (start, send, close, onmessage) for other streams');
    }
    if (stdout !== undefined && stdout !== process.stdout) {
      refuseOption('StdioServerTransport', 'a stdout stream other than process.stdout', 'core writes the process\'s standard output itself; connect a Transport object (start, send, close, onmessage) for other streams');
    }
  }

  /** Serving starts in `McpServer.connect()`. */
  async start(): Promise<void> {}

  async close(): Promise<void> {
    await this.#server?.close();
  }

  #server?: McpServer;

  /** @internal */
  attach(server: McpServer): void {
    this.#server = server;
  }
}

export interface ServeStdioOptions {
  /** Told about errors of serving (reporting only). */
  onerror?: (error: Error) => void;
  /**
   * `'serve'` (the default: 2025-era clients are served on the same connection); `'reject'`:
   * 2026-07-28 clients only, a 2025-era request is answered with -32022 naming the supported
   * revisions, a 2025-era notification is dropped, and the connection stays open (core's).
   */
  legacy?: 'serve' | 'reject';
  /** Serve this `Transport` object (start, send, close, onmessage) instead of the process's stdio. */
  transport?: Transport;
  /** Most `subscriptions/listen` streams open at once; one more is refused (`-32603 Subscription limit reached`). Core's default (1024, as the official SDK) when absent. */
  maxSubscriptions?: number;
}

const SERVE_STDIO_OPTIONS = new Set(['onerror', 'legacy', 'transport', 'maxSubscriptions']);

/** Throws naming the first option of `serveStdio` that cannot be honoured. */
function checkServeStdioOptions(options: ServeStdioOptions): void {
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined && !SERVE_STDIO_OPTIONS.has(key)) invalidOption('serveStdio', `unknown option ${key}`);
  }
  const { legacy, transport, maxSubscriptions, onerror } = options;
  if (legacy !== undefined && legacy !== 'serve' && legacy !== 'reject') invalidOption('serveStdio', `legacy must be 'serve' or 'reject', not ${JSON.stringify(legacy)}`);
  if (transport !== undefined && !isMessageTransport(transport) && (transport as { ferrymcpStdio?: unknown }).ferrymcpStdio !== true) {
    invalidOption('serveStdio', 'transport must be a Transport object (start, send, close, onmessage) or a StdioServerTransport');
  }
  if (maxSubscriptions !== undefined && (typeof maxSubscriptions !== 'number' || !Number.isInteger(maxSubscriptions) || maxSubscriptions < 0 || maxSubscriptions > 0xffffffff)) {
    invalidOption('serveStdio', `maxSubscriptions must be a whole number >= 0, got ${String(maxSubscriptions)}`);
  }
  if (onerror !== undefined && typeof onerror !== 'function') invalidOption('serveStdio', 'onerror must be a function');
}

export interface StdioServerHandle {
  close(): Promise<void>;
}

/**
 * Serves MCP over stdio from a server factory (v2). One server serves both eras, so the
 * factory is called once.
 */
export function serveStdio(factory: (ctx: McpServerFactoryContext) => McpServer | Promise<McpServer>, options: ServeStdioOptions = {}): StdioServerHandle {
  checkServeStdioOptions(options);
  const given = options.transport;
  const transport: ServerTransport | Transport = given ?? new StdioServerTransport();
  if (given === undefined) warnIfStdinRead();
  if (options.onerror !== undefined && transport.onerror === undefined) transport.onerror = options.onerror;
  const server = Promise.resolve(factory(factoryContext(options.legacy === 'reject' ? 'modern' : undefined))).then(async (server) => {
    if (transport instanceof StdioServerTransport) transport.attach(server);
    if (options.maxSubscriptions !== undefined) server[SET_MAX_LISTEN_STREAMS](options.maxSubscriptions);
    if (options.legacy === 'reject') server[SET_REJECT_LEGACY](true);
    await server.connect(transport);
    return server;
  });
  server.catch((error: unknown) => options.onerror?.(error instanceof Error ? error : new Error(String(error))));
  return {
    close: async () => {
      await (await server).close();
    },
  };
}

export interface StdioServerParameters {
  command: string;
  args?: string[];
  /**
   * Set on top of the default environment, which is not this process's whole environment but
   * the official SDKs' short list of it ({@link DEFAULT_INHERITED_ENV_VARS}), so a server does
   * not see the host's secrets unless they are passed here.
   */
  env?: Record<string, string>;
  cwd?: string;
  /**
   * `'inherit'` (default, or `2`), `'ignore'`, `'pipe'` / `'overlapped'` (read it from
   * {@link StdioClientTransport.stderr}), or a writable stream that receives it.
   */
  stderr?: 'inherit' | 'ignore' | 'pipe' | 'overlapped' | Writable | number;
}

/** The variables a child server inherits from this process unless `env` adds more (from core). */
export const DEFAULT_INHERITED_ENV_VARS: readonly string[] = childEnvironmentVars();

/** This process's values of {@link DEFAULT_INHERITED_ENV_VARS}: what a child server starts with. */
export function getDefaultEnvironment(): Record<string, string> {
  return childEnvironment();
}

/** A server to start as a child process, for `Client.connect()`. */
export class StdioClientTransport implements ClientTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly stderrSink: Writable | undefined;

  constructor(readonly serverParameters: StdioServerParameters) {
    const { stderr } = serverParameters;
    if (stderr === 'pipe' || stderr === 'overlapped') {
      this.stderrSink = new PassThrough();
    } else if (isWritable(stderr)) {
      this.stderrSink = stderr;
    } else if (stderr !== undefined && stderr !== 'inherit' && stderr !== 'ignore' && stderr !== 2) {
      throw new TypeError(
        `StdioClientTransport: stderr ${String(stderr)} is not supported (use 'inherit', 'ignore', 'pipe', 'overlapped' or a writable stream)`,
      );
    }
  }

  /**
   * The child's stderr when `stderr` was `'pipe'` or `'overlapped'` (available at once, before
   * `start`), else `null`.
   */
  get stderr(): Stream | null {
    return this.stderrSink instanceof PassThrough && this.stderrSink !== this.serverParameters.stderr
      ? this.stderrSink
      : null;
  }

  /** @internal */
  ferrymcpOpen(config: ClientConfig, hooks: ClientHooks): Promise<NativeClientHandle> {
    const { command, args, env, cwd, stderr } = this.serverParameters;
    const sink = this.stderrSink;
    const mode = sink ? 'lines' : stderr === 'ignore' ? 'ignore' : 'inherit';
    const onStderr = sink ? (line: string) => sink.write(`${line}\n`) : undefined;
    const spawn = { command, args, env, cwd, stderr: mode };
    return spawnClient(spawn, config, hooks.onRequest, hooks.onNotification, hooks.onClose, onStderr, hooks.onListChanged);
  }
}

function isWritable(value: unknown): value is Writable {
  return typeof value === 'object' && value !== null && typeof (value as Writable).write === 'function';
}
