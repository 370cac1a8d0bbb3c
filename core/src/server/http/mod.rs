//! Streamable HTTP, server side: one MCP endpoint serving both eras side by side.
//!
//! [`HttpHandler`] is the whole protocol behind the endpoint as a plain function of an
//! `http::Request` to an `http::Response` with a streaming body, so it mounts in any web
//! stack (the bindings adapt it to ASGI and to Node's `http`); [`serve`] is the built-in
//! hyper server around it. A request is routed by era: one carrying the 2026-07-28
//! `_meta` (or naming a modern revision in `MCP-Protocol-Version`) is served statelessly
//! ([`modern`]); `initialize` opens a session and everything naming one is served in it
//! ([`legacy`]). Both run the same [`Server`] code as stdio; only the way messages travel
//! differs, and that is all this module holds.

mod auth;
pub mod auth_server;
mod body;
mod bus;
mod events;
mod exchange;
mod guard;
mod headers;
mod idle;
mod legacy;
mod modern;
mod reply;
mod routes;
mod serve;
mod sessions;
mod settings;
mod store;
mod stream;

pub use auth::{
    AuthError, Authorized, BearerAuth, BearerVerifier, METADATA_PATH, Refused, auth_info_from_json, authorize,
    challenge, metadata_path,
};
pub use bus::Bus;
pub use events::{EventStore, Followed, MemoryEventStore, NamedEventStore, NamedReplay, NamingEventStore, Replay};
pub use guard::{LOOPBACK_HOSTS, SECURITY_LOG};
pub use reply::ResponseBody;
pub use routes::{RouteAnswer, RouteRequest, Routes};
pub use serve::{HttpServer, ServeOptions, serve};
pub use settings::{HttpSettings, SettingsError, is_loopback_host};
pub use store::{SessionRecord, SessionStore, StoreError};

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::request::Parts;
use http::{Method, Request, Response, StatusCode};
use http_body::Body;
use http_body_util::{BodyExt, Limited};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::protocol::{Initialize, ProtocolVersion, RequestMethod};
use crate::server::{AuthInfo, Connection, FrontParams, Server};
use crate::server::{custom, era, middleware, params};
use crate::wire::{self, ErrorCode, ErrorObject, Message, Parsed, SharedStr};
use reply::{refuse, rpc_error};
use sessions::SessionTable;

pub(crate) use crate::protocol::headers::{
    PROTOCOL_VERSION_HEADER as VERSION_HEADER, SESSION_ID_HEADER as SESSION_HEADER,
};

/// How the endpoint behaves, every value decided. Servers build it from what their author
/// set with [`HttpSettings::resolve`], which holds the defaults; `Default` is the endpoint
/// of a server bound to loopback.
#[derive(Clone)]
pub struct HttpOptions {
    /// The endpoint's path.
    pub endpoint: String,
    /// Hosts the server answers to: `name` or `name:*` (any port) or `name:port`, or `*`
    /// for every host; an empty list answers none (the official Python SDK's meaning).
    /// Loopback names by default, against DNS rebinding.
    pub allowed_hosts: Vec<String>,
    /// Origins allowed besides those whose host is an allowed host: exact, `scheme://host:*`
    /// (any port), or `*` (every origin).
    pub allowed_origins: Vec<String>,
    /// Largest accepted request body (larger: 413).
    pub max_body: usize,
    /// Most legacy sessions at once (more: 503).
    pub max_sessions: usize,
    /// A legacy session unused this long is ended.
    pub session_idle: Duration,
    /// A quiet SSE stream gets a comment this often.
    pub keep_alive: Duration,
    /// The reconnection delay advertised in priming events (2025-11-25).
    pub retry: Duration,
    /// Where resumable events are kept.
    pub event_store: Arc<dyn EventStore>,
    /// Where legacy sessions are kept so every replica can serve them (none: in this
    /// process's memory).
    pub session_store: Option<Arc<dyn SessionStore>>,
    /// How replicas sharing the session store reach each other's clients (see
    /// [`Bus`]); none: one process.
    pub bus: Option<Arc<dyn Bus>>,
    /// Require bearer tokens.
    pub auth: Option<BearerAuth>,
    /// Serve an OAuth authorization server's routes beside the endpoint (the official
    /// `auth_server_provider=`): see [`auth_server`].
    pub auth_server: Option<Arc<auth_server::AuthServer>>,
    /// Serve legacy clients without sessions (the official SDKs' `stateless_http=True`,
    /// TypeScript's `sessionIdGenerator: undefined`): no `Mcp-Session-Id`, every POST is
    /// answered on its own by a fresh connection, GET and DELETE are 405. A handler cannot
    /// ask such a client for input (there is no session to carry the answer back).
    pub stateless: bool,
    /// Answer every request with one JSON body, never an SSE stream (the official SDKs'
    /// `json_response=True` / `enableJsonResponse`): what a handler sends before its
    /// answer (progress, logs) is not delivered, as there.
    pub json_response: bool,
    /// How the checks before a body is read refuse (see [`GuardStyle`]).
    pub guard_style: GuardStyle,
    /// The application's own routes, for every path the endpoint does not own (see
    /// [`Routes`]); none: such paths are 404.
    pub routes: Option<Arc<dyn Routes>>,
}

