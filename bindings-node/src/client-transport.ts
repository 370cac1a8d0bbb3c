/**
 * What `Client.connect()` asks of a transport. ferrymcp's client transports are not
 * message pipes as the official SDK's are: the Rust core owns the connection (a child
 * process's pipes, or HTTP), so a transport's one job is to open it with the client's
 * configuration and callbacks, and hand back the native connection.
 */
import type { ClientConfig, NativeClientHandle, NativeReply } from './native.js';

/** The client's side of a connection, as a transport passes it on to the core. */
export interface ClientHooks {
  /** A request from the server (sampling, elicitation, roots). */
  onRequest(method: string, paramsJson: string, reply: NativeReply): void;
  onNotification(method: string, paramsJson: string): void;
  /** A list after a change (the `listChanged` option): `{items}` or `{error}`. */
  onListChanged(list: string, outcomeJson: string): void;
  /** The server went away by itself. */
  onClose(reason: string): void;
  /** Closes the client that owns the connection (for the transport's own `close()`). */
  close(): Promise<void>;
}

export interface ClientTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** @internal Opens the connection (`Client.connect()` calls it). */
  ferrymcpOpen(config: ClientConfig, hooks: ClientHooks): Promise<NativeClientHandle>;
  /** @internal The client is closed (by `close()` or because the server went away). */
  ferrymcpClosed?(): void;
  /** @internal A request's error as the transport's official HTTP error, when an HTTP answer failed the request. */
  ferrymcpHttpError?(error: Error): Error;
  /** @internal Settles once the transport itself is closed, after `close()` closed the engine's side. */
  ferrymcpClosing?(): Promise<void>;
}
