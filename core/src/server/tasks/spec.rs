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
//! A tool registered with [`TaskStart::Handler`](super::TaskStart::Handler) makes its tasks
//! itself, as the official v1 `registerToolTask` does: its handler gets the request's
//! [`RequestTaskStore`] (`createTask`, `storeTaskResult`, ...), and what it returns (a
//! `CreateTaskResult`) answers a task-augmented call as it is; a call without `task` of an
//! `optional` one waits for the task it made to end and answers that task's result.
//!
//! A tool's `execution.taskSupport` decides, as in the official SDKs: `forbidden` (the
//! default) runs the call as usual even when it asks for a task; `optional` runs as a task
//! when asked, as usual otherwise; `required` refuses a call that does not ask with -32601.
//! While the handler waits on the client (`elicit`, `sample`, `list_roots`) the task is
//! `input_required`, and the request goes on the session's own channel with the
//! related-task `_meta`, since the call that started it has been answered.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use futures_util::FutureExt;
use serde_json::{Map, Value, json};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::TaskSupport;
use super::spec_store::{CreateTaskOptions, InMemoryTaskStore, TaskPage, TaskStore, is_terminal};
use crate::peer::BoxFuture;
use crate::protocol::Task;
use crate::protocol::meta::RELATED_TASK;
use crate::protocol::{ProtocolVersion, ServerCapabilities, TaskStatus};
use crate::server::context::Context;
use crate::server::context::OwnCall;
use crate::server::{Outbound, ServerSession, ServerShared};
use crate::wire::ErrorObject;

type Outcome = Result<Value, ErrorObject>;

/// A waiting `tasks/result` request's way back, with its waiter's key.
type ResultStream = (u64, Arc<dyn Outbound>);

/// The 2025-11-25 tasks of one server: the store, and what runs.
pub(crate) struct SpecTasks {
    store: RwLock<Arc<dyn TaskStore>>,
    running: Mutex<HashMap<String, CancellationToken>>,
    changed: Notify,
    /// Declared whatever the tools say: the server's own handlers start the tasks
    /// ([`crate::server::Server::enable_spec_tasks`]).
    enabled: AtomicBool,
    /// For each task, the ways back of the `tasks/result` requests waiting on it: a
    /// request the task's handler sends goes on one of them (as the official SDK's task
    /// message queue delivers it), else on the session's own channel.
    waiting: Mutex<HashMap<String, Vec<ResultStream>>>,
    next_waiter: AtomicU64,
}

impl Default for SpecTasks {
    fn default() -> Self {
        Self {
            store: RwLock::new(Arc::new(InMemoryTaskStore::new())),
            running: Default::default(),
            changed: Notify::new(),
            enabled: AtomicBool::new(false),
            waiting: Default::default(),
            next_waiter: AtomicU64::new(0),
        }
    }
}

impl SpecTasks {
    pub fn store(&self) -> Arc<dyn TaskStore> {
        self.store.read().unwrap().clone()
    }

    /// The HTTP session `session` has ended for good: the store forgets the tasks only it
    /// could reach that would never expire ([`TaskStore::forget_session`]), and their
    /// handlers are stopped, so a client that goes away leaves nothing behind.
    pub(crate) fn session_ended(&self, session: &str) {
        let gone = self.store().forget_session(session);
        for id in &gone {
            if let Some(token) = self.running.lock().unwrap().remove(id) {
                token.cancel();
            }
            self.waiting.lock().unwrap().remove(id);
        }
        if !gone.is_empty() {
            self.changed();
        }
    }

    pub fn set_store(&self, store: Arc<dyn TaskStore>) {
        *self.store.write().unwrap() = store;
    }

    fn changed(&self) {
        self.changed.notify_waiters();
    }

    pub fn enable(&self) {
        self.enabled.store(true, Ordering::Relaxed);
    }

    /// The way back of a `tasks/result` request waiting on task `id`, if one waits.
    pub(crate) fn result_stream(&self, id: &str) -> Option<Arc<dyn Outbound>> {
        let waiting = self.waiting.lock().unwrap();
        waiting
            .get(id)
            .and_then(|ways| ways.iter().rev().find(|(_, way)| way.can_request()))
            .map(|(_, way)| way.clone())
    }
}

/// A `tasks/result` request waiting on a task, its way back listed for the task's requests
/// while it waits.
struct Waiter<'a> {
    tasks: &'a SpecTasks,
    id: String,
    key: u64,
}