/// How the endpoint refuses a request before reading its body. The official SDKs differ,
/// and a binding picks its SDK's way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GuardStyle {
    /// A JSON-RPC error body: `403` for a refused `Host` or `Origin`, the `Content-Type`
    /// checked (`415`) before the body's size (`413`): the TypeScript SDKs' way.
    #[default]
    JsonRpc,
    /// The official Python SDK's way: a declared body larger than the limit is `413`
    /// before anything else is looked at (its size limit wraps the whole app), then a
    /// POST that is not JSON is `400 Invalid Content-Type header`, a refused `Host`
    /// `421 Invalid Host header` and a refused `Origin` `403 Invalid Origin header`:
    /// plain text without a `Content-Type`.
    PlainText,
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            endpoint: "/mcp".into(),
            allowed_hosts: LOOPBACK_HOSTS.iter().map(|h| (*h).to_owned()).collect(),
            allowed_origins: Vec::new(),
            max_body: 4 * 1024 * 1024,
            max_sessions: 10_000,
            session_idle: Duration::from_secs(30 * 60),
            keep_alive: Duration::from_secs(15),
            retry: Duration::from_secs(1),
            event_store: Arc::new(MemoryEventStore::default()),
            session_store: None,
            bus: None,
            auth: None,
            auth_server: None,
            stateless: false,
            json_response: false,
            guard_style: GuardStyle::JsonRpc,
            routes: None,
        }
    }
}

pub(crate) struct HttpState {
    pub server: Server,
    pub options: HttpOptions,
    pub sessions: Arc<SessionTable>,
    /// The connection that serves stateless requests (it never initializes).
    pub stateless: Arc<Connection>,
    /// Fires on shutdown: long-lived streams end, in-flight requests finish.
    pub shutdown: CancellationToken,
    /// This replica's end of the bus, if there is one.
    pub bus: Option<Arc<bus::Link>>,
    /// The bus is listened to from the first request on (a runtime is needed).
    listening: std::sync::Once,
}

/// The MCP endpoint as a function from request to response. Cheap to clone.
#[derive(Clone)]
pub struct HttpHandler {
    state: Arc<HttpState>,
}

impl HttpHandler {
    pub fn new(server: Server, options: HttpOptions) -> Self {
        let sessions = Arc::new(SessionTable::new(
            options.max_sessions,
            options.session_idle,
            options.event_store.clone(),
            options.session_store.clone(),
        ));
        let bus = options.bus.clone().map(|bus| bus::Link::new(bus, sessions.writer()));
        if let Some(link) = &bus {
            sessions.set_bus(link.clone());
            server.shared.fanout.write().unwrap().push(link.clone());
        }
        let stateless = server.connection();
        let state = HttpState {
            server,
            options,
            sessions,
            stateless,
            shutdown: CancellationToken::new(),
            bus,
            listening: std::sync::Once::new(),
        };
        let handler = Self { state: Arc::new(state) };
        if tokio::runtime::Handle::try_current().is_ok() {
            handler.listen_to_bus();
        }
        handler
    }

    /// Starts delivering what the other replicas publish (once).
    fn listen_to_bus(&self) {
        let Some(bus) = &self.state.options.bus else { return };
        self.state.listening.call_once(|| {
            let me = self.state.sessions.writer();
            tokio::spawn(bus::receive(Arc::downgrade(&self.state), bus.subscribe(), me));
        });
    }

