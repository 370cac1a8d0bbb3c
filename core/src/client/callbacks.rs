//! The host's side of the conversation: answers to sampling, elicitation and roots (for a
//! legacy server's requests and for a modern server's `input_required` alike), and the
//! notifications the server sends.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::peer::{BoxFuture, Handler, HandlerResult, NotificationContext, RequestContext};
use crate::wire::{ErrorObject, Notification, RawJson, Request};

/// Answers one kind of client input: params in, the result object out.
pub type InputCallback = Arc<dyn Fn(Value) -> BoxFuture<Result<Value, ErrorObject>> + Send + Sync>;

/// Receives every notification from the server: method and params.
pub type NotificationCallback = Arc<dyn Fn(&str, Value) + Send + Sync>;

#[derive(Clone, Default)]
pub struct ClientCallbacks {
    pub sampling: Option<InputCallback>,
    pub elicitation: Option<InputCallback>,
    pub roots: Option<InputCallback>,
    pub notification: Option<NotificationCallback>,
}

impl ClientCallbacks {
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

    /// Answers one input request by method.
    pub(crate) async fn answer(&self, method: &str, params: Value) -> Result<Value, ErrorObject> {
        let callback = match method {
            "sampling/createMessage" => &self.sampling,
            "elicitation/create" => &self.elicitation,
            "roots/list" => &self.roots,
            "ping" => return Ok(json!({})),
            other => return Err(ErrorObject::method_not_found(other)),
        };
        match callback {
            Some(callback) => callback(params).await,
            None => Err(ErrorObject::method_not_found(method)),
        }
    }

    pub(crate) fn handler(&self) -> Arc<dyn Handler> {
        Arc::new(self.clone())
    }
}

impl Handler for ClientCallbacks {
    fn handle_request(&self, request: Request, _: RequestContext) -> BoxFuture<HandlerResult> {
        let callbacks = self.clone();
        Box::pin(async move {
            let params = match &request.params {
                Some(raw) => raw.parse_owned().map_err(|e| ErrorObject::invalid_params(e.to_string()))?,
                None => json!({}),
            };
            let result = callbacks.answer(&request.method, params).await?;
            RawJson::to_json(&result).map_err(|e| ErrorObject::internal(e.to_string()))
        })
    }

    fn handle_notification(&self, notification: Notification, _: NotificationContext) -> BoxFuture<()> {
        if let Some(callback) = &self.notification {
            let params = notification.params.and_then(|p| p.parse_owned().ok()).unwrap_or(Value::Null);
            callback(&notification.method, params);
        }
        Box::pin(std::future::ready(()))
    }
}
