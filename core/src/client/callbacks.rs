//! The host's side of the conversation: answers to sampling, elicitation, roots and the
//! application's own request methods (for a legacy server's requests and for a modern
//! server's `input_required` alike), and the notifications the server sends.
//!
//! What the host gives ([`ClientCallbacks`]) is turned once, at connect, into the client's
//! one router ([`Router`]): a table from method name to what answers it, the built-in
//! callbacks and the custom handlers alike, so no code path matches method strings and a
//! legacy request and a modern input request of the same method reach the same callback.
//! A custom request method may not be one MCP defines, and no handler may take the
//! notifications the engine consumes; both are refused with an error naming the method.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Value, json};

use super::ClientError;
use crate::peer::{BoxFuture, ENGINE_NOTIFICATIONS, Handler, HandlerResult, NotificationContext, RequestContext};
use crate::protocol::{CreateMessage, Elicit, ElicitationModes, ListRoots, Ping, REQUEST_METHODS, RequestMethod};
use crate::wire::{ErrorObject, Notification, RawJson, Request};

/// Answers one kind of client input: params in, the result object out.
pub type InputCallback = Arc<dyn Fn(Value) -> BoxFuture<Result<Value, ErrorObject>> + Send + Sync>;

/// Receives a notification from the server: method and params.
pub type NotificationCallback = Arc<dyn Fn(&str, Value) + Send + Sync>;

#[derive(Clone, Default)]
pub struct ClientCallbacks {
    pub sampling: Option<InputCallback>,
    pub elicitation: Option<InputCallback>,
    pub roots: Option<InputCallback>,
    /// Every notification that no handler in [`notifications`](Self::notifications) takes.
    pub notification: Option<NotificationCallback>,
    /// The application's own request methods the server may send (on a legacy session,
    /// or as a modern server's input requests), by method; set them with
    /// [`set_request_handler`](Self::set_request_handler), which checks the name.
    pub requests: HashMap<String, InputCallback>,
    /// Notification handlers by method (custom ones, or MCP's such as
    /// `notifications/tools/list_changed`); set them with
    /// [`set_notification_handler`](Self::set_notification_handler).
    pub notifications: HashMap<String, NotificationCallback>,
    /// Whose answer a request without a callback gets (see
    /// [`Dialect`](crate::server::Dialect)): -32601 by default, the official Python
    /// client's `-32600 Elicitation not supported` (and its sampling and roots wording)
    /// with [`Dialect::PythonSdk`](crate::server::Dialect::PythonSdk).
    pub dialect: crate::server::Dialect,
}

impl ClientCallbacks {
    /// Answers the server's custom request `method` with `callback` (replacing an earlier
    /// one). A method MCP defines is refused: sampling, elicitation and roots have their
    /// own callbacks, and the engine answers `ping`.
    pub fn set_request_handler(&mut self, method: &str, callback: InputCallback) -> Result<(), ClientError> {
        check_request(method)?;
        self.requests.insert(method.to_owned(), callback);
        Ok(())
    }

    /// Delivers the server's notification `method` to `callback` instead of
    /// [`notification`](Self::notification). `notifications/cancelled` and
    /// `notifications/progress` are the engine's and refused.
    pub fn set_notification_handler(
        &mut self,
        method: &str,
        callback: NotificationCallback,
    ) -> Result<(), ClientError> {
        check_notification(method)?;
        self.notifications.insert(method.to_owned(), callback);
        Ok(())
    }

    /// Adds the capabilities the set callbacks provide. An elicitation callback answers
    /// both modes, form and URL, as the official SDKs' clients declare.
    pub(crate) fn declare(&self, capabilities: &mut Value) {
        if !capabilities.is_object() {
            *capabilities = json!({});
        }
        let declare = |caps: &mut Value, name: &str, value: Value| {
            if caps.get(name).is_none() {
                caps[name] = value;
            }
        };
        if self.sampling.is_some() {
            declare(capabilities, "sampling", json!({}));
        }
        if self.elicitation.is_some() {
            declare(capabilities, "elicitation", json!({"form": {}, "url": {}}));
        }
        if self.roots.is_some() {
            declare(capabilities, "roots", json!({"listChanged": true}));
        }
    }

    /// These callbacks as the handler of a [`Peer`](crate::peer::Peer) (for code that runs
    /// the engine without a [`Client`](super::Client)); the same router a client uses.
    pub fn handler(&self) -> Result<Arc<dyn Handler>, ClientError> {
        Ok(self.router()?)
    }

    /// The router these callbacks make; a custom name that breaks the rules (set on the
    /// public maps directly) is refused here.
    pub(crate) fn router(&self) -> Result<Arc<Router>, ClientError> {
        self.router_with_cache(None, None)
    }

