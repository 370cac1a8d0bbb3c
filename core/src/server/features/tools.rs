//! `tools/call`: argument validation against the tool's input schema, the handler run (MRTR
//! rounds on a modern request, or a task when the tool and the client agree on one), and
//! the result completed and checked against the output schema. A tool's failure is a
//! result with `isError` (the model sees it), never a JSON-RPC error.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::{Outcome, Ran, object_param, required_str, run};
use crate::protocol::{CallTool, RequestMethod};
use crate::server::ServerShared;
use crate::server::context::{Context, OwnCall};
use crate::server::handlers::{HandlerError, HandlerFuture};
use crate::server::registry::{Schema, ToolEntry};
use crate::server::tasks::{self, TaskEntry, TaskStart};
use crate::wire::ErrorObject;

pub(crate) async fn call_tool(server: &Arc<ServerShared>, mut params: Map<String, Value>, cx: Context) -> Outcome {
    let name = required_str(&params, "name", CallTool::METHOD)?.to_owned();
    let entry = server.registry.read().unwrap().tools.get(&name).cloned();
    let Some(entry) = entry else {
        let message = format!("Unknown tool: {name}");
        return match server.options.unknown_tool_is_result {
            true => Ok(error_result(message)),
            false => Err(ErrorObject::invalid_params(message)),
        };
    };
    let as_task = tasks::plan(entry.task_support, entry.task_start, &cx)?;
    let spec_task = tasks::spec::plan(entry.task_support, &name, &params, &cx)?;
    let request = spec_task.as_ref().map(|_| json!({"method": CallTool::METHOD, "params": params.clone()}));
    let arguments = object_param(&mut params, "arguments", CallTool::METHOD)?;
    let arguments = Value::Object(arguments);
    let input = entry.input.as_deref().filter(|input| !input.surely_accepts(&arguments));
    let problems: Vec<String> = match input.map(|input| input.validator()).transpose() {
        Ok(input) => input.iter().flat_map(|input| input.iter_errors(&arguments)).map(|e| describe(&e)).collect(),
        Err(problem) => vec![problem.to_owned()],
    };
    if !problems.is_empty() {
        let worded = match &entry.argument_wording {
            Some(word) => word(arguments).await,
            None => None,
        };
        let problems = worded.unwrap_or_else(|| problems.join("; "));
        return Ok(error_result(format!("Invalid arguments for tool {name}: {problems}")));
    }
    let Value::Object(arguments) = arguments else { unreachable!("checked above") };
    if entry.task_start == TaskStart::Handler {
        let ttl = spec_task.as_ref().and_then(|options| options.ttl);
        let as_task = spec_task.is_some();
        let request = request.unwrap_or_else(|| json!({"method": CallTool::METHOD, "params": params.clone()}));
        let own = OwnCall { request, ttl };
        let handler = entry.handler.clone();
        let modern = cx.is_modern();
        let call = async {
            let start = |cx| handler.call(arguments.clone(), cx);
            match run(server, &cx, CallTool::METHOD, &name, start).await {
                // Its CreateTaskResult, as it is; a failure as any tool's.
                Ran::Done(Ok(created)) => Ok(created),
                Ran::Done(failed) => tool_outcome(server, &entry, failed, modern, modern),
                Ran::InputRequired(_) | Ran::Task(_) => {
                    Err(ErrorObject::internal("A tool that makes its own tasks cannot ask for input by MRTR rounds"))
                }
            }
        };
        return tasks::spec::run_own(server, &cx, own, as_task, call).await;
    }
    if let (Some(options), Some(request)) = (spec_task, request) {
        let owner = server.clone();
        let work = move |cx: Context| -> crate::peer::BoxFuture<Outcome> {
            let future = entry.handler.call(arguments, cx);
            Box::pin(async move { tool_outcome(&owner, &entry, future.await, false, false) })
        };
        return tasks::spec::start(server, options, &cx, request, work).await;
    }
    match as_task {
        Some(TaskStart::AtCall) => {
            let task = server.tasks.create()?;
            cx.inner.task.set(task.clone());
            let modern = cx.is_modern();
            let future = entry.handler.call(arguments, cx);
            return Ok(hand_over(server, task, entry, future, modern));
        }
        Some(TaskStart::OnRequest) => cx.inner.task.allow_start(),
        // Served above (`plan` never gives it).
        Some(TaskStart::Handler) | None => {}
    }
    let handler = entry.handler.clone();
    let start = |cx| handler.call(arguments.clone(), cx);
    let outcome = match run(server, &cx, CallTool::METHOD, &name, start).await {
        Ran::Done(outcome) => outcome,
        Ran::InputRequired(input_required) => return Ok(input_required),
        Ran::Task(rest) => {
            let task = cx.inner.task.get().expect("a started task").clone();
            return Ok(hand_over(server, task, entry, rest, cx.is_modern()));
        }
    };
    match cx.inner.task.get() {
        // Started, and finished before it next waited: the task completes at once.
        Some(task) => Ok(hand_over(server, task.clone(), entry, Box::pin(std::future::ready(outcome)), cx.is_modern())),
        None => tool_outcome(server, &entry, outcome, cx.is_modern(), cx.is_modern()),
    }
}

