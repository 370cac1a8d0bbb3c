//! One connection to the server: its legacy session, and the routing of each request to
//! the legacy or the modern path.

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use super::ServerShared;
use super::auth_info::AuthInfo;
use super::capabilities::capabilities;
use super::context::{Context, ContextInner, Meta, level_rank};
use super::era;
use super::features::stamp::stamp;
use super::http::SessionRecord;
use super::middleware::{self, Inbound, Next};
use super::mrtr::Inputs;
use super::outbound::Outbound;
use super::params::{Params, TextParams};
use super::reply::Reply;
use super::router;
use super::session_handle::ServerSession;
use crate::peer::{BoxFuture, Handler, HandlerResult, NotificationContext, Peer, RequestContext};
use crate::protocol::inbound;
use crate::protocol::{Initialized, LoggingLevel, NotificationMethod, ProtocolVersion};
use crate::wire::{ErrorObject, Notification, RawJson, Request, RequestId};

/// The state `initialize` opens on a connection.
#[derive(Default)]
pub(crate) struct Session {
    pub initialized: bool,
    pub version: String,
    pub client_capabilities: Value,
    pub client_info: Value,
    /// Rank of the level set by `logging/setLevel`; everything is sent until then.
    pub log_level: usize,
    pub subscriptions: HashSet<String>,
    /// Counts the changes above, so a session kept in a store is written back only when
    /// one of its requests changed it.
    pub generation: u64,
}

/// One client connection: a [`Handler`] for the peer that carries it, or a legacy
/// Streamable HTTP session whose requests arrive one POST at a time.
pub struct Connection {
    id: u64,
    /// This connection, for the [`ServerSession`] handles it gives out.
    me: Weak<Connection>,
    server: Arc<ServerShared>,
    pub(crate) session: Mutex<Session>,
    /// The way back for messages outside any request (list changes, resource updates):
    /// the stdio peer (held weakly, as the peer holds this connection), or an HTTP
    /// session's standalone stream.
    outbound: OnceLock<Arc<dyn Outbound>>,
    /// The transport's session id (Streamable HTTP's `Mcp-Session-Id`), when it has one.
    transport_id: OnceLock<Arc<str>>,
    /// Whether the stream's first request opened it at 2026-07-28, in a dialect where that
    /// decides the stream's era ([`super::dialect::Dialect::locks_stream_era`]); unset otherwise.
    opened_modern: OnceLock<bool>,
}

/// One request as a transport hands it over: its id, what cancels it, and the way back
/// for its notifications and server-to-client requests.
pub(crate) struct Incoming {
    pub id: RequestId,
    pub cancel: CancellationToken,
    pub outbound: Arc<dyn Outbound>,
    /// The accepted bearer token of the HTTP request that carried it.
    pub auth: Option<Arc<AuthInfo>>,
    /// The request's params as the transport already read them (the HTTP endpoint reads
    /// them to tell the eras apart), so they are not read again.
    pub params: Option<FrontParams>,
    /// A 2026-07-28 request the transport already checked (`era::check_modern`): the
    /// version and log level rank its `_meta` declared.
    pub checked: Option<(String, Option<usize>)>,
}

/// A request's params as a transport read them: parsed, or (a 2026-07-28 request to a raw
/// feature handler) kept as text with the members the engine reads.
pub(crate) enum FrontParams {
    Parsed(Map<String, Value>),
    Text(TextParams),
}

impl FrontParams {
    /// The members the era checks and the router read.
    pub(crate) fn checked(&self) -> &Map<String, Value> {
        match self {
            FrontParams::Parsed(params) => params,
            FrontParams::Text(params) => &params.checked,
        }
    }

    fn into_parsed(self) -> Result<Map<String, Value>, ErrorObject> {
        match self {
            FrontParams::Parsed(params) => Ok(params),
            FrontParams::Text(params) => Params::Text(params.text).into_map(),
        }
    }
}

struct ConnectionHandler(Arc<Connection>);

