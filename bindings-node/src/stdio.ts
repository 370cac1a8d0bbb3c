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
import { spawnClient } from './native.js';
import type { ClientConfig, NativeClientHandle } from './native.js';

/**
 * Warns (once) when this process's own code reads `process.stdin` while the engine serves
 * it: Node's stream and the engine would split the frames between them. Touching
 * `process.stdin` without reading it is fine (the engine reads a descriptor Node made
 * non-blocking too). Called synchronously as serving starts.
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

  /** Accepted for API compatibility: ferrymcp always serves the process's own stdio. */
  constructor(..._streams: unknown[]) {}

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
  onerror?: (error: Error) => void;
  [option: string]: unknown;
}

export interface StdioServerHandle {
  close(): Promise<void>;
}

/**
 * Serves MCP over stdio from a server factory (v2). One server serves both eras, so the
 * factory is called once.
 */
export function serveStdio(factory: () => McpServer | Promise<McpServer>, options: ServeStdioOptions = {}): StdioServerHandle {
  warnIfStdinRead();
  const transport = new StdioServerTransport();
  transport.onerror = options.onerror;
  const server = Promise.resolve(factory()).then(async (server) => {
    transport.attach(server);
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
  /** Added to this process's environment. */
  env?: Record<string, string>;
  cwd?: string;
  /** `'inherit'` (default) or `'ignore'`. */
  stderr?: 'inherit' | 'ignore' | 'pipe' | unknown;
}

/** A server to start as a child process, for `Client.connect()`. */
export class StdioClientTransport implements ClientTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(readonly serverParameters: StdioServerParameters) {}

  /** @internal */
  ferrymcpOpen(config: ClientConfig, hooks: ClientHooks): Promise<NativeClientHandle> {
    const { command, args, env, cwd, stderr } = this.serverParameters;
    const spawn = { command, args, env, cwd, stderr: stderr === 'ignore' ? 'ignore' : 'inherit' };
    return spawnClient(spawn, config, hooks.onRequest, hooks.onNotification, hooks.onClose);
  }
}
