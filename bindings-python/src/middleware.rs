//! The Python server's middleware list as core's one middleware (`Server.middleware`,
//! `MCPServer(middleware=[...])`).
//!
//! Core calls it around every inbound message with the message and the rest of the
//! handling; the Python layer's chain function (async, on the server's loop) gets the
//! message as a dict and a [`NativeNext`], composes the user's middleware around it, and
//! returns the answer (a result dict, `None` for none) or raises (`McpError` keeps its
//! code). Core maps the outcome to the message's answer. The rest of the handling runs
//! with the awaiting middleware's `contextvars` context at hand ([`CHAIN_CONTEXT`]), so a
//! handler it calls runs inside the middleware (in its span, with its context variables).

use std::sync::{Arc, Mutex};

use ferrymcp_core::peer::BoxFuture;
use ferrymcp_core::server::{Answer, Inbound, Middleware, Next};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyTuple;
use serde_json::json;

use crate::bridge::{Deliver, awaitable, fail};
use crate::call::{CHAIN_CONTEXT, PyCallable};
use crate::convert::to_py;
use crate::errors::rpc_error;

pub struct PyMiddleware(pub Arc<PyCallable>);

impl Middleware for PyMiddleware {
    fn handle(&self, inbound: Inbound, next: Next) -> BoxFuture<Answer> {
        let call = self.0.clone();
        let message = json!({
            "method": inbound.method,
            "params": inbound.params,
            "request_id": inbound.request_id.as_ref().and_then(|id| serde_json::to_value(id).ok()),
            "protocol_version": inbound.protocol_version,
            "client_capabilities": inbound.client_capabilities(),
        });
        let next = NativeNext { next: Mutex::new(Some(next)) };
        Box::pin(async move {
            let outcome =
                call.call(move |py| PyTuple::new(py, [to_py(py, &message)?, Bound::new(py, next)?.into_any()])).await;
            inbound.answer(outcome)
        })
    }
}

/// The rest of a message's handling, for the Python chain to await once.
#[pyclass(frozen)]
pub struct NativeNext {
    next: Mutex<Option<Next>>,
}

#[pymethods]
impl NativeNext {
    /// An awaitable of the answer: a result dict, `None` (a notification), or the
    /// `McpError` the client would receive. The handlers it runs run in a copy of the
    /// caller's `contextvars` context.
    fn run<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let next = self.next.lock().unwrap_or_else(|p| p.into_inner()).take();
        let next = next.ok_or_else(|| PyRuntimeError::new_err("call_next may be awaited only once per message"))?;
        let context = Arc::new(copy_context(py)?.unbind());
        awaitable(py, async move {
            let answer: Deliver = match CHAIN_CONTEXT.scope(context, next()).await {
                Ok(Some(value)) => Box::new(move |py| to_py(py, &value).map(Bound::unbind)),
                Ok(None) => Box::new(|py| Ok(py.None())),
                Err(error) => fail(move |py| rpc_error(py, &error)),
            };
            answer
        })
    }
}

/// `contextvars.copy_context()`: the calling task's context.
fn copy_context<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
    static COPY_CONTEXT: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    COPY_CONTEXT
        .get_or_try_init(py, || Ok::<_, PyErr>(py.import("contextvars")?.getattr("copy_context")?.unbind()))?
        .bind(py)
        .call0()
}
