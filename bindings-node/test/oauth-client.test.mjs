// The client's OAuth under the official names (`authProvider` with an
// `OAuthClientProvider`, `UnauthorizedError`, `transport.finishAuth()`), against a real
// authorization server this project did not write: the official Python SDK's
// authorization-server routes in front of an MCP server (tests/http_client/
// official_python_oauth.py under uvicorn, on the repository's venv: FERRYMCP_ROOT), on a
// random port. The user's side is the official example's in-memory provider shape; its
// redirectToAuthorization only records the URL, and the test plays the user's browser by
// fetching it (the fixture approves at once and redirects with the code).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { URLSearchParams } from 'node:url';
import { after, before, test } from 'node:test';

import { createServer as createHttpServer } from 'node:http';

import { IssuerMismatchError as OfficialIssuerMismatchError } from '@modelcontextprotocol/client';
import {
  Client,
  ClientCredentialsProvider,
  IssuerMismatchError,
  OAuthClientFlowError,
  PrivateKeyJwtProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  extractWWWAuthenticateParams,
} from 'ferrymcp';
import { UnauthorizedError as V1UnauthorizedError } from 'ferrymcp/client/auth.js';
import { ClientCredentialsProvider as V1ClientCredentialsProvider } from 'ferrymcp/client/auth-extensions.js';
import { officialPythonPeer } from './helpers.mjs';

const CALLBACK = 'http://127.0.0.1:1/callback';

/** The official Python SDK's OAuth-protected server, answering once it listens. */
const officialPythonOAuth = (tokenSeconds = 3600) => officialPythonPeer('tests/http_client/official_python_oauth.py', [String(tokenSeconds)]);

/** The official example's `InMemoryOAuthClientProvider`, recording what the SDK asks of it. */
class InMemoryOAuthClientProvider {
  constructor(metadata = {}) {
    this.clientMetadata = {
      client_name: 'ferrymcp-oauth-test',
      redirect_uris: [CALLBACK],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: 'mcp notes:write',
      ...metadata,
    };
    this.redirects = [];
    this.invalidated = [];
    /** Seconds the provider's clock is ahead (a token stored, then read back later). */
    this.later = 0;
  }
  get redirectUrl() {
    return CALLBACK;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info) {
    this.client = info;
  }
  tokens() {
    if (this.stored === undefined) return undefined;
    const { tokens, at } = this.stored;
    const elapsed = Math.floor((Date.now() - at) / 1000) + this.later;
    return { ...tokens, expires_in: Math.max(0, tokens.expires_in - elapsed) };
  }
  saveTokens(tokens) {
    this.stored = { tokens, at: Date.now() };
    this.later = 0;
  }
  redirectToAuthorization(url) {
    assert.ok(url instanceof URL);
    this.redirects.push(url);
  }
  saveCodeVerifier(verifier) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('No code verifier saved');
    return this.verifier;
  }
  saveDiscoveryState(state) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  invalidateCredentials(scope) {
    this.invalidated.push(scope);
    if (scope === 'all' || scope === 'tokens') this.stored = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
  }
}

/** The user's browser: follows the authorization URL to the redirect, returns its query. */
async function approve(url) {
  const response = await fetch(url, { redirect: 'manual' });
  assert.equal(response.status, 302, await response.text());
  return new URL(response.headers.get('location')).searchParams;
}

async function connect(server, provider) {
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider }));
  return client;
}

const text = async (client, name, args = {}) => (await client.callTool({ name, arguments: args })).content[0].text;
const stats = async (client) => JSON.parse(await text(client, 'stats'));

let server;
before(async () => {
  server = await officialPythonOAuth();
});
after(() => server?.stop());

test('connect() redirects and throws UnauthorizedError; finishAuth() then a new connection works', async () => {
  const provider = new InMemoryOAuthClientProvider();
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  const refused = await client.connect(transport).then(
    () => assert.fail('connected without a token'),
    (error) => error,
  );
  assert.ok(refused instanceof UnauthorizedError, String(refused));
  assert.ok(refused instanceof V1UnauthorizedError);
  assert.equal(refused.redirected, true);

  assert.equal(provider.redirects.length, 1);
  const url = provider.redirects[0];
  assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(url.searchParams.get('code_challenge').length, 43);
  assert.equal(url.searchParams.get('resource'), server.url);
  assert.equal(url.searchParams.get('redirect_uri'), CALLBACK);
  assert.equal(url.searchParams.get('scope'), 'mcp');
  assert.ok(provider.client?.client_id, 'registered dynamically and saved');
  assert.equal(url.searchParams.get('client_id'), provider.client.client_id);
  assert.equal(provider.verifier?.length, 43, 'saveCodeVerifier got the PKCE verifier');
  assert.equal(provider.discovery?.authorizationServerUrl.replace(/\/$/, ''), server.base);
  assert.equal(provider.discovery?.resourceMetadata?.resource, server.url);

  const callback = await approve(url);
  await transport.finishAuth(callback);
  assert.equal(provider.stored.tokens.token_type, 'Bearer');

  const connected = await connect(server, provider);
  assert.equal(await text(connected, 'whoami'), 'mcp');
  await connected.close();
});

