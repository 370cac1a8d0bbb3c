//! JavaScript functions as core handlers.
//!
//! Every kind of handler (tool, resource, template, template listing, prompt, completion)
//! is the same JS
//! shape, `(payloadJson, ctx) => void`, answering later through `ctx.reply(...)`: the
//! TypeScript layer builds the user-facing arguments from the payload. The thread-safe
//! function is weak, so a registered handler never keeps Node running, and the call is
//! non-blocking (the Rust side never waits for the JS thread to be free to queue it).

use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::server::{
    CompletionHandler, Context, HandlerError, HandlerFuture, PromptHandler, RequestHandler, ResourceHandler,
    ResourceLister, ToolHandler, input_batch,
};
use napi::Status;
use napi::bindgen_prelude::{FnArgs, Unknown};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use crate::context::NativeContext;
use crate::reply::{self, Replier};

/// `(payloadJson: string, ctx: NativeContext) => void`, weak, errors not passed as first argument.
pub type JsHandlerFn = ThreadsafeFunction<Args, Unknown<'static>, Args, Status, false, true>;
type Args = FnArgs<(String, NativeContext)>;

/// A JS function serving one registered tool, resource, template, prompt or completion.
pub struct JsHandler {
    func: Arc<JsHandlerFn>,
    timeout: Duration,
    what: String,
}

impl JsHandler {
    pub fn new(func: JsHandlerFn, timeout: Duration, what: String) -> Self {
        Self { func: Arc::new(func), timeout, what }
    }

    fn run(&self, payload: String, cx: Context) -> HandlerFuture {
        let cx_runs_as_task = cx.runs_as_task();
        let (replier, answer) = Replier::pair();
        let (batch, handler) = input_batch(cx.clone());
        let done = CancellationToken::new();
        let native = NativeContext::new(cx, replier, done.clone(), batch);
        let status = self.func.call((payload, native).into(), ThreadsafeFunctionCallMode::NonBlocking);
        // A task's handler is bounded by its task (cancelled with it), not by a request's
        // deadline: the official SDKs give a task's work no deadline.
        let timeout = (!cx_runs_as_task).then_some(self.timeout);
        let what = self.what.clone();
        Box::pin(async move {
            // Whatever ends this future (an answer, a cancellation, core stopping the
            // request for client input) releases everything JS may be waiting on: the
            // batch's answers fail as `handler` drops, and `done` ends the rest.
            let _done = done.drop_guard();
            if status != Status::Ok {
                return Err(HandlerError::Failed(format!("{what} could not be called: {status}")));
            }
            handler.run(reply::wait(answer, timeout, &what)).await.into_handler()
        })
    }
}

fn text(map: &Map<String, Value>) -> String {
    let mut buf = Vec::new();
    ferrymcp_core::wire::write::object(&mut buf, map);
    String::from_utf8(buf).expect("JSON text is UTF-8")
}

impl ToolHandler for JsHandler {
    fn call(&self, arguments: Map<String, Value>, cx: Context) -> HandlerFuture {
        self.run(text(&arguments), cx)
    }
}

impl ResourceHandler for JsHandler {
    fn read(&self, uri: String, variables: Map<String, Value>, cx: Context) -> HandlerFuture {
        self.run(json!({"uri": uri, "variables": variables}).to_string(), cx)
    }
}

impl ResourceLister for JsHandler {
    fn list(&self, cx: Context) -> HandlerFuture {
        self.run("{}".to_owned(), cx)
    }
}

impl PromptHandler for JsHandler {
    fn get(&self, arguments: Map<String, Value>, cx: Context) -> HandlerFuture {
        self.run(text(&arguments), cx)
    }
}

impl CompletionHandler for JsHandler {
    fn complete(&self, params: Map<String, Value>, cx: Context) -> HandlerFuture {
        self.run(text(&params), cx)
    }
}

impl RequestHandler for JsHandler {
    fn handle(&self, params: Map<String, Value>, cx: Context) -> HandlerFuture {
        self.run(text(&params), cx)
    }
}
