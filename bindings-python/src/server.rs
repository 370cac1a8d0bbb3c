//! `NativeServer`: core's Server with Python callables as its handlers.

use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::peer::BoxFuture;
use ferrymcp_core::server::{
    APPLICATION_ANSWERED, CacheHint, CompletionHandler, Context, Dialect, Features, HandlerFuture, NotificationHandler,
    PromptHandler, RequestHandler, ResourceHandler, Server, ServerOptions, ServerSession, StateCodec, StateCodecHandle,
    TaskStart, ToolHandler, ToolOptions, input_batch,
};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use serde_json::{Map, Value};

use crate::asgi::NativeHttpHandler;
use crate::bridge::{awaitable, fail, handle_for, ok, running_loop};
use crate::call::{LoopCell, PyCallable};
use crate::context::{Json, NativeContext};
use crate::convert::{from_py, object_to_py, to_py};
use crate::errors::{registry_error, rpc_error};
use crate::http;
use crate::middleware::PyMiddleware;
use crate::port::NativePort;
use ferrymcp_core::protocol::ServerCapabilities;
use ferrymcp_core::server::http::HttpHandler;

#[pyclass(module = "ferrymcp._native", frozen)]
pub struct NativeServer {
    pub server: Server,
    pub event_loop: LoopCell,
}

/// A Python callable as every kind of core handler.
struct PyHandler(Arc<PyCallable>);

impl PyHandler {
    /// Calls the function with `args(py)` and a context; core makes the input it asks for
    /// (grouped into rounds by core's input batch, flushed from the asyncio loop).
    fn run(
        &self,
        cx: Context,
        args: impl for<'py> FnOnce(Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> + Send + 'static,
    ) -> HandlerFuture {
        let (batch, handler) = input_batch(cx.clone());
        let call = self.0.clone().call(move |py| {
            let mut args = args(py)?;
            args.push(Bound::new(py, NativeContext { cx, batch })?.into_any());
            PyTuple::new(py, args)
        });
        Box::pin(handler.run(call))
    }
}

impl ToolHandler for PyHandler {
    fn call(&self, arguments: Map<String, Value>, cx: Context) -> HandlerFuture {
        self.run(cx, move |py| Ok(vec![object_to_py(py, &arguments)?.into_any()]))
    }
}

impl ResourceHandler for PyHandler {
    fn read(&self, uri: String, variables: Map<String, Value>, cx: Context) -> HandlerFuture {
        self.run(cx, move |py| Ok(vec![uri.into_pyobject(py)?.into_any(), object_to_py(py, &variables)?.into_any()]))
    }
}

impl PromptHandler for PyHandler {
    fn get(&self, arguments: Map<String, Value>, cx: Context) -> HandlerFuture {
        self.run(cx, move |py| Ok(vec![object_to_py(py, &arguments)?.into_any()]))
    }
}

impl CompletionHandler for PyHandler {
    fn complete(&self, params: Map<String, Value>, cx: Context) -> HandlerFuture {
        self.run(cx, move |py| Ok(vec![object_to_py(py, &params)?.into_any()]))
    }
}

impl RequestHandler for PyHandler {
    fn handle(&self, params: Map<String, Value>, cx: Context) -> HandlerFuture {
        self.run(cx, move |py| Ok(vec![object_to_py(py, &params)?.into_any()]))
    }
}

/// A Python callable `(params)` for a client notification (the Python layer logs what it
/// raises; nothing goes back to the client).
struct PyNotificationHandler(Arc<PyCallable>);

impl NotificationHandler for PyNotificationHandler {
    fn handle(&self, params: Value, _session: Option<ServerSession>) -> BoxFuture<()> {
        let call = self.0.clone();
        Box::pin(async move {
            let _ = call.call(move |py| PyTuple::new(py, [to_py(py, &params)?])).await;
        })
    }
}

/// `RequestStateSecurity(codec=...)`: the application's object with `seal(bytes) -> str`
/// and `unseal(str) -> bytes`, called with the GIL taken on the request's thread (core
/// calls a codec synchronously; the official SDK's codecs are synchronous too). Whatever
/// `unseal` raises fails the retry as an integrity failure, as core fails any bad token.
struct PyStateCodec(Py<PyAny>);