test('tokens are reused on reconnect, refreshed when stored ones expired, and a step-up redirects again', async () => {
  const provider = new InMemoryOAuthClientProvider();
  const first = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
  await assert.rejects(new Client({ name: 'oauth-test', version: '1.0.0' }).connect(first), UnauthorizedError);
  await first.finishAuth((await approve(provider.redirects[0])).get('code'));
  const counting = await connect(server, provider);
  const before = await stats(counting);
  await counting.close();

  // A new connection with the stored tokens: no redirect, no new authorization.
  const again = await connect(server, provider);
  assert.equal(await text(again, 'whoami'), 'mcp');
  assert.equal(provider.redirects.length, 1);
  assert.equal((await stats(again)).authorizations, before.authorizations);
  await again.close();

  // Read back an hour later, the stored token has expired: refreshed, not reauthorized.
  const old = provider.stored.tokens.access_token;
  provider.later = 3600;
  const refreshed = await connect(server, provider);
  assert.equal(await text(refreshed, 'whoami'), 'mcp');
  const seen = await stats(refreshed);
  assert.equal(seen.refreshes, before.refreshes + 1, JSON.stringify(seen));
  assert.equal(seen.authorizations, before.authorizations);
  assert.notEqual(provider.stored.tokens.access_token, old);
  assert.equal(provider.redirects.length, 1);

  // write_note needs notes:write: 403 insufficient_scope, a new authorization for both
  // scopes, so the call throws UnauthorizedError after the redirect.
  await assert.rejects(text(refreshed, 'write_note', { text: 'hi' }), (error) => error instanceof UnauthorizedError && error.redirected);
  assert.equal(provider.redirects.length, 2);
  assert.equal(provider.redirects[1].searchParams.get('scope'), 'mcp notes:write');
  await refreshed.close();
});

test('finishAuth() on a new transport finishes with the verifier and discovery the provider kept', async () => {
  // No scope in the client metadata (as in the official example): the client registers
  // for the scope it asks for, which this authorization server then allows.
  const provider = new InMemoryOAuthClientProvider({ scope: undefined });
  await assert.rejects(connect(server, provider), UnauthorizedError);
  const callback = await approve(provider.redirects[0]);
  const other = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
  await other.finishAuth(callback);
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(other);
  assert.equal(await text(client, 'whoami'), 'mcp');
  await client.close();
});

test('a code the authorization server does not know fails finishAuth() with its OAuth error', async () => {
  const provider = new InMemoryOAuthClientProvider();
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
  await assert.rejects(new Client({ name: 'oauth-test', version: '1.0.0' }).connect(transport), UnauthorizedError);
  await assert.rejects(transport.finishAuth('not-a-code'), (error) => {
    assert.ok(error instanceof UnauthorizedError);
    assert.match(error.message, /invalid_grant/);
    return true;
  });
  assert.equal(provider.stored, undefined);
});

test('a redirect whose iss is not the authorization server fails finishAuth() with IssuerMismatchError (RFC 9207)', async () => {
  const provider = new InMemoryOAuthClientProvider();
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
  await assert.rejects(new Client({ name: 'oauth-test', version: '1.0.0' }).connect(transport), UnauthorizedError);
  const callback = await approve(provider.redirects[0]);
  callback.set('iss', 'https://mix-up.example/');
  await assert.rejects(transport.finishAuth(callback), (error) => {
    assert.ok(error instanceof IssuerMismatchError, String(error));
    assert.ok(error instanceof OAuthClientFlowError);
    assert.ok(!(error instanceof UnauthorizedError));
    assert.equal(error.name, 'IssuerMismatchError');
    assert.equal(error.code, -32000);
    assert.equal(error.kind, 'authorization_response');
    assert.equal(error.received, 'https://mix-up.example/');
    assert.equal(error.expected.replace(/\/$/, ''), server.base);
    // The official class's message for the same fields.
    assert.equal(error.message, new OfficialIssuerMismatchError(error.kind, error.expected, error.received).message);
    return true;
  });
  assert.equal(provider.stored, undefined, 'no token was asked for');
});

