//! The router: the one place where a method name picks the code that serves it.
//!
//! Every method the server knows appears here once: the legacy session's own methods
//! (`initialize`, `ping`, `logging/setLevel`, resource subscriptions), the features both
//! eras share, the 2026-07-28 methods (`server/discover`, `subscriptions/listen`, the
//! tasks extension), which results carry cache hints, what a retried request's MRTR
//! state is bound to, and what kind of client request an input a handler asks for is
//! (the capability it needs, the shape of its answer). The code behind each arm knows
//! nothing of method names, so adding a method is one arm here and one function beside its
//! feature. A method that is not MCP's goes to the application's custom handlers
//! ([`super::custom`]), in either era.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::context::Context;
use super::custom::FeatureHandler;
use super::features::{self, completion, custom, discover, prompts, resources, tools};
use super::mrtr;
use super::notify;
use super::params::{Params, TextParams};
use super::reply::Reply;
use super::session::{Connection, Incoming};
use super::tasks;
use super::{CacheHint, ServerShared};
use crate::protocol::REQUEST_METHODS;
use crate::wire::ErrorObject;

/// Whether `method` is the protocol's (MCP's table, and the tasks extension's
/// `tasks/update` served here): no custom request handler may take it, and one this
/// server does not serve answers -32601 without consulting the custom table.
pub(crate) fn is_builtin_request(method: &str) -> bool {
    REQUEST_METHODS.contains(&method) || method == "tasks/update"
}

/// Serves a feature request (either era) once its context is built.
pub(crate) async fn feature(
    server: &Arc<ServerShared>,
    method: &str,
    params: Map<String, Value>,
    cx: Context,
) -> Result<Reply, ErrorObject> {
    // The application's task methods are the 2025-11-25 revision's; the 2026-07-28
    // extension's stay the engine's.
    let own = !(cx.is_modern() && method.starts_with("tasks/"));
    match super::custom::feature_handler(server, method).filter(|_| own) {
        Some(FeatureHandler::Value(handler)) => {
            return custom::serve_with(server, method, handler, params, cx).await.map(Reply::Value);
        }
        Some(FeatureHandler::Raw(handler)) => {
            let target = mrtr_target(method, &params);
            return custom::serve_raw(server, method, &target, handler, Params::Map(params), cx).await;
        }
        None => {}
    }
    let dialect = server.options.dialect;
    if dialect.unoffered_is_not_found() && super::capabilities::engine_offers(server, method) == Some(false) {
        return Err(dialect.method_not_found(method));
    }
    let value = match method {
        "tools/list" => {
            let modern = cx.is_modern();
            return features::list(server, &params, "tools", |r| {
                r.tools
                    .values()
                    .map(|t| t.legacy_listed.as_ref().filter(|_| !modern).unwrap_or(&t.listed).clone())
                    .collect()
            });
        }
        "resources/list" => return resources::list_resources(server, &params, cx).await,
        "resources/templates/list" => {
            return features::list(server, &params, "resourceTemplates", |r| {
                r.templates.values().map(|e| e.listed.clone()).collect()
            });
        }
        "prompts/list" => {
            return features::list(server, &params, "prompts", |r| {
                r.prompts.values().map(|e| e.listed.clone()).collect()
            });
        }
        "tools/call" => tools::call_tool(server, params, cx).await,
        "resources/read" => resources::read_resource(server, params, cx).await,
        "prompts/get" => prompts::get_prompt(server, params, cx).await,
        "completion/complete" => completion::complete(server, params, cx).await,
        "server/discover" => Ok(discover::discover(server)),
        "subscriptions/listen" if cx.is_modern() => notify::listen(server, params, cx).await,
        "tasks/get" | "tasks/result" | "tasks/list" | "tasks/cancel" if !cx.is_modern() => {
            tasks::spec::serve(server, method, &params, &cx).await
        }
        "tasks/get" => tasks::serve(server, method, &params, &cx, tasks::get),
        "tasks/update" => tasks::serve(server, method, &params, &cx, tasks::update),
        "tasks/cancel" => tasks::serve(server, method, &params, &cx, tasks::cancel),
        _ if is_builtin_request(method) => Err(dialect.method_not_found(method)),
        _ => custom::serve(server, method, params, cx).await,
    };
    value.map(Reply::Value)
}

/// Serves a feature request whose params were kept as text ([`TextParams`]) with the raw
/// feature handler that takes them so; were that handler replaced meanwhile, they are
/// parsed and served as any request.
pub(crate) async fn feature_text(
    server: &Arc<ServerShared>,
    method: &str,
    params: TextParams,
    cx: Context,
) -> Result<Reply, ErrorObject> {
    match super::custom::feature_handler(server, method) {
        Some(FeatureHandler::Raw(handler)) => {
            let target = mrtr_target(method, &params.checked);
            custom::serve_raw(server, method, &target, handler, Params::Text(params.text), cx).await
        }
        _ => feature(server, method, Params::Text(params.text).into_map()?, cx).await,
    }
}

