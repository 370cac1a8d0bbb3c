//! `NativeContext`: what a JS handler holds for the one request it serves.
//!
//! It wraps core's [`Context`] (progress, logging, client input, cancellation, who is
//! asking) and the [`Replier`] the handler answers through. Two binding-only duties:
//!
//! - `done` fires when the handler's Rust future ends for any reason (answered, cancelled,
//!   or stopped by core to ask a 2026-07-28 client for input). Every promise handed to JS
//!   from here settles by then, so no JS code waits forever and no pending promise keeps
//!   Node's event loop alive after the request is over.
//! - Client input goes through core's input batch, which groups the inputs a handler
//!   awaits together into one `input_required` round. `input()` only queues the ask; the
//!   TypeScript layer calls `idle()` once the current macrotask is over (`setImmediate`),
//!   which flushes the batch: that moment is all the binding decides.

use ferrymcp_core::peer::{RequestOptions, continue_here};
use ferrymcp_core::protocol::TaskStatus;
use ferrymcp_core::server::{Context, CreateTaskOptions, HandlerError, InputBatch};
use ferrymcp_core::wire::ErrorObject;
use napi::Env;
use napi::bindgen_prelude::PromiseRaw;
use napi_derive::napi;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::error::{from_object, internal, invalid, no_panic, parse};
use crate::reply::{Answer, Replier};

#[napi]
pub struct NativeContext {
    cx: Context,
    replier: Replier,
    done: CancellationToken,
    batch: InputBatch,
}

impl NativeContext {
    /// The context JS gets; `done` is cancelled when the handler's future ends.
    pub fn new(cx: Context, replier: Replier, done: CancellationToken, batch: InputBatch) -> Self {
        Self { cx, replier, done, batch }
    }
}

fn to_value(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).expect("a task serialises")
}

fn json_text(value: &Value) -> String {
    value.to_string()
}

fn from_handler(error: HandlerError) -> napi::Error {
    match error {
        HandlerError::Failed(message) | HandlerError::Unexpected(message) => internal(message),
        HandlerError::Rpc(error) => crate::error::from_object(&error),
        missing @ (HandlerError::ResourceNotFound(_) | HandlerError::ResourceNotFoundSaying { .. }) => {
            internal(missing.to_string())
        }
    }
}

#[napi]
impl NativeContext {
    /// Answers the request with this result (JSON text).
    #[napi]
    pub fn reply(&self, result_json: String) -> bool {
        // A sequential call's rest (checks, encoding, the write) runs here, on the JS
        // thread, instead of waking the runtime's worker (core's `continue_here`).
        continue_here(|| self.replier.send(Answer::Json(result_json)))
    }

    /// Fails the request: a tool gets an `isError: true` result with this text.
    #[napi]
    pub fn fail(&self, message: String) -> bool {
        continue_here(|| self.replier.send(Answer::Failed(message)))
    }

    /// Fails the request with exactly this JSON-RPC error.
    #[napi]
    pub fn fail_rpc(&self, code: i64, message: String, data_json: Option<String>) -> napi::Result<bool> {
        let answer = Answer::rpc(code, message, data_json)?;
        Ok(continue_here(|| self.replier.send(answer)))
    }

    /// Fails the request as one whose `requestState` the server's own check (the official
    /// `requestState.verify` hook) rejected: core's fixed answer, a JSON-RPC error even
    /// for a tool.
    #[napi]
    pub fn reject_request_state(&self) -> bool {
        self.replier.send(Answer::Rpc(ferrymcp_core::server::request_state_rejected()))
    }

    /// Closes the request's SSE stream on a legacy HTTP session (the client resumes it);
    /// `false` where there is none to close.
    #[napi]
    pub fn close_sse_stream(&self) -> bool {
        self.cx.close_sse_stream()
    }

    /// The request id as JSON text (a number or a string).
    #[napi(getter)]
    pub fn request_id_json(&self) -> String {
        serde_json::to_string(self.cx.request_id()).unwrap_or_else(|_| "null".into())
    }

    /// The request's `_meta` as JSON text, when it had one.
    #[napi(getter)]
    pub fn meta_json(&self) -> Option<String> {
        self.cx.meta().map(json_text)
    }

