/**
 * The official bearer gate in front of an MCP endpoint: `verifyBearerToken`,
 * `bearerAuthChallengeResponse` and `requireBearerAuth` (the web-standard one of
 * `@modelcontextprotocol/server`, the Express middleware of `@modelcontextprotocol/express`
 * and of v1's `server/auth/middleware/bearerAuth.js`).
 *
 * The policy is core's, the same as on the endpoints it protects itself (the transports'
 * `auth` option): the verifier only says what a token is; core decides the answer (no
 * token, an unknown or expired token: 401 `invalid_token`; a required scope missing: 403
 * `insufficient_scope`), its JSON body and its `WWW-Authenticate` challenge. The accepted
 * token then reaches the handlers as `ctx.authInfo` / `extra.authInfo` through
 * `handler.fetch(request, { authInfo })` or, on Node, `req.auth` read by `toNodeHandler` and
 * the transports' `handleRequest`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { OAuthError, OAuthErrorCode } from './auth-helpers.js';
import { invalidOption } from './errors.js';
import { verdictOf } from './http-options.js';
import type { AuthInfo, TokenVerifier } from './http-options.js';
import { bearerAuthorize, bearerChallenge } from './native.js';

/** The official gate's options (`BearerGateOptions` of `@modelcontextprotocol/server`). */
export interface BearerGateOptions {
  verifier: TokenVerifier;
  /** Scopes every accepted token must carry (403 naming the first one missing). */
  requiredScopes?: string[];
  /** Named in the `WWW-Authenticate` challenge (`resource_metadata`, RFC 9728). */
  resourceMetadataUrl?: string | URL;
  /** How long the verifier may take before the token is refused (ferrymcp; 10 s by default). */
  verifyTimeoutMs?: number;
}
export type BearerAuthMiddlewareOptions = BearerGateOptions;

/** The answer core decided for a refused token, kept on the `OAuthError` thrown for it. */
const REFUSAL = Symbol('ferrymcp.bearerRefusal');
interface Refusal {
  status: number;
  wwwAuthenticate: string | null;
  body: string;
}
type Verdict = { ok: true; authInfo: Record<string, unknown> } | ({ ok: false } & Refusal);

interface Gate {
  check(authorization: string | null | undefined): Promise<AuthInfo>;
  requiredScopes: string[];
  resourceMetadataUrl?: string;
}

function gate(options: BearerGateOptions, where: string): Gate {
  if (typeof options !== 'object' || options === null) invalidOption(where, 'options must be { verifier, requiredScopes?, resourceMetadataUrl? }');
  for (const key of Object.keys(options)) {
    if (!['verifier', 'requiredScopes', 'resourceMetadataUrl', 'verifyTimeoutMs'].includes(key)) invalidOption(where, `unknown option ${key}`);
  }
  const requiredScopes = options.requiredScopes ?? [];
  if (!Array.isArray(requiredScopes) || requiredScopes.some((s) => typeof s !== 'string')) invalidOption(where, 'requiredScopes must be an array of strings');
  const timeout = options.verifyTimeoutMs;
  if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout <= 0 || timeout > 0xffffffff)) {
    invalidOption(where, 'verifyTimeoutMs must be a whole number of milliseconds > 0');
  }
  const resourceMetadataUrl = options.resourceMetadataUrl === undefined ? undefined : String(options.resourceMetadataUrl);
  const verify = verdictOf(options.verifier, `${where}: verifier`, requiredScopes.join(' '));
  return {
    requiredScopes,
    resourceMetadataUrl,
    async check(authorization) {
      const verdict = JSON.parse(await bearerAuthorize(verify, requiredScopes, authorization ?? undefined, resourceMetadataUrl, timeout)) as Verdict;
      if (verdict.ok) return authInfoOf(verdict.authInfo);
      const body = JSON.parse(verdict.body) as { error: string; error_description?: string };
      const error = new OAuthError(body.error, body.error_description ?? body.error);
      Object.defineProperty(error, REFUSAL, { value: { status: verdict.status, wwwAuthenticate: verdict.wwwAuthenticate, body: verdict.body } });
      throw error;
    },
  };
}

