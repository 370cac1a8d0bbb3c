//! Tools, resources, prompts, completion and discovery: one implementation for both eras,
//! one file per feature ([`tools`], [`resources`], [`prompts`], [`completion`],
//! [`discover`], and the application's own methods in [`custom`]); the router ([`super::router`]) picks the feature by method.
//!
//! The era shows only where the specification makes it differ: the resource-not-found
//! code, how handlers get client input (MRTR on a modern request), and the stamping of
//! modern results (`resultType`, `serverInfo`, cache hints), done once in [`stamp`]. What
//! the features share lives here: listing with pagination, parameter reading, and running
//! a handler that may stop for client input.

pub(crate) mod completion;
pub(crate) mod custom;
pub(crate) mod discover;
pub(crate) mod prompts;
pub(crate) mod resources;
pub(crate) mod stamp;
pub(crate) mod tools;

pub use completion::MAX_COMPLETION_VALUES;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use serde_json::{Map, Value, json};

use super::ServerShared;
use super::context::Context;
use super::handlers::HandlerError;
use super::mrtr::{Stop, UntilInput};
use super::registry::Registry;
use super::reply::{Page, Reply};
use crate::peer::BoxFuture;
use crate::wire::{ErrorObject, RawJson, RawResult};

type Outcome = Result<Value, ErrorObject>;

/// One page of a registry listing (`tools`, `prompts`, `resourceTemplates`).
pub(crate) fn list(
    server: &ServerShared,
    params: &Map<String, Value>,
    key: &'static str,
    items: impl FnOnce(&Registry) -> Vec<RawJson>,
) -> Result<Reply, ErrorObject> {
    let all = items(&server.registry.read().unwrap());
    page(server, params, key, all)
}

/// One page of `all`, from the request's cursor.
fn page(
    server: &ServerShared,
    params: &Map<String, Value>,
    key: &'static str,
    mut all: Vec<RawJson>,
) -> Result<Reply, ErrorObject> {
    let start = match params.get("cursor") {
        None | Some(Value::Null) => 0,
        Some(cursor) => decode_cursor(cursor)
            .filter(|n| *n <= all.len())
            .ok_or_else(|| ErrorObject::invalid_params(format!("Invalid params: unknown cursor {cursor}")))?,
    };
    let total = all.len();
    let end = server.options.page_size.map_or(total, |size| (start + size).min(total));
    all.truncate(end);
    all.drain(..start);
    let mut members = Map::new();
    if end < total {
        members.insert("nextCursor".into(), json!(B64.encode(format!("offset:{end}"))));
    }
    Ok(Reply::Page(Page { key, items: all, members }))
}

fn decode_cursor(cursor: &Value) -> Option<usize> {
    let text = String::from_utf8(B64.decode(cursor.as_str()?).ok()?).ok()?;
    text.strip_prefix("offset:")?.parse().ok()
}

fn required_str<'a>(params: &'a Map<String, Value>, key: &str, method: &str) -> Result<&'a str, ErrorObject> {
    params
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| ErrorObject::invalid_params(format!("Invalid params: {method} needs a string \"{key}\"")))
}

fn object_param(params: &mut Map<String, Value>, key: &str, method: &str) -> Result<Map<String, Value>, ErrorObject> {
    match params.shift_remove(key) {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(map)) => Ok(map),
        Some(_) => Err(ErrorObject::invalid_params(format!("Invalid params: {method} \"{key}\" must be an object"))),
    }
}

/// How a handler run inside its request ended (`T`: the result, a value or JSON text).
enum Ran<T = Value> {
    Done(Result<T, HandlerError>),
    /// The `input_required` result (modern requests).
    InputRequired(Value),
    /// The handler started its task; here is the rest of it, to run in the task.
    Task(BoxFuture<Result<T, HandlerError>>),
}