    #[napi(getter)]
    pub fn protocol_version(&self) -> String {
        self.cx.protocol_version().to_owned()
    }

    #[napi(getter)]
    pub fn is_modern(&self) -> bool {
        self.cx.is_modern()
    }

    #[napi(getter)]
    pub fn client_info_json(&self) -> String {
        json_text(self.cx.client_info())
    }

    /// The bearer token the HTTP request was accepted with (core's `AuthInfo` as JSON
    /// text, camelCase), when the endpoint requires one.
    #[napi(getter)]
    pub fn auth_info_json(&self) -> Option<String> {
        self.cx.auth_info().and_then(|info| serde_json::to_string(info).ok())
    }

    /// A modern retry's `inputResponses` (this round's, JSON text), when it carried some.
    #[napi(getter)]
    pub fn input_responses_json(&self) -> Option<String> {
        self.cx.input_responses().map(|responses| serde_json::Value::Object(responses.clone()).to_string())
    }

    /// The `requestState` the handler's own `input_required` result carried, echoed back
    /// intact on the retry (core sealed and checked it).
    #[napi(getter)]
    pub fn request_state(&self) -> Option<String> {
        self.cx.request_state().map(str::to_owned)
    }

    #[napi(getter)]
    pub fn client_capabilities_json(&self) -> String {
        json_text(self.cx.client_capabilities())
    }

    #[napi(getter)]
    pub fn is_cancelled(&self) -> bool {
        self.cx.is_cancelled()
    }

    /// The id of the task this call runs as (tasks extension), if it runs as one.
    #[napi(getter)]
    pub fn task_id(&self) -> Option<String> {
        self.cx.task_id().map(str::to_owned)
    }

    /// Turns this call into a task (a tool registered with `taskStart: "onRequest"`);
    /// whether it runs as one now.
    #[napi]
    pub fn start_task(&self) -> napi::Result<bool> {
        self.cx.start_task().map_err(from_handler)
    }

