// The benchmark's echo server on the official TypeScript SDK v1 line (@modelcontextprotocol/sdk
// 1.x, what most Node servers in the wild run): the same tools as echo-official.mjs (v2).
// Over HTTP its own StreamableHTTPServerTransport serves legacy sessions; the v1 line has no
// 2026-07-28 stateless handler, so the matrix runs no `modern` HTTP scenario for it.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';

import { serve } from './serve.mjs';

await serve({ McpServer, StdioServerTransport }, z, { NodeStreamableHTTPServerTransport: StreamableHTTPServerTransport });
