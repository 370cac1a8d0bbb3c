//! A handle on one legacy session, for server code that talks to the client outside any
//! request: what the official SDKs call the server session (Python's `ServerSession`,
//! TypeScript's `Server` once connected).
//!
//! A request handler answers through its [`Context`](super::Context), on the request's own
//! way back. This handle uses the session's: the stdio connection, or a Streamable HTTP
//! session's standalone GET stream (where the client answers by POST). It holds the
//! connection weakly, so keeping a handle never keeps a finished session alive; using one
//! after its session ended is an error, not a hang. The protocol's rules are applied here
//! once for every binding: nothing but `ping` before `initialize` was answered, sampling,
//! elicitation and roots only to a client that declared them, and
//! `notifications/elicitation/complete` only on a revision that has URL elicitation.

use std::sync::{Arc, Weak};

use serde_json::{Value, json};

use super::context::{level_rank, missing_capability, request_failed};
use super::handlers::HandlerError;
use super::session::Connection;
use crate::peer::RequestOptions;
use crate::protocol::{
    CreateMessage, Elicit, ElicitationComplete, ListRoots, LoggingMessage, NotificationMethod, Ping, ProtocolVersion,
    RequestMethod,
};

/// One client's legacy session. Cheap to clone; compare handles with [`ServerSession::id`].
#[derive(Clone)]
pub struct ServerSession {
    connection: Weak<Connection>,
    id: u64,
    transport_id: Option<Arc<str>>,
}

impl std::fmt::Debug for ServerSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerSession").field("id", &self.id).field("open", &self.is_open()).finish()
    }
}

impl ServerSession {
    pub(crate) fn new(connection: &Arc<Connection>) -> Self {
        Self { connection: Arc::downgrade(connection), id: connection.id(), transport_id: connection.transport_id() }
    }

    /// The transport's id for this session: Streamable HTTP's `Mcp-Session-Id` (the
    /// official SDKs' `sessionId`); `None` on stdio and other transports without one.
    pub fn transport_session_id(&self) -> Option<String> {
        self.transport_id.as_deref().map(str::to_owned)
    }

    /// The session's number, unique among this server's connections.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// Whether the session still exists (its connection has not been dropped).
    pub fn is_open(&self) -> bool {
        self.connection.strong_count() > 0
    }

    /// The negotiated revision, once `initialize` has been answered.
    pub fn protocol_version(&self) -> Option<String> {
        self.connection.upgrade()?.negotiated_version_text()
    }

    /// The capabilities the client declared in `initialize` (`{}` before).
    pub fn client_capabilities(&self) -> Value {
        self.read(|session| session.client_capabilities.clone()).filter(Value::is_object).unwrap_or_else(|| json!({}))
    }

    /// The client's `clientInfo` from `initialize` (`Null` before).
    pub fn client_info(&self) -> Value {
        self.read(|session| session.client_info.clone()).unwrap_or(Value::Null)
    }

    fn read<T>(&self, f: impl FnOnce(&super::session::Session) -> T) -> Option<T> {
        let connection = self.connection.upgrade()?;
        let session = connection.session.lock().unwrap();
        Some(f(&session))
    }

    /// Sends a request to the client and waits for its result. A client's JSON-RPC error
    /// comes back as [`HandlerError::Rpc`]; a closed session, a request before
    /// `initialize`, or a capability the client did not declare as
    /// [`HandlerError::Failed`] naming the problem.
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, HandlerError> {
        let connection = self.open()?;
        let version = connection.negotiated_version();
        if method != Ping::METHOD && version.is_none() {
            return Err(HandlerError::Failed(format!("{method} cannot be sent before the session is initialized")));
        }
        if method == Elicit::METHOD
            && let Some(version) = version.filter(|v| !v.has_elicitation())
        {
            return Err(HandlerError::Failed(format!("elicitation/create does not exist in {}", version.as_str())));
        }
        if let Some(name) = missing_capability(&self.client_capabilities(), method, &params) {
            return Err(HandlerError::Failed(format!(
                "The client does not support {name} (it did not declare the capability)"
            )));
        }
        let outbound = connection.outbound().ok_or_else(no_way_back)?;
        drop(connection);
        outbound.request(method, params, RequestOptions::default()).await.map_err(|e| request_failed(method, e))
    }

    /// Asks the client's model for a completion (`sampling/createMessage`).
    pub async fn create_message(&self, params: Value) -> Result<Value, HandlerError> {
        self.request(CreateMessage::METHOD, params).await
    }

    /// Asks the user for input (`elicitation/create`, form or URL mode).
    pub async fn elicit(&self, params: Value) -> Result<Value, HandlerError> {
        self.request(Elicit::METHOD, params).await
    }

    /// Asks the client for its roots (`roots/list`).
    pub async fn list_roots(&self) -> Result<Value, HandlerError> {
        self.request(ListRoots::METHOD, json!({})).await
    }

    /// `ping`: resolves when the client answers.
    pub async fn ping(&self) -> Result<(), HandlerError> {
        self.request(Ping::METHOD, json!({})).await.map(drop)
    }

    /// Sends a notification to the client (a custom one, say). `params` `Null` sends none.
    pub async fn notify(&self, method: &str, params: Value) -> Result<(), HandlerError> {
        let outbound = self.open()?.outbound().ok_or_else(no_way_back)?;
        outbound.notify(method, params).await.map_err(|e| HandlerError::Failed(format!("{method} failed: {e}")))
    }

    /// Sends a log message (`notifications/message`) if the session's `logging/setLevel`
    /// lets `level` through; returns whether it was sent. An unknown level is an error.
    pub async fn log(&self, level: &str, data: Value, logger: Option<&str>) -> Result<bool, HandlerError> {
        let rank = level_rank(level).ok_or_else(|| HandlerError::Failed(format!("unknown log level {level:?}")))?;
        if self.read(|session| rank < session.log_level).unwrap_or(true) {
            return Ok(false);
        }
        let mut params = json!({"level": level, "data": data});
        if let Some(logger) = logger {
            params["logger"] = json!(logger);
        }
        self.notify(LoggingMessage::METHOD, params).await.map(|()| true)
    }

    /// Tells the client that the URL-mode elicitation `elicitation_id` is complete
    /// (`notifications/elicitation/complete`, from 2025-11-25, to a client that declared
    /// URL elicitation).
    pub async fn elicitation_complete(&self, elicitation_id: &str) -> Result<(), HandlerError> {
        let version = self.open()?.negotiated_version();
        if !version.is_some_and(ProtocolVersion::has_url_elicitation) {
            let version = version.map_or("an uninitialized session", ProtocolVersion::as_str);
            return Err(HandlerError::Failed(format!("{} does not exist in {version}", ElicitationComplete::METHOD)));
        }
        if missing_capability(&self.client_capabilities(), Elicit::METHOD, &json!({"mode": "url"})).is_some() {
            return Err(HandlerError::Failed(
                "The client does not support URL elicitation (it did not declare the capability)".into(),
            ));
        }
        self.notify(ElicitationComplete::METHOD, json!({"elicitationId": elicitation_id})).await
    }

    /// The session's own way to the client (its standalone stream on HTTP).
    pub(crate) fn outbound(&self) -> Option<Arc<dyn super::Outbound>> {
        self.connection.upgrade()?.outbound()
    }

    fn open(&self) -> Result<Arc<Connection>, HandlerError> {
        self.connection.upgrade().ok_or_else(|| HandlerError::Failed("the session has ended".into()))
    }
}

fn no_way_back() -> HandlerError {
    HandlerError::Failed("the session has no way back to the client".into())
}
