/**
 * `ferrymcp/server/requestBody.js`: the official v1 module's request body helpers. The
 * limit, the batch cap and the 413 wording are core's (core reads and caps the bodies of its
 * own HTTP endpoint; these serve an application's own routes and the adapters here).
 */
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '../guards.js';
import { vocabulary } from '../native.js';

export { DEFAULT_MAX_REQUEST_BODY_SIZE };

/** The most messages one JSON-RPC batch may hold (core refuses a longer one with 400, -32600). */
export const MAX_BATCH_SIZE: number = vocabulary.defaults.maxBatchSize;

/** The message core answers with 413 for a request body over `maxBytes`. */
export function requestBodyTooLargeMessage(maxBytes: number): string {
  return vocabulary.bodyTooLargeTemplate.replace('{limit}', () => `${maxBytes}`);
}

/**
 * The body limit a `maxRequestBodySize` option sets: the default when it is undefined, the
 * value itself when it is a positive finite number; a `RangeError` otherwise.
 */
export function resolveMaxRequestBodySize(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_REQUEST_BODY_SIZE;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  throw new RangeError(`maxRequestBodySize must be a positive number of bytes, got ${String(value)}`);
}

/**
 * The body of `request` as text, or `{ tooLarge: true }` once it is known to exceed
 * `maxBytes`: at once from a declared `Content-Length`, otherwise as soon as more bytes
 * than that have arrived (the rest is not read). A failing stream rejects.
 */
export async function readRequestBody(
  request: Request,
  maxBytes: number = DEFAULT_MAX_REQUEST_BODY_SIZE,
): Promise<{ tooLarge: true } | { tooLarge: false; text: string }> {
  if (Number(request.headers.get('content-length')) > maxBytes) return { tooLarge: true };
  if (request.body === null) return { tooLarge: false, text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      length += read.value.byteLength;
      if (length > maxBytes) return { tooLarge: true };
      chunks.push(read.value);
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { tooLarge: false, text: new TextDecoder().decode(bytes) };
}
