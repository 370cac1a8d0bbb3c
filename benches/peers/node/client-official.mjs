// The client-side benchmark's client on the official TypeScript SDK v2 (@modelcontextprotocol/client).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { run } from './clientbench.mjs';

await run({ Client, StdioClientTransport, StreamableHTTPClientTransport });
