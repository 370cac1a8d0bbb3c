/**
 * `ferrymcp/server/express.js`: the path of the v1 SDK's `@modelcontextprotocol/sdk/server/express.js`.
 * v1's `createMcpExpressApp({ host, allowedHosts })` guards `Host` (not `Origin`) and parses
 * JSON bodies; any other option is refused by name.
 */
import type { Express } from 'express';
import { createApp } from '../express.js';

export interface CreateMcpExpressAppOptions {
  host?: string;
  allowedHosts?: string[];
}

const KNOWN = new Set(['host', 'allowedHosts']);

export function createMcpExpressApp(options: CreateMcpExpressAppOptions = {}): Express {
  return createApp(options, KNOWN, 'createMcpExpressApp', false);
}
