/**
 * `ferrymcp/server/sseKeepAlive.js`: the official v1 module's SSE keep-alive timer. The
 * default interval is core's (its HTTP endpoint's keep-alive comment interval).
 */
import { vocabulary } from '../native.js';

/** How often core's HTTP endpoint writes a keep-alive comment on an idle SSE stream. */
export const DEFAULT_SSE_KEEP_ALIVE_MS: number = vocabulary.defaults.sseKeepAliveMs;

/** The longest delay a Node timer takes (a longer one fires at once). */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `onTick` every `intervalMs` (at most the longest timer delay) on a timer that does
 * not keep the process alive; no timer (undefined) when `intervalMs` is not a finite
 * number of at least 1.
 */
export function armSseKeepAlive(intervalMs: number, onTick: () => void): ReturnType<typeof setInterval> | undefined {
  if (!(Number.isFinite(intervalMs) && intervalMs >= 1)) return undefined;
  const timer = setInterval(onTick, intervalMs > LONGEST_TIMER_MS ? LONGEST_TIMER_MS : intervalMs);
  timer.unref?.();
  return timer;
}