impl Connection {
    pub(crate) fn new(server: Arc<ServerShared>) -> Arc<Self> {
        let id = server.next_id.fetch_add(1, Ordering::Relaxed);
        let connection = Arc::new_cyclic(|me| Self {
            id,
            me: me.clone(),
            server,
            session: Mutex::new(Session::default()),
            outbound: OnceLock::new(),
            transport_id: OnceLock::new(),
            opened_modern: OnceLock::new(),
        });
        connection.server.connections.lock().unwrap().insert(id, Arc::downgrade(&connection));
        connection
    }

    /// The handler to give the peer that carries this connection.
    pub fn handler(self: Arc<Self>) -> Arc<dyn Handler> {
        Arc::new(ConnectionHandler(self))
    }

    /// Remembers the peer, for notifications the server sends on its own.
    pub fn attach(&self, peer: &Peer) {
        if self.outbound.get().is_none() {
            self.attach_outbound(Arc::new(peer.downgrade()));
        }
    }

    /// Sets the way back for messages outside any request (once; later calls are ignored).
    pub(crate) fn attach_outbound(&self, outbound: Arc<dyn Outbound>) {
        let _ = self.outbound.set(outbound);
    }

    pub(crate) fn outbound(&self) -> Option<Arc<dyn Outbound>> {
        self.outbound.get().cloned()
    }

    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// Names the transport's session this connection serves (Streamable HTTP's
    /// `Mcp-Session-Id`); set once, before its first request.
    pub(crate) fn set_transport_id(&self, id: &str) {
        let _ = self.transport_id.set(Arc::from(id));
    }

    pub(crate) fn transport_id(&self) -> Option<Arc<str>> {
        self.transport_id.get().cloned()
    }

    /// A handle on this connection's legacy session, once `initialize` has been answered.
    pub fn session(&self) -> Option<ServerSession> {
        let me = self.me.upgrade()?;
        self.initialized().then(|| ServerSession::new(&me))
    }

    /// A notification from the client, on any transport: to the application's handler for
    /// its method, with this session unless it is a 2026-07-28 notification (or came
    /// before `initialize`).
    pub(crate) fn notification(&self, method: &str, params: Value) -> BoxFuture<()> {
        if method == Initialized::METHOD {
            tracing::debug!("client initialized");
        }
        let modern = params.as_object().is_some_and(|params| era::is_modern(method, params));
        if !modern && self.server.rejects_legacy() {
            // Dropped, as the official SDK's modern-only servers do.
            return Box::pin(std::future::ready(()));
        }
        let session = if modern { None } else { self.session() };
        let version = self.message_version(&params);
        middleware::deliver_notification(&self.server, method, params, session, version)
    }

    /// The revision `initialize` answered with, as it was written (a revision core does not
    /// know when the application listed one).
    pub(crate) fn negotiated_version_text(&self) -> Option<String> {
        let session = self.session.lock().unwrap();
        session.initialized.then(|| session.version.clone())
    }

    /// The negotiated revision once `initialize` has been answered.
    pub(crate) fn negotiated_version(&self) -> Option<ProtocolVersion> {
        let session = self.session.lock().unwrap();
        session.initialized.then(|| self.server.options.revision_of(&session.version)).flatten()
    }

    async fn handle(self: Arc<Self>, request: Request, rcx: RequestContext) -> HandlerResult {
        self.attach(rcx.peer());
        // Before the first await: the peer starts its requests in the order they arrive,
        // so this sees the stream's first request first.
        if self.opened_modern.get().is_none() && self.server.options.dialect.locks_stream_era() {
            let params = request.params.as_ref().and_then(|raw| raw.parse_owned::<Map<String, Value>>().ok());
            let modern = request.method != "initialize" && params.as_ref().is_some_and(era::names_version);
            let _ = self.opened_modern.set(modern);
        }
        let initialize = request.method == "initialize";
        let incoming = Incoming {
            id: rcx.id().clone(),
            cancel: rcx.cancellation().clone(),
            outbound: Arc::new(rcx.peer().clone()),
            auth: None,
            params: None,
            checked: None,
        };
        let result = self.clone().serve_request(request, incoming).await;
        if initialize && result.is_ok() {
            rcx.peer().set_batches_allowed(self.negotiated_version().is_some_and(ProtocolVersion::allows_batches));
        }
        result
    }