impl<'a> Waiter<'a> {
    fn new(tasks: &'a SpecTasks, id: &str, way: Arc<dyn Outbound>) -> Self {
        let key = tasks.next_waiter.fetch_add(1, Ordering::Relaxed);
        tasks.waiting.lock().unwrap().entry(id.to_owned()).or_default().push((key, way));
        Self { tasks, id: id.to_owned(), key }
    }
}

impl Drop for Waiter<'_> {
    fn drop(&mut self) {
        let mut waiting = self.tasks.waiting.lock().unwrap();
        if let Some(ways) = waiting.get_mut(&self.id) {
            ways.retain(|(key, _)| *key != self.key);
            if ways.is_empty() {
                waiting.remove(&self.id);
            }
        }
    }
}

/// Whether this request came on a session whose revision has core tasks.
fn serves(cx: &Context) -> bool {
    !cx.is_modern()
        && cx.inner.server.options.revision_of(cx.protocol_version()).is_some_and(ProtocolVersion::has_core_tasks)
}

/// The store's session key: the transport's session id (Streamable HTTP's
/// `Mcp-Session-Id`), as the official SDK gives its task store; `None` without one (stdio,
/// stateless HTTP), as there.
fn session_key(cx: &Context) -> Option<String> {
    cx.session().and_then(ServerSession::transport_session_id)
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
    let (created, task) = begin(server, options, cx, request).await?;
    let work = work(task.context().clone());
    let token = task.token.clone();
    tokio::spawn(async move {
        let outcome = tokio::select! {
            outcome = AssertUnwindSafe(work).catch_unwind() => outcome
                .unwrap_or_else(|_| Err(ErrorObject::internal("The tool panicked while running as a task"))),
            () = token.cancelled() => return,
        };
        let _ = task.finish(outcome).await;
    });
    Ok(created)
}

/// Creates the task for this call in the store and registers it as running; the
/// `CreateTaskResult` to answer the call with, and the task's handle.
async fn begin(
    server: &Arc<ServerShared>,
    options: CreateTaskOptions,
    cx: &Context,
    request: Value,
) -> Result<(Value, SpecTask), ErrorObject> {
    let store = server.spec_tasks.store();
    let session = session_key(cx);
    let request_id = serde_json::to_value(cx.request_id()).unwrap_or(Value::Null);
    let task = store.create_task(options, request_id, request, session.clone()).await?;
    let id = task.task_id.clone();
    let token = CancellationToken::new();
    server.spec_tasks.running.lock().unwrap().insert(id.clone(), token.clone());
    let cx = cx.for_spec_task(id.clone(), token.clone());
    let handle = SpecTask { server: server.clone(), store, id, session, cx, token };
    Ok((json!({"task": task}), handle))
}

/// Runs the rest of a request as a 2025-11-25 task that the server's own handler drives
/// (the official Python SDK's `ctx.experimental.run_task`): the task is created from the
/// request's `task` params (its `ttl`), and the handler answers the request with the
/// returned `CreateTaskResult` while it works on under [`SpecTask::context`], then ends it
/// with [`SpecTask::finish`]. Refused with -32601 where the session has no core tasks.
pub(crate) async fn begin_for_handler(
    cx: &Context,
    task: &Map<String, Value>,
) -> Result<(Value, SpecTask), ErrorObject> {
    if !serves(cx) {
        return Err(ErrorObject::new(
            -32601,
            "Tasks are not served on this session (the 2025-11-25 revision has them)",
        ));
    }
    let server = cx.inner.server.clone();
    let options = CreateTaskOptions { ttl: task.get("ttl").and_then(Value::as_u64), poll_interval: None };
    let request = json!({"method": "tools/call", "params": {"task": task}});
    begin(&server, options, cx, request).await
}

/// The official Python SDK's `validate_task_mode`: the refusal of a call whose `task`
/// params (`requested`) do not fit its tool's `support`, or `None` when it fits.
pub fn check_task_mode(support: TaskSupport, requested: bool) -> Option<ErrorObject> {
    match (support, requested) {
        (TaskSupport::Required, false) => {
            Some(ErrorObject::new(-32601, "This tool requires task-augmented invocation"))
        }
        (TaskSupport::Forbidden, true) => {
            Some(ErrorObject::new(-32601, "This tool does not support task-augmented invocation"))
        }
        _ => None,
    }
}

