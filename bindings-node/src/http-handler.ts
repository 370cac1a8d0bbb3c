/**
 * `createMcpHandler(factory)` (official v2) and `toNodeHandler(handler)` (official
 * `@modelcontextprotocol/node`): the fetch-shaped entry of the official SDK, on core's one
 * endpoint.
 *
 * The official handler builds a server instance per request and serves 2025-era traffic
 * statelessly; core serves both eras from one server (legacy clients get sessions), so the
 * factory is called once, on the first request, with a context whose `era` and `authInfo`
 * read the request being handled (`context.ts`, `factoryContext`). `notify` and `bus`
 * are not provided: `server.sendToolListChanged()` and friends reach every listener.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { HttpServerTransport } from './http.js';
import type { HandleRequestOptions } from './http.js';
import type { StreamableHTTPServerTransportOptions } from './http-options.js';
import type { McpServer } from './mcp-server.js';
import { factoryContext } from './context.js';
import type { McpServerFactoryContext } from './context.js';

export interface CreateMcpHandlerOptions extends StreamableHTTPServerTransportOptions {
  /** `'stateless'` (the default) is accepted: core serves 2025-era clients (with sessions); `'reject'` is refused. */
  legacy?: 'stateless' | 'reject';
  /** Told about errors thrown while serving a request (reporting only). */
  onerror?: (error: Error) => void;
  /** `'auto'` (core's behaviour: JSON unless the handler sends something first) is accepted; `'sse'`/`'json'` are refused. */
  responseMode?: 'auto' | 'sse' | 'json';
}

export type McpServerFactory = (ctx: McpServerFactoryContext) => McpServer | Promise<McpServer>;

export interface McpHttpHandler {
  fetch: (request: Request, options?: HandleRequestOptions) => Promise<Response>;
  close: () => Promise<void>;
}

const NODE = Symbol('ferrymcp.serveNode');

/** One transport answering both faces. */
class HandlerTransport extends HttpServerTransport {
  web(request: Request, options?: HandleRequestOptions): Promise<Response> {
    return this.serveWeb(request, options);
  }

  node(req: IncomingMessage, res: ServerResponse, parsed?: unknown): Promise<void> {
    return this.serveNode(req, res, parsed);
  }
}

function refuse(where: string, key: string, why: string): never {
  throw new TypeError(`${where}: ${key} is not supported: ${why}`);
}

export function createMcpHandler(factory: McpServerFactory, options: CreateMcpHandlerOptions = {}): McpHttpHandler {
  const { legacy, onerror, responseMode, bus, maxSubscriptions, ...transportOptions } = options as CreateMcpHandlerOptions & Record<string, unknown>;
  if (legacy !== undefined && legacy !== 'stateless') refuse('createMcpHandler', `legacy: ${JSON.stringify(legacy)}`, 'core serves both eras on one endpoint');
  if (responseMode !== undefined && responseMode !== 'auto') refuse('createMcpHandler', `responseMode: ${JSON.stringify(responseMode)}`, "core answers JSON unless the handler sends something before its result, then SSE ('auto')");
  if (bus !== undefined) refuse('createMcpHandler', 'bus', 'list-changed notifications travel through the server (server.sendToolListChanged() and friends)');
  if (maxSubscriptions !== undefined) refuse('createMcpHandler', 'maxSubscriptions', 'core has no subscription limit setting');
  const transport = new HandlerTransport(transportOptions, 'createMcpHandler');
  let connected: Promise<void> | undefined;
  const ready = () =>
    (connected ??= Promise.resolve(factory(factoryContext())).then((server) => server.connect(transport)));
  const report = (error: unknown): never => {
    onerror?.(error instanceof Error ? error : new Error(String(error)));
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
  return Object.assign({ fetch, close: () => transport.close() }, { [NODE]: node });
}

/** `(req, res, parsedBody?)` for `http.createServer`, Express or Fastify. */
export type NodeMcpRequestHandler = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => Promise<void>;

/** A `createMcpHandler` handler as a Node request handler (no web-standard conversion: core's pipe to Node directly). */
export function toNodeHandler(handler: McpHttpHandler, options: { onerror?: (error: Error) => void } = {}): NodeMcpRequestHandler {
  const node = (handler as McpHttpHandler & { [NODE]?: NodeMcpRequestHandler })[NODE];
  if (node === undefined) throw new TypeError("toNodeHandler takes a handler made by ferrymcp's createMcpHandler");
  return async (req, res, parsedBody) => {
    try {
      await node(req, res, typeof parsedBody === 'function' ? undefined : parsedBody);
    } catch (error) {
      options.onerror?.(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) res.writeHead(500).end();
    }
  };
}
