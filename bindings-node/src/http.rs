//! `NativeHttpHandler`: core's Streamable HTTP endpoint ([`HttpHandler`]) for JavaScript.
//!
//! One handler serves both eras (legacy sessions and stateless 2026-07-28 requests) for
//! one `NativeServer`, three ways: requests handed over from JS one at a time
//! ([`NativeHttpHandler::handle`], behind the web-standard and Node `http` transports of
//! the TypeScript layer), and core's own hyper server ([`crate::http_listen`]). Everything
//! the endpoint decides (routing by era, sessions, Host/Origin checks, bearer tokens,
//! status codes, SSE framing) is core's; this file only turns the settings into
//! [`HttpOptions`] and moves bytes.
//!
//! A response body is pulled by JS one chunk at a time (`read()`), so a slow reader slows
//! only its own request, and `cancel()` drops the body: core sees its stream closed,
//! which on a 2026-07-28 request is the client's cancellation.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use ferrymcp_core::protocol::ErrorCode;
use ferrymcp_core::server::http::{
    Authorized, BearerAuth, HttpHandler, HttpOptions, HttpSettings, METADATA_PATH, Refused, ResponseBody,
    auth_info_from_json, authorize, challenge,
};

use crate::events::NativeEventStore;
use crate::redis::NativeRedisStore;
use http::header::CONTENT_TYPE;
use http::{Method, Request, Uri};
use http_body_util::{BodyExt, Full};
use napi::bindgen_prelude::Buffer;
use napi_derive::napi;
use tokio::sync::Mutex;
use tokio_util::sync::CancellationToken;

use crate::error::{internal, mcp_error, no_panic};
use crate::http_bearer::{JsVerifier, JsVerifierFn};
use crate::server::NativeServer;

/// How long a token verifier may take, unless configured.
const DEFAULT_VERIFY_TIMEOUT: Duration = Duration::from_secs(10);

#[napi(object)]
pub struct HttpConfig {
    /// The endpoint's path. Absent for a mounted handler: it answers whatever path the
    /// web framework routes to it.
    pub endpoint: Option<String>,
    /// Host names accepted (any port); empty accepts every name. Core's default when
    /// absent (loopback names for a server bound to loopback or mounted elsewhere).
    pub allowed_hosts: Option<Vec<String>>,
    /// Origins accepted besides those whose host is an accepted host.
    pub allowed_origins: Option<Vec<String>>,
    /// `false` accepts every Host and Origin (the official `enableDnsRebindingProtection`).
    pub dns_rebinding_protection: Option<bool>,
    pub max_body_bytes: Option<u32>,
    pub max_sessions: Option<u32>,
    pub session_idle_ms: Option<u32>,
    pub keep_alive_ms: Option<u32>,
    /// The reconnection delay advertised in SSE priming events.
    pub retry_ms: Option<u32>,
    /// Require bearer tokens (with the verifier given beside this config).
    pub auth: Option<AuthConfig>,
    /// Legacy clients without sessions (the official `sessionIdGenerator: undefined`).
    pub stateless: Option<bool>,
    /// One JSON body per request, never SSE (the official `enableJsonResponse`).
    pub json_response: Option<bool>,
}

#[napi(object)]
pub struct AuthConfig {
    /// Scopes every token must carry (core answers 403 naming the first one missing).
    pub required_scopes: Option<Vec<String>>,
    pub authorization_servers: Vec<String>,
    pub scopes_supported: Option<Vec<String>>,
    /// The resource's canonical URL; derived from `Host` and the endpoint when absent.
    pub resource: Option<String>,
    pub verify_timeout_ms: Option<u32>,
}

fn millis(ms: Option<u32>) -> Option<Duration> {
    ms.map(|ms| Duration::from_millis(ms.into()))
}