/// A 2025-11-25 task a handler runs: its status, its end, and its cancellation.
pub struct SpecTask {
    server: Arc<ServerShared>,
    store: Arc<dyn TaskStore>,
    id: String,
    session: Option<String>,
    cx: Context,
    token: CancellationToken,
}

impl SpecTask {
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The context the task's work runs under (the request's, stopped by the task's
    /// cancellation, reaching the client through the session).
    pub fn context(&self) -> &Context {
        &self.cx
    }

    /// Resolves when the task is cancelled (`tasks/cancel`).
    pub async fn cancelled(&self) {
        self.token.cancelled().await;
    }

    pub fn is_cancelled(&self) -> bool {
        self.token.is_cancelled()
    }

    /// The task as the store has it now.
    pub async fn task(&self) -> Result<crate::protocol::Task, ErrorObject> {
        found(&self.store, &self.id, &self.session).await
    }

    /// Keeps the task `working` with `message` as its status message, and tells the
    /// client when `notify`.
    pub async fn update_status(&self, message: String, notify: bool) -> Result<(), ErrorObject> {
        let store = &self.store;
        store.update_task_status(self.id.clone(), TaskStatus::Working, Some(message), self.session.clone()).await?;
        if notify {
            announce(&self.cx, store, &self.id).await;
        }
        self.server.spec_tasks.changed();
        Ok(())
    }

    /// Ends the task with `outcome`: `completed` with a result, `failed` with an error
    /// (kept as a failed tool result). A task cancelled or expired meanwhile stays as it
    /// is (the store refuses the result, answered here).
    pub async fn finish(&self, outcome: Outcome) -> Result<(), ErrorObject> {
        let (status, result) = match outcome {
            Ok(result) => (TaskStatus::Completed, result),
            Err(error) => (TaskStatus::Failed, failed_result(&error)),
        };
        let stored = self.store.store_task_result(self.id.clone(), status, result, self.session.clone()).await;
        self.server.spec_tasks.running.lock().unwrap().remove(&self.id);
        // Announced before the waiting `tasks/result` requests wake, so the client hears
        // the status no later than it gets the result on the same channel.
        if stored.is_ok() {
            announce(&self.cx, &self.store, &self.id).await;
        }
        self.server.spec_tasks.changed();
        stored
    }
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
        "tasks/result" => result(server, &store, id, cx).await,
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
async fn result(server: &ServerShared, store: &Arc<dyn TaskStore>, id: &str, cx: &Context) -> Outcome {
    let session = &session_key(cx);
    let _waiter = Waiter::new(&server.spec_tasks, id, cx.inner.outbound.clone());
    wait_for_end(server, store, id, session).await.map(|mut result| {
        relate(&mut result, id);
        result
    })
}

/// Waits until task `id` ends (woken by a change here, or at the task's `pollInterval`
/// for a change made elsewhere), then gives its stored result.
async fn wait_for_end(
    server: &ServerShared,
    store: &Arc<dyn TaskStore>,
    id: &str,
    session: &Option<String>,
) -> Outcome {
    loop {
        let changed = server.spec_tasks.changed.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        let task = found(store, id, session).await?;
        if is_terminal(task.status) {
            return store.get_task_result(id.to_owned(), session.clone()).await;
        }
        let poll =
            Duration::from_millis(task.poll_interval.unwrap_or(super::spec_store::DEFAULT_POLL_INTERVAL_MS).max(10));
        tokio::select! {
            () = changed => {}
            () = tokio::time::sleep(poll) => {}
        }
    }
}

/// Resolves when task `id` has ended (or is gone: expired, or its store refuses it),
/// as `tasks/result` waits for it.
pub(crate) async fn ended(cx: &Context, id: &str) {
    let server = &cx.inner.server;
    let (store, session) = (server.spec_tasks.store(), session_key(cx));
    loop {
        let changed = server.spec_tasks.changed.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        let task = match found(&store, id, &session).await {
            Ok(task) if !is_terminal(task.status) => task,
            _ => return,
        };
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
    let enabled = server.spec_tasks.enabled.load(Ordering::Relaxed);
    if enabled || registry.tools.values().any(|tool| tool.task_support != TaskSupport::Forbidden) {
        let tasks = json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}});
        capabilities.tasks = tasks.as_object().cloned();
    }
}

/// The 2025-11-25 task store as a request's handler uses it (the official v1
/// `extra.taskStore`): scoped to the request's session, a task it creates is the request's,
/// and each change it makes is announced as `notifications/tasks/status` and wakes the
/// `tasks/result` requests waiting on it.
#[derive(Clone)]
pub struct RequestTaskStore {
    cx: Context,
}

