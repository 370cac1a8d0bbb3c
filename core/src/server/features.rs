//! Tools, resources, prompts, completion and discovery: one implementation for both eras.
//!
//! The era shows only where the specification makes it differ: the resource-not-found
//! code, how handlers get client input (MRTR on a modern request), and the stamping of
//! modern results (`resultType`, `serverInfo`, cache hints), done once in [`stamp`].

use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use serde_json::{Map, Value, json};

use super::ServerShared;
use super::context::Context;
use super::era::{META_SERVER_INFO, MODERN_VERSIONS};
use super::handlers::{HandlerError, HandlerFuture};
use super::mrtr::{Stop, UntilInput};
use super::registry::ToolEntry;
use super::reply::{Page, Reply};
use super::tasks::{self, TaskEntry, TaskStart, TaskSupport};
use crate::wire::{ErrorObject, RawJson};

type Outcome = Result<Value, ErrorObject>;

/// Serves one feature request.
pub(crate) async fn serve(
    server: &Arc<ServerShared>,
    method: &str,
    params: Map<String, Value>,
    cx: Context,
) -> Result<Reply, ErrorObject> {
    let value = match method {
        "tools/list" => {
            return list(server, &params, "tools", |r| r.tools.values().map(|t| t.listed.clone()).collect());
        }
        "resources/list" => return list_resources(server, &params, cx).await,
        "resources/templates/list" => {
            return list(server, &params, "resourceTemplates", |r| {
                r.templates.values().map(|e| e.listed.clone()).collect()
            });
        }
        "prompts/list" => {
            return list(server, &params, "prompts", |r| r.prompts.values().map(|e| e.listed.clone()).collect());
        }
        "tools/call" => call_tool(server, params, cx).await,
        "resources/read" => read_resource(server, params, cx).await,
        "prompts/get" => get_prompt(server, params, cx).await,
        "completion/complete" => complete(server, params, cx).await,
        "server/discover" => Ok(discover(server)),
        "tasks/get" | "tasks/update" | "tasks/cancel" => tasks::serve(server, method, &params, &cx),
        _ => Err(ErrorObject::method_not_found(method)),
    };
    value.map(Reply::Value)
}

pub(crate) fn capabilities(server: &ServerShared) -> Value {
    let mut caps = json!({
        "tools": {"listChanged": true},
        "resources": {"subscribe": true, "listChanged": true},
        "prompts": {"listChanged": true},
        "logging": {},
    });
    if server.completion.read().unwrap().is_some() {
        caps["completions"] = json!({});
    }
    caps
}

/// The 2026-07-28 capabilities: the legacy ones, and the tasks extension once a tool
/// supports tasks (the extension does not exist before 2026-07-28).
fn discover(server: &ServerShared) -> Value {
    let mut caps = capabilities(server);
    let registry = server.registry.read().unwrap();
    if registry.tools.values().any(|tool| tool.task_support != TaskSupport::Forbidden) {
        caps["extensions"] = json!({ tasks::EXTENSION: {} });
    }
    drop(registry);
    let mut result = json!({"supportedVersions": MODERN_VERSIONS, "capabilities": caps});
    if let Some(instructions) = &server.instructions {
        result["instructions"] = json!(instructions);
    }
    result
}

/// Adds what every 2026-07-28 result carries: `resultType`, `serverInfo`, and cache hints
/// on cacheable complete results.
pub(crate) fn stamp(server: &ServerShared, method: &str, result: Option<&mut Map<String, Value>>) {
    let Some(map) = result else { return };
    let complete = map.entry("resultType").or_insert_with(|| json!("complete")) == "complete";
    let meta = map.entry("_meta").or_insert_with(|| json!({}));
    if let Value::Object(meta) = meta {
        meta.entry(META_SERVER_INFO).or_insert_with(|| server.info.clone());
    }
    let hint = match method {
        "resources/read" => server.options.read_cache,
        "server/discover" | "tools/list" | "prompts/list" | "resources/list" | "resources/templates/list" => {
            server.options.list_cache
        }
        _ => return,
    };
    if complete {
        map.entry("ttlMs").or_insert_with(|| json!(hint.ttl_ms));
        map.entry("cacheScope").or_insert_with(|| json!(if hint.public { "public" } else { "private" }));
    }
}