/// Core's options from what the author set; core checks them and decides the rest, the
/// Host and Origin defaults from `bound_to` (the listener's host, `None` for a handler
/// mounted in another web server).
pub(crate) fn options(
    config: HttpConfig,
    verifier: Option<JsVerifierFn>,
    redis: Option<&NativeRedisStore>,
    events: Option<&NativeEventStore>,
    bound_to: Option<&str>,
) -> napi::Result<HttpOptions> {
    let auth = match (config.auth, verifier) {
        (None, None) => None,
        (Some(auth), Some(verifier)) => Some(BearerAuth {
            verifier: Arc::new(JsVerifier::new(
                verifier,
                millis(auth.verify_timeout_ms).unwrap_or(DEFAULT_VERIFY_TIMEOUT),
            )),
            required_scopes: auth.required_scopes.unwrap_or_default(),
            authorization_servers: auth.authorization_servers,
            scopes_supported: auth.scopes_supported,
            resource: auth.resource,
            serve_metadata: true,
            audience: None,
        }),
        _ => {
            return Err(mcp_error(
                ErrorCode::INVALID_PARAMS,
                "bearer authorization needs both its settings and a verifier",
                None,
            ));
        }
    };
    let mut settings = HttpSettings {
        endpoint: config.endpoint,
        allowed_hosts: config.allowed_hosts,
        allowed_origins: config.allowed_origins,
        dns_rebinding_protection: config.dns_rebinding_protection,
        max_body: config.max_body_bytes.map(|n| n as usize),
        max_sessions: config.max_sessions.map(|n| n as usize),
        session_idle: millis(config.session_idle_ms),
        keep_alive: millis(config.keep_alive_ms),
        retry: millis(config.retry_ms),
        auth,
        stateless: config.stateless.unwrap_or(false),
        json_response: config.json_response.unwrap_or(false),
        event_store: events.map(NativeEventStore::event_store),
        ..HttpSettings::default()
    };
    if let Some(redis) = redis {
        redis.store.configure(&mut settings);
    }
    settings.resolve(bound_to).map_err(|e| mcp_error(ErrorCode::INVALID_PARAMS, &e.to_string(), None))
}

#[napi]
pub struct NativeHttpHandler {
    handler: HttpHandler,
    /// Mounted by a web framework at a path of its choosing: requests are served as if
    /// they came to this endpoint (the metadata document's well-known path aside).
    mounted_at: Option<String>,
    /// Core's body limit for this endpoint (configured or its default).
    max_body: usize,
}

#[napi]
impl NativeHttpHandler {
    #[napi(constructor)]
    pub fn new(
        server: &NativeServer,
        config: HttpConfig,
        #[napi(ts_arg_type = "((token: string) => Promise<string>) | undefined | null")] verifier: Option<JsVerifierFn>,
        redis: Option<&NativeRedisStore>,
        events: Option<&NativeEventStore>,
    ) -> napi::Result<Self> {
        let mounted = config.endpoint.is_none();
        let options = options(config, verifier, redis, events, None)?;
        let mounted_at = mounted.then(|| options.endpoint.clone());
        let max_body = options.max_body;
        Ok(Self { handler: HttpHandler::new(server.core(), options), mounted_at, max_body })
    }

    /// The largest body core accepts here; JS reads at most one byte more, so that core
    /// answers 413 without JS knowing the default.
    #[napi(getter)]
    pub fn max_body_bytes(&self) -> u32 {
        u32::try_from(self.max_body).unwrap_or(u32::MAX)
    }

