//! The host's JS callbacks as core [`ClientCallbacks`].
//!
//! One JS function answers every server-to-client request (`(method, paramsJson, reply)`),
//! and the TypeScript layer dispatches it to the handler registered for that method, the
//! way the official SDK's `setRequestHandler` does; another receives notifications. Both
//! thread-safe functions are weak: a client waiting for nothing does not keep Node alive.
//! Core decides which capabilities the set callbacks declare and routes both eras' inputs
//! (legacy requests, 2026-07-28 `input_required` rounds) to them.

use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::client::{ClientCallbacks, InputCallback, NotificationCallback};
use ferrymcp_core::peer::{Progress, ProgressCallback};
use ferrymcp_core::wire::ErrorObject;
use napi::Status;
use napi::bindgen_prelude::{FnArgs, Unknown};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;
use serde_json::Value;

use crate::reply::{self, Answer, Replier};

/// `(method, paramsJson, reply) => void`.
pub type JsRequestFn = ThreadsafeFunction<RequestArgs, Unknown<'static>, RequestArgs, Status, false, true>;
type RequestArgs = FnArgs<(String, String, NativeReply)>;
/// `(method, paramsJson) => void`.
pub type JsNotificationFn =
    ThreadsafeFunction<NotificationArgs, Unknown<'static>, NotificationArgs, Status, false, true>;
type NotificationArgs = FnArgs<(String, String)>;
/// `(progressJson) => void`; made per request, and dropped with it.
pub type JsProgressFn = ThreadsafeFunction<String, Unknown<'static>, String, Status, false, true>;

/// How JS answers one request from the server.
#[napi]
pub struct NativeReply {
    replier: Replier,
}

#[napi]
impl NativeReply {
    #[napi]
    pub fn resolve(&self, result_json: String) -> bool {
        self.replier.send(Answer::Json(result_json))
    }

    #[napi]
    pub fn reject(&self, code: i64, message: String, data_json: Option<String>) -> napi::Result<bool> {
        Ok(self.replier.send(Answer::rpc(code, message, data_json)?))
    }
}

/// Which input callbacks the host set.
pub struct Handled {
    pub sampling: bool,
    pub elicitation: bool,
    pub roots: bool,
}

pub fn callbacks(
    on_request: Option<JsRequestFn>,
    on_notification: Option<JsNotificationFn>,
    handled: Handled,
    timeout: Duration,
) -> ClientCallbacks {
    let mut callbacks = ClientCallbacks::default();
    if let Some(func) = on_request.map(Arc::new) {
        let input = |method: &'static str, set: bool| set.then(|| input_callback(func.clone(), method, timeout));
        callbacks.sampling = input("sampling/createMessage", handled.sampling);
        callbacks.elicitation = input("elicitation/create", handled.elicitation);
        callbacks.roots = input("roots/list", handled.roots);
    }
    if let Some(func) = on_notification {
        let notify: NotificationCallback = Arc::new(move |method: &str, params: Value| {
            func.call((method.to_owned(), params.to_string()).into(), ThreadsafeFunctionCallMode::NonBlocking);
        });
        callbacks.notification = Some(notify);
    }
    callbacks
}

fn input_callback(func: Arc<JsRequestFn>, method: &'static str, timeout: Duration) -> InputCallback {
    Arc::new(move |params: Value| {
        let (replier, answer) = Replier::pair();
        let status = func.call(
            (method.to_owned(), params.to_string(), NativeReply { replier }).into(),
            ThreadsafeFunctionCallMode::NonBlocking,
        );
        Box::pin(async move {
            if status != Status::Ok {
                return Err(ErrorObject::internal(format!("the {method} handler could not be called: {status}")));
            }
            reply::wait(answer, Some(timeout), &format!("the {method} handler")).await.into_rpc()
        })
    })
}

pub fn progress_callback(func: JsProgressFn) -> ProgressCallback {
    Arc::new(move |progress: Progress| {
        if let Ok(text) = serde_json::to_string(&progress) {
            func.call(text, ThreadsafeFunctionCallMode::NonBlocking);
        }
    })
}
