// The official standalone OAuth client functions from `ferrymcp/client/auth.js` (v1) and
// `ferrymcp/client` (v2), on core's steps, each called beside the official v1 function on
// the same inputs against one real authorization server (node:http, 127.0.0.1): what
// they answer (URLs, metadata, tokens, registrations), what the server received (the
// requests in order, token forms, registration bodies, client authentication) and how they
// fail (error class and message).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { URLSearchParams } from 'node:url';

import * as official from '@modelcontextprotocol/sdk/client/auth.js';
import * as officialV2 from '@modelcontextprotocol/client';
import * as ferry from 'ferrymcp/client/auth.js';
import * as ferryV2 from 'ferrymcp/client';
import { OAuthUnsupportedError } from 'ferrymcp';

let server;
let base;
const seen = [];

const json = (response, status, value) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(typeof value === 'string' ? value : JSON.stringify(value));
};

async function body(request) {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

const prm = () => ({ resource: `${base}/mcp`, authorization_servers: [`${base}/tenant`], scopes_supported: ['read', 'write'] });
const oauthMetadata = (extra = {}) => ({
  issuer: base,
  authorization_endpoint: `${base}/authorize`,
  token_endpoint: `${base}/token`,
  registration_endpoint: `${base}/register`,
  response_types_supported: ['code'],
  code_challenge_methods_supported: ['S256'],
  ...extra,
});
const oidcMetadata = () => ({
  issuer: `${base}/tenant`,
  authorization_endpoint: `${base}/tenant/authorize`,
  token_endpoint: `${base}/tenant/token`,
  jwks_uri: `${base}/tenant/jwks`,
  response_types_supported: ['code'],
  subject_types_supported: ['public'],
  id_token_signing_alg_values_supported: ['RS256'],
  code_challenge_methods_supported: ['S256'],
});

// What the token endpoint answers, by the grant's code or refresh token.
function token(params) {
  if (params.code === 'bad' || params.refresh_token === 'bad') return [400, { error: 'invalid_grant', error_description: 'the code is spent' }];
  if (params.code === 'broken') return [500, 'not json at all'];
  if (params.code === 'odd') return [400, { error: 'made_up_error', error_description: 'unheard of', error_uri: 'https://as/errors' }];
  if (params.refresh_token) return [200, { access_token: 'at-2', token_type: 'Bearer', expires_in: 60 }];
  return [200, { access_token: 'at-1', token_type: 'Bearer', expires_in: 3600, refresh_token: 'rt-1', scope: 'read' }];
}

const routes = {
  'GET /.well-known/oauth-protected-resource/mcp': () => [200, prm()],
  'GET /.well-known/oauth-protected-resource': () => [200, { resource: base, authorization_servers: [base] }],
  'GET /.well-known/oauth-protected-resource/broken': () => [500, {}],
  'GET /custom-prm': () => [200, { ...prm(), resource_name: 'named' }],
  'GET /.well-known/oauth-authorization-server': () => [200, oauthMetadata()],
  'GET /.well-known/openid-configuration/tenant': () => [200, oidcMetadata()],
  'GET /.well-known/oauth-authorization-server/fail': () => [503, {}],
  'GET /.well-known/oauth-authorization-server/nothing': () => [404, {}],
};

before(async () => {
  server = createServer(async (request, response) => {
    const text = await body(request);
    const entry = { method: request.method, path: request.url, version: request.headers['mcp-protocol-version'] };
    if (request.method === 'POST') {
      entry.contentType = request.headers['content-type'];
      entry.authorization = request.headers.authorization;
      entry.body = entry.contentType.startsWith('application/json') ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
    }
    seen.push(entry);
    const pathname = request.url.split('?')[0];
    if (request.method === 'POST' && pathname.endsWith('/token')) return json(response, ...token(entry.body));
    if (request.method === 'POST' && pathname === '/register') {
      if (entry.body.client_name === 'refused') return json(response, 400, { error: 'invalid_client_metadata', error_description: 'no such name' });
      return json(response, 201, { client_id: 'registered', client_secret: 'shh', client_id_issued_at: 1700000000, ...entry.body });
    }
    const route = routes[`${request.method} ${pathname}`];
    if (route) return json(response, ...route());
    return json(response, 404, { error: 'not_found' });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${server.address().port}`;
});

after(() => server.close());

/** What `run` answered or threw, and what the server received meanwhile. */
async function observe(run) {
  seen.length = 0;
  let outcome;
  try {
    outcome = { value: await run() };
  } catch (error) {
    outcome = { error };
  }
  return { ...outcome, requests: structuredClone(seen) };
}

const errorShape = (error) => ({ name: error.constructor.name, message: error.message, errorUri: error.errorUri });

/** The official v1 function and ferrymcp's on the same arguments: the same answer, requests and failure. */
async function same(name, ...args) {
  const theirs = await observe(() => official[name](...args));
  const ours = await observe(() => ferry[name](...args));
  assert.deepEqual(ours.requests, theirs.requests, `${name}: the requests the server received`);
  if (theirs.error) {
    assert.ok(ours.error, `${name}: the official function threw ${theirs.error.message}; ferrymcp's answered`);
    assert.deepEqual(errorShape(ours.error), errorShape(theirs.error), `${name}: the failure`);
  } else {
    assert.ifError(ours.error);
    assert.deepEqual(ours.value, theirs.value, `${name}: the answer`);
  }
  return ours;
}

describe('discovery', () => {
  test('buildDiscoveryUrls: the same URLs and kinds', () => {
    for (const input of ['http://a', 'https://a/', 'http://a/tenant1', 'http://a/tenant1/', 'http://a:8080/x/y?q=1', new URL('http://a/t')]) {
      const ours = ferry.buildDiscoveryUrls(input).map(({ url, type }) => [url.href, type]);
      const theirs = official.buildDiscoveryUrls(input).map(({ url, type }) => [url.href, type]);
      assert.deepEqual(ours, theirs, String(input));
    }
  });

  test('isHttpsUrl: the same verdicts', () => {
    for (const input of [undefined, '', 'https://c.example/meta.json', 'https://c.example/', 'https://c.example', 'http://c.example/meta', 'nonsense']) {
      assert.equal(ferry.isHttpsUrl(input), official.isHttpsUrl(input), String(input));
    }
  });

  test('discoverOAuthProtectedResourceMetadata: path-aware, the given URL, the root fallback, failures', async () => {
    await same('discoverOAuthProtectedResourceMetadata', `${base}/mcp`);
    await same('discoverOAuthProtectedResourceMetadata', `${base}/mcp`, { resourceMetadataUrl: `${base}/custom-prm` });
    await same('discoverOAuthProtectedResourceMetadata', `${base}/elsewhere?x=1`);
    await same('discoverOAuthProtectedResourceMetadata', `${base}/mcp`, { resourceMetadataUrl: new URL(`${base}/missing`) });
    const broken = await same('discoverOAuthProtectedResourceMetadata', `${base}/broken`);
    assert.match(broken.error.message, /^HTTP 500 /);
  });

  test('discoverAuthorizationServerMetadata: RFC 8414, the OpenID Connect fallback, 4xx and 5xx', async () => {
    await same('discoverAuthorizationServerMetadata', base);
    const oidc = await same('discoverAuthorizationServerMetadata', `${base}/tenant`);
    assert.equal(oidc.value.issuer, `${base}/tenant`);
    const none = await same('discoverAuthorizationServerMetadata', `${base}/nothing`);
    assert.equal(none.value, undefined);
    const fail = await same('discoverAuthorizationServerMetadata', `${base}/fail`, { protocolVersion: '2025-06-18' });
    assert.ok(fail.error);
  });

  test('discoverOAuthMetadata (deprecated): path-aware then root, 404 and 5xx', async () => {
    await same('discoverOAuthMetadata', base);
    await same('discoverOAuthMetadata', `${base}/nothing`);
    await same('discoverOAuthMetadata', 'http://ignored.invalid', { authorizationServerUrl: `${base}/fail` });
  });

  test('discoverOAuthServerInfo: through the resource metadata, and without one', async () => {
    const found = await same('discoverOAuthServerInfo', `${base}/mcp`);
    assert.equal(found.value.authorizationServerUrl, `${base}/tenant`);
    await same('discoverOAuthServerInfo', `${base}/mcp`, { resourceMetadataUrl: new URL(`${base}/missing`) });
  });

  test('selectResourceURL: the metadata resource when it covers the server, refused otherwise, the provider first', async () => {
    await same('selectResourceURL', `${base}/mcp`, {}, prm());
    await same('selectResourceURL', `${base}/mcp/sub#frag`, {}, { resource: base, authorization_servers: [] });
    await same('selectResourceURL', `${base}/mcp`, {}, undefined);
    await same('selectResourceURL', `${base}/mcp`, {}, { resource: `${base}/other`, authorization_servers: [] });
    await same('selectResourceURL', `${base}/mcp`, {}, { resource: 'http://elsewhere.example/mcp', authorization_servers: [] });
    const provider = { validateResourceURL: async (url, resource) => new URL(`${url.href}?chosen=${resource}`) };
    await same('selectResourceURL', `${base}/mcp`, provider, prm());
  });

  test('fetchFn other than the global fetch is refused by name', async () => {
    await assert.rejects(() => ferry.discoverAuthorizationServerMetadata(base, { fetchFn: async () => new Response('{}') }), (error) => {
      assert.ok(error instanceof OAuthUnsupportedError);
      assert.match(error.message, /discoverAuthorizationServerMetadata does not support fetchFn/);
      return true;
    });
    const metadata = await ferry.discoverAuthorizationServerMetadata(base, { fetchFn: fetch });
    assert.equal(metadata.issuer, base);
  });
});

const S256 = (verifier) => createHash('sha256').update(verifier).digest('base64url');

describe('tokens', () => {
  const client = { client_id: 'cid', client_secret: 'secret' };

  test('startAuthorization: the same URL but for the PKCE pair, and the same refusals', async () => {
    const cases = [
      [base, { metadata: oauthMetadata(), clientInformation: client, redirectUrl: 'http://localhost:3000/cb', scope: 'read offline_access', state: 'st', resource: new URL(`${base}/mcp`) }],
      [base, { metadata: oauthMetadata({ authorization_endpoint: `${base}/authorize?client_id=old&keep=1` }), clientInformation: client, redirectUrl: new URL('http://localhost/cb') }],
      [`${base}/tenant`, { clientInformation: client, redirectUrl: 'http://localhost/cb', scope: '', state: '' }],
    ];
    for (const [server, options] of cases) {
      const theirs = await official.startAuthorization(server, options);
      const ours = await ferry.startAuthorization(server, options);
      assert.ok(ours.authorizationUrl instanceof URL);
      assert.equal(ours.authorizationUrl.searchParams.get('code_challenge'), S256(ours.codeVerifier));
      assert.equal(ours.codeVerifier.length, theirs.codeVerifier.length);
      for (const url of [ours.authorizationUrl, theirs.authorizationUrl]) url.searchParams.set('code_challenge', 'x');
      assert.equal(ours.authorizationUrl.href, theirs.authorizationUrl.href);
    }
    for (const metadata of [oauthMetadata({ response_types_supported: ['token'] }), oauthMetadata({ code_challenge_methods_supported: ['plain'] })]) {
      await same('startAuthorization', base, { metadata, clientInformation: client, redirectUrl: 'http://localhost/cb' });
    }
  });

  test('prepareAuthorizationCodeRequest: the same parameters', () => {
    const ours = ferry.prepareAuthorizationCodeRequest('code', 'verifier', new URL('http://localhost/cb'));
    assert.ok(ours instanceof URLSearchParams);
    assert.equal(ours.toString(), official.prepareAuthorizationCodeRequest('code', 'verifier', new URL('http://localhost/cb')).toString());
  });

  test('exchangeAuthorization: the same form, authentication and tokens (client_secret_post, none)', async () => {
    const options = (extra) => ({ authorizationCode: 'c1', codeVerifier: 'v1', redirectUri: 'http://localhost/cb', resource: new URL(`${base}/mcp`), ...extra });
    await same('exchangeAuthorization', base, options({ metadata: oauthMetadata({ token_endpoint_auth_methods_supported: ['client_secret_post'] }), clientInformation: client }));
    await same('exchangeAuthorization', base, options({ metadata: oauthMetadata(), clientInformation: { client_id: 'public' } }));
    await same('exchangeAuthorization', `${base}/tenant`, options({ clientInformation: { client_id: 'public', token_endpoint_auth_method: 'none' } }));
  });

  test('exchangeAuthorization with client_secret_basic: the same header; core also names the client in the body', async () => {
    const args = [base, { metadata: oauthMetadata(), clientInformation: client, authorizationCode: 'c1', codeVerifier: 'v1', redirectUri: 'http://localhost/cb' }];
    const theirs = await observe(() => official.exchangeAuthorization(...args));
    const ours = await observe(() => ferry.exchangeAuthorization(...args));
    assert.deepEqual(ours.value, theirs.value);
    assert.equal(ours.requests[0].authorization, theirs.requests[0].authorization);
    assert.equal(ours.requests[0].body.client_id, 'cid');
    delete ours.requests[0].body.client_id;
    assert.deepEqual(ours.requests, theirs.requests);
  });

  test('exchangeAuthorization failures: the OAuth error class of the code, ServerError otherwise', async () => {
    const options = (code) => ({ metadata: oauthMetadata(), clientInformation: { client_id: 'public' }, authorizationCode: code, codeVerifier: 'v', redirectUri: 'http://localhost/cb' });
    const bad = await same('exchangeAuthorization', base, options('bad'));
    assert.equal(bad.error.constructor.name, 'InvalidGrantError');
    await same('exchangeAuthorization', base, options('odd'));
    const theirs = await observe(() => official.exchangeAuthorization(base, options('broken')));
    const ours = await observe(() => ferry.exchangeAuthorization(base, options('broken')));
    assert.deepEqual(ours.requests, theirs.requests);
    assert.equal(ours.error.constructor.name, theirs.error.constructor.name);
    assert.equal(ours.error.constructor.name, 'ServerError');
    for (const error of [ours.error, theirs.error]) {
      assert.match(error.message, /^HTTP 500: Invalid OAuth error response: /);
      assert.ok(error.message.endsWith('. Raw body: not json at all'), error.message);
    }
  });

  test('refreshAuthorization: the refresh token kept when none comes back; failures', async () => {
    const options = (refreshToken) => ({ metadata: oauthMetadata({ token_endpoint_auth_methods_supported: ['client_secret_post'] }), clientInformation: client, refreshToken, resource: `${base}/mcp` });
    const kept = await same('refreshAuthorization', base, options('rt-1'));
    assert.equal(kept.value.refresh_token, 'rt-1');
    await same('refreshAuthorization', base, options('bad'));
  });

  test('addClientAuthentication and fetchFn are refused by name', async () => {
    const options = { clientInformation: client, refreshToken: 'rt', addClientAuthentication: () => {} };
    await assert.rejects(() => ferry.refreshAuthorization(base, options), (error) => error instanceof OAuthUnsupportedError && /addClientAuthentication/.test(error.message));
    await assert.rejects(() => ferry.registerClient(base, { clientMetadata: {}, fetchFn: async () => new Response() }), OAuthUnsupportedError);
  });

  test('registerClient: the same body and registration, the scope override, the refusals', async () => {
    const clientMetadata = { redirect_uris: ['http://localhost/cb'], client_name: 'app', scope: 'read', token_endpoint_auth_method: 'client_secret_post', grant_types: ['authorization_code'] };
    await same('registerClient', base, { metadata: oauthMetadata(), clientMetadata });
    await same('registerClient', `${base}/tenant`, { clientMetadata, scope: 'read write' });
    await same('registerClient', base, { metadata: oauthMetadata(), clientMetadata: { ...clientMetadata, client_name: 'refused' } });
    const unregistering = oauthMetadata();
    delete unregistering.registration_endpoint;
    await same('registerClient', base, { metadata: unregistering, clientMetadata });
  });

  test('fetchToken (v1): the provider\'s grant, else the authorization code; the stamped client information', async () => {
    const provider = (extra) => ({
      redirectUrl: 'http://localhost/cb',
      clientMetadata: { redirect_uris: ['http://localhost/cb'], scope: 'read write' },
      clientInformation: () => ({ client_id: 'cid', client_secret: 'secret', token_endpoint_auth_method: 'client_secret_post' }),
      codeVerifier: () => 'the-verifier',
      ...extra,
    });
    const credentials = (scope) => new URLSearchParams({ grant_type: 'client_credentials', scope });
    await same('fetchToken', provider({ prepareTokenRequest: credentials }), base, { metadata: oauthMetadata(), resource: new URL(`${base}/mcp`) });
    await same('fetchToken', provider({}), base, { metadata: oauthMetadata(), authorizationCode: 'c1' });
    await same('fetchToken', provider({}), `${base}/tenant`, { authorizationCode: 'bad' });
    await same('fetchToken', provider({}), base, {});
    await same('fetchToken', provider({ redirectUrl: undefined }), base, { authorizationCode: 'c1' });
    const stamped = (issuer) => provider({ clientInformation: () => ({ client_id: 'cid', token_endpoint_auth_method: 'none', issuer }) });
    await same('fetchToken', stamped(`${base}/`), base, { authorizationCode: 'c1' });
    await same('fetchToken', stamped('http://elsewhere.example'), base, { authorizationCode: 'c1' });
    await assert.rejects(() => ferry.fetchToken(provider({ addClientAuthentication: () => {} }), base, { authorizationCode: 'c1' }), OAuthUnsupportedError);
  });

  test('selectClientAuthMethod: the same choice', () => {
    const infos = [
      { client_id: 'a' },
      { client_id: 'a', client_secret: 's' },
      { client_id: 'a', client_secret: 's', token_endpoint_auth_method: 'client_secret_post' },
      { client_id: 'a', client_secret: 's', token_endpoint_auth_method: 'private_key_jwt' },
      { client_id: 'a', token_endpoint_auth_method: 'client_secret_basic' },
    ];
    const lists = [[], ['client_secret_basic'], ['client_secret_post'], ['none'], ['private_key_jwt'], ['client_secret_post', 'none']];
    for (const info of infos) {
      for (const list of lists) assert.equal(ferry.selectClientAuthMethod(info, list), official.selectClientAuthMethod(info, list), JSON.stringify([info, list]));
    }
  });

  test('parseErrorResponse: the class, message and URI of the code; ServerError for anything else', async () => {
    const bodies = [
      '{"error":"invalid_client","error_description":"who?"}',
      '{"error":"access_denied"}',
      '{"error":"new_kind","error_description":"d","error_uri":"https://e"}',
    ];
    for (const text of bodies) {
      assert.deepEqual(errorShape(await ferry.parseErrorResponse(text)), errorShape(await official.parseErrorResponse(text)), text);
      const [ours, theirs] = await Promise.all([ferry.parseErrorResponse(new Response(text, { status: 401 })), official.parseErrorResponse(new Response(text, { status: 401 }))]);
      assert.deepEqual(errorShape(ours), errorShape(theirs), text);
    }
    const ours = await ferry.parseErrorResponse(new Response('{"error":7}', { status: 502 }));
    const theirs = await official.parseErrorResponse(new Response('{"error":7}', { status: 502 }));
    assert.equal(ours.constructor.name, 'ServerError');
    assert.equal(theirs.constructor.name, 'ServerError');
    for (const error of [ours, theirs]) assert.match(error.message, /^HTTP 502: Invalid OAuth error response: .*\. Raw body: \{"error":7\}$/s);
  });
});

describe('v2 (ferrymcp/client beside @modelcontextprotocol/client)', () => {
  test('the same discovery answers', async () => {
    assert.deepEqual(await ferryV2.discoverOAuthServerInfo(`${base}/mcp`), await officialV2.discoverOAuthServerInfo(`${base}/mcp`));
    assert.deepEqual(
      ferryV2.buildDiscoveryUrls(`${base}/tenant`).map(({ url, type }) => [url.href, type]),
      officialV2.buildDiscoveryUrls(`${base}/tenant`).map(({ url, type }) => [url.href, type]),
    );
  });

  test("errors are v2's OAuthError with the OAuth code", async () => {
    const text = '{"error":"invalid_grant","error_description":"gone"}';
    const ours = await ferryV2.parseErrorResponse(text);
    const theirs = await officialV2.parseErrorResponse(text);
    assert.ok(ours instanceof ferryV2.OAuthError);
    assert.deepEqual([ours.code, ours.message], [theirs.code, theirs.message]);
    const refused = await ferryV2.refreshAuthorization(base, { metadata: oauthMetadata(), clientInformation: { client_id: 'p' }, refreshToken: 'bad' }).catch((e) => e);
    assert.ok(refused instanceof ferryV2.OAuthError);
    assert.deepEqual([refused.code, refused.message], ['invalid_grant', 'the code is spent']);
  });
});