fn list(
    server: &ServerShared,
    params: &Map<String, Value>,
    key: &'static str,
    items: impl FnOnce(&super::registry::Registry) -> Vec<RawJson>,
) -> Result<Reply, ErrorObject> {
    let all = items(&server.registry.read().unwrap());
    page(server, params, key, all)
}

/// The static resources, then what each listing template lists (in registration order),
/// each listed resource over its template's metadata.
async fn list_resources(server: &ServerShared, params: &Map<String, Value>, cx: Context) -> Result<Reply, ErrorObject> {
    let (mut all, listers) = {
        let registry = server.registry.read().unwrap();
        let statics: Vec<RawJson> = registry.resources.values().map(|e| e.listed.clone()).collect();
        let listers: Vec<_> = registry
            .templates
            .values()
            .filter_map(|e| Some((e.lister.clone()?, e.definition.clone(), e.template.as_str().to_owned())))
            .collect();
        (statics, listers)
    };
    for (lister, definition, template) in listers {
        let listed = match lister.list(cx.clone()).await {
            Ok(Value::Array(resources)) => resources,
            Ok(Value::Object(mut result)) if result.get("resources").is_some_and(Value::is_array) => {
                let Some(Value::Array(resources)) = result.shift_remove("resources") else {
                    unreachable!("checked above")
                };
                resources
            }
            Ok(other) => {
                return Err(ErrorObject::internal(format!(
                    "Listing template {template} returned {other}, not resources"
                )));
            }
            Err(error) => {
                return Err(handler_error(
                    error,
                    |m| format!("Listing template {template} failed: {m}"),
                    cx.is_modern(),
                ));
            }
        };
        for resource in listed {
            all.push(
                RawJson::to_json(&over_template(&definition, resource))
                    .map_err(|e| ErrorObject::internal(e.to_string()))?,
            );
        }
    }
    page(server, params, "resources", all)
}

/// A listed resource with its template's metadata beneath it (all but the template's own
/// `uriTemplate` and `name`).
fn over_template(template: &Value, resource: Value) -> Value {
    let Value::Object(resource) = resource else { return resource };
    let mut merged: Map<String, Value> = template
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(key, _)| *key != "uriTemplate" && *key != "name")
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    merged.extend(resource);
    Value::Object(merged)
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

/// How a handler run inside its request ended.
enum Ran {
    Done(Result<Value, HandlerError>),
    /// The `input_required` result (modern requests).
    InputRequired(Value),
    /// The handler started its task; here is the rest of it, to run in the task.
    Task(HandlerFuture),
}

/// Runs a handler; on a modern request it may stop for client input, and the outcome is
/// then the `input_required` result, or (a tool that starts its own task) go on as a task.
async fn run(server: &ServerShared, cx: &Context, method: &str, target: &str, mut future: HandlerFuture) -> Ran {
    let Some(inputs) = &cx.inner.inputs else { return Ran::Done(future.await) };
    match (UntilInput { future: &mut future, inputs, task: &cx.inner.task }).await {
        Stop::Done(outcome) => Ran::Done(outcome),
        Stop::Input => {
            if let Some(task) = cx.inner.task.get() {
                server.tasks.discard(&task.id);
            }
            Ran::InputRequired(inputs.input_required(&server.sealer, method, target))
        }
        Stop::Task => Ran::Task(future),
    }
}

/// The answers a modern retry brings: earlier rounds (from the sealed state) and this one.
pub(crate) fn gather_inputs(
    server: &ServerShared,
    method: &str,
    params: &mut Map<String, Value>,
) -> Result<Map<String, Value>, ErrorObject> {
    // `tasks/update` carries `inputResponses` too, but they are the task's (its own keys,
    // delivered by the tasks extension), not a retry of this request.
    if method == "tasks/update" {
        return Ok(Map::new());
    }
    let target = target_of(method, params);
    let mut responses = match params.shift_remove("requestState") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::String(state)) => server.sealer.open(&state, method, &target)?,
        Some(_) => return Err(ErrorObject::invalid_params("Invalid params: requestState must be a string")),
    };
    match params.shift_remove("inputResponses") {
        None => {}
        Some(Value::Object(fresh)) => responses.extend(fresh),
        Some(_) => return Err(ErrorObject::invalid_params("Invalid params: inputResponses must be an object")),
    }
    Ok(responses)
}