/// Hands the rest of a tool call to its task, and answers the call with the task handle.
/// `modern`: the call came in a 2026-07-28 request (its result is shaped for that era).
fn hand_over(
    server: &Arc<ServerShared>,
    task: Arc<TaskEntry>,
    entry: Arc<ToolEntry>,
    rest: HandlerFuture,
    modern: bool,
) -> Value {
    let created = tasks::created(&task);
    let owner = server.clone();
    tasks::spawn(server.clone(), task, Box::pin(async move { tool_outcome(&owner, &entry, rest.await, true, modern) }));
    created
}

/// What a tool's handler outcome answers: a finished result (a failure is a result with
/// `isError`, which the model sees), or the JSON-RPC error the handler chose. `modern`
/// picks the resource-not-found code, `modern_result` the result's shape (SEP-2106).
fn tool_outcome(
    server: &ServerShared,
    entry: &ToolEntry,
    outcome: Result<Value, HandlerError>,
    modern: bool,
    modern_result: bool,
) -> Outcome {
    match outcome {
        Ok(result) => {
            let mirror = server.options.dialect.mirrors_structured_into_empty_content();
            let result = finish_tool_result(&entry.name, result, entry.output.as_deref(), mirror);
            let mut result = project_structured(result, !modern_result && entry.legacy_listed.is_some(), modern_result);
            if let (Value::Object(map), true) = (&mut result, server.options.dialect.states_tool_success()) {
                map.entry("isError").or_insert(Value::Bool(false));
            }
            Ok(result)
        }
        Err(HandlerError::Unexpected(message))
            if server.options.tool_error_names_tool
                && server.options.dialect.withholds_crash_text(server.options.python_v1) =>
        {
            // The crash's own text stays on the server, as the official Python SDK 2.x
            // keeps it (logged there with its traceback).
            tracing::warn!("tool {} raised an unexpected exception: {message}", entry.name);
            Ok(error_result(format!("Error executing tool {}", entry.name)))
        }
        Err(HandlerError::Failed(message) | HandlerError::Unexpected(message))
            if server.options.tool_error_names_tool =>
        {
            Ok(error_result(format!("Error executing tool {}: {message}", entry.name)))
        }
        Err(HandlerError::Failed(message) | HandlerError::Unexpected(message)) => Ok(error_result(message)),
        Err(HandlerError::Rpc(error))
            if server.options.python_v1 && server.options.dialect.v1_tool_error_is_result(&error) =>
        {
            Ok(error_result(format!("Error executing tool {}: {}", entry.name, error.message)))
        }
        Err(HandlerError::Rpc(error)) => Err(error),
        Err(HandlerError::ResourceNotFound(uri)) => Err(server.options.dialect.resource_not_found(&uri, modern)),
        Err(HandlerError::ResourceNotFoundSaying { uri, message }) => {
            Err(server.options.dialect.resource_not_found(&uri, modern).with_message(message))
        }
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
/// text when the tool gave no content (`mirror`: the dialect's choice), and checked
/// against the output schema.
fn finish_tool_result(name: &str, mut result: Value, output: Option<&Schema>, mirror: bool) -> Value {
    let Value::Object(map) = &mut result else {
        return error_result(format!("Tool {name} returned {result}, not a result object"));
    };
    let is_error = map.get("isError") == Some(&Value::Bool(true));
    if let (Some(schema), false) = (output, is_error) {
        let Some(structured) = map.get("structuredContent") else {
            return error_result(format!("Tool {name} has an output schema but returned no structured content"));
        };
        let problems: Vec<String> = if schema.surely_accepts(structured) {
            Vec::new()
        } else {
            match schema.validator() {
                Ok(schema) => schema.iter_errors(structured).map(|e| describe(&e)).collect(),
                Err(problem) => vec![problem.to_owned()],
            }
        };
        if !problems.is_empty() {
            return error_result(format!("Output of tool {name} does not match its schema: {}", problems.join("; ")));
        }
    }
    let empty = map.get("content").and_then(Value::as_array).is_none_or(Vec::is_empty);
    if empty {
        let content = match map.get("structuredContent").filter(|_| mirror) {
            Some(structured) => json!([{"type": "text", "text": structured.to_string()}]),
            None => json!([]),
        };
        map.insert("content".into(), content);
    }
    result
}

/// SEP-2106, as the official TypeScript SDK shapes a result after checking it: a
/// `structuredContent` that is not an object (an array, a string, a number, `true`, `null`)
/// gets a text rendering appended when the tool wrote no text block (every era); toward a
/// 2025-era client, whose revision allows only an object there, it goes out as
/// `{"result": value}`, as does any value of a tool whose output schema was listed wrapped
/// (`schema_wrapped`).
fn project_structured(mut result: Value, schema_wrapped: bool, modern: bool) -> Value {
    let Value::Object(map) = &mut result else { return result };
    let Some(structured) = map.get("structuredContent") else { return result };
    let natural = !structured.is_object();
    if natural {
        let text = structured.to_string();
        let has_text = map
            .get("content")
            .and_then(Value::as_array)
            .is_some_and(|blocks| blocks.iter().any(|block| block.get("type") == Some(&json!("text"))));
        if !has_text {
            match map.get_mut("content") {
                Some(Value::Array(blocks)) => blocks.push(json!({"type": "text", "text": text})),
                _ => {
                    map.insert("content".into(), json!([{"type": "text", "text": text}]));
                }
            }
        }
    }
    if !modern && (natural || schema_wrapped) {
        let structured = map.remove("structuredContent").unwrap_or(Value::Null);
        map.insert("structuredContent".into(), json!({ "result": structured }));
    }
    result
}