impl StateCodec for PyStateCodec {
    fn seal(&self, payload: &[u8]) -> Result<String, String> {
        Python::attach(|py| {
            let token = self.0.bind(py).call_method1("seal", (PyBytes::new(py, payload),))?;
            token.extract::<String>()
        })
        .map_err(|e| e.to_string())
    }

    fn unseal(&self, token: &str) -> Result<Vec<u8>, String> {
        Python::attach(|py| {
            let payload = self.0.bind(py).call_method1("unseal", (token,))?;
            Ok::<_, PyErr>(payload.cast::<PyBytes>()?.as_bytes().to_vec())
        })
        .map_err(|e| e.to_string())
    }
}

fn options(options: Option<&Bound<'_, PyDict>>) -> PyResult<ServerOptions> {
    let mut parsed = ServerOptions::default();
    let Some(options) = options else { return Ok(parsed) };
    let options = options.copy()?;
    if let Some(codec) = options.get_item("state_codec")? {
        options.del_item("state_codec")?;
        parsed.state_codec = Some(StateCodecHandle(Arc::new(PyStateCodec(codec.unbind()))));
    }
    let Value::Object(map) = from_py(options.as_any())? else { unreachable!("a dict is an object") };
    parsed.page_size = map.get("page_size").and_then(Value::as_u64).map(|n| n as usize);
    // Absent: core's default cap (the official 1024).
    if let Some(cap) = map.get("max_listen_streams").and_then(Value::as_u64) {
        parsed.max_listen_streams = Some(cap as usize);
    }
    if let Some(Value::Object(hints)) = map.get("cache_hints") {
        let hints = hints.iter().map(|(method, hint)| {
            let hint = CacheHint {
                ttl_ms: hint.get("ttl_ms").and_then(Value::as_u64).unwrap_or(0),
                public: hint.get("scope").and_then(Value::as_str) == Some("public"),
            };
            (method.as_str(), hint)
        });
        parsed.set_cache_hints(hints).map_err(|e| PyValueError::new_err(format!("cache_hints: {e}")))?;
    }
    if let Some(features) = map.get("features_up_front") {
        parsed.features_up_front = features_up_front(features)?;
    }
    if let Some(names) = map.get("tool_error_names_tool").and_then(Value::as_bool) {
        parsed.tool_error_names_tool = names;
    }
    if let Some(as_result) = map.get("unknown_tool_is_result").and_then(Value::as_bool) {
        parsed.unknown_tool_is_result = as_result;
    }
    // Whose answers (core/src/server/dialect.rs): the Python API selects the official
    // Python SDK's.
    match map.get("dialect").and_then(Value::as_str) {
        None => {}
        Some("python-sdk") => parsed.dialect = Dialect::PythonSdk,
        // The official 1.x API's answers where 2.x's differ (`ServerOptions::python_v1`).
        Some("python-sdk-1") => (parsed.dialect, parsed.python_v1) = (Dialect::PythonSdk, true),
        Some("ferrymcp") => parsed.dialect = Dialect::Ferrymcp,
        Some(other) => return Err(PyValueError::new_err(format!("dialect: unknown dialect {other:?}"))),
    }
    if let Some(seconds) = map.get("request_timeout").and_then(Value::as_f64) {
        parsed.peer.request_timeout = Duration::from_secs_f64(seconds);
    }
    if let Some(key) = map.get("state_key") {
        let key = key.as_str().ok_or_else(|| PyValueError::new_err("state_key must be a str"))?;
        parsed.state_key = Some(key.as_bytes().to_vec());
    }
    // `RequestStateSecurity(keys=[...])`: the ring as hex, the first one sealing.
    if let Some(Value::Array(keys)) = map.get("state_keys_hex") {
        let mut keys = keys
            .iter()
            .map(|key| key.as_str().and_then(from_hex).ok_or_else(|| PyValueError::new_err("state_keys_hex: not hex")));
        parsed.state_key = keys.next().transpose()?;
        parsed.previous_state_keys = keys.collect::<PyResult<_>>()?;
    }
    if let Some(audience) = map.get("state_audience").and_then(Value::as_str) {
        parsed.state_audience = Some(audience.to_owned());
    }
    if let Some(sealed) = map.get("seal_handler_state").and_then(Value::as_bool) {
        parsed.seal_handler_state = sealed;
    }
    if let Some(seconds) = map.get("state_ttl").and_then(Value::as_f64) {
        parsed.state_ttl =
            Duration::try_from_secs_f64(seconds).map_err(|e| PyValueError::new_err(format!("state_ttl: {e}")))?;
    }
    Ok(parsed)
}

fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

/// The lists the Python API registers when the server is built (core declares them while
/// empty): a list of `"tools"`, `"resources"`, `"prompts"`.
fn features_up_front(names: &Value) -> PyResult<Features> {
    let mut features = Features::NONE;
    for name in names.as_array().into_iter().flatten() {
        match name.as_str() {
            Some("tools") => features.tools = true,
            Some("resources") => features.resources = true,
            Some("prompts") => features.prompts = true,
            _ => return Err(PyValueError::new_err(format!("features_up_front: unknown feature {name}"))),
        }
    }
    Ok(features)
}

impl NativeServer {
    fn handler(&self, function: Py<PyAny>, is_async: bool) -> PyHandler {
        PyHandler(Arc::new(PyCallable { function, is_async, event_loop: self.event_loop.clone() }))
    }

    /// Remembers the running asyncio loop: async handlers run on it.
    pub fn capture_loop(&self, py: Python<'_>) -> PyResult<()> {
        let running = running_loop(py)?;
        let handle = handle_for(&running)?;
        *self.event_loop.lock().unwrap() = Some((running.unbind(), handle));
        Ok(())
    }
}

#[pymethods]
impl NativeServer {
    #[new]
    #[pyo3(signature = (info, instructions = None, options = None))]
    fn new(
        py: Python<'_>,
        info: &Bound<'_, PyDict>,
        instructions: Option<String>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        crate::logs::start(py)?;
        let options = self::options(options)?;
        let server =
            Server::try_with_info(from_py(info.as_any())?, instructions, options).map_err(PyValueError::new_err)?;
        Ok(Self { server, event_loop: Default::default() })
    }

    /// `task_start`: where a task-supporting tool's task starts, `"at_call"` or
    /// `"on_request"` (when the handler calls `start_task`).
    /// `argument_wording(arguments) -> str | None` (sync, run on a worker thread) words
    /// the problems core finds in a call's arguments (pydantic's words, for a tool made
    /// from a function); core still decides that they are invalid and the answer's shape.
    #[pyo3(signature = (definition, handler, is_async, task_start = "at_call", argument_wording = None))]
    fn add_tool(
        &self,
        definition: &Bound<'_, PyAny>,
        handler: Py<PyAny>,
        is_async: bool,
        task_start: &str,
        argument_wording: Option<Py<PyAny>>,
    ) -> PyResult<()> {
        let task_start = match task_start {
            "at_call" => TaskStart::AtCall,
            "on_request" => TaskStart::OnRequest,
            other => {
                return Err(PyValueError::new_err(format!(
                    "task_start must be \"at_call\" or \"on_request\", not {other:?}"
                )));
            }
        };
        let handler = self.handler(handler, is_async);
        let argument_wording = argument_wording.map(|function| {
            let call = Arc::new(PyCallable { function, is_async: false, event_loop: self.event_loop.clone() });
            Arc::new(move |arguments: Value| {
                let call = call.clone();
                Box::pin(async move {
                    let worded = call.call(move |py| PyTuple::new(py, [to_py(py, &arguments)?])).await;
                    worded.ok().and_then(|text| text.as_str().map(str::to_owned))
                }) as BoxFuture<Option<String>>
            }) as ferrymcp_core::server::ArgumentWording
        });
        let options = ToolOptions { task_start, argument_wording, ..ToolOptions::default() };
        self.server.add_tool_with(from_py(definition)?, handler, options).map_err(registry_error)
    }

    fn add_resource(&self, definition: &Bound<'_, PyAny>, handler: Py<PyAny>, is_async: bool) -> PyResult<()> {
        self.server.add_resource(from_py(definition)?, self.handler(handler, is_async)).map_err(registry_error)
    }

    fn add_resource_template(&self, definition: &Bound<'_, PyAny>, handler: Py<PyAny>, is_async: bool) -> PyResult<()> {
        self.server.add_resource_template(from_py(definition)?, self.handler(handler, is_async)).map_err(registry_error)
    }

    fn add_prompt(&self, definition: &Bound<'_, PyAny>, handler: Py<PyAny>, is_async: bool) -> PyResult<()> {
        self.server.add_prompt(from_py(definition)?, self.handler(handler, is_async)).map_err(registry_error)
    }

