//! The 2025-11-25 tasks a low-level handler drives itself (the official Python SDK's
//! `ctx.experimental.run_task`): core creates and keeps the task (`Context::begin_spec_task`,
//! `SpecTask`); the binding hands Python the task's context and its four moves (status,
//! end, cancellation, the task as stored). Nothing here decides a protocol rule.

use std::sync::Arc;

use ferrymcp_core::server::{SpecTask, TaskSupport, check_spec_task_mode, input_batch};
use ferrymcp_core::wire::ErrorObject;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::bridge::{awaitable, fail, ok};
use crate::context::{Json, NativeContext};
use crate::convert::{from_py, to_py};
use crate::errors::rpc_error;
use crate::runtime::runtime;

/// A running 2025-11-25 task (see the module doc). Dropping it (or ending it) stops the
/// task context's input batch.
#[pyclass(module = "ferrymcp._native", frozen)]
pub struct NativeSpecTask {
    task: Arc<SpecTask>,
    context: Py<NativeContext>,
    done: CancellationToken,
}

impl Drop for NativeSpecTask {
    fn drop(&mut self) {
        self.done.cancel();
    }
}

fn deliver_error(error: ErrorObject) -> crate::bridge::Deliver {
    fail(move |py| rpc_error(py, &error))
}

#[pymethods]
impl NativeSpecTask {
    #[getter]
    fn task_id(&self) -> String {
        self.task.id().to_owned()
    }

    /// The context the task's work runs under (its elicitation and sampling reach the
    /// client through the session, with the related-task `_meta`).
    #[getter]
    fn context(&self, py: Python<'_>) -> Py<NativeContext> {
        self.context.clone_ref(py)
    }

    fn is_cancelled(&self) -> bool {
        self.task.is_cancelled()
    }

    /// Resolves (to `None`) when the client cancels the task.
    fn cancelled<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let task = self.task.clone();
        awaitable(py, async move {
            task.cancelled().await;
            ok(())
        })
    }

    /// The task as the store has it (a dict, the wire's `Task`).
    fn get<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let task = self.task.clone();
        awaitable(py, async move {
            match task.task().await {
                Ok(task) => ok(Json(serde_json::to_value(task).unwrap_or(Value::Null))),
                Err(e) => deliver_error(e),
            }
        })
    }

    #[pyo3(signature = (message, notify = true))]
    fn update_status<'py>(&self, py: Python<'py>, message: String, notify: bool) -> PyResult<Bound<'py, PyAny>> {
        let task = self.task.clone();
        awaitable(py, async move {
            match task.update_status(message, notify).await {
                Ok(()) => ok(()),
                Err(e) => deliver_error(e),
            }
        })
    }

    /// Ends the task `completed` with `result` (a dict).
    fn complete<'py>(&self, py: Python<'py>, result: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let result = from_py(result)?;
        self.end(py, Ok(result))
    }

    /// Ends the task `failed` with `message`.
    fn fail<'py>(&self, py: Python<'py>, message: String) -> PyResult<Bound<'py, PyAny>> {
        self.end(py, Err(ErrorObject::internal(message)))
    }
}

impl NativeSpecTask {
    fn end<'py>(&self, py: Python<'py>, outcome: Result<Value, ErrorObject>) -> PyResult<Bound<'py, PyAny>> {
        let (task, done) = (self.task.clone(), self.done.clone());
        awaitable(py, async move {
            let ended = task.finish(outcome).await;
            done.cancel();
            match ended {
                Ok(()) => ok(()),
                Err(e) => deliver_error(e),
            }
        })
    }
}

/// `ctx.begin_spec_task(task)`: the request's `task` params (a dict) → an awaitable of
/// `(CreateTaskResult dict, NativeSpecTask)` (core's `Context::begin_spec_task`).
pub fn begin<'py>(
    py: Python<'py>,
    cx: ferrymcp_core::server::Context,
    task: &Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyAny>> {
    let Value::Object(params) = from_py(task.as_any())? else {
        return Err(PyValueError::new_err("the task params must be a dict"));
    };
    awaitable(py, async move {
        match cx.begin_spec_task(&params).await {
            Ok((created, task)) => {
                let (batch, batched) = input_batch(task.context().clone());
                let done = CancellationToken::new();
                let stop = done.clone();
                runtime().spawn(async move { batched.run(stop.cancelled_owned()).await });
                let cx = task.context().clone();
                let task = Arc::new(task);
                Box::new(move |py: Python<'_>| {
                    let context = Py::new(py, NativeContext { cx, batch })?;
                    let native = Py::new(py, NativeSpecTask { task, context, done })?;
                    Ok(PyTuple::new(py, [to_py(py, &created)?, native.into_bound(py).into_any()])?.into_any().unbind())
                })
            }
            Err(e) => deliver_error(e),
        }
    })
}

/// The official `validate_task_mode` rule (core's `check_spec_task_mode`): `None` when a
/// call with (`requested`) or without `task` params fits a tool whose `taskSupport` is
/// `mode` (`"forbidden"`, `"optional"`, `"required"`; `None` is `"forbidden"`), else the
/// refusal as `(code, message)`.
#[pyfunction]
#[pyo3(signature = (mode, requested))]
pub fn check_task_mode(mode: Option<&str>, requested: bool) -> PyResult<Option<(i64, String)>> {
    let support = match mode.unwrap_or("forbidden") {
        "forbidden" => TaskSupport::Forbidden,
        "optional" => TaskSupport::Optional,
        "required" => TaskSupport::Required,
        other => return Err(PyValueError::new_err(format!("unknown taskSupport {other:?}"))),
    };
    Ok(check_spec_task_mode(support, requested).map(|e| (e.code, e.message)))
}

/// Whether a task in `status` (the wire's word) is over (core's `is_terminal_task_status`).
#[pyfunction]
pub fn is_terminal_task_status(status: &str) -> PyResult<bool> {
    let status = serde_json::from_value(Value::String(status.to_owned()))
        .map_err(|_| PyValueError::new_err(format!("unknown task status {status:?}")))?;
    Ok(ferrymcp_core::server::is_terminal_task_status(status))
}
