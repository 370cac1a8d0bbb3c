//! `NativeContext`: what a JS handler holds for the one request it serves.
//!
//! It wraps core's [`Context`] (progress, logging, client input, cancellation, who is
//! asking) and the [`Replier`] the handler answers through. Two binding-only duties:
//!
//! - `done` fires when the handler's Rust future ends for any reason (answered, cancelled,
//!   or stopped by core to ask a 2026-07-28 client for input). Every promise handed to JS
//!   from here settles by then, so no JS code waits forever and no pending promise keeps
//!   Node's event loop alive after the request is over.
//! - Client input is asked by the handler's own future, not by the JS call. Core stops a
//!   2026-07-28 request for input when, after a poll of its handler, inputs are missing;
//!   Rust code asks for several inputs in one poll, but JS asks in separate calls. So
//!   `input()` only queues the ask, and `idle()` (called by the TypeScript layer once the
//!   current macrotask is over) lets the handler's future make every queued ask in one
//!   poll: inputs asked together form one `input_required` round, with no race.

use std::sync::Arc;

use ferrymcp_core::protocol::ErrorCode;
use ferrymcp_core::server::{Context, HandlerError};
use napi::Env;
use napi::bindgen_prelude::PromiseRaw;
use napi_derive::napi;
use serde_json::Value;
use tokio::sync::{Notify, mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use crate::error::{internal, mcp_error, no_panic, parse};
use crate::reply::{Answer, Replier};

#[napi]
pub struct NativeContext {
    cx: Context,
    replier: Replier,
    done: CancellationToken,
    idle: Arc<Notify>,
    asks: mpsc::UnboundedSender<Ask>,
}

/// One input JS asked for, made by the handler's future (see [`Ask::make`]).
pub struct Ask {
    key: Option<String>,
    method: String,
    params: Value,
    tx: oneshot::Sender<Result<Value, HandlerError>>,
}

impl Ask {
    /// Asks the client through core and hands the answer to the JS promise. Its first
    /// poll records a modern input, so asks made in one poll form one round.
    pub async fn make(self, cx: Context) {
        let outcome = cx.input(self.key.as_deref(), &self.method, self.params).await;
        let _ = self.tx.send(outcome);
    }
}

/// The parts of a request's JS context that its handler's future keeps.
pub struct Parts {
    pub done: CancellationToken,
    pub idle: Arc<Notify>,
    pub asks: mpsc::UnboundedReceiver<Ask>,
}

impl NativeContext {
    pub fn new(cx: Context, replier: Replier) -> (Self, Parts) {
        let (done, idle) = (CancellationToken::new(), Arc::new(Notify::new()));
        let (tx, asks) = mpsc::unbounded_channel();
        let native = Self { cx, replier, done: done.clone(), idle: idle.clone(), asks: tx };
        (native, Parts { done, idle, asks })
    }
}

fn ended() -> napi::Error {
    mcp_error(ErrorCode::REQUEST_CANCELLED, "the request ended before the client's input arrived", None)
}

fn json_text(value: &Value) -> String {
    value.to_string()
}

fn from_handler(error: HandlerError) -> napi::Error {
    match error {
        HandlerError::Failed(message) => internal(message),
        HandlerError::Rpc(error) => crate::error::from_object(&error),
        missing @ HandlerError::ResourceNotFound(_) => internal(missing.to_string()),
    }
}

#[napi]
impl NativeContext {
    /// Answers the request with this result (JSON text).
    #[napi]
    pub fn reply(&self, result_json: String) -> bool {
        self.replier.send(Answer::Json(result_json))
    }

    /// Fails the request: a tool gets an `isError: true` result with this text.
    #[napi]
    pub fn fail(&self, message: String) -> bool {
        self.replier.send(Answer::Failed(message))
    }

    /// Fails the request with exactly this JSON-RPC error.
    #[napi]
    pub fn fail_rpc(&self, code: i64, message: String, data_json: Option<String>) -> napi::Result<bool> {
        Ok(self.replier.send(Answer::rpc(code, message, data_json)?))
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
    /// The ask is queued for the handler's own future, which makes it on the next
    /// `idle()`; resolves the result as JSON text.
    #[napi]
    pub fn input<'env>(
        &self,
        env: &'env Env,
        method: String,
        params_json: String,
        key: Option<String>,
    ) -> napi::Result<PromiseRaw<'env, String>> {
        let params = parse(&params_json, "input params")?;
        let (tx, rx) = oneshot::channel();
        if self.asks.send(Ask { key, method, params, tx }).is_err() {
            return Err(ended());
        }
        let done = self.done.clone();
        env.spawn_future(async move {
            tokio::select! {
                biased;
                outcome = rx => outcome.map_err(|_| ended())?.map(|v| json_text(&v)).map_err(from_handler),
                _ = done.cancelled() => Err(ended()),
            }
        })
    }

    /// JS has asked for what it needs for now (see the module comment).
    #[napi]
    pub fn idle(&self) {
        self.idle.notify_one();
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