/// Runs a handler (`start` makes its future for a context); on a modern request it may stop
/// for client input, and the outcome is then the `input_required` result, or (a tool that
/// starts its own task) go on as a task. On a 2025-era request a handler's own
/// `input_required` result goes to the legacy shim, which runs the handler again with the
/// client's answers ([`super::super::legacy_shim`]), or fails loudly when it is off.
async fn run<T: HandlerResult>(
    server: &ServerShared,
    cx: &Context,
    method: &str,
    target: &str,
    mut start: impl FnMut(Context) -> BoxFuture<Result<T, HandlerError>>,
) -> Ran<T> {
    let mut future = start(cx.clone());
    let Some(inputs) = &cx.inner.inputs else {
        let outcome = future.await;
        let Some(own) = outcome.as_ref().ok().and_then(HandlerResult::own_input_required) else {
            return Ran::Done(outcome);
        };
        let shim = server.options.input_required.shim_on(server.options.dialect)
            && crate::server::legacy_shim::serves(method)
            && cx.inner.task.get().is_none();
        if shim {
            return Ran::Done(crate::server::legacy_shim::fulfil(server, cx, method, own, start).await);
        }
        let error = server.options.dialect.input_required_out_of_era(method, cx.protocol_version());
        return Ran::Done(Err(HandlerError::Rpc(error)));
    };
    match (UntilInput { future: &mut future, inputs, task: &cx.inner.task }).await {
        Stop::Done(outcome) => {
            let Some(own) = outcome.as_ref().ok().and_then(HandlerResult::own_input_required) else {
                return Ran::Done(outcome);
            };
            let principal = cx.inner.auth.as_deref().map(crate::server::AuthInfo::principal);
            let capabilities = cx.inner.client_capabilities();
            match inputs.own_input_required(server, method, target, principal.as_deref(), capabilities, own) {
                Ok(result) => Ran::InputRequired(result),
                Err(error) => Ran::Done(Err(HandlerError::Rpc(error))),
            }
        }
        Stop::Input => {
            if let Some(task) = cx.inner.task.get() {
                server.tasks.discard(&task.id);
            }
            let principal = cx.inner.auth.as_deref().map(crate::server::AuthInfo::principal);
            match inputs.input_required(&server.sealer, method, target, principal.as_deref()) {
                Ok(result) => Ran::InputRequired(result),
                Err(error) => Ran::Done(Err(HandlerError::Rpc(error))),
            }
        }
        Stop::Task => Ran::Task(future),
    }
}

/// What a handler answers: a value, or JSON text kept as it is.
pub(crate) trait HandlerResult: Sized {
    /// The members of an `input_required` result the handler built itself (the manual
    /// multi-round API), if this is one.
    fn own_input_required(&self) -> Option<Map<String, Value>>;

    /// A result core answers in the handler's place (the legacy shim's failed tool call).
    fn from_value(value: Value) -> Self;
}

impl HandlerResult for Value {
    fn from_value(value: Value) -> Self {
        value
    }

    fn own_input_required(&self) -> Option<Map<String, Value>> {
        match self {
            Value::Object(map) if super::mrtr::is_input_required(self) => Some(map.clone()),
            _ => None,
        }
    }
}

impl HandlerResult for RawResult {
    fn from_value(value: Value) -> Self {
        RawResult::from(RawJson::to_json(&value).expect("a JSON value"))
    }

    fn own_input_required(&self) -> Option<Map<String, Value>> {
        // Parsed only when it could be one: most answers are never parsed here (nor
        // searched, when the client that received them read their `resultType`).
        if self.members().is_some_and(|m| !m.asks_input) || !self.get().contains("input_required") {
            return None;
        }
        serde_json::from_str::<Value>(self.get()).ok()?.own_input_required()
    }
}

/// How a failed resource, prompt, listing or completion handler answers its request (a
/// tool's failure is a result instead; see [`tools::call_tool`]).
/// Worded in the server's [`Dialect`](super::Dialect).
pub(crate) fn handler_error(
    server: &ServerShared,
    error: HandlerError,
    failed: impl FnOnce(String) -> String,
    modern: bool,
) -> ErrorObject {
    dialect_handler_error(server.options.dialect, error, failed, modern, None)
}

/// [`handler_error`] in `dialect`; `reading`: the URI of a resource whose read failed.
pub(crate) fn dialect_handler_error(
    dialect: super::Dialect,
    error: HandlerError,
    failed: impl FnOnce(String) -> String,
    modern: bool,
    reading: Option<&str>,
) -> ErrorObject {
    match error {
        HandlerError::Failed(message) | HandlerError::Unexpected(message) => {
            dialect.handler_failed(message, failed, reading, modern)
        }
        HandlerError::Rpc(error) => error,
        HandlerError::ResourceNotFound(uri) => dialect.resource_not_found(&uri, modern),
        HandlerError::ResourceNotFoundSaying { uri, message } => {
            dialect.resource_not_found(&uri, modern).with_message(message)
        }
    }
}
