// The official cross-app access helpers (SEP-990) from `ferrymcp/client`, on core's steps,
// over real HTTP: an enterprise identity provider (RFC 8414 metadata and an RFC 8693 token
// exchange endpoint) and an MCP authorization server's token endpoint (RFC 7523
// jwt-bearer), both node:http servers in this test that check what they are sent.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { URLSearchParams } from 'node:url';
import { after, before, test } from 'node:test';

import { discoverAndRequestJwtAuthGrant, exchangeJwtAuthGrant, requestJwtAuthorizationGrant } from 'ferrymcp/client';

const ID_TOKEN = 'the-users-id-token';
const ID_JAG = 'an-id-jag';
let idp;
let as;
let idpUrl;
let asUrl;
const seen = [];

async function form(request) {
  let body = '';
  for await (const chunk of request) body += chunk;
  return Object.fromEntries(new URLSearchParams(body));
}

function json(response, status, value) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

before(async () => {
  idp = createServer(async (request, response) => {
    if (request.method === 'GET' && request.url === '/.well-known/oauth-authorization-server') {
      return json(response, 200, { issuer: idpUrl, token_endpoint: `${idpUrl}/token`, response_types_supported: ['code'] });
    }
    if (request.method === 'POST' && request.url === '/token') {
      const params = await form(request);
      seen.push({ at: 'idp', params });
      if (params.subject_token !== ID_TOKEN) return json(response, 400, { error: 'invalid_grant', error_description: 'unknown ID token' });
      return json(response, 200, {
        access_token: ID_JAG,
        issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        token_type: 'N_A',
        expires_in: 300,
        scope: params.scope,
      });
    }
    return json(response, 404, {});
  });
  as = createServer(async (request, response) => {
    if (request.method === 'POST' && request.url === '/token') {
      const params = await form(request);
      seen.push({ at: 'as', params, authorization: request.headers.authorization });
      if (params.assertion !== ID_JAG) return json(response, 400, { error: 'invalid_grant' });
      return json(response, 200, { access_token: 'mcp-access-token', token_type: 'Bearer', expires_in: 3600 });
    }
    return json(response, 404, {});
  });
  idp.listen(0, '127.0.0.1');
  as.listen(0, '127.0.0.1');
  await Promise.all([once(idp, 'listening'), once(as, 'listening')]);
  idpUrl = `http://127.0.0.1:${idp.address().port}`;
  asUrl = `http://127.0.0.1:${as.address().port}`;
});

after(() => {
  idp.close();
  as.close();
});

test('discoverAndRequestJwtAuthGrant then exchangeJwtAuthGrant: ID token to ID-JAG to access token', async () => {
  seen.length = 0;
  const grant = await discoverAndRequestJwtAuthGrant({
    idpUrl,
    audience: asUrl,
    resource: new URL('http://127.0.0.1:1/mcp'),
    idToken: ID_TOKEN,
    clientId: 'idp-client',
    scope: 'chat.read',
  });
  assert.deepEqual(grant, { jwtAuthGrant: ID_JAG, expiresIn: 300, scope: 'chat.read' });
  const exchange = seen.find((s) => s.at === 'idp').params;
  assert.equal(exchange.grant_type, 'urn:ietf:params:oauth:grant-type:token-exchange');
  assert.equal(exchange.subject_token_type, 'urn:ietf:params:oauth:token-type:id_token');
  assert.equal(exchange.audience, asUrl);
  assert.equal(exchange.resource, 'http://127.0.0.1:1/mcp');
  assert.equal('client_secret' in exchange, false, 'a public client sends no client_secret');

  const tokens = await exchangeJwtAuthGrant({ tokenEndpoint: `${asUrl}/token`, jwtAuthGrant: grant.jwtAuthGrant, clientId: 'mcp-client', clientSecret: 's3cret' });
  assert.equal(tokens.access_token, 'mcp-access-token');
  assert.equal(tokens.token_type, 'Bearer');
  const bearer = seen.find((s) => s.at === 'as');
  assert.equal(bearer.params.grant_type, 'urn:ietf:params:oauth:grant-type:jwt-bearer');
  assert.equal(bearer.authorization, `Basic ${Buffer.from('mcp-client:s3cret').toString('base64')}`, 'client_secret_basic by default');
});

test('requestJwtAuthorizationGrant: the identity provider refusing is an Error with a code and the official wording', async () => {
  await assert.rejects(
    requestJwtAuthorizationGrant({ tokenEndpoint: `${idpUrl}/token`, audience: asUrl, resource: asUrl, idToken: 'wrong', clientId: 'c', clientSecret: 'x' }),
    (error) => error instanceof Error && error.code === 'ERR_FERRYMCP_CROSS_APP_ACCESS' && error.message === 'Token exchange failed: invalid_grant - unknown ID token',
  );
  assert.equal(seen.at(-1).params.client_secret, 'x');
});

test('a token endpoint in clear over a network is refused, and fetchFn is refused by name', async () => {
  await assert.rejects(
    exchangeJwtAuthGrant({ tokenEndpoint: 'http://example.com/token', jwtAuthGrant: ID_JAG, clientId: 'c', clientSecret: 's' }),
    (error) => error.code === 'ERR_FERRYMCP_CROSS_APP_ACCESS' && /must use https/.test(error.message),
  );
  await assert.rejects(
    requestJwtAuthorizationGrant({ tokenEndpoint: `${idpUrl}/token`, audience: asUrl, resource: asUrl, idToken: ID_TOKEN, clientId: 'c', fetchFn: fetch }),
    (error) => error.code === 'ERR_FERRYMCP_OAUTH_UNSUPPORTED' && /fetchFn/.test(error.message),
  );
});