    /// Serves one request on whatever transport carried it: through the application's
    /// middleware, when it set one.
    pub(crate) async fn serve_request(self: Arc<Self>, request: Request, incoming: Incoming) -> HandlerResult {
        let middleware = self.server.middleware.read().unwrap().clone();
        let Some(middleware) = middleware.filter(|m| m.sees_request(&request.method)) else {
            return self.handle_request(request, incoming).await;
        };
        let params = request.params.as_ref().and_then(|raw| raw.parse_owned::<Value>().ok()).unwrap_or(Value::Null);
        let inbound = self.inbound(request.method.to_string(), params, Some(incoming.id.clone()));
        let next: Next = Box::new(move || {
            Box::pin(async move {
                let raw = self.handle_request(request, incoming).await?;
                raw.parse_owned::<Value>().map(Some).map_err(|e| ErrorObject::internal(e.to_string()))
            })
        });
        let answer = middleware.handle(inbound, next).await?;
        Ok(RawJson::from_value(&answer.unwrap_or_else(|| json!({}))))
    }

    /// A message as middleware sees it.
    fn inbound(&self, method: String, params: Value, request_id: Option<RequestId>) -> Inbound {
        let protocol_version = self.message_version(&params);
        let dialect = self.server.options.dialect;
        Inbound { method, params, request_id, session: self.session(), protocol_version, dialect }
    }

    /// The revision a message speaks: the one it states, or the session's.
    fn message_version(&self, params: &Value) -> Option<String> {
        middleware::stated_version(params).or_else(|| self.negotiated_version_text())
    }

    /// Serves one request: the modern or the legacy path; a -32601 for it worded in the
    /// server's dialect.
    async fn handle_request(self: Arc<Self>, request: Request, incoming: Incoming) -> HandlerResult {
        let (dialect, method) = (self.server.options.dialect, request.method.clone());
        self.serve_either_era(request, incoming).await.map_err(|error| dialect.reword(method.as_str(), error))
    }

    async fn serve_either_era(self: Arc<Self>, request: Request, mut incoming: Incoming) -> HandlerResult {
        let params = match (incoming.params.take(), &request.params) {
            (Some(params), _) => params,
            (None, None) => FrontParams::Parsed(Map::new()),
            (None, Some(raw)) => match crate::wire::parse_value(raw.get()) {
                Ok(Value::Object(params)) => FrontParams::Parsed(params),
                _ => return Err(ErrorObject::invalid_params("Invalid params: params must be an object")),
            },
        };
        let method = request.method.as_str();
        let dialect = self.server.options.dialect;
        let modern = match self.opened_modern.get() {
            None => era::is_modern(method, params.checked()),
            Some(false) if method != "initialize" && era::names_version(params.checked()) => {
                return Err(era::modern_on_legacy_stream());
            }
            Some(false) => false,
            Some(true) if method == "initialize" => return Err(era::initialize_on_modern_stream(params.checked())),
            Some(true) => {
                let name = Value::from(method);
                inbound::ladder(Some(&name), Some(params.checked()), None, &era::SUPPORTED, &[])
                    .map_err(|rejection| dialect.inbound_rejection(rejection, || None))?;
                true
            }
        };
        let reply = if modern {
            let (version, log_level) = match incoming.checked.take() {
                Some(checked) => checked,
                None => {
                    let meta = era::check_modern(method, params.checked(), dialect)?;
                    (meta.version.to_owned(), meta.log_level.and_then(level_rank))
                }
            };
            let mut reply = self.modern(method, params, version, log_level, &incoming).await?;
            let hint = router::cache_hint(&self.server, method);
            stamp(&self.server, hint, reply.members_mut(hint.is_some()));
            reply
        } else if self.server.rejects_legacy() {
            let params = params.checked();
            let requested = params.get("protocolVersion").and_then(Value::as_str).filter(|_| method == "initialize");
            return Err(era::legacy_rejected(requested));
        } else {
            router::legacy(&self, method, params.into_parsed()?, &incoming).await?
        };
        reply.encode().map_err(|e| ErrorObject::internal(e.to_string()))
    }

