// The client-side benchmark's client on ferrymcp's npm package: client-official.mjs (v2)
// with its imports changed to 'ferrymcp'.
import { Client, StreamableHTTPClientTransport } from 'ferrymcp';
import { StdioClientTransport } from 'ferrymcp/stdio';

import { run } from './clientbench.mjs';

await run({ Client, StdioClientTransport, StreamableHTTPClientTransport });
