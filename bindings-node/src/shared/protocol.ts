/**
 * `ferrymcp/shared/protocol.js`: the v1 path's runtime names. `Protocol`, the official
 * base class of `Client` and `Server`, has no counterpart (core runs the protocol; extend
 * `Client` or `Server` instead): constructing it throws `ERR_FERRYMCP_UNSUPPORTED`.
 */
import { FerrymcpUnsupportedError, UNSUPPORTED } from '../auth-helpers.js';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '../guards.js';

export { DEFAULT_REQUEST_TIMEOUT_MSEC };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `additional`'s capabilities over `base`'s, one level deep: an object under the same key
 * is merged key by key, anything else replaces; `undefined` values are skipped.
 */
export function mergeCapabilities<T extends object>(base: T, additional: Partial<T>): T {
  const result: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(additional)) {
    if (value === undefined) continue;
    const before = result[key];
    result[key] = isPlainObject(before) && isPlainObject(value) ? { ...before, ...value } : value;
  }
  return result as T;
}

const WHY = 'core runs the protocol (ids, timeouts, progress, cancellation); extend Client or Server instead';

/** Refused at construction (see the module comment). */
export abstract class Protocol {
  static readonly [UNSUPPORTED] = WHY;

  constructor(..._args: unknown[]) {
    throw new FerrymcpUnsupportedError('Protocol', WHY);
  }
}
