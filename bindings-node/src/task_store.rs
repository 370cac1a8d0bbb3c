//! The 2025-11-25 revision's task store for JavaScript: `NativeTaskStore`, an
//! application's `TaskStore` object (the official 1.x interface: `createTask`, `getTask`,
//! `storeTaskResult`, `getTaskResult`, `updateTaskStatus`, `listTasks`) as core's
//! [`TaskStore`]; and `NativeInMemoryTaskStore`, core's [`InMemoryTaskStore`] itself, which
//! `InMemoryTaskStore` in JavaScript wraps.
//!
//! Core serves the task methods and runs the tasks; the store only keeps them. The
//! TypeScript layer hands one function over the user's object, `(operation, argsJson) =>
//! Promise<string>` (the method's JSON answer), so the six calls share one thread-safe
//! function. It is weak (it never keeps Node alive), every answer has a deadline, and
//! `close()` drops it (the server's `close()`): a store closed, failing or slow answers
//! the request that needed it with an error naming the method.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use ferrymcp_core::peer::BoxFuture;
use ferrymcp_core::protocol::TaskStatus;
use ferrymcp_core::server::{CallingTaskStore, CreateTaskOptions, InMemoryTaskStore, TaskStore, TaskStoreCall};
use ferrymcp_core::wire::ErrorObject;
use futures_util::FutureExt;
use napi::Status;
use napi::bindgen_prelude::{FnArgs, Promise};
use napi::threadsafe_function::ThreadsafeFunction;
use napi_derive::napi;
use serde_json::{Value, json};

use crate::error::{from_object, invalid, parse};

/// `(operation, argsJson) => Promise<string>`, weak.
pub type JsTaskStoreFn =
    ThreadsafeFunction<FnArgs<(String, String)>, Promise<String>, FnArgs<(String, String)>, Status, false, true>;

/// How long the application's store may take to answer, unless configured.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

type Shared = Arc<Mutex<Option<Arc<JsTaskStoreFn>>>>;

/// Calls `operation` of the application's store with `args`; its answer, parsed.
fn call(
    function: &Shared,
    timeout: Duration,
    operation: &'static str,
    args: Value,
) -> BoxFuture<Result<Value, ErrorObject>> {
    let function = function.lock().unwrap_or_else(|p| p.into_inner()).clone();
    Box::pin(async move {
        let function = function.ok_or_else(|| {
            ErrorObject::internal(format!("taskStore.{operation}: the task store was closed with its server"))
        })?;
        let answer =
            async move { function.call_async(FnArgs::from((operation.to_owned(), args.to_string()))).await?.await };
        let text = match tokio::time::timeout(timeout, answer).await {
            Ok(Ok(text)) => text,
            Ok(Err(e)) => return Err(ErrorObject::internal(format!("taskStore.{operation} failed: {}", e.reason))),
            Err(_) => {
                let ms = timeout.as_millis();
                return Err(ErrorObject::internal(format!("taskStore.{operation} did not settle within {ms} ms")));
            }
        };
        serde_json::from_str(&text)
            .map_err(|e| ErrorObject::internal(format!("taskStore.{operation} answered something not JSON: {e}")))
    })
}

#[napi(object)]
pub struct TaskStoreConfig {
    /// How long each call of the store may take (10 s by default).
    pub timeout_ms: Option<u32>,
}

/// An application's task store for one server.
#[napi]
pub struct NativeTaskStore {
    function: Shared,
    timeout: Duration,
}

#[napi]
impl NativeTaskStore {
    #[napi(constructor)]
    pub fn new(
        #[napi(ts_arg_type = "(operation: string, argsJson: string) => Promise<string>")] call: JsTaskStoreFn,
        config: TaskStoreConfig,
    ) -> Self {
        let timeout = config.timeout_ms.map_or(DEFAULT_TIMEOUT, |ms| Duration::from_millis(ms.into()));
        Self { function: Arc::new(Mutex::new(Some(Arc::new(call)))), timeout }
    }

