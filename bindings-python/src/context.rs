//! The handler context as Python sees it: properties and awaitables over core's Context.
//!
//! Client input goes through core's input batch, which groups the inputs a handler awaits
//! together into one 2026-07-28 round. The binding only says when a batch is complete: the
//! first ask of a batch schedules a flush with `call_soon`, which runs after the callbacks
//! already ready in this loop iteration (such as the rest of an `asyncio.gather`).

use std::time::Duration;

use ferrymcp_core::peer::RequestOptions;
use ferrymcp_core::server::{Context, InputAnswer, InputBatch};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

use crate::bridge::{awaitable, fail, ok, running_loop};
use crate::convert::{from_py, to_py};
use crate::errors::handler_error;

/// A JSON value returned to Python (converted when the awaitable completes).
pub struct Json(pub Value);

impl<'py> IntoPyObject<'py> for Json {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.0)
    }
}

#[pyclass(module = "ferrymcp._native", frozen)]
pub struct NativeContext {
    pub cx: Context,
    pub batch: InputBatch,
}

/// Hands the inputs queued in this loop iteration to core as one batch.
#[pyclass(frozen)]
struct Flush(InputBatch);

#[pymethods]
impl Flush {
    fn __call__(&self) {
        self.0.flush();
    }
}

#[pymethods]
impl NativeContext {
    #[getter]
    fn request_id<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &serde_json::to_value(self.cx.request_id()).unwrap_or(Value::Null))
    }

    #[getter]
    fn client_info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.cx.client_info())
    }

    /// The bearer token the HTTP request was accepted with (core's `AuthInfo` as a dict,
    /// camelCase keys), or `None` (stdio, or an endpoint without auth).
    fn auth_info<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.cx.auth_info().map(|info| to_py(py, &serde_json::to_value(info).unwrap_or(Value::Null))).transpose()
    }

    #[getter]
    fn client_capabilities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.cx.client_capabilities())
    }

    #[getter]
    fn protocol_version(&self) -> String {
        self.cx.protocol_version().to_owned()
    }

    #[getter]
    fn is_modern(&self) -> bool {
        self.cx.is_modern()
    }

    #[getter]
    fn progress_token<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.cx.progress_token().unwrap_or(&Value::Null))
    }

    /// This round's `inputResponses` as the client sent them (a modern retry), else `None`.
    #[getter]
    fn input_responses<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.cx.input_responses().map(|responses| to_py(py, &Value::Object(responses.clone()))).transpose()
    }

    /// The `requestState` the handler put in its own `input_required` result, echoed back
    /// on the retry (core checked it), else `None`.
    #[getter]
    fn request_state(&self) -> Option<String> {
        self.cx.request_state().map(str::to_owned)
    }

    fn is_cancelled(&self) -> bool {
        self.cx.is_cancelled()
    }

    /// Closes this request's SSE stream (legacy Streamable HTTP only; see core).
    fn close_sse_stream(&self) -> bool {
        self.cx.close_sse_stream()
    }

    /// Closes the session's standalone GET stream (where `close_sse_stream` can; see core).
    fn close_standalone_sse_stream(&self) -> bool {
        self.cx.close_standalone_sse_stream()
    }

    /// Whether a server-to-client request can reach the client (core's rule).
    #[getter]
    fn can_send_request(&self) -> bool {
        self.cx.can_send_request()
    }

    /// Whether this request can close its SSE streams (core's rule).
    #[getter]
    fn can_close_sse_stream(&self) -> bool {
        self.cx.can_close_sse_stream()
    }

    #[pyo3(signature = (progress, total = None, message = None))]
    fn report_progress<'py>(
        &self,
        py: Python<'py>,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let cx = self.cx.clone();
        awaitable(py, async move { ok(cx.report_progress(progress, total, message).await) })
    }

    #[pyo3(signature = (level, data, logger = None))]
    fn log<'py>(
        &self,
        py: Python<'py>,
        level: String,
        data: &Bound<'py, PyAny>,
        logger: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (cx, data) = (self.cx.clone(), from_py(data)?);
        awaitable(py, async move { ok(cx.log(&level, data, logger.as_deref()).await) })
    }

    fn elicit<'py>(&self, py: Python<'py>, params: &Bound<'py, PyDict>) -> PyResult<Bound<'py, PyAny>> {
        self.session_request(py, "elicitation/create".to_owned(), params, None)
    }

    fn sample<'py>(&self, py: Python<'py>, params: &Bound<'py, PyDict>) -> PyResult<Bound<'py, PyAny>> {
        self.session_request(py, "sampling/createMessage".to_owned(), params, None)
    }

    fn list_roots<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.session_request(py, "roots/list".to_owned(), &PyDict::new(py), None)
    }

    /// Any request of the official session's (`ctx.session.send_request`), made as core
    /// makes `elicit` in the server's dialect (core's `Context::ask`: at 2026-07-28 refused
    /// with the no-back-channel error, which `errors::rpc_error` raises as
    /// `NoBackChannelError`). `timeout` as in [`NativeContext::input`].
    #[pyo3(signature = (method, params, timeout = None))]
    fn session_request<'py>(
        &self,
        py: Python<'py>,
        method: String,
        params: &Bound<'py, PyDict>,
        timeout: Option<f64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (options, params) = (request_options(timeout)?, from_py(params.as_any())?);
        self.queued(py, |batch| batch.ask_session(method, params, options))
    }

    /// Sends a notification as it is (`params` `None` sends none): on this request's way
    /// back when `request_scoped`, else the session's (the stdio pipe, a legacy HTTP
    /// session's standalone stream), falling back to the request's way where the request
    /// has no session (2026-07-28). Resolves to whether it was sent.
    #[pyo3(signature = (method, params, request_scoped))]
    fn notify<'py>(
        &self,
        py: Python<'py>,
        method: String,
        params: &Bound<'py, PyAny>,
        request_scoped: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (cx, params) = (self.cx.clone(), from_py(params)?);
        let session = if request_scoped { None } else { cx.session().cloned() };
        awaitable(py, async move {
            match session {
                Some(session) => match session.notify(&method, params).await {
                    Ok(()) => ok(true),
                    Err(e) => fail(move |py| handler_error(py, e)),
                },
                None => ok(cx.notify(&method, params).await),
            }
        })
    }

    /// Any client input; `key` names it in a 2026-07-28 `inputRequests`. `timeout`
    /// (seconds) bounds the wait for a legacy client's answer (core's request options:
    /// an expired wait raises `McpError` -32001); `None` keeps the engine's default.
    #[pyo3(signature = (key, method, params, timeout = None))]
    fn input<'py>(
        &self,
        py: Python<'py>,
        key: Option<String>,
        method: String,
        params: &Bound<'py, PyDict>,
        timeout: Option<f64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (options, params) = (request_options(timeout)?, from_py(params.as_any())?);
        self.queued(py, |batch| batch.ask(key, method, params, options))
    }

    /// The input of a resolver named `resolver` (its key in a 2026-07-28 `inputRequests`);
    /// core refuses it as the server's dialect says when the client did not declare what
    /// it needs (core's `Context::resolver_input`).
    #[pyo3(signature = (resolver, method, params, timeout = None))]
    fn resolver_input<'py>(
        &self,
        py: Python<'py>,
        resolver: String,
        method: String,
        params: &Bound<'py, PyDict>,
        timeout: Option<f64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (options, params) = (request_options(timeout)?, from_py(params.as_any())?);
        self.queued(py, |batch| batch.ask_resolver(resolver, method, params, options))
    }

    /// Turns this call into a task (a tool registered with `task_start="on_request"`);
    /// whether it runs as one now.
    fn start_task(&self, py: Python<'_>) -> PyResult<bool> {
        self.cx.start_task().map_err(|e| handler_error(py, e))
    }

    #[getter]
    fn task_id(&self) -> Option<String> {
        self.cx.task_id().map(str::to_owned)
    }

    fn read_resource<'py>(&self, py: Python<'py>, uri: String) -> PyResult<Bound<'py, PyAny>> {
        let cx = self.cx.clone();
        awaitable(py, async move {
            match cx.read_resource(&uri).await {
                Ok(result) => ok(Json(result)),
                Err(e) => fail(move |py| handler_error(py, e)),
            }
        })
    }
}

impl NativeContext {
    /// Queues one ask in this loop iteration's batch (the first ask schedules the flush
    /// that hands the batch to core) and awaits its answer, a core error raised as
    /// `errors::handler_error` maps it.
    fn queued<'py>(
        &self,
        py: Python<'py>,
        ask: impl FnOnce(&InputBatch) -> (InputAnswer, bool),
    ) -> PyResult<Bound<'py, PyAny>> {
        let (answer, first) = ask(&self.batch);
        if first {
            running_loop(py)?.call_method1("call_soon", (Flush(self.batch.clone()),))?;
        }
        awaitable(py, async move {
            match answer.await {
                Ok(answer) => ok(Json(answer)),
                Err(e) => fail(move |py| handler_error(py, e)),
            }
        })
    }
}

/// Core's request options for a wait of `timeout` seconds (`None`: the engine's default).
fn request_options(timeout: Option<f64>) -> PyResult<RequestOptions> {
    let options = RequestOptions::default();
    let Some(seconds) = timeout else { return Ok(options) };
    let limit = Duration::try_from_secs_f64(seconds)
        .map_err(|_| PyValueError::new_err(format!("timeout must be a finite number >= 0, got {seconds}")))?;
    Ok(options.timeout(limit))
}
