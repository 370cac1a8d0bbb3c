/**
 * `ferrymcp/client/streamableHttp.js`: the v1 path of `StreamableHTTPClientTransport`,
 * whose HTTP failures are v1's `StreamableHTTPError` (`code`: the HTTP status; see
 * http-errors.ts). The package roots' transport (v2's path) throws `SdkHttpError`.
 */
import { StreamableHTTPClientTransport as Transport } from '../http-client.js';
import type { HttpErrorStyle } from '../http-errors.js';

export type { AuthProvider, StreamableHTTPClientTransportOptions } from '../http-client.js';
export { StreamableHTTPError } from '../http-errors.js';

/** The Streamable HTTP transport, for `Client.connect()`; its HTTP errors are v1's. */
export class StreamableHTTPClientTransport extends Transport {
  protected override readonly httpErrors: HttpErrorStyle = 'v1';
}
