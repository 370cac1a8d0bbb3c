// The OAuth wire schemas (`OAuthMetadataSchema` and the rest of the official v2 core's auth
// group at the root, and v1's `ferrymcp/shared/auth.js`) against the official ones
// (@modelcontextprotocol/core 2.4 and @modelcontextprotocol/sdk 1.32's shared/auth.js): each
// document below, well-formed or not, parses to the same outcome and the same value with
// both; and the wire-schemas guide's use, a metadata document fetched from a real server.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';

import * as officialV2 from '@modelcontextprotocol/core';
import * as officialV1 from '@modelcontextprotocol/sdk/shared/auth.js';
import * as ours from 'ferrymcp';
import * as oursV1 from 'ferrymcp/shared/auth.js';

const V2_GROUP = [
  'IdJagTokenExchangeResponseSchema',
  'OAuthClientInformationFullSchema',
  'OAuthClientInformationSchema',
  'OAuthClientMetadataSchema',
  'OAuthClientRegistrationErrorSchema',
  'OAuthErrorResponseSchema',
  'OAuthMetadataSchema',
  'OAuthProtectedResourceMetadataSchema',
  'OAuthTokenRevocationRequestSchema',
  'OAuthTokensSchema',
  'OpenIdProviderDiscoveryMetadataSchema',
  'OpenIdProviderMetadataSchema',
];

const server = {
  issuer: 'https://as.example',
  authorization_endpoint: 'https://as.example/authorize',
  token_endpoint: 'https://as.example/token',
  response_types_supported: ['code'],
  code_challenge_methods_supported: ['S256'],
  extension_member: { kept: true },
};
const provider = {
  ...server,
  jwks_uri: 'https://as.example/jwks',
  subject_types_supported: ['public'],
  id_token_signing_alg_values_supported: ['RS256'],
  userinfo_endpoint: 'https://as.example/userinfo',
  claims_supported: ['sub'],
};
const client = { redirect_uris: ['http://localhost:3000/cb'], client_name: 'c', logo_uri: '', unknown: 1 };
const without = (object, key) => Object.fromEntries(Object.entries(object).filter(([k]) => k !== key));

