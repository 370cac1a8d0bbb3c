/**
 * Streamable HTTP serving, under the official SDK's names: the web-standard transport
 * (`handleRequest(request: Request): Promise<Response>`), the Node `http` transport
 * (`handleRequest(req, res, parsedBody?)`), both for `server.connect(transport)`, and
 * ferrymcp's own `listen()` on core's hyper server.
 *
 * Each is a thin pipe to core's endpoint (`NativeHttpHandler`): the request's method,
 * URL, headers and body go in, the status, headers and body chunks come out. Core decides
 * everything else (era, session, guards, status codes, SSE). Closing the response stream
 * (the client went away, or the web framework cancelled the body) drops core's stream,
 * which cancels a 2026-07-28 request.
 *
 * One transport serves every session of both eras for one server, so one `connect()` is
 * enough; the official "one transport per session" wiring works too: `onsessioninitialized`
 * reports the session core opened (and `sessionId` becomes it), so the application routes
 * that session's later requests to this transport.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { fromNative } from './errors.js';
import { authInfoJson } from './bearer-gate.js';
import { httpSettings } from './http-options.js';
import type { AuthInfo, NativeHttpSettings, StreamableHTTPServerTransportOptions } from './http-options.js';
import { NativeHttpHandler, listenHttp } from './native.js';
import type { NativeHttpListener, NativeHttpResponse, NativeServer } from './native.js';

type NativeServerHandle = InstanceType<typeof NativeServer>;
type Handler = InstanceType<typeof NativeHttpHandler>;

/** Options for `handleRequest` (the official `HandleRequestOptions`). */
export interface HandleRequestOptions {
  /** The body, already parsed (e.g. by `express.json()`). */
  parsedBody?: unknown;
  /**
   * A token accepted in front of this transport (the official `requireBearerAuth`): the
   * handlers get it as `ctx.authInfo`. Refused when the transport checks tokens itself
   * (its `auth` option). On Node, `req.auth` (set by the Express middleware) is read the same way.
   */
  authInfo?: AuthInfo;
}

/** What both HTTP transports share: connecting, closing, the pipe to core. */
export abstract class HttpServerTransport {
  /** The first legacy session this transport opened (`undefined` until then, and when stateless). */
  sessionId: string | undefined = undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #settings: NativeHttpSettings;
  readonly #opened?: (sessionId: string) => void | Promise<void>;
  readonly #ended?: (sessionId: string) => void | Promise<void>;
  #handler?: Handler;
  #closed?: () => void;

  constructor(options: StreamableHTTPServerTransportOptions, name: string) {
    this.#settings = httpSettings(options ?? {}, name);
    this.#opened = options?.onsessioninitialized;
    this.#ended = options?.onsessionclosed;
  }

  /** Serving starts in `McpServer.connect()`. */
  async start(): Promise<void> {}

