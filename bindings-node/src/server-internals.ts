/**
 * Keys of `McpServer` members the package's own modules call and user code does not see.
 * @internal
 */

/** `server[SET_MAX_LISTEN_STREAMS](cap)`: core's cap on open `subscriptions/listen` streams (the official `maxSubscriptions`). */
export const SET_MAX_LISTEN_STREAMS: unique symbol = Symbol('ferrymcp.setMaxListenStreams');

/** `server[SET_REJECT_LEGACY](true)`: core serves 2026-07-28 clients only (the official `legacy: 'reject'`). */
export const SET_REJECT_LEGACY: unique symbol = Symbol('ferrymcp.setRejectLegacy');
