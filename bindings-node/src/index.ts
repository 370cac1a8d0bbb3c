/**
 * ferrymcp: the Model Context Protocol for Node.js on one Rust engine.
 *
 * The package root is the official v2 SDK's surface (`@modelcontextprotocol/server` and
 * `@modelcontextprotocol/client` in one): `McpServer`, `ResourceTemplate`, `completable`,
 * `Client`, `StreamableHTTPClientTransport`/`SSEClientTransport`, `McpError`/`ProtocolError`
 * and the MCP types. stdio lives in `ferrymcp/stdio`;
 * the v1 paths (`ferrymcp/server/mcp.js`, `ferrymcp/server/stdio.js`,
 * `ferrymcp/client/index.js`, `ferrymcp/client/stdio.js`, `ferrymcp/client/streamableHttp.js`,
 * `ferrymcp/client/sse.js`, `ferrymcp/types.js`) mirror
 * `@modelcontextprotocol/sdk`'s.
 */
export { McpServer, Server } from './mcp-server.js';
export type {
  CacheHint,
  CacheableMethod,
  McpServerOptions,
  PromptCallback,
  PromptConfig,
  ReadResourceCallback,
  ReadResourceTemplateCallback,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredResourceTemplate,
  RegisteredTool,
  ResourceMetadata,
  ToolCallback,
  ToolConfig,
} from './mcp-server.js';
export { ResourceTemplate, UriTemplate } from './template.js';
export type { CompleteResourceTemplateCallback, ListResourcesCallback } from './template.js';
export { completable, fromJsonSchema } from './schema.js';
export type { StandardSchemaWithJSON } from './schema.js';
export { HandlerContext } from './context.js';
export type { InputOptions, McpRequestContext, McpServerFactoryContext, RequestHandlerExtra, ServerContext } from './context.js';
export { NodeStreamableHTTPServerTransport, WebStandardStreamableHTTPServerTransport } from './http.js';
export type { HandleRequestOptions, HttpListener, ListenOptions } from './http.js';
export { createMcpHandler, isLegacyRequest } from './http-handler.js';
export type { IsLegacyRequestOptions } from './http-handler.js';
export type { CreateMcpHandlerOptions, McpHttpHandler, McpServerFactory } from './http-handler.js';
export { InMemoryServerEventBus } from './event-bus.js';
export type { ServerEventBus, ServerNotifier } from './event-bus.js';
export type { AuthInfo, BearerAuthOptions, EventId, EventStore, StreamId, OAuthTokenVerifier, RedisStoreOptions, StreamableHTTPServerTransportOptions, TokenVerifier, WebStandardStreamableHTTPServerTransportOptions } from './http-options.js';
export { RedisStore } from './http-options.js';
export { Client } from './mcp-client.js';
export { ClientGroup, toolDefinitions, toolResult } from './group.js';
export type { ClientGroupOptions, GroupTool, LlmApi, ServerEvent, ServerStatus } from './group.js';
export type { CacheMode, ClientOptions, DiscoverResult, RequestOptions } from './mcp-client.js';
export { MAX_CACHE_TTL_MS } from './mcp-client.js';
export { InMemoryResponseCacheStore } from './response-cache.js';
export type { CacheEntry, CacheKey, CacheScope, InMemoryResponseCacheStoreOptions, MaybePromise, ResponseCacheStore } from './response-cache.js';
export { SSEClientTransport, StreamableHTTPClientTransport } from './http-client.js';
export type { AuthProvider, SSEClientTransportOptions, StreamableHTTPClientTransportOptions, TlsOptions } from './http-client.js';
export { ExperimentalClientTasks } from './client-tasks.js';
export type { Task, TaskCallOptions, TaskResponseMessage } from './client-tasks.js';
export {
  ErrorCode,
  McpError,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  UnsupportedProtocolVersionError,
  UrlElicitationRequiredError,
} from './errors.js';
export { isCallToolResult, isSpecType, preloadSchemas, specTypeSchemas } from './spec-guards.js';
export { Protocol, mergeCapabilities } from './shared/protocol.js';
export { createFetchWithInit } from './shared/transport.js';
export { readRequestBody } from './server/requestBody.js';
export { isCompletable } from './server/completable.js';
export {
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  IssuerMismatchError,
  OAuthClientFlowError,
  OAuthUnsupportedError,
  PrivateKeyJwtProvider,
  StaticPrivateKeyJwtProvider,
  UnauthorizedError,
  auth,
  createPrivateKeyJwtAuth,
  extractResourceMetadataUrl,
  extractWWWAuthenticateParams,
  isOAuthClientProvider,
  validateClientMetadataUrl,
} from './oauth-client.js';
export { discoverAndRequestJwtAuthGrant, exchangeJwtAuthGrant, requestJwtAuthorizationGrant } from './cross-app-access.js';
import { v2OAuthFunctions } from './oauth-functions.js';
// The standalone OAuth steps on core's, throwing v2's `OAuthError`.
export const {
  buildDiscoveryUrls,
  discoverAuthorizationServerMetadata,
  discoverOAuthMetadata,
  discoverOAuthProtectedResourceMetadata,
  discoverOAuthServerInfo,
  exchangeAuthorization,
  isHttpsUrl,
  parseErrorResponse,
  prepareAuthorizationCodeRequest,
  refreshAuthorization,
  registerClient,
  selectClientAuthMethod,
  selectResourceURL,
  startAuthorization,
} = v2OAuthFunctions;
export type { AddClientAuthentication, ClientAuthMethod, OAuthServerInfo } from './oauth-functions.js';
export type { DiscoverAndRequestJwtAuthGrantOptions, JwtAuthGrantResult, RequestJwtAuthGrantOptions } from './cross-app-access.js';
export type {
  AssertionCallback,
  ClientCredentialsProviderOptions,
  CrossAppAccessContext,
  CrossAppAccessProviderOptions,
  OAuthClientInformation,
  OAuthClientInformationFull,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from './oauth-client.js';
export * from './types.js';
// The official v2 core's auth schema group (the URL field validators stay in `ferrymcp/shared/auth.js`, as there).
export {
  IdJagTokenExchangeResponseSchema,
  OAuthClientInformationFullSchema,
  OAuthClientInformationSchema,
  OAuthClientMetadataSchema,
  OAuthClientRegistrationErrorSchema,
  OAuthErrorResponseSchema,
  OAuthMetadataSchema,
  OAuthProtectedResourceMetadataSchema,
  OAuthTokenRevocationRequestSchema,
  OAuthTokensSchema,
  OpenIdProviderDiscoveryMetadataSchema,
  OpenIdProviderMetadataSchema,
} from './auth-schemas.js';
export type {
  AuthorizationServerMetadata,
  IdJagTokenExchangeResponse,
  OAuthErrorResponse,
  OAuthClientRegistrationError,
  OAuthMetadata,
  OAuthProtectedResourceMetadata,
  OAuthTokenRevocationRequest,
  OpenIdProviderDiscoveryMetadata,
  OpenIdProviderMetadata,
} from './auth-schemas.js';
export {
  FerrymcpUnsupportedError,
  OAuthError,
  OAuthErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  buildOAuthProtectedResourceMetadata,
  checkResourceAllowed,
  getOAuthProtectedResourceMetadataUrl,
  legacyStatelessFallback,
  oauthMetadataResponse,
  requireScopes,
  resourceUrlFromServerUrl,
} from './auth-helpers.js';
export type { OAuthErrorBody, SdkHttpErrorData } from './auth-helpers.js';
export { acceptedContent, createRequestStateCodec, inputRequired, inputResponse } from './input-rounds.js';
export { bearerAuthChallengeResponse, requireBearerAuth, verifyBearerToken } from './bearer-gate.js';
export type { BearerGateOptions } from './bearer-gate.js';
export type {
  InputRequest,
  InputRequests,
  InputRequiredBuilder,
  InputRequiredResult,
  InputRequiredSpec,
  InputResponseView,
  InputResponses,
  RequestStateCodec,
  RequestStateCodecOptions,
} from './input-rounds.js';
export { InMemoryTransport, ReadBuffer, deserializeMessage, serializeMessage } from './transport.js';
export type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from './transport.js';
export {
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  validateHostHeader,
  validateOriginHeader,
} from './host-guard.js';
export type { HostHeaderValidationResult, OriginHeaderValidationResult } from './host-guard.js';
