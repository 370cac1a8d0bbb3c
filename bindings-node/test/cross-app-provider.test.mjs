// `CrossAppAccessProvider` (Enterprise-Managed Authorization, SEP-990) as the official v2
// client runs it, over real HTTP against an authorization server this project did not
// write: the official Python SDK's SEP-990 routes co-hosted with its bearer-gated MCP
// server (bindings-python/tests/peers/identity_assertion_official.py), which verifies the
// ID-JAGs. The enterprise identity provider is a node:http server in this test that
// answers the RFC 8693 token exchange with an ID-JAG signed for the audience and resource
// it was asked for. The `assertion` callback is the official guide's: it calls
// `discoverAndRequestJwtAuthGrant` with the context's URLs, scope and `fetchFn`. The same
// run with the official client and its provider is the reference for every value compared.
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { URLSearchParams } from 'node:url';
import { after, before, test } from 'node:test';

import {
  Client as OfficialClient,
  CrossAppAccessProvider as OfficialCrossAppAccessProvider,
  StreamableHTTPClientTransport as OfficialTransport,
  discoverAndRequestJwtAuthGrant as officialDiscoverAndRequest,
} from '@modelcontextprotocol/client';
import {
  Client,
  CrossAppAccessProvider,
  OAuthUnsupportedError,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  discoverAndRequestJwtAuthGrant,
} from 'ferrymcp';
import { officialPythonPeer } from './helpers.mjs';

// The peer's stand-in identity provider key and issuer, and its client that authenticates
// with HTTP Basic (the provider's `client_secret_basic`).
const IDP_KEY = 'the-stand-in-idp-signing-key-for-ferrymcp-tests';
const IDP_ISSUER = 'https://idp.example.com';
const CLIENT = { clientId: 'basic-agent', clientSecret: 'basic-agent-secret' };
const ID_TOKEN = 'alice-id-token';
let idp;
let idpUrl;
const exchanges = [];

const b64 = (value) => Buffer.from(value).toString('base64url');

function idJag(claims) {
  const signed = `${b64(JSON.stringify({ alg: 'HS256', typ: 'oauth-id-jag+jwt' }))}.${b64(JSON.stringify(claims))}`;
  return `${signed}.${createHmac('sha256', IDP_KEY).update(signed).digest('base64url')}`;
}

async function form(request) {
  let body = '';
  for await (const chunk of request) body += chunk;
  return Object.fromEntries(new URLSearchParams(body));
}

