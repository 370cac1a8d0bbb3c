/**
 * The compiled addon, loaded once.
 *
 * napi's generated loader (`native/index.cjs`, through `native/load.cjs`, which turns its
 * "cannot find" into an error naming the platform) picks the `.node` file built for this
 * platform; this module is the one place the rest of the package imports it from, typed by
 * the generated `native/index.d.cts`. Nothing here adds behaviour.
 */
import native from '../native/load.cjs';

export type { NativeContext, NativeReply, NativeClient as NativeClientHandle, ClientConfig, SpawnConfig, RequestConfig, ServerConfig } from '../native/index.cjs';
export type { HttpClientConfig } from '../native/index.cjs';

export const NativeServer = native.NativeServer;
export const NativeCancel = native.NativeCancel;
export const spawnClient = native.spawnClient;
export const NativePort = native.NativePort;
export const connectPort = native.connectPort;
export const childEnvironment = native.childEnvironment;
export const childEnvironmentVars = native.childEnvironmentVars;

export type { NativeGroup, GroupConfig } from '../native/index.cjs';
export const connectGroup = native.connectGroup;
export const llmToolDefinitions = native.llmToolDefinitions;
export const llmToolResult = native.llmToolResult;

export type { HttpConfig, AuthConfig, NativeHttpResponse, NativeHttpListener, RedisConfig } from '../native/index.cjs';
export const NativeRedisStore = native.NativeRedisStore;
export const NativeEventStore = native.NativeEventStore;
export const NativeTaskStore = native.NativeTaskStore;
export const NativeInMemoryTaskStore = native.NativeInMemoryTaskStore;
export const NativeCacheStore = native.NativeCacheStore;
export const NativeHttpHandler = native.NativeHttpHandler;
export const listenHttp = native.listenHttp;
export const connectHttpClient = native.connectHttpClient;
export const NativeOAuth = native.NativeOAuth;
export const parseWwwAuthenticate = native.parseWwwAuthenticate;
export const checkToolName = native.checkToolName;
export const supportedElicitationModes = native.supportedElicitationModes;
export const isLegacyHttpRequest = native.isLegacyHttpRequest;
export const bearerAuthorize = native.bearerAuthorize;
export const bearerChallenge = native.bearerChallenge;

export type { Vocabulary, ErrorCodes, MetaKeys } from '../native/index.cjs';
/** The protocol's constants (revisions, error codes, log levels, `_meta` keys), from core. */
export const vocabulary = native.vocabulary();
export const crossAppRequestJwtAuthGrant = native.crossAppRequestJwtAuthGrant;
export const crossAppExchangeJwtAuthGrant = native.crossAppExchangeJwtAuthGrant;
export const oauthBuildDiscoveryUrls = native.oauthBuildDiscoveryUrls;
export const oauthDiscoverProtectedResourceMetadata = native.oauthDiscoverProtectedResourceMetadata;
export const oauthDiscoverAuthorizationServerMetadata = native.oauthDiscoverAuthorizationServerMetadata;
export const oauthDiscoverOauthMetadata = native.oauthDiscoverOauthMetadata;
export const oauthDiscoverServerInfo = native.oauthDiscoverServerInfo;
export const oauthSelectResource = native.oauthSelectResource;
export const oauthIsHttpsUrl = native.oauthIsHttpsUrl;
export const oauthStartAuthorization = native.oauthStartAuthorization;
export const oauthAuthorizationCodeForm = native.oauthAuthorizationCodeForm;
export const oauthTokenGrant = native.oauthTokenGrant;
export const oauthRegisterClient = native.oauthRegisterClient;
export const oauthSelectClientAuthMethod = native.oauthSelectClientAuthMethod;
export const oauthParseErrorResponse = native.oauthParseErrorResponse;
export const oauthStoredClientInformation = native.oauthStoredClientInformation;