// Each schema with documents it should take and documents it should refuse.
const CASES = {
  OAuthMetadataSchema: [
    server,
    { ...server, authorization_response_iss_parameter_supported: 'yes' },
    { ...server, authorization_response_iss_parameter_supported: true, revocation_endpoint: 'https://as.example/r' },
    without(server, 'token_endpoint'),
    { ...server, authorization_endpoint: 'javascript:alert(1)' },
    { ...server, token_endpoint: 'data:text/plain,x' },
    { ...server, registration_endpoint: 'not a url' },
    { ...server, response_types_supported: 'code' },
    { ...server, introspection_endpoint: 'anything' },
  ],
  OpenIdProviderMetadataSchema: [provider, without(provider, 'jwks_uri'), { ...provider, op_tos_uri: 'vbscript:x' }],
  OpenIdProviderDiscoveryMetadataSchema: [provider, without(provider, 'subject_types_supported')],
  OAuthProtectedResourceMetadataSchema: [
    { resource: 'https://mcp.example/mcp', authorization_servers: ['https://as.example'], other: 1 },
    { resource: 'https://mcp.example/mcp', authorization_servers: ['javascript:x'] },
    { resource: 'not a url' },
    { resource: 'https://mcp.example/mcp', bearer_methods_supported: ['header'], dpop_bound_access_tokens_required: 'no' },
  ],
  OAuthTokensSchema: [
    { access_token: 'a', token_type: 'Bearer', expires_in: '3600', refresh_token: 'r', extra: 1 },
    { access_token: 'a', token_type: 'Bearer', expires_in: 3600, id_token: 'i', scope: 's' },
    { access_token: 'a' },
  ],
  IdJagTokenExchangeResponseSchema: [
    { issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', access_token: 'j', token_type: 'N_A', more: 1 },
    { issued_token_type: 'urn:ietf:params:oauth:token-type:access_token', access_token: 'j' },
  ],
  OAuthErrorResponseSchema: [{ error: 'invalid_grant', error_description: 'd', other: 1 }, { error_description: 'd' }],
  OAuthClientMetadataSchema: [
    client,
    { ...client, redirect_uris: ['javascript:x'] },
    { ...client, tos_uri: 'https://c.example/tos', jwks: { keys: [] } },
    { ...client, client_uri: '' },
    without(client, 'redirect_uris'),
  ],
  OAuthClientInformationSchema: [{ client_id: 'id', client_secret: 's', client_id_issued_at: 1, x: 1 }, { client_secret: 's' }],
  OAuthClientInformationFullSchema: [{ ...client, client_id: 'id' }, client],
  OAuthClientRegistrationErrorSchema: [{ error: 'invalid_redirect_uri', x: 1 }, {}],
  OAuthTokenRevocationRequestSchema: [{ token: 't', token_type_hint: 'refresh_token', x: 1 }, { token_type_hint: 'x' }],
};

function outcome(schema, document) {
  const parsed = schema.safeParse(document);
  return parsed.success ? { ok: parsed.data } : { refused: parsed.error.issues.map((i) => [i.path.join('.'), i.message]) };
}

test('every schema of the v2 group is at the root and v1 path, and answers as the official ones', () => {
  for (const name of V2_GROUP) {
    assert.equal(typeof ours[name]?.safeParse, 'function', `${name} at the root`);
    assert.equal(oursV1[name], ours[name], `${name} at ferrymcp/shared/auth.js`);
  }
  for (const name of ['SafeUrlSchema', 'OptionalSafeUrlSchema']) {
    assert.equal(typeof oursV1[name]?.safeParse, 'function', `${name} at ferrymcp/shared/auth.js`);
  }
  let refused = 0;
  for (const [name, documents] of Object.entries(CASES)) {
    for (const document of documents) {
      const mine = outcome(ours[name], document);
      const v2 = outcome(officialV2[name], document);
      assert.deepEqual(mine, v2, `${name} (v2) on ${JSON.stringify(document)}`);
      // Where v1 1.32 answers otherwise (it predates RFC 9207's flag) or has no such schema
      // (the ID-JAG response), v2's answer is taken.
      const v1Differs = name === 'OAuthMetadataSchema' && 'authorization_response_iss_parameter_supported' in document;
      if (officialV1[name] !== undefined && !v1Differs) {
        assert.deepEqual(mine, outcome(officialV1[name], document), `${name} (v1) on ${JSON.stringify(document)}`);
      }
      refused += 'refused' in mine ? 1 : 0;
    }
  }
  assert.ok(refused >= 15, `the cases include refusals (${refused})`);
  for (const url of ['https://a.example/x', 'javascript:alert(1)', 'data:,x', 'nope', '']) {
    assert.deepEqual(outcome(oursV1.SafeUrlSchema, url), outcome(officialV1.SafeUrlSchema, url), url);
    assert.deepEqual(outcome(oursV1.OptionalSafeUrlSchema, url), outcome(officialV1.OptionalSafeUrlSchema, url), url);
  }
});

test('the wire-schemas guide: metadata fetched from a real server parses as with the official schema', async () => {
  const http = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(request.url === '/bad' ? { ...server, token_endpoint: 'javascript:x' } : server));
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${http.address().port}`;
  try {
    const body = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    const metadata = ours.OAuthMetadataSchema.parse(body);
    assert.deepEqual(metadata, officialV2.OAuthMetadataSchema.parse(body));
    assert.deepEqual(metadata.extension_member, { kept: true });
    const bad = await (await fetch(`${base}/bad`)).json();
    assert.throws(() => ours.OAuthMetadataSchema.parse(bad), /javascript:, data:, or vbscript:/);
  } finally {
    http.close();
  }
});