    /// Number of open legacy sessions.
    pub fn session_count(&self) -> usize {
        self.state.sessions.len()
    }

    /// First step of a shutdown: ends the streams that never end on their own
    /// (standalone GET streams, `subscriptions/listen`); requests in flight go on.
    pub fn stop_streams(&self) {
        self.state.shutdown.cancel();
    }

    /// Last step of a shutdown, once requests in flight are answered: ends every session.
    pub async fn end_sessions(&self) {
        self.state.sessions.clear().await;
    }

    /// Answers one HTTP request. Must run inside a tokio runtime.
    pub async fn handle<B>(&self, request: Request<B>) -> Response<ResponseBody>
    where
        B: Body<Data = Bytes> + Send,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        self.listen_to_bus();
        let state = &self.state;
        let (parts, body) = request.into_parts();
        if let Some(server) = state.options.auth_server.as_ref().filter(|server| server.serves(parts.uri.path())) {
            return authorization_server(server, &parts, body).await;
        }
        if let Some(reply) = auth::metadata(&state.options, &parts) {
            return drained(body, reply).await;
        }
        if parts.uri.path() != state.options.endpoint {
            if let Some(routes) = &state.options.routes {
                return application_route(routes.as_ref(), state.options.max_body, parts, body).await;
            }
            return drained(body, refuse(StatusCode::NOT_FOUND, ErrorCode::CONNECTION_CLOSED, "Not Found")).await;
        }
        if state.options.guard_style == GuardStyle::PlainText && parts.method == Method::POST {
            if let Some(reply) = guard::declared_too_large(&state.options, &parts) {
                return drained(body, reply).await;
            }
        }
        if let Err(reply) = guard::host_and_origin(&state.options, &parts) {
            return drained(body, *reply).await;
        }
        let auth = match auth::check(&state.options, &parts).await {
            Ok(auth) => auth,
            Err(reply) => return drained(body, reply).await,
        };
        match parts.method {
            Method::POST => post(state, &parts, body, auth).await,
            // A modern-only endpoint has no sessions to GET or DELETE (the official SDK's words).
            _ if state.server.shared.rejects_legacy() => {
                let mut reply =
                    refuse(StatusCode::METHOD_NOT_ALLOWED, ErrorCode::CONNECTION_CLOSED, "Method not allowed.");
                reply.headers_mut().insert(http::header::ALLOW, http::HeaderValue::from_static("POST"));
                drained(body, reply).await
            }
            Method::GET | Method::DELETE if state.options.stateless => {
                drained(body, reply::method_not_allowed("POST")).await
            }
            Method::GET | Method::DELETE if parts.headers.contains_key(SESSION_HEADER) => {
                if parts.method == Method::GET {
                    legacy::get(state, &parts).await
                } else {
                    legacy::delete(state, &parts).await
                }
            }
            _ => drained(body, reply::method_not_allowed("POST")).await,
        }
    }
}

/// A request to one of the authorization server's routes, answered by it.
async fn authorization_server<B>(server: &auth_server::AuthServer, parts: &Parts, body: B) -> Response<ResponseBody>
where
    B: Body<Data = Bytes> + Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let body = match Limited::new(body, auth_server::MAX_BODY + 1).collect().await {
        Ok(collected) => collected.to_bytes(),
        // Too large (or unreadable): the server's own size check refuses it.
        Err(_) => Bytes::from(vec![0; auth_server::MAX_BODY + 1]),
    };
    let request = auth_server::AuthRequest {
        method: &parts.method,
        path: parts.uri.path(),
        query: parts.uri.query(),
        headers: &parts.headers,
        body,
    };
    let Some(answer) = server.handle(request).await else {
        return refuse(StatusCode::NOT_FOUND, ErrorCode::CONNECTION_CLOSED, "Not Found");
    };
    let mut response = Response::new(http_body_util::Full::new(answer.body).boxed());
    *response.status_mut() = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    for (name, value) in answer.headers {
        if let (Ok(name), Ok(value)) =
            (http::HeaderName::from_bytes(name.as_bytes()), http::HeaderValue::from_str(&value))
        {
            response.headers_mut().append(name, value);
        }
    }
    response
}