pub(crate) fn target_of(method: &str, params: &Map<String, Value>) -> String {
    let key = if method == "resources/read" { "uri" } else { "name" };
    params.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}

async fn call_tool(server: &Arc<ServerShared>, mut params: Map<String, Value>, cx: Context) -> Outcome {
    let name = required_str(&params, "name", "tools/call")?.to_owned();
    let entry = server.registry.read().unwrap().tools.get(&name).cloned();
    let entry = entry.ok_or_else(|| ErrorObject::invalid_params(format!("Unknown tool: {name}")))?;
    let as_task = tasks::plan(entry.task_support, entry.task_start, &cx)?;
    let arguments = object_param(&mut params, "arguments", "tools/call")?;
    let arguments = Value::Object(arguments);
    let problems: Vec<String> = entry.input.iter_errors(&arguments).map(|e| describe(&e)).collect();
    if !problems.is_empty() {
        return Ok(error_result(format!("Invalid arguments for tool {name}: {}", problems.join("; "))));
    }
    let Value::Object(arguments) = arguments else { unreachable!("checked above") };
    match as_task {
        Some(TaskStart::AtCall) => {
            let task = server.tasks.create()?;
            cx.inner.task.set(task.clone());
            let future = entry.handler.call(arguments, cx);
            return Ok(hand_over(server, task, entry, future));
        }
        Some(TaskStart::OnRequest) => cx.inner.task.allow_start(),
        None => {}
    }
    let future = entry.handler.call(arguments, cx.clone());
    let outcome = match run(server, &cx, "tools/call", &name, future).await {
        Ran::Done(outcome) => outcome,
        Ran::InputRequired(input_required) => return Ok(input_required),
        Ran::Task(rest) => {
            let task = cx.inner.task.get().expect("a started task").clone();
            return Ok(hand_over(server, task, entry, rest));
        }
    };
    match cx.inner.task.get() {
        // Started, and finished before it next waited: the task completes at once.
        Some(task) => Ok(hand_over(server, task.clone(), entry, Box::pin(std::future::ready(outcome)))),
        None => tool_outcome(&entry, outcome, cx.is_modern()),
    }
}

/// Hands the rest of a tool call to its task, and answers the call with the task handle.
fn hand_over(server: &Arc<ServerShared>, task: Arc<TaskEntry>, entry: Arc<ToolEntry>, rest: HandlerFuture) -> Value {
    let created = tasks::created(&task);
    tasks::spawn(server.clone(), task, Box::pin(async move { tool_outcome(&entry, rest.await, true) }));
    created
}

/// What a tool's handler outcome answers: a finished result (a failure is a result with
/// `isError`, which the model sees), or the JSON-RPC error the handler chose.
fn tool_outcome(entry: &ToolEntry, outcome: Result<Value, HandlerError>, modern: bool) -> Outcome {
    match outcome {
        Ok(result) => Ok(finish_tool_result(&entry.name, result, entry.output.as_deref())),
        Err(HandlerError::Failed(message)) => Ok(error_result(message)),
        Err(HandlerError::Rpc(error)) => Err(error),
        Err(HandlerError::ResourceNotFound(uri)) => Err(resource_not_found(&uri, modern)),
    }
}

fn describe(error: &jsonschema::ValidationError<'_>) -> String {
    let path = error.instance_path().to_string();
    if path.is_empty() { error.to_string() } else { format!("{path}: {error}") }
}

fn error_result(message: String) -> Value {
    json!({"content": [{"type": "text", "text": message}], "isError": true})
}

/// Completes a tool's result: `content` always present, structured output mirrored as
/// text when the tool gave no content, and checked against the output schema.
fn finish_tool_result(name: &str, mut result: Value, output: Option<&jsonschema::Validator>) -> Value {
    let Value::Object(map) = &mut result else {
        return error_result(format!("Tool {name} returned {result}, not a result object"));
    };
    let is_error = map.get("isError") == Some(&Value::Bool(true));
    if let (Some(schema), false) = (output, is_error) {
        let Some(structured) = map.get("structuredContent") else {
            return error_result(format!("Tool {name} has an output schema but returned no structured content"));
        };
        let problems: Vec<String> = schema.iter_errors(structured).map(|e| describe(&e)).collect();
        if !problems.is_empty() {
            return error_result(format!("Output of tool {name} does not match its schema: {}", problems.join("; ")));
        }
    }
    let empty = map.get("content").and_then(Value::as_array).is_none_or(Vec::is_empty);
    if empty {
        let content = match map.get("structuredContent") {
            Some(structured) => json!([{"type": "text", "text": structured.to_string()}]),
            None => json!([]),
        };
        map.insert("content".into(), content);
    }
    result
}

