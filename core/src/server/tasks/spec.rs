//! Tasks as the 2025-11-25 revision defines them in the core protocol (experimental there),
//! served on a legacy session that negotiated that revision: a `tools/call` whose params
//! carry `task: {ttl}` is answered at once with `CreateTaskResult` (`{task}`) while the
//! tool's handler runs on; the client polls `tasks/get`, waits on `tasks/result` (the
//! tool's result, with `_meta["io.modelcontextprotocol/related-task"]`), lists with
//! `tasks/list` and stops with `tasks/cancel`; each status change is sent as
//! `notifications/tasks/status`.
//!
//! The tasks are kept behind [`TaskStore`] (an application's, or [`InMemoryTaskStore`]);
//! what runs stays here: each running task's cancellation token, and a wake-up for the
//! `tasks/result` requests waiting on a change. A change made elsewhere (another replica,
//! the application writing its own store) is seen at the task's `pollInterval`.
//!
//! A tool's `execution.taskSupport` decides, as in the official SDKs: `forbidden` (the
//! default) runs the call as usual even when it asks for a task; `optional` runs as a task
//! when asked, as usual otherwise; `required` refuses a call that does not ask with -32601.
//! While the handler waits on the client (`elicit`, `sample`, `list_roots`) the task is
//! `input_required`, and the request goes on the session's own channel with the
//! related-task `_meta`, since the call that started it has been answered.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use futures_util::FutureExt;
use serde_json::{Map, Value, json};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::TaskSupport;
use super::spec_store::{CreateTaskOptions, InMemoryTaskStore, TaskStore, is_terminal};
use crate::peer::BoxFuture;
use crate::protocol::meta::RELATED_TASK;
use crate::protocol::{ProtocolVersion, ServerCapabilities, TaskStatus};
use crate::server::ServerShared;
use crate::server::context::Context;
use crate::wire::ErrorObject;

type Outcome = Result<Value, ErrorObject>;

/// The 2025-11-25 tasks of one server: the store, and what runs.
pub(crate) struct SpecTasks {
    store: RwLock<Arc<dyn TaskStore>>,
    running: Mutex<HashMap<String, CancellationToken>>,
    changed: Notify,
}

impl Default for SpecTasks {
    fn default() -> Self {
        Self {
            store: RwLock::new(Arc::new(InMemoryTaskStore::new())),
            running: Default::default(),
            changed: Notify::new(),
        }
    }
}

impl SpecTasks {
    pub fn store(&self) -> Arc<dyn TaskStore> {
        self.store.read().unwrap().clone()
    }

    pub fn set_store(&self, store: Arc<dyn TaskStore>) {
        *self.store.write().unwrap() = store;
    }

    fn changed(&self) {
        self.changed.notify_waiters();
    }
}

/// Whether this request came on a session whose revision has core tasks.
fn serves(cx: &Context) -> bool {
    !cx.is_modern() && ProtocolVersion::parse(cx.protocol_version()).is_some_and(ProtocolVersion::has_core_tasks)
}

/// The store's session key: the session's number.
fn session_key(cx: &Context) -> Option<String> {
    cx.session().map(|session| session.id().to_string())
}

/// How a `tools/call` of a tool with `support` runs: `Some(options)` as a task, `None` as
/// usual. A `required` tool called without `task` on a 2025-11-25 session is -32601.
pub(crate) fn plan(
    support: TaskSupport,
    name: &str,
    params: &Map<String, Value>,
    cx: &Context,
) -> Result<Option<CreateTaskOptions>, ErrorObject> {
    if !serves(cx) {
        return Ok(None);
    }
    let requested = params.get("task").filter(|task| task.is_object());
    match (support, requested) {
        (TaskSupport::Forbidden, _) => Ok(None),
        (TaskSupport::Required, None) => {
            Err(ErrorObject::new(-32601, format!("Tool {name} requires task augmentation (taskSupport: 'required')")))
        }
        (TaskSupport::Optional, None) => Ok(None),
        (_, Some(task)) => {
            let ttl = task.get("ttl").and_then(Value::as_u64);
            Ok(Some(CreateTaskOptions { ttl, poll_interval: None }))
        }
    }
}