    /// Resolves `true` when the client cancels, `false` when the request ends otherwise.
    #[napi]
    pub fn wait_cancelled<'env>(&self, env: &'env Env) -> napi::Result<PromiseRaw<'env, bool>> {
        let (cx, done) = (self.cx.clone(), self.done.clone());
        env.spawn_future(async move {
            tokio::select! {
                biased;
                _ = cx.cancellation().cancelled() => Ok(true),
                _ = done.cancelled() => Ok(cx.is_cancelled()),
            }
        })
    }

    /// `notifications/progress`, when the client asked for it; resolves whether it was sent.
    #[napi]
    pub fn report_progress<'env>(
        &self,
        env: &'env Env,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> napi::Result<PromiseRaw<'env, bool>> {
        let cx = self.cx.clone();
        env.spawn_future(no_panic(async move { Ok(cx.report_progress(progress, total, message).await) }))
    }

    /// `notifications/message`, if the client's level lets it through.
    #[napi]
    pub fn log<'env>(
        &self,
        env: &'env Env,
        level: String,
        data_json: String,
        logger: Option<String>,
    ) -> napi::Result<PromiseRaw<'env, bool>> {
        let cx = self.cx.clone();
        let data = parse(&data_json, "log data")?;
        env.spawn_future(no_panic(async move { Ok(cx.log(&level, data, logger.as_deref()).await) }))
    }

    /// Any other notification about this request; resolves whether it was sent.
    #[napi]
    pub fn notify<'env>(
        &self,
        env: &'env Env,
        method: String,
        params_json: String,
    ) -> napi::Result<PromiseRaw<'env, bool>> {
        let cx = self.cx.clone();
        let params = parse(&params_json, "notification params")?;
        env.spawn_future(no_panic(async move { Ok(cx.notify(&method, params).await) }))
    }

    /// Asks the client for input (`elicitation/create`, `sampling/createMessage`,
    /// `roots/list`, ...): a request on a legacy session, an MRTR round on a modern one.
    /// The ask is queued in core's batch, made on the next `idle()`; resolves the result
    /// as JSON text, or rejects with `REQUEST_CANCELLED` if the request ends first.
    #[napi]
    pub fn input<'env>(
        &self,
        env: &'env Env,
        method: String,
        params_json: String,
        key: Option<String>,
    ) -> napi::Result<PromiseRaw<'env, String>> {
        let params = parse(&params_json, "input params")?;
        let (answer, _first) = self.batch.ask(key, method, params, RequestOptions::default());
        env.spawn_future(async move { answer.await.map(|v| json_text(&v)).map_err(from_handler) })
    }

    /// JS has asked for what it needs for now: the queued inputs go to core as one batch.
    #[napi]
    pub fn idle(&self) {
        self.batch.flush();
    }

    /// The transport's session id (Streamable HTTP's `Mcp-Session-Id`; none on stdio or a
    /// 2026-07-28 request): the official `extra.sessionId`.
    #[napi(getter)]
    pub fn session_id(&self) -> Option<String> {
        self.cx.session().and_then(|session| session.transport_session_id())
    }

    /// The `ttl` a task-augmented call of a tool that makes its own tasks asked for (the
    /// official `extra.taskRequestedTtl`).
    #[napi(getter)]
    pub fn task_requested_ttl(&self) -> Option<f64> {
        self.cx.task_requested_ttl().map(|ttl| ttl as f64)
    }

    /// One operation of the request's 2025-11-25 task store (the official v1
    /// `extra.taskStore`: `createTask`, `getTask`, `storeTaskResult`, `getTaskResult`,
    /// `updateTaskStatus`, `listTasks`), its arguments a JSON array; resolves its answer as
    /// JSON text (`null` for none), or rejects with the store's JSON-RPC error.
    #[napi]
    pub fn task_store<'env>(
        &self,
        env: &'env Env,
        op: String,
        args_json: String,
    ) -> napi::Result<PromiseRaw<'env, String>> {
        let store = self.cx.task_store();
        let args = parse(&args_json, "task store arguments")?;
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Null);
        let text = |i: usize| arg(i).as_str().map(str::to_owned);
        let id = text(0).unwrap_or_default();
        let status = |i: usize| -> napi::Result<TaskStatus> {
            serde_json::from_value(arg(i)).map_err(|_| invalid(format!("{op}: unknown task status {}", arg(i))))
        };
        let future: ferrymcp_core::peer::BoxFuture<Result<Value, ErrorObject>> = match op.as_str() {
            "createTask" => {
                let params = arg(0);
                let number = |key: &str| params.get(key).and_then(Value::as_f64).map(|ms| ms.max(0.0) as u64);
                let options = CreateTaskOptions { ttl: number("ttl"), poll_interval: number("pollInterval") };
                Box::pin(async move { store.create_task(options).await.map(|task| to_value(&task)) })
            }
            "getTask" => Box::pin(async move { store.get_task(&id).await.map(|task| to_value(&task)) }),
            "storeTaskResult" => {
                let (status, result) = (status(1)?, arg(2));
                Box::pin(async move { store.store_task_result(&id, status, result).await.map(|()| Value::Null) })
            }
            "getTaskResult" => Box::pin(async move { store.get_task_result(&id).await }),
            "updateTaskStatus" => {
                let (status, message) = (status(1)?, text(2));
                Box::pin(async move { store.update_task_status(&id, status, message).await.map(|()| Value::Null) })
            }
            "listTasks" => {
                let cursor = text(0);
                Box::pin(async move {
                    let page = store.list_tasks(cursor).await?;
                    let mut answer = serde_json::json!({"tasks": page.tasks});
                    if let Some(cursor) = page.next_cursor {
                        answer["nextCursor"] = Value::String(cursor);
                    }
                    Ok(answer)
                })
            }
            other => return Err(invalid(format!("unknown task store operation {other:?}"))),
        };
        env.spawn_future(no_panic(async move { future.await.map(|v| json_text(&v)).map_err(|e| from_object(&e)) }))
    }

    /// Reads one of this server's own resources; resolves the result as JSON text.
    #[napi]
    pub fn read_resource<'env>(&self, env: &'env Env, uri: String) -> napi::Result<PromiseRaw<'env, String>> {
        let cx = self.cx.clone();
        env.spawn_future(no_panic(
            async move { cx.read_resource(&uri).await.map(|v| json_text(&v)).map_err(from_handler) },
        ))
    }
}