pub(crate) fn resource_not_found(uri: &str, modern: bool) -> ErrorObject {
    let code = if modern { crate::wire::ErrorCode::INVALID_PARAMS } else { -32002 };
    ErrorObject::new(code, format!("Resource not found: {uri}"))
        .with_data(RawJson::to_json(&json!({"uri": uri})).expect("JSON"))
}

async fn read_resource(server: &Arc<ServerShared>, params: Map<String, Value>, cx: Context) -> Outcome {
    let uri = required_str(&params, "uri", "resources/read")?.to_owned();
    let found = server.registry.read().unwrap().find_resource(&uri);
    let (handler, variables) = found.ok_or_else(|| resource_not_found(&uri, cx.is_modern()))?;
    let future = handler.read(uri.clone(), variables, cx.clone());
    let outcome = match run(server, &cx, "resources/read", &uri, future).await {
        Ran::Done(outcome) => outcome,
        Ran::InputRequired(input_required) => return Ok(input_required),
        Ran::Task(_) => unreachable!("only a tool call starts a task"),
    };
    match outcome {
        Ok(Value::Array(contents)) => Ok(json!({"contents": contents})),
        Ok(result) if result.get("contents").is_some_and(Value::is_array) => Ok(result),
        Ok(other) => Err(ErrorObject::internal(format!("Resource {uri} returned {other}, not contents"))),
        Err(error) => Err(handler_error(error, |m| format!("Reading {uri} failed: {m}"), cx.is_modern())),
    }
}

async fn get_prompt(server: &Arc<ServerShared>, mut params: Map<String, Value>, cx: Context) -> Outcome {
    let name = required_str(&params, "name", "prompts/get")?.to_owned();
    let entry = server.registry.read().unwrap().prompts.get(&name).cloned();
    let entry = entry.ok_or_else(|| ErrorObject::invalid_params(format!("Unknown prompt: {name}")))?;
    let arguments = object_param(&mut params, "arguments", "prompts/get")?;
    let missing: Vec<&str> =
        entry.required.iter().filter(|a| !arguments.contains_key(a.as_str())).map(String::as_str).collect();
    if !missing.is_empty() {
        return Err(ErrorObject::invalid_params(format!(
            "Invalid params: prompt {name} needs argument(s) {}",
            missing.join(", ")
        )));
    }
    let future = entry.handler.get(arguments, cx.clone());
    match run(server, &cx, "prompts/get", &name, future).await {
        Ran::InputRequired(input_required) => Ok(input_required),
        Ran::Done(Ok(result)) => Ok(result),
        Ran::Done(Err(error)) => Err(handler_error(error, |m| format!("Prompt {name} failed: {m}"), cx.is_modern())),
        Ran::Task(_) => unreachable!("only a tool call starts a task"),
    }
}

async fn complete(server: &Arc<ServerShared>, params: Map<String, Value>, cx: Context) -> Outcome {
    let handler = server.completion.read().unwrap().clone();
    let handler = handler.ok_or_else(|| ErrorObject::method_not_found("completion/complete"))?;
    if !params.get("ref").is_some_and(Value::is_object) || !params.get("argument").is_some_and(Value::is_object) {
        return Err(ErrorObject::invalid_params("Invalid params: completion/complete needs \"ref\" and \"argument\""));
    }
    let modern = cx.is_modern();
    handler
        .complete(params, cx)
        .await
        .map_err(|error| handler_error(error, |m| format!("Completion failed: {m}"), modern))
}

/// How a failed resource, prompt, listing or completion handler answers its request (a
/// tool's failure is a result instead; see [`call_tool`]).
fn handler_error(error: HandlerError, failed: impl FnOnce(String) -> String, modern: bool) -> ErrorObject {
    match error {
        HandlerError::Failed(message) => ErrorObject::internal(failed(message)),
        HandlerError::Rpc(error) => error,
        HandlerError::ResourceNotFound(uri) => resource_not_found(&uri, modern),
    }
}
