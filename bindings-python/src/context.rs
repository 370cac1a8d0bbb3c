//! The handler context as Python sees it: properties and awaitables over core's Context
//! (client input goes through `asks`, which batches it).

use ferrymcp_core::server::{Context, HandlerError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;
use tokio::sync::oneshot;

use crate::asks::{Ask, Asks};

use crate::bridge::{awaitable, fail, ok};
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
    pub asks: Asks,
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

    fn is_cancelled(&self) -> bool {
        self.cx.is_cancelled()
    }

    /// Closes this request's SSE stream (legacy Streamable HTTP only; see core).
    fn close_sse_stream(&self) -> bool {
        self.cx.close_sse_stream()
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
        self.input(py, None, "elicitation/create".into(), params)
    }

    fn sample<'py>(&self, py: Python<'py>, params: &Bound<'py, PyDict>) -> PyResult<Bound<'py, PyAny>> {
        self.input(py, None, "sampling/createMessage".into(), params)
    }

    fn list_roots<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.input(py, None, "roots/list".into(), &PyDict::new(py))
    }

    /// Any client input; `key` names it in a 2026-07-28 `inputRequests`.
    #[pyo3(signature = (key, method, params))]
    fn input<'py>(
        &self,
        py: Python<'py>,
        key: Option<String>,
        method: String,
        params: &Bound<'py, PyDict>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (reply, answer) = oneshot::channel();
        self.asks.queue(py, Ask { key, method, params: from_py(params.as_any())?, reply })?;
        awaitable(py, async move {
            let ended = || HandlerError::Failed("the request ended before its input arrived".into());
            match answer.await.unwrap_or_else(|_| Err(ended())) {
                Ok(answer) => ok(Json(answer)),
                Err(e) => fail(move |py| handler_error(py, e)),
            }
        })
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