    /// Answers one request. `headers` is flat (`[name, value, name, value, ...]`, as
    /// Node's `rawHeaders`); `body` is the whole body, or its first `maxBodyBytes + 1`
    /// bytes when longer (core answers 413 then).
    #[napi]
    ///
    /// `auth_info_json`: a token accepted in front of this endpoint (the official
    /// `requireBearerAuth`, `req.auth`, `handleRequest`'s `authInfo`; core's `AuthInfo` as
    /// JSON, camelCase): the request's handlers get it, when the endpoint checks no tokens
    /// itself.
    pub async fn handle(
        &self,
        method: String,
        url: String,
        headers: Vec<String>,
        body: Buffer,
        auth_info_json: Option<String>,
    ) -> napi::Result<NativeHttpResponse> {
        let mut request = self.request(&method, &url, &headers, Bytes::from(body.to_vec()))?;
        if let Some(json) = auth_info_json {
            let value = serde_json::from_str(&json).map_err(|e| internal(format!("authInfo is not JSON: {e}")))?;
            let info = auth_info_from_json(value).map_err(|e| internal(format!("authInfo: {e}")))?;
            request.extensions_mut().insert(Authorized(Arc::new(info)));
        }
        let handler = self.handler.clone();
        no_panic(async move {
            let response = handler.handle(request).await;
            let (parts, body) = response.into_parts();
            let headers = parts
                .headers
                .iter()
                .flat_map(|(name, value)| {
                    [name.as_str().to_owned(), String::from_utf8_lossy(value.as_bytes()).into_owned()]
                })
                .collect();
            let streaming =
                parts.headers.get(CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
            let (whole, body) = match streaming {
                true => (None, Some(body)),
                false => (Some(body.collect().await.map_or_else(|never| match never {}, |c| c.to_bytes())), None),
            };
            Ok(NativeHttpResponse {
                status: parts.status.as_u16(),
                headers,
                whole: std::sync::Mutex::new(whole),
                body: Mutex::new(body),
                cancelled: CancellationToken::new(),
            })
        })
        .await
    }

    fn request(&self, method: &str, url: &str, headers: &[String], body: Bytes) -> napi::Result<Request<Full<Bytes>>> {
        let method =
            Method::from_bytes(method.as_bytes()).map_err(|_| internal(format!("invalid HTTP method {method:?}")))?;
        let mut uri: Uri = url.parse().map_err(|e| internal(format!("invalid request URL {url:?}: {e}")))?;
        if let Some(endpoint) = self.mounted_at.as_deref().filter(|_| !uri.path().starts_with(METADATA_PATH)) {
            uri = at_endpoint(uri, endpoint)?;
        }
        let mut builder = Request::builder().method(method).uri(uri);
        for pair in headers.chunks_exact(2) {
            builder = builder.header(pair[0].as_str(), pair[1].as_str());
        }
        builder.body(Full::new(body)).map_err(|e| internal(format!("invalid request: {e}")))
    }

    /// Ends long-lived streams (standalone GET, `subscriptions/listen`) and then every
    /// legacy session; requests in flight are answered.
    #[napi]
    pub async fn close(&self) -> napi::Result<()> {
        let handler = self.handler.clone();
        no_panic(async move {
            handler.stop_streams();
            handler.end_sessions().await;
            Ok(())
        })
        .await
    }
}

/// The official `verifyBearerToken` / `requireBearerAuth` check, by core's bearer policy:
/// the `Authorization` header's token as `verifier` says and core accepts it (required
/// scopes, expiry). Resolves to JSON: `{"ok": true, "authInfo": {...}}`, or `{"ok": false,
/// "status", "wwwAuthenticate", "body"}` (the response core's endpoint would answer, its
/// challenge naming `resource_metadata_url` when given).
#[napi]
pub async fn bearer_authorize(
    #[napi(ts_arg_type = "(token: string) => Promise<string>")] verifier: JsVerifierFn,
    required_scopes: Vec<String>,
    authorization: Option<String>,
    resource_metadata_url: Option<String>,
    verify_timeout_ms: Option<u32>,
) -> napi::Result<String> {
    let auth = BearerAuth {
        verifier: Arc::new(JsVerifier::new(verifier, millis(verify_timeout_ms).unwrap_or(DEFAULT_VERIFY_TIMEOUT))),
        required_scopes,
        authorization_servers: Vec::new(),
        scopes_supported: None,
        resource: None,
        serve_metadata: false,
        audience: None,
    };
    no_panic(async move {
        let verdict = match authorize(&auth, authorization.as_deref(), resource_metadata_url.as_deref()).await {
            Ok(info) => serde_json::json!({"ok": true, "authInfo": info}),
            Err(refused) => refusal_json(refused),
        };
        Ok(verdict.to_string())
    })
    .await
}

fn refusal_json(refused: Refused) -> serde_json::Value {
    serde_json::json!({
        "ok": false,
        "status": refused.status,
        "wwwAuthenticate": refused.www_authenticate,
        "body": refused.body,
    })
}

/// How core answers an OAuth error of the resource server (the official
/// `bearerAuthChallengeResponse`): JSON `{"ok": false, "status", "wwwAuthenticate", "body"}`.
#[napi]
pub fn bearer_challenge(
    error: String,
    description: String,
    scope: Option<String>,
    resource_metadata_url: Option<String>,
) -> String {
    refusal_json(challenge(&error, &description, scope.as_deref(), resource_metadata_url.as_deref())).to_string()
}

/// `uri` with its path replaced by `endpoint` (query and authority kept).
fn at_endpoint(uri: Uri, endpoint: &str) -> napi::Result<Uri> {
    let mut parts = uri.into_parts();
    let query = parts.path_and_query.as_ref().and_then(|pq| pq.query()).map(|q| format!("?{q}")).unwrap_or_default();
    parts.path_and_query = Some(format!("{endpoint}{query}").parse().map_err(|_| internal("invalid endpoint path"))?);
    Uri::from_parts(parts).map_err(|e| internal(format!("invalid request URL: {e}")))
}

/// One response: status and headers at once; a JSON (or empty) body whole, an event
/// stream pulled chunk by chunk.
#[napi]
pub struct NativeHttpResponse {
    status: u16,
    headers: Vec<String>,
    /// The body of a response that is not a stream, collected before JS sees it.
    whole: std::sync::Mutex<Option<Bytes>>,
    /// The event stream.
    body: Mutex<Option<ResponseBody>>,
    cancelled: CancellationToken,
}

#[napi]
impl NativeHttpResponse {
    #[napi(getter)]
    pub fn status(&self) -> u16 {
        self.status
    }

