/**
 * `createMcpHandler(factory)` (official v2) and `toNodeHandler(handler)` (official
 * `@modelcontextprotocol/node`): the fetch-shaped entry of the official SDK, on core's one
 * endpoint.
 *
 * The official handler builds a server instance per request and serves 2025-era traffic
 * statelessly; core serves both eras from one server (legacy clients get sessions), so the
 * factory is called once, on the first request, with a context whose `era` and `authInfo`
 * read the request being handled (`context.ts`, `factoryContext`).
 *
 * `subscriptions/listen` streams get their events from the handler's bus (`bus`, or an
 * in-process `InMemoryServerEventBus`), published with `handler.notify.*` as there: core
 * serves the streams and the handler carries the bus's events to them (see
 * `event-bus.ts`); the server's own list-change notifications still reach legacy sessions.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { HttpServerTransport } from './http.js';
import type { HandleRequestOptions } from './http.js';
import type { StreamableHTTPServerTransportOptions } from './http-options.js';
import type { McpServer } from './mcp-server.js';
import type { NativeServer } from './native.js';
import { isLegacyHttpRequest } from './native.js';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from './guards.js';
import { createServerNotifier, eventNotification, InMemoryServerEventBus, isServerEventBus } from './event-bus.js';
import type { ServerEventBus, ServerNotifier } from './event-bus.js';
import { factoryContext } from './context.js';
import { invalidOption, refuseOption } from './errors.js';
import type { McpServerFactoryContext } from './context.js';

export interface CreateMcpHandlerOptions extends StreamableHTTPServerTransportOptions {
  /**
   * `'stateless'` (the default): core serves 2025-era clients too (with sessions); `'reject'`:
   * 2026-07-28 clients only, as the official SDK (a 2025-era request `400` with -32022 naming
   * the supported revisions, a 2025-era notification `202` and dropped, GET and DELETE `405`).
   */
  legacy?: 'stateless' | 'reject';
  /** Told about errors thrown while serving a request (reporting only). */
  onerror?: (error: Error) => void;
  /** `'auto'` (the default: JSON unless the handler sends something before its result, then SSE) and `'json'`
   * (one JSON body; what a handler sends before its result is not delivered; listen streams stay SSE) work;
   * `'sse'` is refused (core has no always-stream mode). */
  responseMode?: 'auto' | 'sse' | 'json';
  /** The bus the `subscriptions/listen` streams get their events from (an in-process one when absent). */
  bus?: ServerEventBus;
  /** Most `subscriptions/listen` streams open at once; one more is refused (`-32603 Subscription limit reached`). Core's default (1024, as the official SDK) when absent. */
  maxSubscriptions?: number;
}

export type McpServerFactory = (ctx: McpServerFactoryContext) => McpServer | Promise<McpServer>;

export interface McpHttpHandler {
  fetch: (request: Request, options?: HandleRequestOptions) => Promise<Response>;
  /** Ends the open listen streams gracefully, then the serving. */
  close: () => Promise<void>;
  /** Publishes changes on {@link McpHttpHandler.bus}. */
  notify: ServerNotifier;
  /** The bus the listen streams get their events from. */
  bus: ServerEventBus;
}

type NativeServerHandle = InstanceType<typeof NativeServer>;

const NODE = Symbol('ferrymcp.serveNode');

/** One transport answering both faces. */
class HandlerTransport extends HttpServerTransport {
  onserve?: (server: NativeServerHandle) => void;

  override ferrymcpServe(server: NativeServerHandle): Promise<void> {
    const serving = super.ferrymcpServe(server);
    this.onserve?.(server);
    return serving;
  }

  web(request: Request, options?: HandleRequestOptions): Promise<Response> {
    return this.serveWeb(request, options);
  }

  node(req: IncomingMessage, res: ServerResponse, parsed?: unknown): Promise<void> {
    return this.serveNode(req, res, parsed);
  }
}

