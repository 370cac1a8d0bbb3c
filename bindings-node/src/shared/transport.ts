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