/** Core's `AuthInfo` (JSON) as the official type (`resource` a URL). */
function authInfoOf(json: Record<string, unknown>): AuthInfo {
  const { resource, ...rest } = json;
  const info = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== null)) as unknown as AuthInfo;
  return typeof resource === 'string' ? { ...info, resource: new URL(resource) } : info;
}

/** @internal A handler's `authInfo` as core takes it (JSON, `resource` a string). */
export function authInfoJson(info: unknown, where: string): string | undefined {
  if (info === undefined || info === null) return undefined;
  const given = info as Partial<AuthInfo> & { resource?: unknown };
  if (typeof given !== 'object' || typeof given.token !== 'string') throw new TypeError(`${where}: authInfo must be an AuthInfo ({ token, clientId, scopes, ... })`);
  return JSON.stringify({
    token: given.token,
    clientId: typeof given.clientId === 'string' ? given.clientId : '',
    scopes: Array.isArray(given.scopes) ? given.scopes.map(String) : [],
    expiresAt: typeof given.expiresAt === 'number' && Number.isFinite(given.expiresAt) ? Math.floor(given.expiresAt) : undefined,
    resource: given.resource === undefined ? undefined : String(given.resource),
    extra: given.extra,
  });
}

/** The request's token, accepted by core's policy, or an `OAuthError` saying why not. */
export async function verifyBearerToken(authorizationHeader: string | null | undefined, options: BearerGateOptions): Promise<AuthInfo> {
  return gate(options, 'verifyBearerToken').check(authorizationHeader);
}

function refusalOf(error: unknown, options?: Pick<BearerGateOptions, 'resourceMetadataUrl'>): Refusal {
  const decided = (error as { [REFUSAL]?: Refusal } | undefined)?.[REFUSAL];
  if (decided !== undefined) return decided;
  const url = options?.resourceMetadataUrl === undefined ? undefined : String(options.resourceMetadataUrl);
  if (!(error instanceof OAuthError)) return JSON.parse(bearerChallenge(OAuthErrorCode.ServerError, 'Internal Server Error', undefined, url)) as Refusal;
  const scope = error.code === OAuthErrorCode.InsufficientScope ? (error as { scope?: unknown }).scope : undefined;
  return JSON.parse(bearerChallenge(error.code, error.message, typeof scope === 'string' ? scope : undefined, url)) as Refusal;
}

/** The response for a refused token (`error` as `verifyBearerToken` threw it), as core answers it. */
export function bearerAuthChallengeResponse(error: unknown, options?: Pick<BearerGateOptions, 'requiredScopes' | 'resourceMetadataUrl'>): Response {
  const refusal = refusalOf(error, options);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (refusal.wwwAuthenticate) headers['www-authenticate'] = refusal.wwwAuthenticate;
  return new Response(refusal.body, { status: refusal.status, headers });
}

/** The web-standard gate (`@modelcontextprotocol/server`): the request's `AuthInfo`, or the refusal `Response`. */
export function requireBearerAuth(options: BearerGateOptions): (request: Request) => Promise<AuthInfo | Response> {
  const checker = gate(options, 'requireBearerAuth');
  return async (request) => {
    const [header] = (request.headers.get('authorization') ?? '').split(',');
    try {
      return await checker.check(header || undefined);
    } catch (error) {
      return bearerAuthChallengeResponse(error, checker);
    }
  };
}

type Next = (error?: unknown) => void;

/** The Express middleware (`@modelcontextprotocol/express`, v1's `bearerAuth.js`): sets `req.auth`, or answers the refusal. */
export function requireBearerAuthMiddleware(options: BearerAuthMiddlewareOptions): (req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse, next: Next) => Promise<void> {
  const checker = gate(options, 'requireBearerAuth');
  return async (req, res, next) => {
    let auth: AuthInfo;
    try {
      auth = await checker.check(req.headers.authorization);
    } catch (error) {
      const refusal = refusalOf(error, checker);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (refusal.wwwAuthenticate) headers['www-authenticate'] = refusal.wwwAuthenticate;
      res.writeHead(refusal.status, headers).end(refusal.body);
      return;
    }
    req.auth = auth;
    next();
  };
}