    /// Drops the function (the server closed): later calls are refused.
    #[napi]
    pub fn close(&self) {
        self.function.lock().unwrap_or_else(|p| p.into_inner()).take();
    }
}

impl NativeTaskStore {
    /// Core's task store over this one.
    pub(crate) fn task_store(&self) -> Arc<dyn TaskStore> {
        let (function, timeout) = (self.function.clone(), self.timeout);
        let call: TaskStoreCall = Arc::new(move |operation, args| call(&function, timeout, operation.name(), args));
        Arc::new(CallingTaskStore::new(call))
    }
}

/// Core's in-memory task store, for `InMemoryTaskStore`. Every call answers at once (JSON
/// text); a task of one session is not another's.
#[napi]
pub struct NativeInMemoryTaskStore {
    store: Arc<InMemoryTaskStore>,
}

/// Runs one of the in-memory store's operations, which never wait.
fn now<T>(future: BoxFuture<Result<T, ErrorObject>>) -> napi::Result<T> {
    match future.now_or_never() {
        Some(result) => result.map_err(|e| from_object(&e)),
        None => Err(invalid("the in-memory task store waited".to_owned())),
    }
}

fn status_of(text: &str) -> napi::Result<TaskStatus> {
    serde_json::from_value(json!(text)).map_err(|_| invalid(format!("unknown task status {text:?}")))
}

fn to_text(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).expect("a task serialises")
}

#[napi]
impl NativeInMemoryTaskStore {
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        Self { store: Arc::new(InMemoryTaskStore::new()) }
    }

    /// `optionsJson`: `{ttl?, pollInterval?}`; the task, as JSON text.
    #[napi]
    pub fn create_task(&self, options_json: String, session_id: Option<String>) -> napi::Result<String> {
        let options = parse(&options_json, "createTask options")?;
        let ttl = options.get("ttl").and_then(Value::as_u64);
        let poll_interval = options.get("pollInterval").and_then(Value::as_u64);
        let options = CreateTaskOptions { ttl, poll_interval };
        now(self.store.create_task(options, Value::Null, Value::Null, session_id)).map(|task| to_text(&task))
    }

    /// The task as JSON text, `null` when unknown.
    #[napi]
    pub fn get_task(&self, task_id: String, session_id: Option<String>) -> napi::Result<String> {
        now(self.store.get_task(task_id, session_id)).map(|task| to_text(&task))
    }

    #[napi]
    pub fn store_task_result(
        &self,
        task_id: String,
        status: String,
        result_json: String,
        session_id: Option<String>,
    ) -> napi::Result<()> {
        let result = parse(&result_json, "storeTaskResult result")?;
        now(self.store.store_task_result(task_id, status_of(&status)?, result, session_id))
    }

    #[napi]
    pub fn get_task_result(&self, task_id: String, session_id: Option<String>) -> napi::Result<String> {
        now(self.store.get_task_result(task_id, session_id)).map(|result| result.to_string())
    }

    #[napi]
    pub fn update_task_status(
        &self,
        task_id: String,
        status: String,
        status_message: Option<String>,
        session_id: Option<String>,
    ) -> napi::Result<()> {
        now(self.store.update_task_status(task_id, status_of(&status)?, status_message, session_id))
    }

    /// `{tasks, nextCursor?}` as JSON text.
    #[napi]
    pub fn list_tasks(&self, cursor: Option<String>, session_id: Option<String>) -> napi::Result<String> {
        let page = now(self.store.list_tasks(cursor, session_id))?;
        let mut listed = json!({"tasks": page.tasks});
        if let Some(cursor) = page.next_cursor {
            listed["nextCursor"] = json!(cursor);
        }
        Ok(listed.to_string())
    }

    /// Every task kept, as JSON text.
    #[napi]
    pub fn all_tasks(&self) -> String {
        to_text(&self.store.all_tasks())
    }

    /// Forgets every task.
    #[napi]
    pub fn clear(&self) {
        self.store.clear();
    }
}

impl NativeInMemoryTaskStore {
    pub(crate) fn task_store(&self) -> Arc<dyn TaskStore> {
        self.store.clone()
    }
}