/** A protected resource whose authorization server's metadata names another issuer. */
async function mixedUpServer() {
  const http = createHttpServer((request, response) => {
    const base = `http://127.0.0.1:${http.address().port}`;
    const json = (body) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (request.url === '/.well-known/oauth-protected-resource/mcp') return json({ resource: `${base}/mcp`, authorization_servers: [`${base}/tenant`] });
    if (request.url === '/.well-known/oauth-authorization-server/tenant') {
      return json({
        issuer: 'https://other-tenant.example/tenant',
        authorization_endpoint: `${base}/tenant/authorize`,
        token_endpoint: `${base}/tenant/token`,
        registration_endpoint: `${base}/tenant/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (request.url === '/mcp') {
      return response.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` }).end();
    }
    response.writeHead(404).end();
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  return { url: `http://127.0.0.1:${http.address().port}/mcp`, base: `http://127.0.0.1:${http.address().port}`, close: () => http.close() };
}

test('authorization server metadata naming another issuer fails connect() with IssuerMismatchError (RFC 8414)', async () => {
  const mixedUp = await mixedUpServer();
  try {
    const provider = new InMemoryOAuthClientProvider();
    await assert.rejects(connect(mixedUp, provider), (error) => {
      assert.ok(error instanceof IssuerMismatchError, String(error));
      assert.equal(error.kind, 'metadata');
      assert.equal(error.code, -32000);
      assert.equal(error.received, 'https://other-tenant.example/tenant');
      assert.equal(error.expected.replace(/\/$/, ''), `${mixedUp.base}/tenant`);
      assert.equal(error.message, new OfficialIssuerMismatchError(error.kind, error.expected, error.received).message);
      return true;
    });
    assert.equal(provider.redirects.length, 0, 'the user was not sent anywhere');
    assert.equal(provider.client, undefined, 'nothing was registered');
  } finally {
    mixedUp.close();
  }
});

test('the client-credentials grant authenticates the registered client at the token endpoint', async () => {
  // Neither official authorization server implements the client_credentials grant. The
  // Python one authenticates the client first (client_secret_basic here), then refuses
  // the grant: invalid_client for a wrong secret, invalid_request for a right one.
  const registered = await fetch(`${server.base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [CALLBACK], client_name: 'cc', token_endpoint_auth_method: 'client_secret_basic', scope: 'mcp' }),
  }).then((r) => r.json());
  assert.equal(V1ClientCredentialsProvider, ClientCredentialsProvider);
  const wrong = new ClientCredentialsProvider({ clientId: registered.client_id, clientSecret: 'wrong', scope: 'mcp' });
  await assert.rejects(connect(server, wrong), (error) => {
    assert.ok(error instanceof UnauthorizedError, String(error));
    assert.equal(error.redirected, false);
    assert.match(error.message, /HTTP 401.*invalid_client: Invalid client_secret/);
    return true;
  });
  const right = new ClientCredentialsProvider({ clientId: registered.client_id, clientSecret: registered.client_secret, scope: 'mcp' });
  await assert.rejects(connect(server, right), (error) => {
    assert.ok(error instanceof UnauthorizedError, String(error));
    assert.match(error.message, /HTTP 400.*invalid_request.*grant_type/s);
    return true;
  });
  assert.equal(right.tokens(), undefined);
});

test('members and providers core does not run are refused by name', async () => {
  const withAuth = Object.assign(new InMemoryOAuthClientProvider(), { addClientAuthentication: () => {} });
  await assert.rejects(connect(server, withAuth), (error) => error.code === 'ERR_FERRYMCP_OAUTH_UNSUPPORTED' && /addClientAuthentication/.test(error.message));
  const withResource = Object.assign(new InMemoryOAuthClientProvider(), { validateResourceURL: async () => undefined });
  await assert.rejects(connect(server, withResource), /validateResourceURL/);
  const jwtGrant = Object.assign(new InMemoryOAuthClientProvider(), {
    prepareTokenRequest: () => new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: 'x' }),
  });
  await assert.rejects(connect(server, jwtGrant), /prepareTokenRequest/);
  assert.throws(() => new PrivateKeyJwtProvider({ clientId: 'a', privateKey: 'k', algorithm: 'RS256' }), (error) => error.code === 'ERR_FERRYMCP_OAUTH_UNSUPPORTED' && /private_key_jwt/.test(error.message));
  assert.throws(() => new ClientCredentialsProvider({ clientId: 'a', clientSecret: 'b', expectedIssuer: 'https://as' }), /expectedIssuer/);
});

test('extractWWWAuthenticateParams reads the challenge of a real 401', async () => {
  const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
  assert.equal(response.status, 401);
  const params = extractWWWAuthenticateParams(response);
  assert.equal(params.resourceMetadataUrl?.href, `${server.base}/.well-known/oauth-protected-resource/mcp`);
  assert.equal(params.error, 'invalid_token');
});
