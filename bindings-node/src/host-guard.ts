/**
 * DNS rebinding guards for applications that route MCP requests through their own HTTP
 * framework (`@modelcontextprotocol/server`'s `validateHostHeader` / `validateOriginHeader`
 * and the guards the official `node`, `express` and `hono` adapters build on them).
 *
 * The engine's own endpoints (`listen()`, the Node and web-standard transports, `createMcpHandler`)
 * check `Host` and `Origin` in core (`allowedHosts` / `allowedOrigins`) before a request
 * reaches JavaScript; these helpers exist for the middleware an application composes in front
 * of them, with the official API's names, inputs and results (hostnames compared port-agnostic,
 * a missing `Origin` passes, a `403` JSON-RPC error `-32000` otherwise).
 */

export type HostHeaderValidationResult =
  | { ok: true; hostname: string }
  | { ok: false; errorCode: 'missing_host' | 'invalid_host_header' | 'invalid_host'; message: string; hostHeader?: string; hostname?: string };

export type OriginHeaderValidationResult =
  | { ok: true; origin?: string; hostname?: string }
  | { ok: false; errorCode: 'invalid_origin_header' | 'invalid_origin'; message: string; originHeader?: string; hostname?: string };

/** The host names a server bound to loopback is reached by. */
export function localhostAllowedHostnames(): string[] {
  return ['localhost', '127.0.0.1', '[::1]'];
}

/** The origin host names a server bound to loopback accepts. */
export function localhostAllowedOrigins(): string[] {
  return ['localhost', '127.0.0.1', '[::1]'];
}

export function validateHostHeader(hostHeader: string | null | undefined, allowedHostnames: string[]): HostHeaderValidationResult {
  if (!hostHeader) return { ok: false, errorCode: 'missing_host', message: 'Missing Host header' };
  let hostname: string;
  try {
    hostname = new URL(`http://${hostHeader}`).hostname;
  } catch {
    return { ok: false, errorCode: 'invalid_host_header', message: `Invalid Host header: ${hostHeader}`, hostHeader };
  }
  if (!allowedHostnames.includes(hostname)) return { ok: false, errorCode: 'invalid_host', message: `Invalid Host: ${hostname}`, hostHeader, hostname };
  return { ok: true, hostname };
}

/**
 * An absent `Origin` passes (clients other than browsers send none). `scheme://*` in the list
 * allows every origin of a non-http(s) scheme (an app's custom scheme).
 */
export function validateOriginHeader(originHeader: string | null | undefined, allowedOriginHostnames: string[]): OriginHeaderValidationResult {
  if (originHeader === null || originHeader === undefined || originHeader === '') return { ok: true };
  let url: URL;
  try {
    url = new URL(originHeader);
  } catch {
    return { ok: false, errorCode: 'invalid_origin_header', message: `Invalid Origin header: ${originHeader}`, originHeader };
  }
  const { hostname, protocol } = url;
  if (hostname === '') return { ok: false, errorCode: 'invalid_origin_header', message: `Invalid Origin header: ${originHeader}`, originHeader };
  const customScheme = protocol !== 'http:' && protocol !== 'https:' && allowedOriginHostnames.includes(`${protocol}//*`);
  if (!customScheme && !allowedOriginHostnames.includes(hostname)) return { ok: false, errorCode: 'invalid_origin', message: `Invalid Origin: ${hostname}`, originHeader, hostname };
  return { ok: true, origin: originHeader, hostname };
}

/** The body of a refused request, as the official guards answer it. */
export function guardRefusal(message: string): { jsonrpc: '2.0'; error: { code: number; message: string }; id: null } {
  return { jsonrpc: '2.0', error: { code: -32000, message }, id: null };
}

/** Web-standard guard: `undefined` when the request may proceed, else the `403` response. */
export function hostHeaderValidationResponse(req: Request, allowedHostnames: string[]): Response | undefined {
  const result = validateHostHeader(req.headers.get('host'), allowedHostnames);
  return result.ok ? undefined : Response.json(guardRefusal(result.message), { status: 403 });
}

/** Web-standard guard: `undefined` when the request may proceed, else the `403` response. */
export function originValidationResponse(req: Request, allowedOriginHostnames: string[]): Response | undefined {
  const result = validateOriginHeader(req.headers.get('origin'), allowedOriginHostnames);
  return result.ok ? undefined : Response.json(guardRefusal(result.message), { status: 403 });
}

export const LOOPBACK_BINDS = ['127.0.0.1', 'localhost', '::1'];

/** The warning the official app factories print when binding every interface unguarded. */
export function warnUnguarded(host: string): void {
  if (host === '0.0.0.0' || host === '::')
    console.warn(`Warning: Server is binding to ${host} without DNS rebinding protection. Consider using the allowedHosts option to restrict allowed hosts, or use authentication to protect your server.`);
}