    fn set_completion_handler(&self, handler: Py<PyAny>, is_async: bool) {
        self.server.set_completion_handler(self.handler(handler, is_async));
    }

    /// Declares the 2025-11-25 tasks to that revision's sessions whatever the tools say
    /// (the official `server.experimental.enable_tasks()`; core's `enable_spec_tasks`).
    fn enable_spec_tasks(&self) {
        self.server.enable_spec_tasks();
    }

    /// Keeps the 2025-11-25 tasks in the application's `TaskStore`, through `call(operation,
    /// args)` (async, on the server's loop: see `task_store`).
    fn set_task_store(&self, call: Py<PyAny>) {
        let callable = PyCallable { function: call, is_async: true, event_loop: self.event_loop.clone() };
        self.server.set_task_store(Arc::new(crate::task_store::task_store(callable)));
    }

    /// Serves request `method` with `handler(params, ctx) -> result dict`: one of MCP's
    /// feature methods the application answers itself (core's `APPLICATION_ANSWERED`:
    /// `tools/list`, `tools/call`, ...; the low-level `Server`), or one of its own.
    /// `ValueError` for MCP's other methods.
    fn set_request_handler(&self, method: &str, handler: Py<PyAny>, is_async: bool) -> PyResult<()> {
        let handler = self.handler(handler, is_async);
        let set = if APPLICATION_ANSWERED.contains(&method) {
            self.server.set_feature_handler(method, handler)
        } else {
            self.server.set_request_handler(method, handler)
        };
        set.map_err(registry_error)
    }

    /// Runs `chain(message, next)` (async, on the server's loop) around every inbound
    /// message; `None` removes it. See `crate::middleware`.
    #[pyo3(signature = (chain))]
    fn set_middleware(&self, chain: Option<Py<PyAny>>) {
        let middleware = chain.map(|function| {
            let call = Arc::new(PyCallable { function, is_async: true, event_loop: self.event_loop.clone() });
            Arc::new(PyMiddleware(call)) as Arc<dyn ferrymcp_core::server::Middleware>
        });
        self.server.set_middleware(middleware);
    }

    /// Delivers client notification `method` to `handler(params)` (on the server's loop).
    fn set_notification_handler(&self, method: &str, handler: Py<PyAny>, is_async: bool) -> PyResult<()> {
        let call = Arc::new(PyCallable { function: handler, is_async, event_loop: self.event_loop.clone() });
        self.server.set_notification_handler(method, PyNotificationHandler(call)).map_err(registry_error)
    }

    /// Merges `capabilities` (a `ServerCapabilities` dict) over what core derives and what
    /// was registered before.
    fn register_capabilities(&self, capabilities: &Bound<'_, PyAny>) -> PyResult<()> {
        let capabilities: ServerCapabilities = serde_json::from_value(from_py(capabilities)?)
            .map_err(|e| PyValueError::new_err(format!("capabilities: {e}")))?;
        self.server.register_capabilities(&capabilities).map_err(PyValueError::new_err)
    }

    fn remove_tool(&self, name: &str) -> bool {
        self.server.remove_tool(name)
    }

    fn remove_resource(&self, uri: &str) -> bool {
        self.server.remove_resource(uri)
    }

    fn remove_prompt(&self, name: &str) -> bool {
        self.server.remove_prompt(name)
    }

