//! `NativeGroup`: core's client group (`ferrymcp_core::host::group`), and core's LLM API
//! shapes (`ferrymcp_core::host::llm`). The group decides everything (names, routing,
//! reconnects); this file converts values and maps errors.

use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::host::config::McpConfig;
use ferrymcp_core::host::group::{ClientGroup, GroupError, GroupOptions};
use ferrymcp_core::host::llm::{self, LlmApi};
use ferrymcp_core::peer::RequestOptions;
use ferrymcp_core::proxy::gateway::{EventCallback, UpstreamEvent};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::{Value, json};

use crate::bridge::{awaitable, fail, ok};
use crate::client::prepare;
use crate::context::Json;
use crate::convert::{from_py, to_py};
use crate::errors::client_error;

#[pyclass(module = "ferrymcp._native", frozen)]
pub struct NativeGroup {
    group: ClientGroup,
}

fn group_error(py: Python<'_>, error: GroupError) -> PyErr {
    match error {
        GroupError::Client { error, .. } => client_error(py, error),
        other => {
            let (code, message) = (other.code(), other.to_string());
            let class = if matches!(other, GroupError::NotConnected { .. }) { "ConnectionClosed" } else { "McpError" };
            match py.import("ferrymcp.exceptions").and_then(|m| m.getattr(class)).and_then(|c| c.call1((code, message)))
            {
                Ok(error) => PyErr::from_value(error),
                Err(e) => e,
            }
        }
    }
}

fn api(name: &str) -> PyResult<LlmApi> {
    name.parse().map_err(PyValueError::new_err)
}

#[pymethods]
impl NativeGroup {
    /// Connects to every server of `config` (an `mcp.json` file's content) at once; an
    /// awaitable of the group, once each has connected or failed its first attempt.
    #[staticmethod]
    /// `events(name, event, detail)` is called on the loop as each server connects
    /// (`"connected"`), fails an attempt (`"failed"`, the error) or loses its connection
    /// (`"lost"`).
    #[pyo3(signature = (config, connect_timeout, min_backoff, max_backoff, options = None, callbacks = None, events = None))]
    #[allow(clippy::too_many_arguments)]
    fn connect<'py>(
        py: Python<'py>,
        config: &Bound<'py, PyAny>,
        connect_timeout: f64,
        min_backoff: f64,
        max_backoff: f64,
        options: Option<&Bound<'py, PyDict>>,
        callbacks: Option<&Bound<'py, PyDict>>,
        events: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let config = McpConfig::from_value(from_py(config)?).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let seconds = |name: &str, value: f64| {
            Duration::try_from_secs_f64(value).map_err(|_| PyValueError::new_err(format!("{name} must be >= 0")))
        };
        let group_options = GroupOptions {
            connect_timeout: seconds("connect_timeout", connect_timeout)?,
            min_backoff: seconds("min_backoff", min_backoff)?,
            max_backoff: seconds("max_backoff", max_backoff)?,
        };
        let (handle, options, callbacks) = prepare(py, options, callbacks)?;
        let events = events.map(|function| {
            let function = Arc::new(function);
            let events: EventCallback = Arc::new(move |name: &str, event: UpstreamEvent| {
                let (kind, detail) = match event {
                    UpstreamEvent::Connected { .. } => ("connected", None),
                    UpstreamEvent::Failed { error, .. } => ("failed", Some(error)),
                    UpstreamEvent::Lost { .. } => ("lost", None),
                };
                let (function, name) = (function.clone(), name.to_owned());
                handle.post(Box::new(move |py| {
                    let _ = function.bind(py).call1((name, kind, detail));
                }));
            });
            events
        });
        awaitable(py, async move {
            let callbacks = Arc::new(move |_: &str| callbacks.clone());
            match ClientGroup::from_config(&config, group_options, options, callbacks, events).await {
                Ok(group) => ok(NativeGroup { group }),
                Err(e) => fail(move |py| group_error(py, e)),
            }
        })
    }

    /// Each server: `{"name", "state", "error"?, "connections", "pid"?}`.
    fn servers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &Value::Array(self.group.servers().iter().map(|s| s.to_json()).collect()))
    }

    /// Gathers every connected server's tools: `[{"name", "server", "tool"}]`, `tool` with
    /// the group's name.
    fn list_tools<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let group = self.group.clone();
        awaitable(py, async move {
            let tools = group.list_tools().await;
            let tools = tools.iter().map(|t| json!({"name": t.name, "server": t.server, "tool": t.definition()}));
            ok(Json(Value::Array(tools.collect())))
        })
    }

    #[pyo3(signature = (name, arguments = None, timeout = None))]
    fn call_tool<'py>(
        &self,
        py: Python<'py>,
        name: String,
        arguments: Option<&Bound<'py, PyAny>>,
        timeout: Option<f64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let arguments = match arguments {
            Some(arguments) => from_py(arguments)?,
            None => json!({}),
        };
        let group = self.group.clone();
        let options = RequestOptions { timeout: timeout.map(Duration::from_secs_f64), ..RequestOptions::default() };
        awaitable(py, async move {
            match group.call_tool(&name, arguments, options).await {
                Ok(result) => ok(Json(result)),
                Err(e) => fail(move |py| group_error(py, e)),
            }
        })
    }

    fn close<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let group = self.group.clone();
        awaitable(py, async move {
            group.close().await;
            ok(())
        })
    }
}

/// MCP tool definitions as `api`'s `tools` parameter.
#[pyfunction]
pub fn llm_tool_definitions<'py>(py: Python<'py>, api: &str, tools: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let Value::Array(tools) = from_py(tools)? else { return Err(PyValueError::new_err("tools must be a list")) };
    to_py(py, &llm::tool_definitions(self::api(api)?, &tools))
}

/// A tool result as the items `api` takes for the answer to `call_id`.
#[pyfunction]
pub fn llm_tool_result<'py>(
    py: Python<'py>,
    api: &str,
    call_id: &str,
    result: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    to_py(py, &llm::tool_result(self::api(api)?, call_id, &from_py(result)?))
}