const refuse = refuseOption;

export function createMcpHandler(factory: McpServerFactory, options: CreateMcpHandlerOptions = {}): McpHttpHandler {
  const { legacy, onerror, responseMode, bus, maxSubscriptions, ...transportOptions } = options as CreateMcpHandlerOptions & Record<string, unknown>;
  if (typeof legacy === 'function') {
    invalidOption('createMcpHandler', "legacy takes 'stateless' or 'reject', not a handler function: route 2025-era traffic yourself with isLegacyRequest(request)");
  }
  if (legacy !== undefined && legacy !== 'stateless' && legacy !== 'reject') invalidOption('createMcpHandler', `legacy must be 'stateless' or 'reject', not ${JSON.stringify(legacy)}`);
  if (responseMode === 'sse') refuse('createMcpHandler', "responseMode: 'sse'", "core streams a response only when the handler sends something before its result ('auto'), or never ('json')");
  if (responseMode !== undefined && responseMode !== 'auto' && responseMode !== 'json') {
    invalidOption('createMcpHandler', `responseMode must be 'auto', 'json' or 'sse', not ${JSON.stringify(responseMode)}`);
  }
  if (responseMode === 'json') {
    if (transportOptions.enableJsonResponse === false) throw new TypeError("createMcpHandler: responseMode: 'json' contradicts enableJsonResponse: false");
    transportOptions.enableJsonResponse = true;
  }
  if (bus !== undefined && !isServerEventBus(bus)) throw new TypeError('createMcpHandler: bus must be a ServerEventBus (publish(event) and subscribe(listener))');
  if (maxSubscriptions !== undefined && (typeof maxSubscriptions !== 'number' || !Number.isInteger(maxSubscriptions) || maxSubscriptions < 0 || maxSubscriptions > 0xffffffff)) {
    throw new TypeError(`createMcpHandler: maxSubscriptions must be a whole number >= 0, got ${String(maxSubscriptions)}`);
  }
  const reportError = (error: Error) => {
    try {
      onerror?.(error);
    } catch {
      // Reporting never changes an answer.
    }
  };
  const events: ServerEventBus = bus ?? new InMemoryServerEventBus(reportError);
  const transport = new HandlerTransport(transportOptions, 'createMcpHandler');
  let native: NativeServerHandle | undefined;
  let unsubscribe: (() => void) | undefined;
  transport.onserve = (server) => {
    native = server;
    server.carryListenEvents();
    if (maxSubscriptions !== undefined) server.setMaxListenStreams(maxSubscriptions);
    if (legacy === 'reject') server.setRejectLegacy(true);
    unsubscribe = events.subscribe((event) => {
      const notification = eventNotification(event);
      if (notification === undefined) return reportError(new TypeError(`createMcpHandler: the bus carried an event of no known kind: ${JSON.stringify(event)}`));
      const params = notification.params === undefined ? undefined : JSON.stringify(notification.params);
      server.notifyListeners(notification.method, params).catch((error: unknown) => reportError(error instanceof Error ? error : new Error(String(error))));
    });
  };
  let connected: Promise<void> | undefined;
  // A factory that fails fails the request it ran for, and the next request calls it again.
  const ready = () =>
    (connected ??= Promise.resolve()
      .then(() => factory(factoryContext(legacy === 'reject' ? 'modern' : undefined)))
      .then((server) => server.connect(transport))
      .catch((error: unknown) => {
        connected = undefined;
        return report(error);
      }));
  const report = (error: unknown): never => {
    reportError(error instanceof Error ? error : new Error(String(error)));
    throw error;
  };
  const fetch = async (request: Request, requestOptions?: HandleRequestOptions) => {
    await ready();
    return transport.web(request, requestOptions).catch(report);
  };
  const node = async (req: IncomingMessage, res: ServerResponse, parsed?: unknown) => {
    await ready();
    return transport.node(req, res, parsed).catch(report);
  };
  const close = async () => {
    unsubscribe?.();
    unsubscribe = undefined;
    native?.closeListenStreams();
    await transport.close();
  };
  return Object.assign({ fetch, close, notify: createServerNotifier(events), bus: events }, { [NODE]: node });
}

