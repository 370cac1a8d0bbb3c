// The benchmark's echo server on the official TypeScript SDK v2 (@modelcontextprotocol/server).
import * as node from '@modelcontextprotocol/node';
import * as sdk from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

import { serve } from './serve.mjs';

await serve({ ...sdk, StdioServerTransport }, z, node);
