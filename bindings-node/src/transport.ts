/**
 * Transports that JavaScript carries: the official SDK's `Transport` interface (`start`,
 * `send`, `close`, `onmessage`, `onclose`, `onerror`), `InMemoryTransport`, and the
 * `ReadBuffer`/`serializeMessage` helpers for newline-framed byte streams.
 *
 * `McpServer.connect()` and `Client.connect()` take any object of that shape (a WebSocket
 * transport a user wrote, one end of `InMemoryTransport.createLinkedPair()`, ...). Its
 * messages go through a native port (`NativePort`) into the same engine that serves stdio
 * and HTTP, so the protocol (eras, correlation, cancellation, timeouts) is core's
 * whichever way the bytes travel.
 */
import { fromNative } from './errors.js';
import { NativePort, vocabulary } from './native.js';

/** A JSON-RPC message as it crosses a transport. */
export type JSONRPCMessage = { jsonrpc: '2.0' } & { [key: string]: unknown };

/** What a transport may pass along with a message (the official `MessageExtraInfo`). */
export interface MessageExtraInfo {
  authInfo?: unknown;
  requestInfo?: unknown;
  [key: string]: unknown;
}

export interface TransportSendOptions {
  relatedRequestId?: string | number;
  resumptionToken?: string;
  onresumptiontoken?: (token: string) => void;
}

/** The official SDK's `Transport`: a bidirectional channel of JSON-RPC messages. */
export interface Transport {
  start(): Promise<void>;
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void>;
  close(): Promise<void>;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  sessionId?: string;
  setProtocolVersion?: (version: string) => void;
}

/**
 * Whether `transport` is a message transport for `connect()` to carry (rather than one of
 * ferrymcp's own stdio or HTTP transports, which the engine drives itself).
 * @internal
 */
export function isMessageTransport(transport: unknown): transport is Transport {
  if (typeof transport !== 'object' || transport === null) return false;
  const t = transport as Record<string, unknown>;
  if ('ferrymcpStdio' in t || typeof t.ferrymcpServe === 'function' || typeof t.ferrymcpOpen === 'function') return false;
  return typeof t.send === 'function' && typeof t.start === 'function' && typeof t.close === 'function';
}

/**
 * Wires `transport` to a new native port: the transport's messages go to the engine, the
 * engine's to `transport.send()`. Handlers the transport already had are kept and called
 * first, as the official `Protocol.connect()` does. When the engine closes its side, the
 * transport is closed; when the transport closes, the engine sees the end of its input.
 * The caller connects a server or client over the returned port, then calls `start()`.
 * @internal
 */
export function carry(transport: Transport): Carried {
  let open = true;
  // Between the transport closing by itself and the engine reporting the connection closed, nothing
  // native keeps Node's event loop alive, so an `await server.onclose`-style wait could
  // outlive the loop: a ref'd timer holds it for that window (bounded, in case the engine's
  // report never comes), and `release()` lets go when it does.
  let hold: ReturnType<typeof setTimeout> | undefined;
  const holdOpen = (): void => {
    hold ??= setTimeout(() => (hold = undefined), CLOSE_WINDOW_MS);
  };
  const release = (): void => {
    if (hold !== undefined) clearTimeout(hold);
    hold = undefined;
  };
  // Settles once the transport is closed: by the engine (its `close()` has settled) or by itself.
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const versions = new VersionWatch(transport);
  const port = new NativePort(
    (messageJson) => {
      const message = JSON.parse(messageJson) as JSONRPCMessage;
      versions.outgoing(message);
      void settle(transport, () => transport.send(message));
    },
    () => {
      if (!open) return markClosed();
      open = false;
      void settle(transport, () => transport.close()).then(markClosed);
    },
  );
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    onmessage?.(message, extra);
    versions.incoming(message);
    try {
      port.send(JSON.stringify(message));
    } catch (error) {
      transport.onerror?.(fromNative(error));
    }
  };
  const onclose = transport.onclose;
  transport.onclose = () => {
    onclose?.();
    open = false;
    markClosed();
    holdOpen();
    port.close();
  };
  // The engine tells JavaScript its side closed through a weak function, so the owner's
  // `close()` waits for the transport's `close()` under a ref'd timer (bounded): as with the
  // official SDK, once `await client.close()` returns, the transport and its peer are closed.
  const closing = async (): Promise<void> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const window = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WINDOW_MS)));
    try {
      await Promise.race([closed, window]);
    } finally {
      clearTimeout(timer);
    }
  };
  return { port, release, closing };
}

