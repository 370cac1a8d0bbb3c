//! The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663, 2026-07-28 only): a
//! `tools/call` answered with a task handle (`resultType: "task"`) while its handler runs
//! on, then polled with `tasks/get`, fed input with `tasks/update`, stopped with
//! `tasks/cancel`.
//!
//! A task is a way of delivering a tool's result, not a second kind of handler: the tool's
//! own handler runs, and a tool takes part by declaring `execution.taskSupport` in its
//! definition (`forbidden`, the default; `optional`; `required`). The server creates a
//! task only for a request whose client capabilities name the extension; otherwise an
//! `optional` tool runs synchronously and a `required` one is refused with -32021.
//!
//! Where the task starts is the tool's [`TaskStart`]: as the call arrives (the handler's
//! input then goes through the task: `tasks/get` shows it, `tasks/update` answers it), or
//! when the handler calls [`Context::start_task`](super::Context::start_task) after
//! gathering input by MRTR rounds on the call itself (the composition SEP-2663 describes).

mod calling;
mod clock;
pub(crate) mod spec;
mod spec_store;
mod store;

pub use calling::{CallingTaskStore, TaskStoreCall, TaskStoreOperation};
pub use spec::{RequestTaskStore, SpecTask, check_task_mode};
pub use spec_store::{CreateTaskOptions, InMemoryTaskStore, TaskPage, TaskStore, is_terminal};
pub use store::TaskOptions;
pub(crate) use store::{TaskEntry, TaskTable};

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures_util::FutureExt;
use serde_json::{Map, Value, json};

use super::ServerShared;
use super::context::Context;
use super::features::stamp::stamp;
use crate::peer::BoxFuture;
use crate::protocol::errors::missing_required_client_capability;
use crate::wire::ErrorObject;

pub use crate::protocol::TASKS_EXTENSION as EXTENSION;

type Outcome = Result<Value, ErrorObject>;

/// How a tool takes part in tasks: its definition's `execution.taskSupport`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TaskSupport {
    /// Never run as a task (also when the definition says nothing).
    #[default]
    Forbidden,
    /// Run as a task when the client accepts tasks, synchronously otherwise.
    Optional,
    /// Only run as a task: a client that does not accept tasks gets -32021.
    Required,
}

impl TaskSupport {
    /// Reads `execution.taskSupport` from a tool definition.
    pub(crate) fn of(definition: &Map<String, Value>) -> Result<Self, String> {
        match definition.get("execution").map(|execution| execution.get("taskSupport")) {
            None | Some(None) => Ok(Self::Forbidden),
            Some(Some(Value::String(value))) if value == "forbidden" => Ok(Self::Forbidden),
            Some(Some(Value::String(value))) if value == "optional" => Ok(Self::Optional),
            Some(Some(Value::String(value))) if value == "required" => Ok(Self::Required),
            Some(Some(other)) => {
                Err(format!("execution.taskSupport must be \"forbidden\", \"optional\" or \"required\", not {other}"))
            }
        }
    }
}

/// When a call of a task-supporting tool becomes a task.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TaskStart {
    /// As the call arrives: the client gets the task at once and the handler runs in it.
    #[default]
    AtCall,
    /// When the handler calls [`Context::start_task`](super::Context::start_task). Until
    /// then it runs inside the call, its input goes by MRTR rounds, and a handler that
    /// finishes without starting the task answers the call synchronously.
    OnRequest,
    /// The handler makes the task itself, with the request's
    /// [`RequestTaskStore`](super::Context::task_store), and returns its `CreateTaskResult`
    /// (2025-11-25 tasks; the official v1 `registerToolTask`). Not a task of the tasks
    /// extension: a 2026-07-28 call waits for the task it made and answers its result.
    Handler,
}

/// Whether this request's client accepts tasks: a 2026-07-28 request whose
/// `clientCapabilities.extensions` names the extension.
pub(crate) fn accepted(cx: &Context) -> bool {
    cx.is_modern() && cx.client_capabilities().get("extensions").and_then(|e| e.get(EXTENSION)).is_some()
}

/// -32021 naming the extension.
pub(crate) fn extension_required() -> ErrorObject {
    let required = serde_json::from_value(json!({"extensions": {EXTENSION: {}}})).expect("valid capabilities");
    missing_required_client_capability(required)
}