/// A request for a path the endpoint does not own, answered by the application's routes
/// (404 when none takes it, 413 past the body limit, 500 when the route failed).
async fn application_route<B>(routes: &dyn Routes, max_body: usize, parts: Parts, body: B) -> Response<ResponseBody>
where
    B: Body<Data = Bytes> + Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let body = match Limited::new(body, max_body).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) if e.downcast_ref::<http_body_util::LengthLimitError>().is_some() => {
            return reply::plain_text(StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large");
        }
        Err(_) => return reply::plain_text(StatusCode::BAD_REQUEST, "Bad Request"),
    };
    let request = RouteRequest {
        path: parts.uri.path().to_owned(),
        query: parts.uri.query().map(str::to_owned),
        method: parts.method,
        headers: parts.headers,
        body,
    };
    let answer = match routes.handle(request).await {
        Ok(Some(answer)) => answer,
        Ok(None) => return refuse(StatusCode::NOT_FOUND, ErrorCode::CONNECTION_CLOSED, "Not Found"),
        Err(e) => {
            tracing::warn!("an application route failed: {e}");
            return reply::plain_text(StatusCode::INTERNAL_SERVER_ERROR, "Internal Server Error");
        }
    };
    let mut response = Response::new(http_body_util::Full::new(answer.body).boxed());
    *response.status_mut() = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    for (name, value) in answer.headers {
        if let (Ok(name), Ok(value)) = (http::HeaderName::from_bytes(&name), http::HeaderValue::from_bytes(&value)) {
            response.headers_mut().append(name, value);
        }
    }
    response
}

/// How much of a refused request's body is read before the refusal goes out, and for how
/// long at most.
const DRAIN_LIMIT: usize = 64 * 1024;
const DRAIN_TIME: Duration = Duration::from_secs(1);

/// Reads what is left of a refused request's body (within [`DRAIN_LIMIT`] and [`DRAIN_TIME`])
/// before answering: a connection closed with request bytes still unread is reset by the
/// kernel, and the reset can reach the client before the answer does, which then sees a
/// reset connection instead of the status that says why.
async fn drained<B>(body: B, reply: Response<ResponseBody>) -> Response<ResponseBody>
where
    B: Body<Data = Bytes> + Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let _ = tokio::time::timeout(DRAIN_TIME, Limited::new(body, DRAIN_LIMIT).collect()).await;
    reply
}

/// Whether an `MCP-Protocol-Version` header names a 2026-07-28 (or later) revision: any
/// value but a 2025-era revision (one core knows, or one the server's options list).
fn names_modern(options: Option<&crate::server::ServerOptions>, version_header: Option<&str>) -> bool {
    version_header.is_some_and(|v| {
        let revision = match options {
            Some(options) => options.revision_of(v),
            None => ProtocolVersion::parse(v),
        };
        !revision.is_some_and(ProtocolVersion::is_legacy)
    })
}

/// A request's params as the object routing reads (none: empty); `None` when they are
/// not an object.
fn params_object(request: &wire::Request) -> Option<Map<String, Value>> {
    match &request.params {
        None => Some(Map::new()),
        Some(raw) => match raw.parse_owned::<Value>() {
            Ok(Value::Object(params)) => Some(params),
            _ => None,
        },
    }
}

/// Whether a posted request goes to the 2026-07-28 path: its envelope says so, or the
/// version header names a modern revision (an `initialize` is legacy whatever the header).
fn request_is_modern(method: &str, params: &Map<String, Value>, names_modern: bool) -> bool {
    era::is_modern(method, params) || (names_modern && method != Initialize::METHOD)
}

/// Whether this endpoint serves an HTTP request as a 2025-era one (the official SDK's
/// `isLegacyRequest`), by the rules [`post`] routes with: every method but POST (a session's
/// GET or DELETE), a body that is not one JSON-RPC message (empty, not JSON, a batch), a
/// request that neither carries the 2026-07-28 envelope nor comes under a modern version
/// header (an `initialize` always), and a response or notification that comes with a
/// session or without a modern version header. `false` means the modern path answers it,
/// including with its own refusals.
pub fn is_legacy_request(http_method: &str, version_header: Option<&str>, has_session: bool, body: &str) -> bool {
    if !http_method.eq_ignore_ascii_case("POST") {
        return true;
    }
    let names_modern = names_modern(None, version_header);
    let frame = SharedStr::from(body.to_owned());
    let message = match wire::parse(&frame) {
        Ok(Parsed::Single(envelope)) => wire::to_message(&frame, envelope),
        _ => return true,
    };
    match message {
        Message::Request(request) => match params_object(&request) {
            Some(params) => !request_is_modern(&request.method, &params, names_modern),
            None => true,
        },
        _ => has_session || !names_modern,
    }
}