    /// Flat, `[name, value, name, value, ...]`.
    #[napi(getter)]
    pub fn headers(&self) -> Vec<String> {
        self.headers.clone()
    }

    /// The whole body of a response that is not an event stream (once); `null` for a stream,
    /// which `read()` gives chunk by chunk.
    #[napi]
    pub fn take_body(&self) -> Option<Buffer> {
        let whole = self.whole.lock().unwrap_or_else(|p| p.into_inner()).take();
        whole.map(|bytes| bytes.to_vec().into())
    }

    /// The next chunk of the event stream; `null` once it is over (or cancelled).
    #[napi]
    pub async fn read(&self) -> napi::Result<Option<Buffer>> {
        let mut slot = self.body.lock().await;
        while let Some(body) = slot.as_mut() {
            let frame = tokio::select! {
                _ = self.cancelled.cancelled() => None,
                frame = body.frame() => frame,
            };
            match frame {
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        return Ok(Some(data.to_vec().into()));
                    }
                }
                Some(Err(never)) => match never {},
                None => *slot = None,
            }
        }
        Ok(None)
    }

    /// The reader went away: the body is dropped, which core takes as the stream closing.
    #[napi]
    pub fn cancel(&self) {
        self.cancelled.cancel();
        if let Ok(mut slot) = self.body.try_lock() {
            *slot = None;
        }
    }
}

/// Whether core's endpoint serves this HTTP request as a 2025-era one (the official
/// `isLegacyRequest`): core's routing rule, applied to the method, the
/// `MCP-Protocol-Version` header, whether an `Mcp-Session-Id` came, and the body text.
#[napi]
pub fn is_legacy_http_request(method: String, version_header: Option<String>, has_session: bool, body: String) -> bool {
    ferrymcp_core::server::http::is_legacy_request(&method, version_header.as_deref(), has_session, &body)
}