    /// Serves stdin and stdout; the awaitable finishes when stdin closes.
    fn serve_stdio<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.capture_loop(py)?;
        let server = self.server.clone();
        awaitable(py, async move {
            match server.serve_stdio().await {
                Ok(_) => ok(()),
                Err(e) => fail(move |_| PyOSError::new_err(e.to_string())),
            }
        })
    }

    /// Serves the connection whose messages `port` carries (streams the program made); the
    /// awaitable finishes when the connection closes.
    fn serve_port<'py>(&self, py: Python<'py>, port: &NativePort) -> PyResult<Bound<'py, PyAny>> {
        self.capture_loop(py)?;
        let (source, sink) = port.take_engine()?;
        let server = self.server.clone();
        awaitable(py, async move {
            server.serve(source, sink).await;
            ok(())
        })
    }

    /// Serves Streamable HTTP (both eras) at `host:port` with the endpoint `options` (see
    /// `http::options`), over TLS when given `tls` (certificate chain file, key file, PEM);
    /// the awaitable gives the running `NativeHttpServer` once it listens.
    #[pyo3(signature = (host, port, options, tls = None))]
    fn serve_http<'py>(
        &self,
        py: Python<'py>,
        host: String,
        port: u16,
        options: &Bound<'py, PyDict>,
        tls: Option<(std::path::PathBuf, std::path::PathBuf)>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.capture_loop(py)?;
        let handler = HttpHandler::new(self.server.clone(), http::options(options, &self.event_loop)?);
        http::start(py, handler, &host, port, tls)
    }

    /// The Streamable HTTP endpoint for an ASGI app; handlers run on the calling loop.
    fn http_handler(&self, py: Python<'_>, options: &Bound<'_, PyDict>) -> PyResult<NativeHttpHandler> {
        self.capture_loop(py)?;
        let options = http::options(options, &self.event_loop)?;
        let max_body = options.max_body;
        Ok(NativeHttpHandler { handler: HttpHandler::new(self.server.clone(), options), max_body })
    }

    /// Calls a tool in process through core's `tools/call` path (schema checks, a failure
    /// as an `isError` result, output checks); the awaitable gives the `CallToolResult` as
    /// a dict, or raises the JSON-RPC error a client would get.
    fn call_tool<'py>(
        &self,
        py: Python<'py>,
        name: String,
        arguments: &Bound<'py, PyDict>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.capture_loop(py)?;
        let Value::Object(arguments) = from_py(arguments.as_any())? else { unreachable!("a dict is an object") };
        let server = self.server.clone();
        awaitable(py, async move {
            match server.call_tool(&name, arguments).await {
                Ok(result) => ok(Json(result)),
                Err(error) => fail(move |py| rpc_error(py, &error)),
            }
        })
    }

    fn notify_tools_changed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let server = self.server.clone();
        awaitable(py, async move {
            server.notify_tools_changed().await;
            ok(())
        })
    }

    fn notify_prompts_changed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let server = self.server.clone();
        awaitable(py, async move {
            server.notify_prompts_changed().await;
            ok(())
        })
    }

    fn notify_resources_changed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let server = self.server.clone();
        awaitable(py, async move {
            server.notify_resources_changed().await;
            ok(())
        })
    }

    fn notify_resource_updated<'py>(&self, py: Python<'py>, uri: String) -> PyResult<Bound<'py, PyAny>> {
        let server = self.server.clone();
        awaitable(py, async move {
            server.notify_resource_updated(&uri).await;
            ok(())
        })
    }

    /// From now on the application's subscription bus carries the listen streams' events
    /// (see `Server::carry_listen_events`).
    fn carry_listen_events(&self) {
        self.server.carry_listen_events();
    }

    /// Delivers a list change or resource update to this server's listen streams.
    fn notify_listeners<'py>(
        &self,
        py: Python<'py>,
        method: String,
        params: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let params = from_py(params)?;
        let server = self.server.clone();
        awaitable(py, async move {
            server.notify_listeners(&method, params).await;
            ok(())
        })
    }

    /// Ends every open listen stream gracefully.
    fn close_listen_streams(&self) {
        self.server.close_listen_streams();
    }
}

/// `RequestStateSecurity(keys=[...])`'s check of its ring, core's rule
/// (`check_state_keys`: secret randomness, at least 32 bytes each); a `ValueError` naming
/// the short key, with how to make one.
#[pyfunction]
pub fn check_state_keys(keys: Vec<Vec<u8>>) -> PyResult<()> {
    ferrymcp_core::server::check_state_keys(&keys).map_err(|message| {
        PyValueError::new_err(format!(
            "{message} Generate one with: python -c \"import secrets; print(secrets.token_hex(32))\""
        ))
    })
}

/// `require_client_extension(ctx, identifier)`'s rule, core's (`require_client_extension`):
/// `McpError` -32021 unless `capabilities` (what the client declared, as JSON) lists the
/// extension.
#[pyfunction]
pub fn require_client_extension(py: Python<'_>, capabilities: &Bound<'_, PyAny>, identifier: &str) -> PyResult<()> {
    let capabilities: Value = crate::convert::from_py(capabilities)?;
    ferrymcp_core::server::require_client_extension(&capabilities, identifier)
        .map_err(|error| crate::errors::rpc_error(py, &error))
}
