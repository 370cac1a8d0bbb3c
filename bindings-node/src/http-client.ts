/**
 * The client side of HTTP under the official names: `StreamableHTTPClientTransport`
 * (either era, falling back to the deprecated HTTP+SSE transport for servers that predate
 * Streamable HTTP) and `SSEClientTransport` (that old transport, asked for by name).
 *
 * The Rust core does all of HTTP: era detection, the legacy session and its DELETE,
 * resuming broken streams with `Last-Event-ID`, the 2026-07-28 headers, and OAuth. So the
 * options are those the core has: `requestInit.headers` (sent with every request) and an
 * `authProvider`: either the official `OAuthClientProvider` (core runs the authorization
 * and refreshes; the provider stores and redirects, `finishAuth()` completes a redirect;
 * see oauth-client.ts for the members refused) or an `AuthProvider` with a `token()`
 * (read once, at connect, and sent as a bearer token). Any other option the official
 * transports take would change behaviour the core does not implement, so it is refused
 * with a TypeError naming it rather than ignored: `fetch`, `reconnectionOptions`,
 * `reconnectionScheduler`, `sessionId`, `protocolVersion`, `redirectPolicy`,
 * `onUnauthorized`, `eventSourceInit`, and `requestInit` fields other than `headers` (a
 * `fetch` or an undici `dispatcher` carrying TLS settings among them: core makes its own
 * connections).
 *
 * An HTTP answer that fails a request (or `terminateSession()`) throws the official HTTP
 * error of the transport's import path (see http-errors.ts): `SdkHttpError` from the
 * package roots, `StreamableHTTPError` from `ferrymcp/client/streamableHttp.js`, `SseError`
 * (or a plain `Error` for a refused POST) from `SSEClientTransport`.
 *
 * TLS (`https://`) is ferrymcp's option `tls`: `{ ca, cert, key }`, paths of PEM files.
 * `ca` is trusted instead of the platform's store (which honours `SSL_CERT_FILE` and
 * `SSL_CERT_DIR`); `cert` and `key` are a client certificate for mutual TLS.
 */
import type { ClientHooks, ClientTransport } from './client-transport.js';
import { fromNative, fromNativeClient } from './errors.js';
import { httpErrorOf } from './http-errors.js';
import type { HttpErrorStyle } from './http-errors.js';
import { connectHttpClient } from './native.js';
import type { ClientConfig, HttpClientConfig, NativeClientHandle, NativeOAuth } from './native.js';
import { checkProvider, isOAuthClientProvider, nativeOAuth } from './oauth-client.js';
import type { AuthProvider, OAuthClientProvider } from './oauth-client.js';

export type { AuthProvider };

export interface StreamableHTTPClientTransportOptions {
  /** Only `headers` is supported. */
  requestInit?: { headers?: ConstructorParameters<typeof Headers>[0] };
  authProvider?: AuthProvider | OAuthClientProvider;
  /** ferrymcp: TLS settings for `https://` (PEM file paths; see the module doc). */
  tls?: TlsOptions;
  [option: string]: unknown;
}

/** ferrymcp's TLS options for an `https://` server: PEM file paths. */
export interface TlsOptions {
  /** A CA bundle trusted instead of the platform's store. */
  ca?: string;
  /** A client certificate chain, presented with `key` (mutual TLS). */
  cert?: string;
  /** The private key of `cert`. */
  key?: string;
}

function tlsConfig(tls: TlsOptions | undefined, transport: string): Partial<HttpClientConfig> {
  if (tls === undefined) return {};
  for (const [name, value] of Object.entries(tls)) {
    if (value !== undefined && !['ca', 'cert', 'key'].includes(name)) {
      throw new TypeError(`ferrymcp ${transport} does not support tls.${name} (supported: ca, cert, key, as PEM file paths)`);
    }
    if (value !== undefined && typeof value !== 'string') {
      throw new TypeError(`ferrymcp ${transport}: tls.${name} must be the path of a PEM file`);
    }
  }
  if ((tls.cert === undefined) !== (tls.key === undefined)) {
    throw new TypeError(`ferrymcp ${transport}: tls.cert and tls.key go together (a certificate chain and its private key)`);
  }
  return { caFile: tls.ca, clientCert: tls.cert, clientKey: tls.key };
}

export type SSEClientTransportOptions = StreamableHTTPClientTransportOptions;

const SUPPORTED = ['requestInit', 'authProvider', 'tls'];

/** Refuses what the core does not do, naming it; returns the headers as pairs. */
function checked(options: StreamableHTTPClientTransportOptions, transport: string): HttpClientConfig['headers'] {
  for (const [name, value] of Object.entries(options)) {
    if (value !== undefined && !SUPPORTED.includes(name)) {
      throw new TypeError(`ferrymcp ${transport} does not support the option ${name} (supported: ${SUPPORTED.join(', ')})`);
    }
  }
  const provider = options.authProvider as Record<string, unknown> | undefined;
  if (isOAuthClientProvider(provider)) checkProvider(provider, `ferrymcp ${transport}`);
  if (provider !== undefined && !isOAuthClientProvider(provider)) {
    if (typeof provider.token !== 'function') throw new TypeError(`ferrymcp ${transport}: authProvider needs token(), or tokens() and the other OAuthClientProvider members`);
    if (provider.onUnauthorized !== undefined) {
      throw new TypeError(`ferrymcp ${transport} does not support authProvider.onUnauthorized: token() is read once, at connect`);
    }
  }
  const init = options.requestInit ?? {};
  for (const [name, value] of Object.entries(init)) {
    if (value !== undefined && name !== 'headers') {
      throw new TypeError(`ferrymcp ${transport} does not support requestInit.${name} (only requestInit.headers)`);
    }
  }
  return [...new Headers(init.headers)].map(([name, value]) => ({ name, value }));
}

