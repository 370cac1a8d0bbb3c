//! Methods the application adds beside MCP's: a request handler or a notification handler
//! per method name, as the official low-level APIs offer them (TypeScript's
//! `Server.setRequestHandler` / `setNotificationHandler`, Python's `request_handlers` /
//! `notification_handlers`).
//!
//! One table on the server, consulted by the router after its own methods ([`super::router`]
//! serves a custom request in either era, through the same context and MRTR machinery as a
//! tool), and by every transport for the client's notifications. A name the protocol
//! defines is refused at registration, so a custom handler can never shadow MCP's own
//! behaviour and an unknown method still answers -32601. Notification handlers are the
//! exception that proves the rule: MCP's client-to-server notifications that the engine
//! does not consume (`notifications/roots/list_changed`, `notifications/initialized`) reach
//! a handler registered for them; the two the engine consumes (`cancelled`, `progress`) are
//! refused.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::context::Context;
use super::handlers::HandlerFuture;
use super::params::Params;
use super::registry::RegistryError;
use super::router;
use super::session_handle::ServerSession;
use super::{Server, ServerShared};
use crate::peer::{BoxFuture, ENGINE_NOTIFICATIONS};
use crate::wire::RawResult;

/// Answers a custom request: its params (an object; empty when the request had none) and
/// the request's [`Context`] in, the result object out. A [`HandlerError::Failed`] answers
/// with an internal error carrying its text, a [`HandlerError::Rpc`] with exactly that
/// error.
///
/// [`HandlerError::Failed`]: super::HandlerError::Failed
/// [`HandlerError::Rpc`]: super::HandlerError::Rpc
pub trait RequestHandler: Send + Sync + 'static {
    fn handle(&self, params: Map<String, Value>, cx: Context) -> HandlerFuture;
}

/// Receives a client notification: its params (`Null` when it had none) and the legacy
/// session it arrived on (`None` for a notification outside one: a 2026-07-28 client's, or
/// one sent before `initialize`). The handler may keep the session and use it later.
pub trait NotificationHandler: Send + Sync + 'static {
    fn handle(&self, params: Value, session: Option<ServerSession>) -> BoxFuture<()>;
}

impl<F, Fut> RequestHandler for F
where
    F: Fn(Map<String, Value>, Context) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Value, super::HandlerError>> + Send + 'static,
{
    fn handle(&self, params: Map<String, Value>, cx: Context) -> HandlerFuture {
        Box::pin(self(params, cx))
    }
}

/// Answers one of MCP's feature methods with the result's JSON text as it is: a proxy's
/// handler, passing on an upstream's result without parsing it into a tree and encoding it
/// back ([`Server::set_raw_feature_handler`]). The text must be a JSON object; the engine
/// stamps a 2026-07-28 result only when it lacks what stamping adds (then it parses it),
/// which it reads from the members a client already read of it ([`RawResult`]) or, for
/// text given as it is (`RawResult::from(RawJson)`), in a scan of its own. Its params come
/// as the client's JSON text where the engine did not need to parse them (a 2026-07-28
/// request over HTTP: [`Params::Text`]), so a proxy can pass them on without a parse either.
pub trait RawRequestHandler: Send + Sync + 'static {
    fn handle(&self, params: Params, cx: Context) -> BoxFuture<Result<RawResult, super::HandlerError>>;
}

impl<F, Fut> RawRequestHandler for F
where
    F: Fn(Params, Context) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<RawResult, super::HandlerError>> + Send + 'static,
{
    fn handle(&self, params: Params, cx: Context) -> BoxFuture<Result<RawResult, super::HandlerError>> {
        Box::pin(self(params, cx))
    }
}

/// The application's answer to one of MCP's methods: a result value, or its JSON text.
#[derive(Clone)]
pub(crate) enum FeatureHandler {
    Value(Arc<dyn RequestHandler>),
    Raw(Arc<dyn RawRequestHandler>),
}

impl<F, Fut> NotificationHandler for F
where
    F: Fn(Value, Option<ServerSession>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    fn handle(&self, params: Value, session: Option<ServerSession>) -> BoxFuture<()> {
        Box::pin(self(params, session))
    }
}

/// MCP's methods an application may answer itself, as the official low-level servers let
/// it (Python's `Server(on_list_tools=...)`, TypeScript's `setRequestHandler(
/// ListToolsRequestSchema, ...)`): the feature methods, and the 2025-11-25 revision's task
/// methods on a legacy session (the official 1.x low-level servers let an application
/// keep its tasks itself; the 2026-07-28 extension's stay the engine's). The engine keeps
/// what is the session's (`initialize`, `ping`, `server/discover`, `subscriptions/listen`).
pub const APPLICATION_ANSWERED: [&str; 15] = [
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "tasks/get",
    "tasks/result",
    "tasks/list",
    "tasks/cancel",
];

