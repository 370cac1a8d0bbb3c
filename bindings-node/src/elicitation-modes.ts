/**
 * `getSupportedElicitationModes`, as `@modelcontextprotocol/client` (v2) and
 * `@modelcontextprotocol/sdk/client/index.js` (v1) export it: the modes a client's
 * `elicitation` capability admits, read by core (the rule the client itself applies to an
 * incoming `elicitation/create`).
 */
import { supportedElicitationModes } from './native.js';

export function getSupportedElicitationModes(capabilities: Record<string, unknown> | undefined): {
  supportsFormMode: boolean;
  supportsUrlMode: boolean;
} {
  const { supportsFormMode, supportsUrlMode } = supportedElicitationModes(capabilities === undefined || capabilities === null ? undefined : JSON.stringify(capabilities));
  return { supportsFormMode, supportsUrlMode };
}
