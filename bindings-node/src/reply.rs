//! The way back from JavaScript: one answer to one waiting Rust future.
//!
//! A handler call crosses into JS once (a thread-safe function call, non-blocking) and
//! comes back once, when JS calls `reply` / `fail` / `failRpc` on the object it was given.
//! That is cheaper than napi's promise bridge (no `then` callbacks registered per call)
//! and lets JS say exactly which kind of failure it was. The waiting side always has a
//! deadline: a JS promise that never settles cannot hold a request forever.

use std::sync::Mutex;
use std::time::Duration;

use ferrymcp_core::server::HandlerError;
use ferrymcp_core::wire::ErrorObject;
use serde_json::Value;
use tokio::sync::oneshot;

/// What JS answered.
pub enum Answer {
    /// The result, as JSON text (parsed off the JS thread).
    Json(String),
    /// The work failed (a tool's `isError` result; an internal error elsewhere).
    Failed(String),
    /// Exactly this JSON-RPC error.
    Rpc(ErrorObject),
}

impl Answer {
    pub fn rpc(code: i64, message: String, data_json: Option<String>) -> napi::Result<Self> {
        let mut error = ErrorObject::new(code, message);
        if let Some(data) = data_json {
            let raw = ferrymcp_core::wire::RawJson::from_text(data)
                .map_err(|e| crate::error::internal(format!("error data is not valid JSON: {e}")))?;
            error = error.with_data(raw);
        }
        Ok(Self::Rpc(error))
    }

    /// As a server handler's outcome.
    pub fn into_handler(self) -> Result<Value, HandlerError> {
        match self {
            Self::Json(text) => serde_json::from_str(&text).map_err(|e| {
                HandlerError::Rpc(ErrorObject::internal(format!("the handler's result is not valid JSON: {e}")))
            }),
            Self::Failed(message) => Err(HandlerError::Failed(message)),
            Self::Rpc(error) => Err(HandlerError::Rpc(error)),
        }
    }

    /// As a client callback's outcome (only JSON-RPC errors go back to a server).
    pub fn into_rpc(self) -> Result<Value, ErrorObject> {
        match self {
            Self::Json(text) => {
                serde_json::from_str(&text).map_err(|e| ErrorObject::internal(format!("invalid result: {e}")))
            }
            Self::Failed(message) => Err(ErrorObject::internal(message)),
            Self::Rpc(error) => Err(error),
        }
    }
}

/// The sending half, held by the object JS answers through; the first answer wins.
pub struct Replier(Mutex<Option<oneshot::Sender<Answer>>>);

impl Replier {
    pub fn pair() -> (Self, oneshot::Receiver<Answer>) {
        let (tx, rx) = oneshot::channel();
        (Self(Mutex::new(Some(tx))), rx)
    }

    /// Delivers the answer; `false` if one was already given or nobody waits any more.
    pub fn send(&self, answer: Answer) -> bool {
        let sender = self.0.lock().unwrap_or_else(|p| p.into_inner()).take();
        sender.is_some_and(|tx| tx.send(answer).is_ok())
    }
}

/// Waits for JS's answer, at most `timeout`; `what` names the callback in the failure.
pub async fn wait(rx: oneshot::Receiver<Answer>, timeout: Option<Duration>, what: &str) -> Answer {
    let Some(timeout) = timeout else {
        return rx.await.unwrap_or_else(|_| Answer::Failed(format!("{what} ended without an answer")));
    };
    match tokio::time::timeout(timeout, rx).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(_)) => Answer::Failed(format!("{what} ended without an answer")),
        Err(_) => Answer::Failed(format!("{what} did not settle within {} ms", timeout.as_millis())),
    }
}
