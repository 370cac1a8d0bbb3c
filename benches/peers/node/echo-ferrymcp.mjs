// The benchmark's echo server on ferrymcp's npm package: the official server's code with
// its imports changed to 'ferrymcp'. Over HTTP (`http PORT`) it serves 127.0.0.1:PORT/mcp
// with `server.listen()`, core's built-in server (both eras on one endpoint), instead of
// the official per-session transports and createMcpHandler wiring, which ferrymcp's one
// endpoint replaces.
import * as sdk from 'ferrymcp';
import { StdioServerTransport } from 'ferrymcp/stdio';
import * as z from 'zod';

import { echoServer, serve } from './serve.mjs';

const [transport, port] = process.argv.slice(2);
if (transport === 'http') {
  await echoServer(sdk, z).listen({ host: '127.0.0.1', port: Number(port) });
} else {
  await serve({ ...sdk, StdioServerTransport }, z);
}