async fn post<B>(state: &Arc<HttpState>, parts: &Parts, body: B, auth: Option<Arc<AuthInfo>>) -> Response<ResponseBody>
where
    B: Body<Data = Bytes> + Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    if !guard::is_json(&parts.headers) {
        let reply = refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorCode::CONNECTION_CLOSED,
            "Unsupported Media Type: Content-Type must be application/json",
        );
        return drained(body, reply).await;
    }
    if guard::accepts(&parts.headers) != (true, true) {
        let reply = refuse(
            StatusCode::NOT_ACCEPTABLE,
            ErrorCode::CONNECTION_CLOSED,
            "Not Acceptable: Client must accept both application/json and text/event-stream",
        );
        return drained(body, reply).await;
    }
    let text = match read_body(state, parts, body).await {
        Ok(text) => text,
        Err(reply) => return reply,
    };
    let message = match wire::parse(&text) {
        Ok(Parsed::Single(envelope)) => wire::to_message(&text, envelope),
        // Over the cap: the official TypeScript SDK's refusal, word for word; within it, core
        // refuses every batch over Streamable HTTP (the official Python SDK does too; the
        // official TypeScript SDK serves batches of up to 100 messages).
        Ok(Parsed::Batch(items)) if items.len() > wire::MAX_BATCH_SIZE => {
            return rpc_error(StatusCode::BAD_REQUEST, None, &wire::batch_too_large());
        }
        Ok(Parsed::Batch(_)) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                ErrorCode::INVALID_REQUEST,
                "Invalid request: JSON-RPC batches are not accepted over Streamable HTTP",
            );
        }
        Err(error) => {
            let id = error.id.as_ref().map(|id| id.to_owned());
            return rpc_error(StatusCode::BAD_REQUEST, id.as_ref(), &error.to_error_object());
        }
    };
    let names_modern = names_modern(
        Some(&state.server.shared.options),
        parts.headers.get(VERSION_HEADER).and_then(|v| v.to_str().ok()),
    );
    let has_session = parts.headers.contains_key(SESSION_HEADER);
    match message {
        Message::Request(request) => {
            // A 2026-07-28 request that a raw feature handler serves (a proxy's) keeps its
            // params as text: only the members the checks and routing read are parsed.
            let text =
                request.params.as_ref().and_then(|p| params::text_params(&state.server.shared, &request.method, p));
            if let Some(text) = text.filter(|text| era::is_modern(&request.method, &text.checked)) {
                return modern::post(state, parts, request, FrontParams::Text(text), auth).await;
            }
            let Some(params) = params_object(&request) else {
                let error = ErrorObject::invalid_params("Invalid params: params must be an object");
                return rpc_error(StatusCode::BAD_REQUEST, Some(&request.id), &error);
            };
            if request_is_modern(&request.method, &params, names_modern) {
                modern::post(state, parts, request, FrontParams::Parsed(params), auth).await
            } else if state.server.shared.rejects_legacy() {
                let requested = match request.method.as_str() {
                    "initialize" => params.get("protocolVersion").and_then(Value::as_str),
                    _ => parts.headers.get(VERSION_HEADER).and_then(|v| v.to_str().ok()),
                };
                rpc_error(StatusCode::BAD_REQUEST, Some(&request.id), &era::legacy_rejected(requested))
            } else {
                legacy::post(state, parts, Message::Request(request), Some(params), auth).await
            }
        }
        Message::Response(_) if (has_session || !names_modern) && state.server.shared.rejects_legacy() => refuse(
            StatusCode::BAD_REQUEST,
            ErrorCode::INVALID_REQUEST,
            "Bad Request: JSON-RPC responses cannot be posted to this endpoint",
        ),
        // A 2025-era notification on a modern-only endpoint: taken and dropped.
        Message::Notification(_) if (has_session || !names_modern) && state.server.shared.rejects_legacy() => {
            reply::empty(StatusCode::ACCEPTED)
        }
        message if has_session || !names_modern => legacy::post(state, parts, message, None, auth).await,
        Message::Notification(notification) => {
            // A 2026-07-28 client's notification stands alone: no session to hand over.
            if !custom::engine_notification(&notification.method) {
                let params = notification.params.and_then(|p| p.parse_owned().ok()).unwrap_or(Value::Null);
                let version = middleware::stated_version(&params);
                tokio::spawn(middleware::deliver_notification(
                    &state.server.shared,
                    &notification.method,
                    params,
                    None,
                    version,
                ));
            }
            reply::empty(StatusCode::ACCEPTED)
        }
        Message::Response(_) => refuse(
            StatusCode::BAD_REQUEST,
            ErrorCode::INVALID_REQUEST,
            "Invalid request: a 2026-07-28 client sends no responses",
        ),
    }
}

