// The client-side benchmark's client on the official TypeScript SDK v1 line (@modelcontextprotocol/sdk 1.x).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { run } from './clientbench.mjs';

await run({ Client, StdioClientTransport, StreamableHTTPClientTransport });
