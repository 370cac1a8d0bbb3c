/**
 * The OAuth wire schemas of the official SDK (v1's `@modelcontextprotocol/sdk/shared/auth.js`,
 * v2's `@modelcontextprotocol/core` auth group): zod schemas of the documents an MCP
 * authorization flow reads and writes, for code that parses them itself (the wire-schemas
 * guide fetches an authorization server's metadata and parses it with
 * `OAuthMetadataSchema`). ferrymcp's own OAuth runs in core, which reads these documents
 * without them.
 *
 * The fields are those of the RFCs: authorization server metadata (RFC 8414, with OpenID
 * Connect Discovery 1.0 for the provider metadata), protected resource metadata
 * (RFC 9728), dynamic client registration (RFC 7591), the token response and error
 * (RFC 6749 §5), revocation (RFC 7009) and the ID-JAG token exchange response
 * (draft-ietf-oauth-identity-assertion-authz-grant). Each schema accepts and rejects what
 * the official one does: metadata documents keep unknown members (`looseObject`), token and
 * client documents drop them; an endpoint a client follows must be a URL of a scheme that
 * cannot run code.
 */
import * as z from 'zod';

const SCRIPT_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:']);

/** A URL a client may follow or show: parseable, and not `javascript:`, `data:` or `vbscript:`. */
export const SafeUrlSchema = z
  .url()
  .superRefine((text, ctx) => {
    if (!URL.canParse(text)) {
      ctx.addIssue({ code: 'custom', message: 'URL must be parseable', fatal: true });
    }
  })
  .refine((text) => !SCRIPT_SCHEMES.has(new URL(text).protocol), {
    message: 'URL cannot use javascript:, data:, or vbscript: scheme',
  });

/** A `SafeUrlSchema` that may be absent, an empty string counting as absent. */
export const OptionalSafeUrlSchema = SafeUrlSchema.optional().or(z.literal('').transform(() => undefined));

type Shape = Record<string, z.ZodType>;

/** `{name: schema.optional()}` for each name. */
function optional<const K extends string, S extends z.ZodType>(schema: S, ...names: K[]): Record<K, z.ZodOptional<S>> {
  return Object.fromEntries(names.map((name) => [name, schema.optional()])) as Record<K, z.ZodOptional<S>>;
}

const strings = z.array(z.string());
const safeUrls = z.array(SafeUrlSchema);

/** RFC 9728's protected resource metadata. */
export const OAuthProtectedResourceMetadataSchema = z.looseObject({
  resource: z.string().url(),
  authorization_servers: safeUrls.optional(),
  ...optional(z.string().url(), 'jwks_uri', 'resource_policy_uri', 'resource_tos_uri'),
  ...optional(z.string(), 'resource_name', 'resource_documentation'),
  ...optional(z.boolean(), 'tls_client_certificate_bound_access_tokens', 'dpop_bound_access_tokens_required'),
  ...optional(
    strings,
    'scopes_supported',
    'bearer_methods_supported',
    'resource_signing_alg_values_supported',
    'authorization_details_types_supported',
    'dpop_signing_alg_values_supported',
  ),
});

/** What RFC 8414 and OpenID Connect Discovery share, as the official schemas check it. */
const serverMetadata = {
  issuer: z.string(),
  authorization_endpoint: SafeUrlSchema,
  token_endpoint: SafeUrlSchema,
  response_types_supported: strings,
  ...optional(SafeUrlSchema, 'registration_endpoint'),
  ...optional(
    strings,
    'scopes_supported',
    'response_modes_supported',
    'grant_types_supported',
    'token_endpoint_auth_methods_supported',
    'token_endpoint_auth_signing_alg_values_supported',
  ),
  ...optional(z.boolean(), 'client_id_metadata_document_supported'),
  // RFC 9207's flag: a value of another type is taken as absent rather than refused.
  authorization_response_iss_parameter_supported: z.boolean().optional().catch(undefined),
} satisfies Shape;

/** RFC 8414's authorization server metadata. */
export const OAuthMetadataSchema = z.looseObject({
  ...serverMetadata,
  ...optional(SafeUrlSchema, 'service_documentation', 'revocation_endpoint'),
  ...optional(z.string(), 'introspection_endpoint'),
  ...optional(
    strings,
    'revocation_endpoint_auth_methods_supported',
    'revocation_endpoint_auth_signing_alg_values_supported',
    'introspection_endpoint_auth_methods_supported',
    'introspection_endpoint_auth_signing_alg_values_supported',
    'code_challenge_methods_supported',
  ),
});