/// The words of a 413 for a body over `limit` bytes, `{limit}` in
/// [`BODY_TOO_LARGE_TEMPLATE`] replaced by it.
pub fn body_too_large_message(limit: impl std::fmt::Display) -> String {
    BODY_TOO_LARGE_TEMPLATE.replace("{limit}", &limit.to_string())
}

/// The message of the 413 (code -32000) that answers a request body over the endpoint's
/// limit, as the official TypeScript SDK words it (`requestBodyTooLargeMessage`); a binding
/// that words it itself fills `{limit}` in this template.
pub const BODY_TOO_LARGE_TEMPLATE: &str = "Payload Too Large: Request body must not exceed {limit} bytes";

/// The body as text, within the size limit.
async fn read_body<B>(state: &HttpState, parts: &Parts, body: B) -> Result<SharedStr, Response<ResponseBody>>
where
    B: Body<Data = Bytes> + Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let limit = state.options.max_body;
    let too_large =
        || refuse(StatusCode::PAYLOAD_TOO_LARGE, ErrorCode::CONNECTION_CLOSED, body_too_large_message(limit));
    let declared = parts.headers.get(http::header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    let bytes = match Limited::new(body, limit).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) if e.downcast_ref::<http_body_util::LengthLimitError>().is_some() => return Err(too_large()),
        Err(e) => {
            return Err(refuse(
                StatusCode::BAD_REQUEST,
                ErrorCode::CONNECTION_CLOSED,
                format!("Bad Request: could not read the body: {e}"),
            ));
        }
    };
    SharedStr::from_utf8(bytes).map_err(|_| {
        rpc_error(StatusCode::BAD_REQUEST, None, &ErrorObject::parse_error("Parse error: the body is not UTF-8"))
    })
}

#[cfg(test)]
mod tests {
    use super::is_legacy_request;

    const MODERN: &str = "2026-07-28";

    #[test]
    fn legacy_requests_are_told_apart_as_post_routes_them() {
        let envelope = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        let plain = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
        let notification = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        // Not POST, or not one message: legacy (or refused before any era).
        assert!(is_legacy_request("GET", None, true, ""));
        assert!(is_legacy_request("DELETE", None, true, ""));
        assert!(is_legacy_request("POST", None, false, ""));
        assert!(is_legacy_request("POST", None, false, "{not json"));
        assert!(is_legacy_request("POST", None, false, &format!("[{plain}]")));
        // Requests: the envelope, or a modern header (but never for initialize), is modern.
        assert!(!is_legacy_request("post", None, false, envelope));
        assert!(is_legacy_request("POST", None, false, plain));
        assert!(!is_legacy_request("POST", Some(MODERN), false, plain));
        assert!(is_legacy_request("POST", Some("2025-11-25"), true, plain));
        assert!(is_legacy_request("POST", Some(MODERN), false, initialize));
        assert!(!is_legacy_request("POST", None, false, r#"{"jsonrpc":"2.0","id":1,"method":"server/discover"}"#));
        // Notifications and responses: a session or no modern header means legacy.
        assert!(is_legacy_request("POST", None, false, notification));
        assert!(is_legacy_request("POST", Some(MODERN), true, notification));
        assert!(!is_legacy_request("POST", Some(MODERN), false, notification));
        assert!(is_legacy_request("POST", None, true, r#"{"jsonrpc":"2.0","id":4,"result":{}}"#));
    }
}