/// How a call of a tool with `support` runs for this request: `None` synchronously,
/// `Some(start)` as a task. A `required` tool and a client that does not accept tasks
/// cannot meet: -32021.
pub(crate) fn plan(support: TaskSupport, start: TaskStart, cx: &Context) -> Result<Option<TaskStart>, ErrorObject> {
    if start == TaskStart::Handler {
        return Ok(None);
    }
    match (support, accepted(cx)) {
        (TaskSupport::Forbidden, _) => Ok(None),
        (_, true) => Ok(Some(start)),
        (TaskSupport::Optional, false) => Ok(None),
        (TaskSupport::Required, false) if cx.is_modern() => Err(extension_required()),
        // The extension does not exist before 2026-07-28: a legacy session runs it as any
        // other tool.
        (TaskSupport::Required, false) => Ok(None),
    }
}

/// The `CreateTaskResult` for a task just created: the task's members, flat, and an empty
/// `content`. The handle answers `tools/call`, and the 2026-07-28 core schema (which does
/// not know the extension's result type) requires `content` on every `tools/call` result;
/// the extension's schema allows extra members, so the handle is valid under both, and a
/// reader that goes by the core schema sees a call with no content rather than a broken
/// one.
pub(crate) fn created(task: &TaskEntry) -> Value {
    let mut result = task.task();
    result.insert("resultType".into(), json!("task"));
    result.insert("content".into(), json!([]));
    Value::Object(result)
}

/// Runs the rest of a tool call as the task's work: the outcome (a finished
/// `CallToolResult`, or the JSON-RPC error the call would have answered) lands in the
/// task, unless `tasks/cancel` (or expiry) stops the work first. A panic fails the task.
pub(crate) fn spawn(server: Arc<ServerShared>, task: Arc<TaskEntry>, work: BoxFuture<Outcome>) {
    tokio::spawn(async move {
        let outcome = tokio::select! {
            outcome = AssertUnwindSafe(work).catch_unwind() => outcome
                .unwrap_or_else(|_| Err(ErrorObject::internal("The tool panicked while running as a task"))),
            () = task.cancel.cancelled() => return,
        };
        let outcome = outcome.map(|mut result| {
            stamp(&server, None, result.as_object_mut());
            result
        });
        if task.finish(outcome) {
            super::notify::task_changed(&server, &task);
        }
    });
}

/// Serves `tasks/get`, `tasks/update` or `tasks/cancel` (2026-07-28, for clients that
/// accept tasks; the removed `tasks/result` and `tasks/list` never get here): finds the
/// task the request names and hands it to `op` (the router picks it by method).
pub(crate) fn serve(
    server: &ServerShared,
    method: &str,
    params: &Map<String, Value>,
    cx: &Context,
    op: fn(&ServerShared, &Map<String, Value>, Arc<TaskEntry>) -> Outcome,
) -> Outcome {
    if !cx.is_modern() {
        return Err(ErrorObject::method_not_found(method));
    }
    if !accepted(cx) {
        return Err(extension_required());
    }
    let id = params.get("taskId").and_then(Value::as_str);
    let id =
        id.ok_or_else(|| ErrorObject::invalid_params(format!("Invalid params: {method} needs a string \"taskId\"")))?;
    let task = server.tasks.get(id).ok_or_else(|| ErrorObject::invalid_params(format!("Task not found: {id}")))?;
    op(server, params, task)
}

/// `tasks/get`: the task as it stands.
pub(crate) fn get(_: &ServerShared, _: &Map<String, Value>, task: Arc<TaskEntry>) -> Outcome {
    Ok(Value::Object(task.detailed()))
}

/// `tasks/update`: the client's answers to the task's input requests.
pub(crate) fn update(server: &ServerShared, params: &Map<String, Value>, task: Arc<TaskEntry>) -> Outcome {
    let responses = params.get("inputResponses").and_then(Value::as_object);
    let responses = responses.ok_or_else(|| {
        ErrorObject::invalid_params("Invalid params: tasks/update needs an \"inputResponses\" object")
    })?;
    if task.answer(responses)? {
        super::notify::task_changed(server, &task);
    }
    Ok(json!({}))
}

/// `tasks/cancel`: stops the task's work.
pub(crate) fn cancel(server: &ServerShared, _: &Map<String, Value>, task: Arc<TaskEntry>) -> Outcome {
    if task.cancel("Cancelled at the client's request") {
        super::notify::task_changed(server, &task);
    }
    Ok(json!({}))
}