impl RequestTaskStore {
    pub(crate) fn new(cx: Context) -> Self {
        Self { cx }
    }

    fn store(&self) -> Arc<dyn TaskStore> {
        self.cx.inner.server.spec_tasks.store()
    }

    fn session(&self) -> Option<String> {
        session_key(&self.cx)
    }

    /// Creates a `working` task for this request (a `tools/call` of a tool registered
    /// with [`TaskStart::Handler`](super::TaskStart::Handler): that call, as received).
    pub async fn create_task(&self, options: CreateTaskOptions) -> Result<Task, ErrorObject> {
        let request = self.cx.inner.task.own().map_or(Value::Null, |own| own.request.clone());
        let request_id = serde_json::to_value(self.cx.request_id()).unwrap_or(Value::Null);
        let task = self.store().create_task(options, request_id, request, self.session()).await?;
        if self.cx.inner.task.own().is_some() {
            self.cx.inner.task.set_made(task.task_id.clone());
        }
        Ok(task)
    }

    /// The task; an unknown one is -32602.
    pub async fn get_task(&self, id: &str) -> Result<Task, ErrorObject> {
        let task = self.store().get_task(id.to_owned(), self.session()).await?;
        task.ok_or_else(|| ErrorObject::invalid_params("Failed to retrieve task: Task not found"))
    }

    /// Ends the task `completed` or `failed` with `result`.
    pub async fn store_task_result(&self, id: &str, status: TaskStatus, result: Value) -> Result<(), ErrorObject> {
        let store = self.store();
        store.store_task_result(id.to_owned(), status, result, self.session()).await?;
        announce(&self.cx, &store, id).await;
        self.cx.inner.server.spec_tasks.changed();
        Ok(())
    }

    /// The result stored for the task.
    pub async fn get_task_result(&self, id: &str) -> Outcome {
        self.store().get_task_result(id.to_owned(), self.session()).await
    }

    /// Sets the task's status (and message); a task that has ended is -32602.
    pub async fn update_task_status(
        &self,
        id: &str,
        status: TaskStatus,
        message: Option<String>,
    ) -> Result<(), ErrorObject> {
        let store = self.store();
        let task = store.get_task(id.to_owned(), self.session()).await?;
        let task = task.ok_or_else(|| {
            ErrorObject::invalid_params(format!("Task \"{id}\" not found - it may have been cleaned up"))
        })?;
        if is_terminal(task.status) {
            let from = serde_json::to_value(task.status).unwrap_or_default();
            let to = serde_json::to_value(status).unwrap_or_default();
            return Err(ErrorObject::invalid_params(format!(
                "Cannot update task \"{id}\" from terminal status {from} to {to}: a task that has ended changes no more"
            )));
        }
        store.update_task_status(id.to_owned(), status, message, self.session()).await?;
        announce(&self.cx, &store, id).await;
        self.cx.inner.server.spec_tasks.changed();
        Ok(())
    }

    /// A page of this session's tasks.
    pub async fn list_tasks(&self, cursor: Option<String>) -> Result<TaskPage, ErrorObject> {
        self.store().list_tasks(cursor, self.session()).await
    }
}

/// Runs a call of a tool that makes its tasks itself ([`TaskStart::Handler`]
/// (super::TaskStart::Handler)): `call` runs the handler under `cx` with `own` recorded.
/// A task-augmented call (`as_task`) is answered with what the handler returns (its
/// `CreateTaskResult`); any other waits for the task the handler made to end and answers
/// its result, as the official `McpServer` does for an `optional` tool called without `task`.
pub(crate) async fn run_own(
    server: &ServerShared,
    cx: &Context,
    own: OwnCall,
    as_task: bool,
    call: impl std::future::Future<Output = Outcome>,
) -> Outcome {
    cx.inner.task.set_own(own);
    let created = call.await?;
    // A task-augmented call, or a handler that failed (its `isError` result): as it is.
    if as_task || created.get("isError") == Some(&Value::Bool(true)) {
        return Ok(created);
    }
    let id = created.pointer("/task/taskId").and_then(Value::as_str).ok_or_else(|| {
        ErrorObject::internal("The tool's createTask handler did not return a CreateTaskResult ({task: {taskId, ...}})")
    })?;
    wait_for_end(server, &server.spec_tasks.store(), id, &session_key(cx)).await
}