    async fn modern(
        &self,
        method: &str,
        params: FrontParams,
        version: String,
        log_level: Option<usize>,
        incoming: &Incoming,
    ) -> Result<Reply, ErrorObject> {
        let principal = incoming.auth.as_deref().map(AuthInfo::principal);
        // The client's capabilities and info are read from the context's `_meta`.
        let fill = |retry: super::mrtr::Retry| {
            move |inner: &mut ContextInner| {
                inner.protocol_version = version;
                inner.client_capabilities = None;
                inner.client_info = None;
                inner.log_threshold = log_level;
                inner.inputs = Some(Arc::new(Inputs::new(retry)));
            }
        };
        match params {
            FrontParams::Parsed(mut params) => {
                let retry = router::retry_inputs(&self.server, method, principal.as_deref(), &mut params)?;
                let meta = Meta::from_value(params.get("_meta").cloned().unwrap_or(Value::Null));
                let cx = self.context(incoming, meta, fill(retry));
                router::feature(&self.server, method, params, cx).await
            }
            FrontParams::Text(mut params) => {
                let retry = router::retry_inputs(&self.server, method, principal.as_deref(), &mut params.checked)?;
                let meta = Meta::from_text(params.meta.clone(), params.checked.get("_meta"));
                let cx = self.context(incoming, meta, fill(retry));
                router::feature_text(&self.server, method, params, cx).await
            }
        }
    }

    pub(crate) fn server(&self) -> &Arc<ServerShared> {
        &self.server
    }

    /// Serves as an initialized legacy session of `version` (or the default revision)
    /// without a handshake: a request of a stateless HTTP endpoint, which has no session.
    pub(crate) fn assume_initialized(&self, version: Option<&str>) {
        let version = version.unwrap_or(crate::protocol::ProtocolVersion::DEFAULT_NEGOTIATED.as_str());
        let mut params = Map::new();
        params.insert("protocolVersion".into(), Value::String(version.to_owned()));
        let _ = self.initialize(params);
    }

    /// What a session store keeps of this connection's legacy session, with the
    /// generation it reflects.
    pub(crate) fn record(&self) -> (u64, SessionRecord) {
        let session = self.session.lock().unwrap();
        let record = SessionRecord {
            protocol_version: session.version.clone(),
            client_capabilities: session.client_capabilities.clone(),
            client_info: session.client_info.clone(),
            log_level: (session.log_level > 0).then(|| LoggingLevel::ALL[session.log_level].as_str().to_owned()),
            subscriptions: session.subscriptions.iter().cloned().collect(),
        };
        (session.generation, record)
    }

    /// Serves the legacy session `record` describes (opened on another replica, or changed
    /// there since this one last served it); returns the generation it now has.
    pub(crate) fn restore(&self, record: &SessionRecord) -> u64 {
        let mut session = self.session.lock().unwrap();
        session.initialized = true;
        session.version = record.protocol_version.clone();
        session.client_capabilities = record.client_capabilities.clone();
        session.client_info = record.client_info.clone();
        session.log_level = record.log_level.as_deref().and_then(level_rank).unwrap_or(0);
        session.subscriptions = record.subscriptions.iter().cloned().collect();
        session.generation += 1;
        session.generation
    }

    pub(crate) fn initialized(&self) -> bool {
        self.session.lock().unwrap().initialized
    }

    /// `logging/setLevel`.
    pub(crate) fn set_log_level(&self, params: &Map<String, Value>) -> Result<Value, ErrorObject> {
        let level = params.get("level").and_then(Value::as_str).and_then(level_rank);
        let level = level.ok_or_else(|| ErrorObject::invalid_params("Invalid params: unknown log level"))?;
        let mut session = self.session.lock().unwrap();
        session.log_level = level;
        session.generation += 1;
        Ok(json!({}))
    }