/** What both transports share: the options, the connection once open, the session. */
abstract class HttpClientTransportBase implements ClientTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #url: URL;
  readonly #headers: HttpClientConfig['headers'];
  readonly #auth?: AuthProvider;
  readonly #tls: Partial<HttpClientConfig>;
  readonly #provider?: OAuthClientProvider;
  readonly #transport: string;
  #oauth?: Promise<InstanceType<typeof NativeOAuth>>;
  #native?: NativeClientHandle;
  #hooks?: ClientHooks;

  constructor(url: URL | string, options: StreamableHTTPClientTransportOptions, transport: string) {
    this.#url = new URL(url);
    this.#headers = checked(options, transport);
    this.#tls = tlsConfig(options.tls, transport);
    this.#transport = transport;
    if (isOAuthClientProvider(options.authProvider)) this.#provider = options.authProvider;
    else this.#auth = options.authProvider;
  }

  /** Core's OAuth state for the provider, made once per transport. */
  #authorization(): Promise<InstanceType<typeof NativeOAuth>> | undefined {
    if (this.#provider === undefined) return undefined;
    this.#oauth ??= nativeOAuth(this.#provider, `ferrymcp ${this.#transport}`);
    return this.#oauth;
  }

  /**
   * Finishes the authorization the last `connect()` started (it threw
   * `UnauthorizedError`): the code the redirect carried, or its whole query (then its
   * `iss` is checked too, RFC 9207). Tokens go to the provider's `saveTokens()`; connect
   * again, on this transport or a new one with the same provider.
   */
  async finishAuth(authorizationCode: string | URLSearchParams, iss?: string): Promise<void> {
    const oauth = this.#authorization();
    if (oauth === undefined) throw new TypeError(`ferrymcp ${this.#transport}.finishAuth() needs an OAuthClientProvider as authProvider`);
    let given: string;
    if (typeof authorizationCode === 'string') {
      given = iss === undefined ? authorizationCode : `?${new URLSearchParams({ code: authorizationCode, iss }).toString()}`;
    } else {
      given = `?${new URLSearchParams(authorizationCode).toString()}`;
    }
    try {
      await (await oauth).finishAuth(this.#url.href, given);
    } catch (error) {
      throw fromNativeClient(error);
    }
  }

  /** How this transport adjusts the client's configuration. */
  protected abstract adjust(config: ClientConfig): ClientConfig;

  /** Which official HTTP errors this transport throws. */
  protected abstract readonly httpErrors: HttpErrorStyle;

  /** @internal The error a request failed with, as this transport's official HTTP error when an HTTP answer failed it. */
  ferrymcpHttpError(error: Error): Error {
    return httpErrorOf(error, this.httpErrors);
  }

  /** @internal */
  async ferrymcpOpen(config: ClientConfig, hooks: ClientHooks): Promise<NativeClientHandle> {
    const oauth = await this.#authorization();
    if (oauth !== undefined) {
      this.#native = await oauth.connect(
        { url: this.#url.href, headers: this.#headers, ...this.#tls },
        this.adjust(config),
        hooks.onRequest,
        hooks.onNotification,
        hooks.onClose,
        hooks.onListChanged,
      );
    } else {
      const token = (await this.#auth?.token()) ?? undefined;
      this.#native = await connectHttpClient(
        { url: this.#url.href, headers: this.#headers, bearerToken: token, ...this.#tls },
        this.adjust(config),
        hooks.onRequest,
        hooks.onNotification,
        hooks.onClose,
        hooks.onListChanged,
      );
    }
    this.#hooks = hooks;
    return this.#native;
  }

  /** The `Mcp-Session-Id` of a legacy session (none in 2026-07-28, which has no sessions). */
  get sessionId(): string | undefined {
    return this.#native?.sessionId ?? undefined;
  }

  /** Ends the session with a DELETE (a server that does not allow it answers 405; fine). */
  async terminateSession(): Promise<void> {
    try {
      await this.#native?.terminateSession();
    } catch (error) {
      throw httpErrorOf(fromNative(error), this.httpErrors, 'delete');
    }
  }

  /** Nothing to do: `Client.connect()` opens the connection. */
  async start(): Promise<void> {}

  /** Closes the client using this transport (its `onclose` fires, and this one's). */
  async close(): Promise<void> {
    await this.#hooks?.close();
  }
}

/** The Streamable HTTP transport, for `Client.connect()`; its HTTP errors are v2's (`SdkHttpError`). */
export class StreamableHTTPClientTransport extends HttpClientTransportBase {
  protected readonly httpErrors: HttpErrorStyle = 'v2';

  constructor(url: URL | string, options: StreamableHTTPClientTransportOptions = {}) {
    super(url, options, 'StreamableHTTPClientTransport');
  }

  protected adjust(config: ClientConfig): ClientConfig {
    return config;
  }
}

/** The deprecated HTTP+SSE transport (2024-11-05; legacy era only), for `Client.connect()`. */
export class SSEClientTransport extends HttpClientTransportBase {
  protected readonly httpErrors: HttpErrorStyle = 'sse';

  constructor(url: URL | string, options: SSEClientTransportOptions = {}) {
    super(url, options, 'SSEClientTransport');
  }

  protected adjust(config: ClientConfig): ClientConfig {
    return { ...config, era: 'legacy' };
  }
}