/** How long a closing carried transport may keep Node alive waiting for the engine. */
const CLOSE_WINDOW_MS = 5_000;

/**
 * A carried transport's native port, `release()` to call once the engine is done with it,
 * and `closing()`, settling once the transport is closed (for the owner's `close()`).
 */
export interface Carried {
  port: InstanceType<typeof NativePort>;
  release: () => void;
  closing: () => Promise<void>;
}

/**
 * Tells the transport the revision in use (`setProtocolVersion`, as the official
 * `Protocol` does once it knows): on a server, from its answer to `initialize` or from a
 * 2026-07-28 request's `_meta`; a client's is set by `Client.connect()`.
 */
class VersionWatch {
  readonly #transport: Transport;
  #initialize?: unknown;
  #known = false;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  incoming(message: JSONRPCMessage): void {
    if (this.#known || typeof this.#transport.setProtocolVersion !== 'function') return;
    if (message.method === 'initialize') this.#initialize = message.id;
    const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    const version = meta?.[vocabulary.metaKeys.protocolVersion];
    if (typeof version === 'string') this.#set(version);
  }

  outgoing(message: JSONRPCMessage): void {
    if (this.#known || this.#initialize === undefined || message.id !== this.#initialize) return;
    const version = (message.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    if (typeof version === 'string') this.#set(version);
  }

  #set(version: string): void {
    this.#known = true;
    this.#transport.setProtocolVersion?.(version);
  }
}

/**
 * Runs a transport method from the engine's callback: what it throws or rejects with goes
 * to `onerror` (as the official `Protocol` awaits it), never out of the callback, where it
 * would be an uncaught exception.
 */
async function settle(transport: Transport, run: () => Promise<void> | void): Promise<void> {
  try {
    await run();
  } catch (error) {
    transport.onerror?.(asError(error));
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Two transports wired to each other in this process: what one sends, the other receives
 * (the official `InMemoryTransport`). Messages sent before the other side listens are
 * kept for it, in order.
 */
export class InMemoryTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  sessionId?: string;
  #other?: InMemoryTransport;
  readonly #early: Array<{ message: JSONRPCMessage; extra?: MessageExtraInfo }> = [];
  #started = false;

  /** A client end and a server end, linked. */
  static createLinkedPair(): [InMemoryTransport, InMemoryTransport] {
    const client = new InMemoryTransport();
    const server = new InMemoryTransport();
    client.#other = server;
    server.#other = client;
    return [client, server];
  }

  async start(): Promise<void> {
    this.#started = true;
    for (const { message, extra } of this.#early.splice(0)) this.onmessage?.(message, extra);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions & { authInfo?: unknown }): Promise<void> {
    const other = this.#other;
    if (other === undefined) throw new Error('Not connected');
    other.#receive(message, options?.authInfo === undefined ? undefined : { authInfo: options.authInfo });
  }

  #receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (this.#started && this.onmessage !== undefined) this.onmessage(message, extra);
    else this.#early.push({ message, extra });
  }

  async close(): Promise<void> {
    const other = this.#other;
    if (other === undefined) return;
    this.#other = undefined;
    other.#other = undefined;
    this.onclose?.();
    other.onclose?.();
  }
}

/** Turns a message into its newline-delimited text (the stdio framing). */
export function serializeMessage(message: JSONRPCMessage): string {
  return JSON.stringify(message) + '\n';
}

/** Parses one JSON-RPC message, checking its envelope. */
export function deserializeMessage(line: string): JSONRPCMessage {
  const message = JSON.parse(line) as unknown;
  if (typeof message !== 'object' || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
    throw new Error(`not a JSON-RPC 2.0 message: ${line.slice(0, 200)}`);
  }
  return message as JSONRPCMessage;
}

/** Collects bytes from a stream and hands out whole newline-delimited messages. */
export class ReadBuffer {
  #buffer?: Buffer;

  append(chunk: Buffer): void {
    this.#buffer = this.#buffer === undefined ? chunk : Buffer.concat([this.#buffer, chunk]);
  }

  /** The next whole message, or `null` until more bytes arrive. */
  readMessage(): JSONRPCMessage | null {
    if (this.#buffer === undefined) return null;
    const end = this.#buffer.indexOf('\n');
    if (end === -1) return null;
    const line = this.#buffer.toString('utf8', 0, end).replace(/\r$/, '');
    this.#buffer = this.#buffer.subarray(end + 1);
    return deserializeMessage(line);
  }

  clear(): void {
    this.#buffer = undefined;
  }
}