    /// `resources/subscribe` (`on`) or `resources/unsubscribe`.
    pub(crate) fn subscribe(&self, method: &str, params: &Map<String, Value>, on: bool) -> Result<Value, ErrorObject> {
        let uri = params.get("uri").and_then(Value::as_str);
        let uri =
            uri.ok_or_else(|| ErrorObject::invalid_params(format!("Invalid params: {method} needs a string \"uri\"")))?;
        let mut session = self.session.lock().unwrap();
        if on {
            session.subscriptions.insert(uri.to_owned());
        } else {
            session.subscriptions.remove(uri);
        }
        session.generation += 1;
        Ok(json!({}))
    }

    /// The context of a request in the legacy session: what `initialize` declared.
    pub(crate) fn legacy_context(&self, incoming: &Incoming, params: &Map<String, Value>) -> Context {
        let session = self.session.lock().unwrap();
        let (version, caps, info, level) = (
            session.version.clone(),
            session.client_capabilities.clone(),
            session.client_info.clone(),
            session.log_level,
        );
        drop(session);
        let session = self.session();
        let meta = Meta::from_value(params.get("_meta").cloned().unwrap_or(Value::Null));
        self.context(incoming, meta, |inner| {
            inner.protocol_version = version;
            inner.client_capabilities = Some(caps);
            inner.client_info = Some(info);
            inner.log_threshold = Some(level);
            inner.session = session;
        })
    }

    pub(crate) fn initialize(&self, params: Map<String, Value>) -> Result<Value, ErrorObject> {
        let requested = params.get("protocolVersion").and_then(Value::as_str);
        let requested = requested.ok_or_else(|| {
            ErrorObject::invalid_params("Invalid params: initialize needs a string \"protocolVersion\"")
        })?;
        let mut session = self.session.lock().unwrap();
        if session.initialized {
            return Err(ErrorObject::invalid_request(
                "Invalid request: initialize was already received on this connection",
            ));
        }
        let (answer, version) = self.server.options.negotiate(requested);
        session.initialized = true;
        session.version = answer.clone();
        session.client_capabilities = params.get("capabilities").cloned().unwrap_or_else(|| json!({}));
        session.client_info = params.get("clientInfo").cloned().unwrap_or(Value::Null);
        session.generation += 1;
        drop(session);
        let mut capabilities = capabilities(&self.server, false);
        super::tasks::spec::declare(&self.server, version, &mut capabilities);
        let mut result = json!({
            "protocolVersion": answer,
            "capabilities": capabilities,
            "serverInfo": self.server.info,
        });
        if let Some(instructions) = &self.server.instructions {
            result["instructions"] = json!(instructions);
        }
        Ok(result)
    }

    fn context(&self, incoming: &Incoming, meta: Meta, fill: impl FnOnce(&mut ContextInner)) -> Context {
        let mut inner = ContextInner {
            request_id: incoming.id.clone(),
            cancel: incoming.cancel.clone(),
            outbound: incoming.outbound.clone(),
            auth: incoming.auth.clone(),
            server: self.server.clone(),
            protocol_version: String::new(),
            client_capabilities: Some(json!({})),
            client_info: Some(Value::Null),
            log_threshold: None,
            meta,
            last_progress: Mutex::new(None),
            inputs: None,
            task: Default::default(),
            session: None,
            legacy_round: None,
        };
        fill(&mut inner);
        Context { inner: Arc::new(inner) }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.server.connections.lock().unwrap().remove(&self.id);
    }
}

impl Handler for ConnectionHandler {
    fn handle_request(&self, request: Request, cx: RequestContext) -> BoxFuture<HandlerResult> {
        Box::pin(self.0.clone().handle(request, cx))
    }

    fn handle_notification(&self, notification: Notification, cx: NotificationContext) -> BoxFuture<()> {
        self.0.attach(cx.peer());
        let params = notification.params.and_then(|p| p.parse_owned().ok()).unwrap_or(Value::Null);
        self.0.notification(&notification.method, params)
    }
}