/// Serves a request of the legacy session: its own methods, then (once initialized) the
/// features.
pub(crate) async fn legacy(
    connection: &Connection,
    method: &str,
    params: Map<String, Value>,
    incoming: &Incoming,
) -> Result<Reply, ErrorObject> {
    match method {
        "initialize" => connection.initialize(params).map(Reply::Value),
        "ping" => Ok(json!({}).into()),
        _ if !connection.initialized() => Err(ErrorObject::invalid_request(format!(
            "Invalid request: {method} before initialize (send initialize first, or use the 2026-07-28 _meta)"
        ))),
        // A session method the application answers itself (the low-level server APIs); in
        // a dialect where the application's `logging/setLevel` handler is the only way to
        // serve it, core still holds the session to the level it sets. A subscription the
        // application accepted is the session's too, so the server's resource-updated
        // notifications reach it (as the official servers send them on that connection).
        "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe"
            if connection.server().custom.read().unwrap().answers(method) =>
        {
            if method == "logging/setLevel" && !serves_set_level(connection.server()) {
                connection.set_log_level(&params)?;
            }
            let cx = connection.legacy_context(incoming, &params);
            let subscription = (method != "logging/setLevel").then(|| params.clone());
            let reply = feature(connection.server(), method, params, cx).await?;
            if let Some(params) = subscription {
                connection.subscribe(method, &params, method == "resources/subscribe")?;
            }
            Ok(reply)
        }
        "logging/setLevel" if serves_set_level(connection.server()) => {
            connection.set_log_level(&params).map(Reply::Value)
        }
        "logging/setLevel" => Err(connection.server().options.dialect.method_not_found(method)),
        // Core keeps subscriptions only for a server that declares them: one that does not
        // (an official `MCPServer`, a TypeScript `McpServer` without `subscribe`) answers
        // -32601, as the official servers, which register no handler then, do.
        "resources/subscribe" | "resources/unsubscribe" if !declares_subscribe(connection.server()) => {
            Err(connection.server().options.dialect.method_not_found(method))
        }
        "resources/subscribe" => connection.subscribe(method, &params, true).map(Reply::Value),
        "resources/unsubscribe" => connection.subscribe(method, &params, false).map(Reply::Value),
        _ => {
            let cx = connection.legacy_context(incoming, &params);
            feature(connection.server(), method, params, cx).await
        }
    }
}

/// Whether the server declares `resources.subscribe` to a legacy client.
fn declares_subscribe(server: &ServerShared) -> bool {
    let declared = super::capabilities::capabilities(server, false);
    declared.resources.and_then(|resources| resources.subscribe) == Some(true)
}

/// Whether core itself answers `logging/setLevel` (in the dialect's terms).
fn serves_set_level(server: &ServerShared) -> bool {
    let declared = server.capabilities.read().unwrap().logging.is_some();
    server.options.dialect.serves_set_level(declared)
}

/// The cache hint a 2026-07-28 result of `method` carries, if it is cacheable (each
/// method its own; a resource's own hint is applied by `resources/read` before this).
pub(crate) fn cache_hint(server: &ServerShared, method: &str) -> Option<CacheHint> {
    server.options.cache_hints.get(method)
}

/// What kind of client request an input a handler asks for is: the capability it needs
/// and the shape its answer must have.
pub(crate) fn client_input(method: &str, params: &Value) -> mrtr::ClientInput {
    match method {
        "elicitation/create" => mrtr::ClientInput::Elicit { url: params.get("mode") == Some(&json!("url")) },
        "sampling/createMessage" => mrtr::ClientInput::Sample,
        "roots/list" => mrtr::ClientInput::Roots,
        _ => mrtr::ClientInput::Other,
    }
}

/// The answers a modern retry brings: earlier rounds (from the sealed state, bound to the
/// method and its target) and this one.
pub(crate) fn retry_inputs(
    server: &ServerShared,
    method: &str,
    principal: Option<&str>,
    params: &mut Map<String, Value>,
) -> Result<mrtr::Retry, ErrorObject> {
    // `tasks/update` carries `inputResponses` too, but they are the task's (its own keys,
    // delivered by the tasks extension), not a retry of this request.
    if method == "tasks/update" {
        return Ok(mrtr::Retry::default());
    }
    let target = mrtr_target(method, params);
    mrtr::gather_inputs(server, method, &target, principal, params)
}

/// What a request's sealed MRTR state is bound to besides its method: the resource's URI
/// for `resources/read`, else the `name` param (a tool's, a prompt's; empty when absent).
/// Sealing and checking a retry both use this.
pub(crate) fn mrtr_target(method: &str, params: &Map<String, Value>) -> String {
    let key = if method == "resources/read" { "uri" } else { "name" };
    params.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}
