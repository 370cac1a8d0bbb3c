/**
 * The HTTP errors of the official client transports, made from the HTTP answer core
 * keeps on the error that failed a request (`data.http`: `status`, `statusText`, `body`,
 * `contentType`, and `sse`, the refused GET of the deprecated HTTP+SSE transport).
 *
 * The two official lines throw different errors for the same answer, and their `code`s
 * cannot live on one object: v1's `StreamableHTTPError` has the HTTP status as `code`
 * (`-1` for an unexpected content type), v2's `SdkHttpError` has an `SdkErrorCode` string
 * as `code` and the status as `status` (and `data.status`). ferrymcp has one client for
 * both lines, so the transport decides, by the path it was imported from:
 * `ferrymcp/client/streamableHttp.js` (v1's path) gives `StreamableHTTPError`, the
 * package roots (`ferrymcp`, `ferrymcp/client`: v2's) give `SdkHttpError` (and `SdkError`
 * for an unexpected content type), and `SSEClientTransport` gives what both lines' SSE
 * transports throw: `SseError` for the refused stream, a plain `Error` for a refused POST.
 * Every other error (the server's own JSON-RPC errors, timeouts) is left as it is.
 */
import { SdkError, SdkErrorCode, SdkHttpError } from './auth-helpers.js';
import { McpError } from './errors.js';

/** The official v1 `StreamableHTTPError`: `code` is the HTTP status (`-1`: an unexpected content type). */
export class StreamableHTTPError extends Error {
  constructor(
    readonly code: number | undefined,
    message: string | undefined,
  ) {
    super(`Streamable HTTP error: ${message}`);
  }
}

/** The error event an `SseError` carries, as the `eventsource` package makes it. */
export interface SseErrorEvent {
  type: 'error';
  code?: number;
  message?: string;
}

/** The official `SseError` (v1 and v2): the SSE stream could not be opened (`code` is the HTTP status). */
export class SseError extends Error {
  constructor(
    readonly code: number | undefined,
    message: string | undefined,
    readonly event: SseErrorEvent,
  ) {
    super(`SSE error: ${message}`);
  }
}

/** Which official errors a transport throws. */
export type HttpErrorStyle = 'v1' | 'v2' | 'sse';

/** The exchange that failed: a message's POST, or the session's DELETE. */
export type HttpExchange = 'post' | 'delete';

/** The HTTP answer core keeps on a failed request's error (`data.http`). */
interface HttpFailure {
  status: number;
  statusText: string;
  body?: string;
  contentType?: string;
  sse?: HttpFailure;
}

function failureOf(error: Error): HttpFailure | undefined {
  if (!(error instanceof McpError)) return undefined;
  const http = (error.data as { http?: HttpFailure } | undefined)?.http;
  return typeof http?.status === 'number' ? http : undefined;
}

/** `error` as the official error of a `style` transport when an HTTP answer failed it, else `error` itself. */
export function httpErrorOf(error: Error, style: HttpErrorStyle, exchange: HttpExchange = 'post'): Error {
  const failure = failureOf(error);
  if (failure === undefined) return error;
  const { status, statusText, body = '' } = failure;
  const unexpected = status >= 200 && status < 300 && exchange === 'post';
  if (style === 'sse') {
    const stream = failure.sse;
    if (stream !== undefined) {
      const message = `Non-200 status code (${stream.status})`;
      return new SseError(stream.status, message, { type: 'error', code: stream.status, message });
    }
    if (exchange === 'post' && !unexpected) return new Error(`Error POSTing to endpoint (HTTP ${status}): ${body}`);
  }
  if (style === 'v2') {
    if (unexpected) {
      const contentType = failure.contentType ?? null;
      return new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, `Unexpected content type: ${contentType}`, { contentType });
    }
    if (exchange === 'delete') {
      return new SdkHttpError(SdkErrorCode.ClientHttpFailedToTerminateSession, `Failed to terminate session: ${statusText}`, { status, statusText });
    }
    return new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${body}`, { status, statusText, text: body });
  }
  if (unexpected) return new StreamableHTTPError(-1, `Unexpected content type: ${failure.contentType ?? null}`);
  if (exchange === 'delete') return new StreamableHTTPError(status, `Failed to terminate session: ${statusText}`);
  return new StreamableHTTPError(status, `Error POSTing to endpoint: ${body}`);
}
