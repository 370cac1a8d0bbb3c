//! Middleware: the application's hook around every message a client sends, on every
//! transport and in both eras (the official SDKs' `Server.middleware`).
//!
//! A middleware sees each request and notification before the engine handles it
//! ([`Inbound`]: the method, the params, the request id, `None` for a notification) and
//! gets the rest of the handling as [`Next`], a continuation it may run once, around which
//! it can time, log or gate: its answer is the message's answer. It may also answer
//! without running `next` (a result of its own, or an error the client then receives).
//! The engine's built-in answers (`initialize`, `server/discover`, `tools/list`, ...) run
//! inside `next` like the application's handlers, so a middleware observes them too.
//!
//! One middleware per server: a binding composes its users' list into one. With none set,
//! nothing of this runs.

use std::sync::Arc;

use serde_json::Value;

use super::session_handle::ServerSession;
use super::{HandlerError, ServerShared, custom, features};
use crate::peer::BoxFuture;
use crate::protocol::{ProtocolVersion, meta};
use crate::wire::{ErrorObject, RequestId};

/// One message from the client, as middleware sees it.
pub struct Inbound {
    pub method: String,
    /// The params object (`Null` when the message had none).
    pub params: Value,
    /// The request's id; `None` for a notification.
    pub request_id: Option<RequestId>,
    /// The legacy session the message belongs to, once `initialize` has been answered.
    pub session: Option<ServerSession>,
    /// The protocol revision the message speaks, when known.
    pub protocol_version: Option<String>,
    /// The server's dialect, in which a middleware's failure is worded.
    pub dialect: super::Dialect,
}

impl Inbound {
    /// The capabilities the client declared for this message: a 2026-07-28 request's
    /// own (its `_meta`), else the legacy session's from `initialize` (`{}` when neither).
    pub fn client_capabilities(&self) -> Value {
        let declared = self.params.get("_meta").and_then(|m| m.get(meta::CLIENT_CAPABILITIES));
        match (declared, &self.session) {
            (Some(capabilities), _) if capabilities.is_object() => capabilities.clone(),
            (_, Some(session)) => session.client_capabilities(),
            _ => Value::Object(serde_json::Map::new()),
        }
    }
}

/// What the handling of a message came to: a request's result, `None` for a
/// notification, or the error the client receives.
pub type Answer = Result<Option<Value>, ErrorObject>;

/// The rest of a message's handling, to run at most once.
pub type Next = Box<dyn FnOnce() -> BoxFuture<Answer> + Send>;

/// The application's hook around each inbound message (see the module doc).
pub trait Middleware: Send + Sync + 'static {
    fn handle(&self, inbound: Inbound, next: Next) -> BoxFuture<Answer>;

    /// Whether this middleware sees request `method` at all. A request it passes over goes
    /// straight to its handler, without the round trip through `Value`s that seeing it
    /// costs (the params parsed for [`Inbound`], the result parsed back for [`Next`] and
    /// encoded again): a forwarding proxy's hot path. Every request by default.
    fn sees_request(&self, _method: &str) -> bool {
        true
    }
}

impl<F> Middleware for F
where
    F: Fn(Inbound, Next) -> BoxFuture<Answer> + Send + Sync + 'static,
{
    fn handle(&self, inbound: Inbound, next: Next) -> BoxFuture<Answer> {
        self(inbound, next)
    }
}

impl Inbound {
    /// What a binding's middleware callback came to, as this message's answer: `null` is
    /// no result (`{}` for a request), a failure is answered as a handler's would be in
    /// the message's era.
    pub fn answer(&self, outcome: Result<Value, HandlerError>) -> Answer {
        let modern =
            self.protocol_version.as_deref().and_then(ProtocolVersion::parse).is_some_and(ProtocolVersion::is_modern);
        match outcome {
            Ok(Value::Null) => Ok(None),
            Ok(value) => Ok(Some(value)),
            Err(error) => Err(features::dialect_handler_error(self.dialect, error, |message| message, modern, None)),
        }
    }
}

/// The revision a message states in its `_meta` (2026-07-28), if any.
pub(crate) fn stated_version(params: &Value) -> Option<String> {
    params.get("_meta")?.get(meta::PROTOCOL_VERSION)?.as_str().map(str::to_owned)
}

/// Hands a client notification to the application's handler for its method, through the
/// middleware when one is set (whose error, a notification having no answer, is dropped).
pub(crate) fn deliver_notification(
    server: &Arc<ServerShared>,
    method: &str,
    params: Value,
    session: Option<ServerSession>,
    protocol_version: Option<String>,
) -> BoxFuture<()> {
    let middleware = server.middleware.read().unwrap().clone();
    let Some(middleware) = middleware else { return custom::notification(server, method, params, session) };
    let inbound = Inbound {
        method: method.to_owned(),
        params: params.clone(),
        request_id: None,
        session: session.clone(),
        protocol_version,
        dialect: server.options.dialect,
    };
    let (server, method) = (server.clone(), method.to_owned());
    let next: Next = Box::new(move || {
        Box::pin(async move {
            custom::notification(&server, &method, params, session).await;
            Ok(None)
        })
    });
    Box::pin(async move {
        if let Err(e) = middleware.handle(inbound, next).await {
            tracing::debug!("middleware refused a notification: {}", e.message);
        }
    })
}
