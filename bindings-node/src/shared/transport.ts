/** The official v1 path `@modelcontextprotocol/sdk/shared/transport.js`. */
export type { MessageExtraInfo, Transport, TransportSendOptions } from '../transport.js';

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** `headers` (a `Headers`, an array of pairs or a record) as a plain record. */
export function normalizeHeaders(headers: ConstructorParameters<typeof Headers>[0]): Record<string, string> {
  if (headers === undefined) return {};
  return Object.fromEntries(new Headers(headers).entries());
}

/** A fetch that applies `baseInit` under each call's own init (headers merged, the call's winning). */
export function createFetchWithInit(baseFetch: FetchLike = fetch, baseInit?: RequestInit): FetchLike {
  if (baseInit === undefined) return baseFetch;
  return (url, init) =>
    baseFetch(url, { ...baseInit, ...init, headers: { ...normalizeHeaders(baseInit.headers), ...normalizeHeaders(init?.headers) } });
}

// Redirects within an origin, as the official v1 module's helpers follow them. These wrap a
// fetch of the application's; core's own HTTP client does not go through them.

/** How many redirects a fetch from `fetchWithinOrigin` follows, at most. */
const REDIRECT_LIMIT = 5;
/** The statuses whose `Location` is a redirect to follow. */
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Whether `to` is `from`'s origin (scheme, host and port), or its https form when both use the default port. */
export function isWithinOrigin(from: URL, to: URL): boolean {
  if (from.hostname !== to.hostname) return false;
  if (from.protocol === to.protocol && from.port === to.port) return true;
  return from.protocol === 'http:' && to.protocol === 'https:' && from.port === '' && to.port === '';
}

/** Where `response` redirects to, resolved against `base`; undefined when it is no redirect or its `Location` is missing or bad. */
function redirectTo(response: Response, base: string | URL): URL | undefined {
  if (!REDIRECTS.has(response.status)) return undefined;
  const location = response.headers.get('location');
  if (!location) return undefined;
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/**
 * Follows the redirect `response` answers `url` with, through `baseFetch`, as long as each
 * one stays within the origin (at most five, and for a method other than GET only 307 and
 * 308, which keep the method and body); undefined when `response` is the answer as it is.
 */
export function followWithinOrigin(
  baseFetch: FetchLike,
  url: string | URL,
  init: RequestInit | undefined,
  response: Response,
  followed = 0,
): Promise<Response> | undefined {
  const target = redirectTo(response, url);
  if (target === undefined || followed === REDIRECT_LIMIT) return undefined;
  const keepsMethod = response.status === 307 || response.status === 308;
  if (!keepsMethod && (init?.method ?? 'GET').toUpperCase() !== 'GET') return undefined;
  const from = new URL(url);
  const hasUserinfo = target.username !== '' || target.password !== '';
  if (hasUserinfo && (target.username !== from.username || target.password !== from.password)) return undefined;
  if (!isWithinOrigin(from, target)) return undefined;
  return Promise.resolve(response.body?.cancel()).then(async () => {
    const next = await baseFetch(target, { ...init, redirect: 'manual' });
    return (await followWithinOrigin(baseFetch, target, init, next, followed + 1)) ?? next;
  });
}

/** Fetches that follow every redirect themselves, which `fetchWithinOrigin` leaves as they are. */
const leavingRedirects = new WeakSet<FetchLike>();

/** `baseFetch` (the global fetch by default) marked so that `fetchWithinOrigin` keeps it as it is (`redirectPolicy: 'follow'`). */
export function fetchLeavingRedirects(baseFetch?: FetchLike): FetchLike {
  const wrapped: FetchLike = (url, init) => (baseFetch ?? fetch)(url, init);
  leavingRedirects.add(wrapped);
  return wrapped;
}

/**
 * A fetch that follows redirects only within the request's origin (see `followWithinOrigin`)
 * and returns any other redirect response unfollowed; a request that asks for
 * `redirect: 'error'` or `'manual'` is passed through as it is.
 */
export function fetchWithinOrigin(baseFetch: FetchLike = fetch): FetchLike {
  if (leavingRedirects.has(baseFetch)) return baseFetch;
  return (url, init) => {
    if (init?.redirect === 'error' || init?.redirect === 'manual') return baseFetch(url, init);
    return Promise.resolve(baseFetch(url, { ...init, redirect: 'manual' })).then(
      (response) => followWithinOrigin(baseFetch, url, init, response) ?? response,
    );
  };
}

/**
 * Why a redirect response from `fetchWithinOrigin` was not followed, naming the target
 * without userinfo, query or fragment; undefined when `response` is no redirect.
 */
export function unfollowedRedirect(response: Response, requestUrl: string | URL): string | undefined {
  if (response.type === 'opaqueredirect') return 'Redirect not followed: this runtime does not expose the redirect target';
  const base = response.url || requestUrl;
  const target = redirectTo(response, base);
  if (target === undefined) return undefined;
  target.username = '';
  target.password = '';
  target.search = '';
  target.hash = '';
  if (target.protocol === 'http:' && new URL(base).protocol === 'https:') {
    target.protocol = 'https:';
    return `Redirect to plain http not followed; try ${target.href} instead`;
  }
  return `Redirect to ${target.href} not followed`;
}