/** OpenID Connect Discovery 1.0's provider metadata. */
export const OpenIdProviderMetadataSchema = z.looseObject({
  ...serverMetadata,
  jwks_uri: SafeUrlSchema,
  subject_types_supported: strings,
  id_token_signing_alg_values_supported: strings,
  ...optional(SafeUrlSchema, 'userinfo_endpoint', 'op_policy_uri', 'op_tos_uri'),
  ...optional(z.string(), 'service_documentation'),
  ...optional(
    z.boolean(),
    'claims_parameter_supported',
    'request_parameter_supported',
    'request_uri_parameter_supported',
    'require_request_uri_registration',
  ),
  ...optional(
    strings,
    'acr_values_supported',
    'id_token_encryption_alg_values_supported',
    'id_token_encryption_enc_values_supported',
    'userinfo_signing_alg_values_supported',
    'userinfo_encryption_alg_values_supported',
    'userinfo_encryption_enc_values_supported',
    'request_object_signing_alg_values_supported',
    'request_object_encryption_alg_values_supported',
    'request_object_encryption_enc_values_supported',
    'display_values_supported',
    'claim_types_supported',
    'claims_supported',
    'claims_locales_supported',
    'ui_locales_supported',
  ),
});

/** An OpenID provider's metadata with RFC 8414's PKCE methods (unknown members dropped). */
export const OpenIdProviderDiscoveryMetadataSchema = z.object({
  ...OpenIdProviderMetadataSchema.shape,
  ...optional(strings, 'code_challenge_methods_supported'),
});

/** RFC 6749's token response (`expires_in` may come as text). */
export const OAuthTokensSchema = z
  .object({
    access_token: z.string(),
    token_type: z.string(),
    expires_in: z.coerce.number().optional(),
    ...optional(z.string(), 'id_token', 'scope', 'refresh_token'),
  })
  .strip();

/** The token exchange's answer carrying an identity assertion JWT authorization grant. */
export const IdJagTokenExchangeResponseSchema = z
  .object({
    issued_token_type: z.literal('urn:ietf:params:oauth:token-type:id-jag'),
    access_token: z.string(),
    expires_in: z.number().optional(),
    ...optional(z.string(), 'token_type', 'scope'),
  })
  .strip();

/** RFC 6749's error response. */
export const OAuthErrorResponseSchema = z.object({
  error: z.string(),
  ...optional(z.string(), 'error_description', 'error_uri'),
});

/** RFC 7591's client metadata. */
export const OAuthClientMetadataSchema = z
  .object({
    redirect_uris: safeUrls,
    ...optional(SafeUrlSchema, 'client_uri', 'jwks_uri'),
    logo_uri: OptionalSafeUrlSchema,
    tos_uri: OptionalSafeUrlSchema,
    contacts: strings.optional(),
    grant_types: strings.optional(),
    response_types: strings.optional(),
    jwks: z.any().optional(),
    ...optional(
      z.string(),
      'token_endpoint_auth_method',
      'application_type',
      'client_name',
      'scope',
      'policy_uri',
      'software_id',
      'software_version',
      'software_statement',
    ),
  })
  .strip();

/** RFC 7591's client information (what registration issued). */
export const OAuthClientInformationSchema = z
  .object({
    client_id: z.string(),
    client_secret: z.string().optional(),
    ...optional(z.number(), 'client_id_issued_at', 'client_secret_expires_at'),
  })
  .strip();

/** The client's metadata with what registration issued. */
export const OAuthClientInformationFullSchema = z
  .object({ ...OAuthClientMetadataSchema.shape, ...OAuthClientInformationSchema.shape })
  .strip();

/** RFC 7591's registration error. */
export const OAuthClientRegistrationErrorSchema = z
  .object({ error: z.string(), error_description: z.string().optional() })
  .strip();

/** RFC 7009's revocation request. */
export const OAuthTokenRevocationRequestSchema = z
  .object({ token: z.string(), token_type_hint: z.string().optional() })
  .strip();

export type OAuthMetadata = z.infer<typeof OAuthMetadataSchema>;
export type OpenIdProviderMetadata = z.infer<typeof OpenIdProviderMetadataSchema>;
export type OpenIdProviderDiscoveryMetadata = z.infer<typeof OpenIdProviderDiscoveryMetadataSchema>;
export type OAuthErrorResponse = z.infer<typeof OAuthErrorResponseSchema>;
export type OAuthClientRegistrationError = z.infer<typeof OAuthClientRegistrationErrorSchema>;
export type OAuthTokenRevocationRequest = z.infer<typeof OAuthTokenRevocationRequestSchema>;
export type OAuthProtectedResourceMetadata = z.infer<typeof OAuthProtectedResourceMetadataSchema>;
export type IdJagTokenExchangeResponse = z.infer<typeof IdJagTokenExchangeResponseSchema>;
/** An authorization server's metadata, RFC 8414's or an OpenID provider's. */
export type AuthorizationServerMetadata = OAuthMetadata | OpenIdProviderDiscoveryMetadata;