/// The server's custom methods, and the protocol methods the application answers.
#[derive(Default)]
pub(crate) struct CustomMethods {
    pub requests: HashMap<String, Arc<dyn RequestHandler>>,
    pub notifications: HashMap<String, Arc<dyn NotificationHandler>>,
    pub features: HashMap<String, FeatureHandler>,
}

impl CustomMethods {
    /// Whether the application answers `method` itself.
    pub fn answers(&self, method: &str) -> bool {
        self.features.contains_key(method)
    }
}

/// Whether the engine itself consumes this notification (so no handler may take it).
pub(crate) fn engine_notification(method: &str) -> bool {
    ENGINE_NOTIFICATIONS.contains(&method)
}

impl Server {
    /// Serves request `method` with `handler`, in both eras and on every transport; a later
    /// call for the same method replaces the handler (as the official SDKs do). A method
    /// MCP defines is refused ([`RegistryError::Builtin`]).
    pub fn set_request_handler(&self, method: &str, handler: impl RequestHandler) -> Result<(), RegistryError> {
        if router::is_builtin_request(method) {
            return Err(RegistryError::Builtin { kind: "request", method: method.to_owned() });
        }
        let mut custom = self.shared.custom.write().unwrap();
        custom.requests.insert(method.to_owned(), Arc::new(handler));
        Ok(())
    }

    /// Delivers client notification `method` to `handler`: a custom one, or one of MCP's
    /// that the engine does not consume (`notifications/roots/list_changed`, and
    /// `notifications/initialized`, which the session still handles first). The engine's
    /// own (`notifications/cancelled`, `notifications/progress`) are refused.
    pub fn set_notification_handler(
        &self,
        method: &str,
        handler: impl NotificationHandler,
    ) -> Result<(), RegistryError> {
        if engine_notification(method) {
            return Err(RegistryError::Builtin { kind: "notification", method: method.to_owned() });
        }
        let mut custom = self.shared.custom.write().unwrap();
        custom.notifications.insert(method.to_owned(), Arc::new(handler));
        Ok(())
    }

    /// Answers MCP's own `method` (one of [`APPLICATION_ANSWERED`]) with `handler` instead
    /// of the registry, in both eras and on every transport: the low-level server APIs.
    /// The handler gets the request's params and [`Context`] (input, progress, logs and
    /// cancellation as for a tool) and returns the whole result; the engine still stamps
    /// and checks it as for its own answers. Declaring the feature follows from the
    /// handlers set (see [`super::capabilities`]). A later call replaces the handler.
    pub fn set_feature_handler(&self, method: &str, handler: impl RequestHandler) -> Result<(), RegistryError> {
        self.set_feature(method, FeatureHandler::Value(Arc::new(handler)))
    }

    /// [`set_feature_handler`](Self::set_feature_handler) with a handler that returns the
    /// result as JSON text ([`RawRequestHandler`]), which is sent on without a parse when
    /// it carries what the request's era needs.
    pub fn set_raw_feature_handler(&self, method: &str, handler: impl RawRequestHandler) -> Result<(), RegistryError> {
        self.set_feature(method, FeatureHandler::Raw(Arc::new(handler)))
    }

    fn set_feature(&self, method: &str, handler: FeatureHandler) -> Result<(), RegistryError> {
        if !APPLICATION_ANSWERED.contains(&method) {
            return Err(RegistryError::NotAnswerable(method.to_owned()));
        }
        self.shared.custom.write().unwrap().features.insert(method.to_owned(), handler);
        Ok(())
    }

    /// Stops serving custom request `method` (it answers -32601 again); whether it was set.
    pub fn remove_request_handler(&self, method: &str) -> bool {
        self.shared.custom.write().unwrap().requests.remove(method).is_some()
    }

    /// Stops delivering notification `method`; whether a handler was set.
    pub fn remove_notification_handler(&self, method: &str) -> bool {
        self.shared.custom.write().unwrap().notifications.remove(method).is_some()
    }
}

/// The application's handler of MCP's `method`, if it answers it.
pub(crate) fn feature_handler(server: &ServerShared, method: &str) -> Option<FeatureHandler> {
    server.custom.read().unwrap().features.get(method).cloned()
}

/// The handler of custom request `method`, if one is set.
pub(crate) fn request_handler(server: &ServerShared, method: &str) -> Option<Arc<dyn RequestHandler>> {
    server.custom.read().unwrap().requests.get(method).cloned()
}

/// Hands a client notification to its handler, if one is set; resolves when the handler
/// is done.
pub(crate) fn notification(
    server: &ServerShared,
    method: &str,
    params: Value,
    session: Option<ServerSession>,
) -> BoxFuture<()> {
    let handler = server.custom.read().unwrap().notifications.get(method).cloned();
    match handler {
        Some(handler) => handler.handle(params, session),
        None => {
            tracing::debug!("no handler for notification {method}");
            Box::pin(std::future::ready(()))
        }
    }
}