  /** @internal Called by `McpServer.connect()`; resolves when the transport closes. */
  ferrymcpServe(server: NativeServerHandle): Promise<void> {
    if (this.#handler !== undefined) throw new Error('this transport is already connected to a server');
    this.#handler = new NativeHttpHandler(server, this.#settings.config, this.#settings.verifier, this.#settings.redis, this.#settings.events);
    return new Promise((resolve) => (this.#closed = resolve));
  }

  /** Ends long-lived streams and every legacy session; requests in flight are answered. */
  async close(): Promise<void> {
    const handler = this.#handler;
    if (handler === undefined) return;
    await handler.close();
    this.#settings.events?.close();
    this.#closed?.();
    this.#closed = undefined;
  }

  get #connected(): Handler {
    if (this.#handler === undefined) throw new Error('the transport is not connected: call server.connect(transport) first');
    return this.#handler;
  }

  async #handle(method: string, url: string, headers: string[], body: Buffer, authInfo?: unknown): Promise<NativeHttpResponse> {
    const auth = authInfoJson(authInfo, 'handleRequest');
    if (auth !== undefined && this.#settings.verifier !== undefined) {
      throw new TypeError('handleRequest: authInfo was given, but this transport checks bearer tokens itself (its auth option): use one or the other');
    }
    const response = await this.#connected.handle(method, url, headers, body, auth);
    if (this.#opened === undefined && this.#ended === undefined && this.sessionId !== undefined) return response;
    const asked = headerOf(headers, 'mcp-session-id');
    const given = headerOf(response.headers, 'mcp-session-id');
    if (method === 'POST' && asked === undefined && given !== undefined && response.status < 300) {
      this.sessionId ??= given;
      await this.#opened?.(given);
    } else if (method === 'DELETE' && asked !== undefined && response.status < 300) {
      await this.#ended?.(asked);
    }
    return response;
  }

  /** Core's body limit (read one byte past, so that core answers 413). */
  get #maxBody(): number {
    return this.#connected.maxBodyBytes;
  }

  /** A web-standard request, answered with a web-standard response. */
  protected async serveWeb(request: Request, options?: HandleRequestOptions): Promise<Response> {
    const headers: string[] = [];
    request.headers.forEach((value, name) => headers.push(name, value));
    const body = parsedBody(options?.parsedBody) ?? (await readStream(request.body, this.#maxBody));
    return toResponse(await this.#handle(request.method, request.url, headers, body, options?.authInfo));
  }

  /** A Node request, answered on its response. */
  protected async serveNode(req: IncomingMessage, res: ServerResponse, parsed?: unknown): Promise<void> {
    const body = parsedBody(parsed) ?? (await readIncoming(req, this.#maxBody));
    const auth = (req as IncomingMessage & { auth?: unknown }).auth;
    await pipe(await this.#handle(req.method ?? 'GET', req.url ?? '/', req.rawHeaders, body, auth), res);
  }
}

/** A header's value from a flat `[name, value, ...]` list. */
function headerOf(flat: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < flat.length; i += 2) if (flat[i].toLowerCase() === name) return flat[i + 1];
  return undefined;
}

function parsedBody(value: unknown): Buffer | undefined {
  return value === undefined ? undefined : Buffer.from(JSON.stringify(value));
}

/** The Streamable HTTP transport on web-standard `Request`/`Response` (Node 18+, Bun, Deno, workers). */
export class WebStandardStreamableHTTPServerTransport extends HttpServerTransport {
  constructor(options: StreamableHTTPServerTransportOptions = {}) {
    super(options, 'WebStandardStreamableHTTPServerTransport');
  }

  handleRequest(request: Request, options?: HandleRequestOptions): Promise<Response> {
    return this.serveWeb(request, options);
  }
}

/** The Streamable HTTP transport on Node's `http` request and response. */
export class NodeStreamableHTTPServerTransport extends HttpServerTransport {
  constructor(options: StreamableHTTPServerTransportOptions = {}) {
    super(options, 'NodeStreamableHTTPServerTransport');
  }

  handleRequest(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> {
    return this.serveNode(req, res, parsedBody);
  }
}

/** The v1 name of the Node transport (`@modelcontextprotocol/sdk/server/streamableHttp.js`). */
export { NodeStreamableHTTPServerTransport as StreamableHTTPServerTransport };

/** At most `limit + 1` bytes of a web stream (core answers 413 past `limit`). */
async function readStream(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<Buffer> {
  if (stream === null) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return Buffer.concat(chunks, Math.min(size, limit + 1));
}

/** At most `limit + 1` bytes of a Node request; the rest is drained, not kept. */
function readIncoming(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off('data', data).off('end', done).off('error', reject);
      resolve(Buffer.concat(chunks, Math.min(size, limit + 1)));
    };
    const data = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        done();
        req.resume();
      }
    };
    req.on('data', data).on('end', done).on('error', reject);
  });
}

function toResponse(native: NativeHttpResponse): Response {
  const headers = new Headers();
  const flat = native.headers;
  for (let i = 0; i < flat.length; i += 2) headers.append(flat[i], flat[i + 1]);
  const init = { status: native.status, headers };
  const whole = native.takeBody();
  if (whole !== null) return new Response(whole.length === 0 ? null : whole, init);
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const chunk = await native.read();
        if (chunk === null) controller.close();
        else controller.enqueue(chunk);
      },
      cancel() {
        native.cancel();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, init);
}

/** Writes core's response to Node's, chunk by chunk; the client leaving cancels it. */
async function pipe(native: NativeHttpResponse, res: ServerResponse): Promise<void> {
  res.writeHead(native.status, native.headers);
  const whole = native.takeBody();
  if (whole !== null) return void res.end(whole);
  res.flushHeaders();
  const gone = () => {
    if (!res.writableFinished) native.cancel();
  };
  res.on('close', gone);
  try {
    for (let chunk = await native.read(); chunk !== null; chunk = await native.read()) {
      if (!res.write(chunk) && !res.destroyed) {
        await new Promise<void>((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
      }
    }
  } finally {
    res.off('close', gone);
    res.end();
  }
}

/** `McpServer.listen()` options: where, plus every transport option. */
export interface ListenOptions extends StreamableHTTPServerTransportOptions {
  /** `127.0.0.1` by default. */
  host?: string;
  /** `0` (the OS picks) by default. */
  port?: number;
  /** The endpoint's path, `/mcp` by default. */
  path?: string;
  /** Serve `https://` (ferrymcp): the certificate chain and its private key, PEM files. */
  tls?: { cert: string; key: string };
}

/** A server listening on core's built-in HTTP server. */
export interface HttpListener {
  /** The endpoint's URL, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: URL;
  readonly host: string;
  readonly port: number;
  /** Resolves once the server has closed. */
  readonly closed: Promise<void>;
  /** Stops accepting, ends long-lived streams and sessions, finishes requests in flight. */
  close(): Promise<void>;
}

/** @internal The transport `McpServer.listen()` connects: core's own server. */
export class ListeningTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #settings: NativeHttpSettings;
  readonly #host: string;
  readonly #port: number;
  readonly #tls?: { certFile: string; keyFile: string };
  #listener?: NativeHttpListener;
  #ready?: (listener: HttpListener) => void;
  #failed?: (error: unknown) => void;
  readonly listening: Promise<HttpListener>;

  constructor(options: ListenOptions) {
    const { host = '127.0.0.1', port = 0, path } = options;
    if (typeof host !== 'string') throw new TypeError('listen: host must be a string');
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError(`listen: port must be an integer from 0 to 65535, got ${String(port)}`);
    if (path !== undefined && typeof path !== 'string') throw new TypeError(`listen: path must be a string, got ${String(path)}`);
    const { tls } = options;
    if (tls !== undefined && (typeof tls?.cert !== 'string' || typeof tls?.key !== 'string')) {
      throw new TypeError('listen: tls must be { cert, key }, the paths of PEM files');
    }
    this.#tls = tls === undefined ? undefined : { certFile: tls.cert, keyFile: tls.key };
    this.#settings = httpSettings(options, 'listen', ['host', 'port', 'path', 'tls']);
    // Core checks the path and holds its default (`/mcp`), as for a Python server.
    this.#settings.config.endpoint = path;
    [this.#host, this.#port] = [host, port];
    this.listening = new Promise((resolve, reject) => [this.#ready, this.#failed] = [resolve, reject]);
  }

  /** @internal */
  async ferrymcpServe(server: NativeServerHandle): Promise<void> {
    let listener: NativeHttpListener;
    try {
      listener = await listenHttp(server, this.#host, this.#port, this.#settings.config, this.#settings.verifier, this.#settings.redis, this.#settings.events, this.#tls);
    } catch (error) {
      const failure = fromNative(error);
      this.#failed?.(failure);
      throw failure;
    }
    this.#listener = listener;
    const closed = listener.closed();
    const host = listener.host.includes(':') ? `[${listener.host}]` : listener.host;
    this.#ready?.({
      url: new URL(`${this.#tls === undefined ? 'http' : 'https'}://${host}:${listener.port}${listener.endpoint}`),
      host: listener.host,
      port: listener.port,
      closed,
      close: () => this.close(),
    });
    await closed;
  }

  async close(): Promise<void> {
    await this.#listener?.close();
    this.#settings.events?.close();
  }
}