/// Creates the task for this call, runs `work` (the rest of the call, under the returned
/// context) in the background, and answers `CreateTaskResult`.
pub(crate) async fn start(
    server: &Arc<ServerShared>,
    options: CreateTaskOptions,
    cx: &Context,
    request: Value,
    work: impl FnOnce(Context) -> BoxFuture<Outcome>,
) -> Outcome {
    let store = server.spec_tasks.store();
    let session = session_key(cx);
    let request_id = serde_json::to_value(cx.request_id()).unwrap_or(Value::Null);
    let task = store.create_task(options, request_id, request, session.clone()).await?;
    let id = task.task_id.clone();
    let token = CancellationToken::new();
    server.spec_tasks.running.lock().unwrap().insert(id.clone(), token.clone());
    let task_cx = cx.for_spec_task(id.clone(), token.clone());
    let work = work(task_cx.clone());
    let owner = server.clone();
    tokio::spawn(async move {
        let outcome = tokio::select! {
            outcome = AssertUnwindSafe(work).catch_unwind() => outcome
                .unwrap_or_else(|_| Err(ErrorObject::internal("The tool panicked while running as a task"))),
            () = token.cancelled() => return,
        };
        let (status, result) = match outcome {
            Ok(result) => (TaskStatus::Completed, result),
            Err(error) => (TaskStatus::Failed, failed_result(&error)),
        };
        // A task cancelled (or expired) meanwhile refuses the result: it stays as it is.
        let stored = store.store_task_result(id.clone(), status, result, session.clone()).await;
        owner.spec_tasks.running.lock().unwrap().remove(&id);
        // Announced before the waiting `tasks/result` requests wake, so the client hears
        // the status no later than it gets the result on the same channel.
        if stored.is_ok() {
            announce(&task_cx, &store, &id).await;
        }
        owner.spec_tasks.changed();
    });
    Ok(json!({"task": task}))
}

/// What a task whose call ended in a JSON-RPC error keeps as its result: that error as a
/// failed tool result, as the official task stores keep a failure.
fn failed_result(error: &ErrorObject) -> Value {
    json!({"content": [{"type": "text", "text": error.message}], "isError": true})
}

/// Sends the task's state as `notifications/tasks/status` on its session.
async fn announce(cx: &Context, store: &Arc<dyn TaskStore>, id: &str) {
    let Some(session) = cx.session() else { return };
    if let Ok(Some(task)) = store.get_task(id.to_owned(), session_key(cx)).await {
        let params = serde_json::to_value(task).expect("a task serialises");
        let _ = session.notify("notifications/tasks/status", params).await;
    }
}

/// Marks the task `input_required` while its handler waits on the client; back to
/// `working` after, unless it ended meanwhile.
pub(crate) async fn waiting_on_client(cx: &Context, id: &str, waiting: bool) {
    let server = &cx.inner.server;
    let store = server.spec_tasks.store();
    let status = if waiting { TaskStatus::InputRequired } else { TaskStatus::Working };
    let updated = store.update_task_status(id.to_owned(), status, None, session_key(cx)).await;
    if updated.is_ok() {
        announce(cx, &store, id).await;
    }
    server.spec_tasks.changed();
}

/// Adds the related-task `_meta` to a request a task's handler sends.
pub(crate) fn relate(params: &mut Value, id: &str) {
    if let Value::Object(params) = params {
        let meta = params.entry("_meta").or_insert_with(|| json!({}));
        if let Value::Object(meta) = meta {
            meta.insert(RELATED_TASK.into(), json!({"taskId": id}));
        }
    }
}