    /// The router, evicting `cache` entries for the notifications that make them stale
    /// before the host hears of them; `capabilities`, the ones the client declares, refuse
    /// an elicitation in a mode they do not admit (`None`: every mode is passed on).
    pub(crate) fn router_with_cache(
        &self,
        cache: Option<Arc<super::cache::ResponseCache>>,
        capabilities: Option<&Value>,
    ) -> Result<Arc<Router>, ClientError> {
        let mut requests: HashMap<String, Route> = HashMap::new();
        requests.insert(Ping::METHOD.into(), Route::Ping);
        let builtin = [
            (CreateMessage::METHOD, &self.sampling),
            (Elicit::METHOD, &self.elicitation),
            (ListRoots::METHOD, &self.roots),
        ];
        for (method, callback) in builtin {
            if let Some(callback) = callback {
                requests.insert(method.into(), Route::Callback(callback.clone()));
            }
        }
        for (method, callback) in &self.requests {
            check_request(method)?;
            requests.insert(method.clone(), Route::Callback(callback.clone()));
        }
        for method in self.notifications.keys() {
            check_notification(method)?;
        }
        Ok(Arc::new(Router {
            hooks: Arc::default(),
            requests,
            notifications: self.notifications.clone(),
            fallback: self.notification.clone(),
            cache,
            dialect: self.dialect,
            elicitation: capabilities.map(|c| ElicitationModes::of(c.get("elicitation"))),
        }))
    }
}

fn check_request(method: &str) -> Result<(), ClientError> {
    if REQUEST_METHODS.contains(&method) {
        return Err(ClientError::Usage(format!(
            "{method:?} is MCP's own request method; a custom request handler cannot take it"
        )));
    }
    Ok(())
}

fn check_notification(method: &str) -> Result<(), ClientError> {
    if ENGINE_NOTIFICATIONS.contains(&method) {
        return Err(ClientError::Usage(format!("{method:?} is handled by the engine; no handler can take it")));
    }
    Ok(())
}

/// What answers one request method.
enum Route {
    Ping,
    Callback(InputCallback),
}

/// The client's one router: every method the server may send, and what answers it.
pub(crate) struct Router {
    /// The notifications the client itself consumes or acts on (listen, listChanged).
    pub(crate) hooks: Arc<super::listen::Hooks>,
    requests: HashMap<String, Route>,
    notifications: HashMap<String, NotificationCallback>,
    fallback: Option<NotificationCallback>,
    cache: Option<Arc<super::cache::ResponseCache>>,
    dialect: crate::server::Dialect,
    /// The elicitation modes the client declared, when it checks them.
    elicitation: Option<ElicitationModes>,
}

impl Router {
    /// Answers one request (a legacy server's, or a modern input request) by method.
    pub(crate) fn answer(&self, method: &str, params: Value) -> BoxFuture<Result<Value, ErrorObject>> {
        match self.requests.get(method) {
            Some(Route::Ping) => Box::pin(std::future::ready(Ok(json!({})))),
            Some(Route::Callback(callback)) => {
                if let Some(refusal) =
                    self.elicitation.filter(|_| method == Elicit::METHOD).and_then(|m| m.refusal(&params))
                {
                    return Box::pin(std::future::ready(Err(ErrorObject::invalid_params(refusal))));
                }
                callback(params)
            }
            None => Box::pin(std::future::ready(Err(self.dialect.unhandled_client_request(method)))),
        }
    }
}

impl Handler for Router {
    fn handle_request(&self, request: Request, _: RequestContext) -> BoxFuture<HandlerResult> {
        let params = match &request.params {
            Some(raw) => match raw.parse_owned() {
                Ok(params) => params,
                Err(e) => return Box::pin(std::future::ready(Err(ErrorObject::invalid_params(e.to_string())))),
            },
            None => json!({}),
        };
        let answer = self.answer(&request.method, params);
        Box::pin(async move {
            let result = answer.await?;
            RawJson::to_json(&result).map_err(|e| ErrorObject::internal(e.to_string()))
        })
    }

    fn handle_notification(&self, notification: Notification, _: NotificationContext) -> BoxFuture<()> {
        let params = notification.params.and_then(|p| p.parse_owned().ok()).unwrap_or(Value::Null);
        if !self.hooks.notified(&notification.method, &params) {
            return Box::pin(std::future::ready(()));
        }
        let callback = self.notifications.get(notification.method.as_str()).or(self.fallback.as_ref()).cloned();
        let cache = self.cache.clone();
        Box::pin(async move {
            if let Some(cache) = cache {
                cache.evict_for(&notification.method, &params).await;
            }
            if let Some(callback) = callback {
                callback(&notification.method, params);
            }
        })
    }
}