before(async () => {
  idp = createServer(async (request, response) => {
    const json = (status, value) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (request.url === '/.well-known/oauth-authorization-server') {
      return json(200, { issuer: idpUrl, authorization_endpoint: `${idpUrl}/authorize`, token_endpoint: `${idpUrl}/token`, response_types_supported: ['code'] });
    }
    if (request.method === 'POST' && request.url === '/token') {
      const params = await form(request);
      exchanges.push(params);
      if (params.subject_token !== ID_TOKEN) return json(400, { error: 'invalid_grant', error_description: 'unknown ID token' });
      const now = Math.floor(Date.now() / 1000);
      const claims = {
        iss: IDP_ISSUER, sub: 'alice@example.com', aud: params.audience, client_id: CLIENT.clientId,
        resource: params.resource, scope: 'mcp notes:write', jti: randomUUID(), iat: now, exp: now + 300,
      };
      return json(200, { access_token: idJag(claims), issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A', expires_in: 300 });
    }
    return json(404, {});
  });
  idp.listen(0, '127.0.0.1');
  await once(idp, 'listening');
  idpUrl = `http://127.0.0.1:${idp.address().port}`;
});

after(() => idp.close());

/** The guide's `assertion` callback, on the given helper, recording each context. */
function assertion(request, contexts) {
  return async (ctx) => {
    const { fetchFn, ...rest } = ctx;
    assert.equal(typeof fetchFn, 'function');
    contexts.push(rest);
    const grant = await request({
      idpUrl,
      audience: ctx.authorizationServerUrl,
      resource: ctx.resourceUrl,
      idToken: ID_TOKEN,
      clientId: 'idp-exchange-client',
      clientSecret: 'idp-exchange-secret',
      scope: ctx.scope,
      fetchFn: ctx.fetchFn,
    });
    return grant.jwtAuthGrant;
  };
}

/** whoami, a step-up (write_note needs notes:write), whoami again; and the peer's log. */
async function run(ClientClass, Transport, provider, url) {
  const client = new ClientClass({ name: 'xaa', version: '1' });
  await client.connect(new Transport(new URL(url), { authProvider: provider }));
  const text = async (name, args = {}) => (await client.callTool({ name, arguments: args })).content[0].text;
  try {
    return {
      before: await text('whoami'),
      note: await text('write_note', { text: 'hi' }),
      after: await text('whoami'),
      log: JSON.parse(await text('log')),
    };
  } finally {
    await client.close();
  }
}

const tokenForms = (log) => log.filter((entry) => entry.path === '/token').map((entry) => entry.form);

test('CrossAppAccessProvider: discovery, the ID-JAG for the discovered server, the jwt-bearer grant and a step-up, as the official client', async () => {
  const ours = await officialPythonPeer('bindings-python/tests/peers/identity_assertion_official.py');
  const theirs = await officialPythonPeer('bindings-python/tests/peers/identity_assertion_official.py');
  try {
    const contexts = [];
    const provider = new CrossAppAccessProvider({ assertion: assertion(discoverAndRequestJwtAuthGrant, contexts), ...CLIENT });
    exchanges.length = 0;
    const got = await run(Client, StreamableHTTPClientTransport, provider, ours.url);
    const ourExchanges = exchanges.splice(0);

    const officialContexts = [];
    const official = new OfficialCrossAppAccessProvider({ assertion: assertion(officialDiscoverAndRequest, officialContexts), ...CLIENT });
    // The official Python authorization server wants `client_id` in the form even with
    // HTTP Basic (its "Missing client_id"), which the official TypeScript client leaves
    // out; core sends both. The reference run adds it through the official hook.
    official.addClientAuthentication = (headers, params) => {
      headers.set('authorization', `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString('base64')}`);
      params.set('client_id', CLIENT.clientId);
    };
    const expected = await run(OfficialClient, OfficialTransport, official, theirs.url);
    const officialExchanges = exchanges.splice(0);

    assert.equal(got.before, 'alice@example.com basic-agent mcp');
    assert.equal(got.note, 'noted: hi');
    assert.equal(got.after, 'alice@example.com basic-agent mcp notes:write');
    assert.deepEqual([got.before, got.note, got.after], [expected.before, expected.note, expected.after]);

    // What the callback was told: the server's issuer (as its metadata writes it), its
    // resource and the selected scopes; the same as the official provider's, ports aside.
    const port = (url) => new URL(url).port;
    const unported = (list, url) => JSON.parse(JSON.stringify(list).replaceAll(port(url), 'PORT'));
    assert.deepEqual(contexts, [
      { authorizationServerUrl: `${ours.base}/`, resourceUrl: ours.url, scope: 'mcp' },
      { authorizationServerUrl: `${ours.base}/`, resourceUrl: ours.url, scope: 'mcp notes:write' },
    ]);
    assert.deepEqual(unported(contexts, ours.url), unported(officialContexts, theirs.url));
    assert.deepEqual(provider.clientMetadata, official.clientMetadata);
    assert.equal(provider.authorizationServerUrl(), `${ours.base}/`);
    assert.equal(provider.resourceUrl(), ours.url);

    // The identity provider's token exchanges and the authorization server's token
    // requests carry the same fields as the official client's.
    assert.deepEqual(unported(ourExchanges, ours.url), unported(officialExchanges, theirs.url));
    const forms = tokenForms(got.log);
    assert.equal(forms.length, 2);
    for (const [i, sent] of forms.entries()) {
      assert.equal(sent.grant_type, 'urn:ietf:params:oauth:grant-type:jwt-bearer');
      assert.equal(sent.resource, ours.url);
      assert.deepEqual(Object.keys(sent).sort(), Object.keys(tokenForms(expected.log)[i]).sort());
      assert.equal(sent.scope, tokenForms(expected.log)[i].scope);
    }
    assert.ok(got.log.some((entry) => entry.path?.startsWith('/.well-known/oauth-protected-resource')), 'the resource metadata was read');
    assert.ok(!got.log.some((entry) => entry.path === '/register'), 'nothing was registered');
  } finally {
    ours.stop();
    theirs.stop();
  }
});

test('CrossAppAccessProvider: a server without protected resource metadata is refused before any assertion', async () => {
  const bare = createServer((request, response) => {
    if (request.url === '/mcp') return response.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
    response.writeHead(404).end();
  });
  bare.listen(0, '127.0.0.1');
  await once(bare, 'listening');
  const contexts = [];
  try {
    const provider = new CrossAppAccessProvider({ assertion: assertion(discoverAndRequestJwtAuthGrant, contexts), ...CLIENT });
    const client = new Client({ name: 'xaa', version: '1' });
    const url = new URL(`http://127.0.0.1:${bare.address().port}/mcp`);
    await assert.rejects(client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider })), (error) => {
      assert.ok(error instanceof UnauthorizedError, String(error));
      assert.match(error.message, /Resource URL not available .* RFC 9728 Protected Resource Metadata \(required for Cross-App Access\)/);
      return true;
    });
    assert.deepEqual(contexts, []);
    assert.equal(provider.tokens(), undefined);
  } finally {
    bare.close();
  }
});

test('CrossAppAccessProvider: options ferrymcp cannot honour are refused by name', () => {
  const options = { assertion: () => 'jag', ...CLIENT };
  assert.throws(() => new CrossAppAccessProvider({ ...options, fetchFn: (url, init) => fetch(url, init) }), (error) => error instanceof OAuthUnsupportedError && /fetchFn/.test(error.message));
  assert.throws(() => new CrossAppAccessProvider({ ...options, expectedIssuer: 'https://as.example' }), (error) => error instanceof OAuthUnsupportedError && /expectedIssuer/.test(error.message));
  assert.throws(() => new CrossAppAccessProvider({ ...CLIENT }), TypeError);
});