/** `(req, res, parsedBody?)` for `http.createServer`, Express or Fastify. */
export type NodeMcpRequestHandler = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => Promise<void>;

/**
 * A `createMcpHandler` handler as a Node request handler (no web-standard conversion: core's
 * pipe to Node directly; `req.auth`, set by a bearer middleware, reaches the handlers as
 * `ctx.authInfo`). Any other `{ fetch(request) }` (a composed web-standard handler, as the
 * official `toNodeHandler` takes) is bridged: the Node request becomes a `Request`
 * (`toWebRequest`) and the `Response` is written back, its body streamed.
 */
export function toNodeHandler(handler: McpHttpHandler | { fetch(request: Request): Response | Promise<Response> }, options: { onerror?: (error: Error) => void } = {}): NodeMcpRequestHandler {
  for (const key of Object.keys(options)) if (key !== 'onerror') throw new TypeError(`toNodeHandler: unknown option '${key}'`);
  const node = (handler as McpHttpHandler & { [NODE]?: NodeMcpRequestHandler })[NODE] ?? webBridge(handler);
  return async (req, res, parsedBody) => {
    try {
      await node(req, res, typeof parsedBody === 'function' ? undefined : parsedBody);
    } catch (error) {
      options.onerror?.(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) res.writeHead(500).end();
    }
  };
}

/** A web-standard `{ fetch }` handler serving Node requests. */
function webBridge(handler: { fetch?: unknown }): NodeMcpRequestHandler {
  if (typeof handler?.fetch !== 'function') throw new TypeError("toNodeHandler takes a handler made by createMcpHandler, or any { fetch(request) } returning a Response");
  const fetch = handler.fetch.bind(handler) as (request: Request) => Response | Promise<Response>;
  return async (req, res, parsed) => {
    const { toWebRequest } = await import('./node.js');
    const response = await fetch(await toWebRequest(req as IncomingMessage & AsyncIterable<unknown>, parsed));
    const headers: [string, string][] = [];
    response.headers.forEach((value, name) => headers.push([name, value]));
    res.writeHead(response.status, response.statusText, headers.flat());
    if (response.body === null) {
      res.end();
      return;
    }
    const reader = response.body.getReader();
    res.on('close', () => void reader.cancel().catch(() => undefined));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end();
  };
}

/** `isLegacyRequest`'s options. */
export interface IsLegacyRequestOptions {
  /** The body bound of the handler routed for (default `DEFAULT_MAX_REQUEST_BODY_SIZE`): a longer body is the modern path's (413). */
  maxRequestBodySize?: number;
}

/**
 * Whether `createMcpHandler`'s endpoint would serve this request as a 2025-era one (core
 * decides, by the rule it routes with: see `is_legacy_request` in core's `server::http`).
 * The body is read from a clone (the request stays readable), or taken from `parsedBody`
 * when a body parser already read it.
 */
export async function isLegacyRequest(request: Request, parsedBody?: unknown, options: IsLegacyRequestOptions = {}): Promise<boolean> {
  for (const key of Object.keys(options)) if (key !== 'maxRequestBodySize') throw new TypeError(`isLegacyRequest: unknown option '${key}'`);
  const limit = options.maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  let body = '';
  if (request.method.toUpperCase() === 'POST') {
    body = parsedBody !== undefined ? (JSON.stringify(parsedBody) ?? '') : await request.clone().text();
    if (Buffer.byteLength(body) > limit) return false;
  }
  return isLegacyHttpRequest(request.method, request.headers.get('mcp-protocol-version') ?? undefined, request.headers.has('mcp-session-id'), body);
}

