/**
 * `ferrymcp/client/middleware.js`: the v1 fetch middleware helpers. They compose plain
 * `fetch` functions and work as there; note that ferrymcp's HTTP transports do not take a
 * `fetch` (core makes its own requests), so these serve a program's own requests.
 * `withOAuth` is refused by name: core runs OAuth for the transports (`authProvider`).
 */
import { UNSUPPORTED, placeholder } from '../auth-helpers.js';
import type { FetchLike } from '../shared/transport.js';

/** Wraps a fetch function in another. */
export type Middleware = (next: FetchLike) => FetchLike;

/** What {@link withLogging} reports of each request. */
export interface RequestLogEntry {
  method: string;
  url: string;
  status: number;
  statusText: string;
  duration: number;
  requestHeaders?: Headers;
  responseHeaders?: Headers;
  error?: Error;
}

export interface LoggingOptions {
  /** Called with each entry (default: one line to the console, errors and statuses >= 400 to stderr). */
  logger?: (entry: RequestLogEntry) => void;
  includeRequestHeaders?: boolean;
  includeResponseHeaders?: boolean;
  /** Only responses with at least this status are logged (failures always are). */
  statusLevel?: number;
}

/** The middlewares as one: applied in order, each wrapping the result so far (the first sits nearest the given fetch). */
export const applyMiddlewares =
  (...middleware: Middleware[]): Middleware =>
  (next) =>
    middleware.reduce((handler, wrap) => wrap(handler), next);

/** A middleware from `handler(next, input, init)`. */
export const createMiddleware =
  (handler: (next: FetchLike, input: string | URL, init?: RequestInit) => Promise<Response>): Middleware =>
  (next) =>
  (input, init) =>
    handler(next, input, init);

const headerText = (headers: Headers): string => [...headers.entries()].map(([name, value]) => `${name}: ${value}`).join(', ');

/** Logs each request's method, URL, status and duration (see {@link LoggingOptions}). */
export const withLogging = (options: LoggingOptions = {}): Middleware => {
  const { includeRequestHeaders = false, includeResponseHeaders = false, statusLevel = 0 } = options;
  const log =
    options.logger ??
    ((entry: RequestLogEntry) => {
      let line = entry.error
        ? `HTTP ${entry.method} ${entry.url} failed: ${entry.error.message} (${entry.duration}ms)`
        : `HTTP ${entry.method} ${entry.url} ${entry.status} ${entry.statusText} (${entry.duration}ms)`;
      if (includeRequestHeaders && entry.requestHeaders) line += `\n  Request Headers: {${headerText(entry.requestHeaders)}}`;
      if (includeResponseHeaders && entry.responseHeaders) line += `\n  Response Headers: {${headerText(entry.responseHeaders)}}`;
      if (entry.error || entry.status >= 400) console.error(line);
      else console.log(line);
    });
  return (next) => async (input, init) => {
    const started = performance.now();
    const method = init?.method ?? 'GET';
    const url = typeof input === 'string' ? input : input.toString();
    const requestHeaders = includeRequestHeaders ? new Headers(init?.headers) : undefined;
    try {
      const response = await next(input, init);
      if (response.status >= statusLevel) {
        const responseHeaders = includeResponseHeaders ? response.headers : undefined;
        log({ method, url, status: response.status, statusText: response.statusText, duration: performance.now() - started, requestHeaders, responseHeaders });
      }
      return response;
    } catch (error) {
      log({ method, url, status: 0, statusText: 'Network Error', duration: performance.now() - started, requestHeaders, error: error as Error });
      throw error;
    }
  };
};

export const withOAuth: ((...args: unknown[]) => never) & { [UNSUPPORTED]: string } = placeholder('withOAuth', 'core runs OAuth for the HTTP transports: pass authProvider to StreamableHTTPClientTransport');
