//! One upstream, served as it is on the front: its `serverInfo`, instructions and
//! capabilities, each of its features answered by forwarding (see the [module
//! doc](super)).

use std::sync::Arc;

use serde_json::Value;

use super::{Relay, forward_params, upstream_error};
use crate::client::Client;
use crate::peer::BoxFuture;
use crate::protocol::{ServerCapabilities, TASKS_EXTENSION};
use crate::server::{Answer, Inbound, Middleware, Next, Server, ServerOptions};

/// Which upstream capability makes which feature methods forwarded.
const FEATURES: [(&str, &[&str]); 4] = [
    ("tools", &["tools/list", "tools/call"]),
    ("resources", &["resources/list", "resources/templates/list", "resources/read"]),
    ("prompts", &["prompts/list", "prompts/get"]),
    ("completions", &["completion/complete"]),
];

/// The session methods forwarded upstream and then recorded by the front session too.
pub(super) const SESSION_METHODS: [&str; 3] = ["logging/setLevel", "resources/subscribe", "resources/unsubscribe"];

/// A front server for `client`'s upstream: what it declared, and every request and
/// notification forwarded to it. `relay` must be the one whose callbacks `client` was
/// connected with; it is attached to the returned server. The front declares `logging`
/// whatever the upstream does (core serves `logging/setLevel` on every session), and not
/// the tasks extension (a task lives on the server that runs it; see below).
pub fn bridge(client: &Client, relay: &Arc<Relay>, options: ServerOptions) -> Result<Server, String> {
    let details = client.server();
    let front = Server::try_with_info(details.info.clone(), details.instructions.clone(), options)?;
    for (capability, methods) in FEATURES {
        if details.capabilities.get(capability).is_none() {
            continue;
        }
        for method in methods {
            let (client, relay, name) = (client.clone(), relay.clone(), *method);
            let handler = move |params, cx| {
                let (client, relay) = (client.clone(), relay.clone());
                async move { forward_params(&client, &relay, name, params, &cx).await }
            };
            front.set_raw_feature_handler(method, handler).map_err(|e| e.to_string())?;
        }
    }
    // Tasks are kept by the server that runs them, and `tasks/*` are the front engine's
    // own methods, so the tasks extension is not passed on: clients call without tasks.
    let mut declared = details.capabilities.clone();
    if let Some(Value::Object(extensions)) = declared.get_mut("extensions") {
        extensions.remove(TASKS_EXTENSION);
    }
    let capabilities: ServerCapabilities =
        serde_json::from_value(declared).map_err(|e| format!("the upstream's capabilities are malformed: {e}"))?;
    front.register_capabilities(&capabilities)?;
    front.set_middleware(Some(Arc::new(Forwarder { client: client.clone() })));
    relay.attach(&front);
    // Ends by itself with the upstream connection.
    drop(super::listen_for_changes(client));
    Ok(front)
}

/// Forwards what the feature handlers do not see: session methods, the application's own
/// requests, and the client's notifications.
struct Forwarder {
    client: Client,
}

impl Middleware for Forwarder {
    /// The feature methods are the feature handlers' (and the others the front's own).
    fn sees_request(&self, method: &str) -> bool {
        SESSION_METHODS.contains(&method) || !crate::server::is_builtin_request(method)
    }

    fn handle(&self, inbound: Inbound, next: Next) -> BoxFuture<Answer> {
        let client = self.client.clone();
        Box::pin(async move {
            let Inbound { method, params, request_id, .. } = inbound;
            let params = if params.is_null() { serde_json::json!({}) } else { params };
            if request_id.is_none() {
                if method != "notifications/initialized" {
                    let _ = client.notify(&method, params).await;
                }
                return next().await;
            }
            if SESSION_METHODS.contains(&method.as_str()) {
                let logging = client.server().capabilities.get("logging").is_some();
                if method != "logging/setLevel" || logging {
                    forward_plain(&client, &method, params).await?;
                }
                return next().await;
            }
            if crate::server::is_builtin_request(&method) {
                return next().await;
            }
            forward_plain(&client, &method, params).await.map(Some)
        })
    }
}

/// A request forwarded without a front context (no progress or input to relay).
pub(super) async fn forward_plain(
    client: &Client,
    method: &str,
    params: Value,
) -> Result<Value, crate::wire::ErrorObject> {
    client.request(method, params, Default::default()).await.map_err(|e| match upstream_error(e) {
        crate::server::HandlerError::Rpc(error) => error,
        other => crate::wire::ErrorObject::internal(other.to_string()),
    })
}