/// Serves `tasks/get`, `tasks/result`, `tasks/list` or `tasks/cancel` on a 2025-11-25
/// session (-32601 on any other).
pub(crate) async fn serve(
    server: &Arc<ServerShared>,
    method: &str,
    params: &Map<String, Value>,
    cx: &Context,
) -> Outcome {
    if !serves(cx) {
        return Err(server.options.dialect.method_not_found(method));
    }
    let store = server.spec_tasks.store();
    let session = session_key(cx);
    if method == "tasks/list" {
        let cursor = params.get("cursor").and_then(Value::as_str).map(str::to_owned);
        let page = store.list_tasks(cursor, session).await?;
        let mut result = json!({"tasks": page.tasks});
        if let Some(cursor) = page.next_cursor {
            result["nextCursor"] = json!(cursor);
        }
        return Ok(result);
    }
    let id = params.get("taskId").and_then(Value::as_str);
    let id =
        id.ok_or_else(|| ErrorObject::invalid_params(format!("Invalid params: {method} needs a string \"taskId\"")))?;
    match method {
        "tasks/get" => Ok(serde_json::to_value(found(&store, id, &session).await?).expect("a task serialises")),
        "tasks/result" => result(server, &store, id, &session).await,
        _ => cancel(server, &store, id, cx).await,
    }
}

async fn found(
    store: &Arc<dyn TaskStore>,
    id: &str,
    session: &Option<String>,
) -> Result<crate::protocol::Task, ErrorObject> {
    let task = store.get_task(id.to_owned(), session.clone()).await?;
    task.ok_or_else(|| ErrorObject::invalid_params(format!("Task not found: {id}")))
}

/// `tasks/result`: waits until the task ends, then answers its result with the
/// related-task `_meta`.
async fn result(server: &ServerShared, store: &Arc<dyn TaskStore>, id: &str, session: &Option<String>) -> Outcome {
    loop {
        let changed = server.spec_tasks.changed.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        let task = found(store, id, session).await?;
        if is_terminal(task.status) {
            let mut result = store.get_task_result(id.to_owned(), session.clone()).await?;
            relate(&mut result, id);
            return Ok(result);
        }
        let poll =
            Duration::from_millis(task.poll_interval.unwrap_or(super::spec_store::DEFAULT_POLL_INTERVAL_MS).max(10));
        tokio::select! {
            () = changed => {}
            () = tokio::time::sleep(poll) => {}
        }
    }
}

/// `tasks/cancel`: a task not yet ended becomes `cancelled` and its handler is stopped.
async fn cancel(server: &ServerShared, store: &Arc<dyn TaskStore>, id: &str, cx: &Context) -> Outcome {
    let session = session_key(cx);
    let task = found(store, id, &session).await?;
    if is_terminal(task.status) {
        let status = serde_json::to_value(task.status).unwrap_or_default();
        return Err(ErrorObject::invalid_params(format!("Cannot cancel task in terminal status: {status}")));
    }
    let message = Some("Client cancelled task execution.".to_owned());
    store.update_task_status(id.to_owned(), TaskStatus::Cancelled, message, session.clone()).await?;
    if let Some(token) = server.spec_tasks.running.lock().unwrap().remove(id) {
        token.cancel();
    }
    server.spec_tasks.changed();
    announce(cx, store, id).await;
    Ok(serde_json::to_value(found(store, id, &session).await?).expect("a task serialises"))
}

/// Declares `tasks` to a 2025-11-25 session of a server with a task-supporting tool
/// (`list`, `cancel`, and task-augmented `tools/call`), unless the author declared it.
pub(crate) fn declare(server: &ServerShared, version: ProtocolVersion, capabilities: &mut ServerCapabilities) {
    if !version.has_core_tasks() || capabilities.tasks.is_some() {
        return;
    }
    let registry = server.registry.read().unwrap();
    if registry.tools.values().any(|tool| tool.task_support != TaskSupport::Forbidden) {
        let tasks = json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}});
        capabilities.tasks = tasks.as_object().cloned();
    }
}
