//! `NativeClient`: core's Client, with Python callables answering the server.

use std::collections::HashMap;
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::client::cache::{CacheConfig, CacheMode};
use ferrymcp_core::client::child::ChildCommand;
use ferrymcp_core::client::http::{ClientTls, HttpClientOptions, HttpExchange};
use ferrymcp_core::client::{
    Client, ClientCallbacks, ClientError, ClientOptions, EraPreference, InputCallback, ResultClaim, Subscription,
    TaskCall,
};
use ferrymcp_core::peer::{Progress, RequestOptions};
use ferrymcp_core::transport::memory;
use ferrymcp_core::wire::ErrorObject;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use serde_json::{Value, json};

use crate::bridge::{LoopHandle, awaitable, fail, handle_for, ok, running_loop};
use crate::call::{LoopCell, PyCallable};
use crate::context::Json;
use crate::convert::{from_py, to_py};
use crate::errors::client_error;
use crate::exchange::PyExchange;
use crate::port::NativePort;
use crate::server::NativeServer;

#[pyclass(module = "ferrymcp._native", frozen)]
pub struct NativeClient {
    client: Client,
    handle: LoopHandle,
}

fn client_options(options: Option<&Bound<'_, PyDict>>) -> PyResult<ClientOptions> {
    let mut parsed = ClientOptions::python();
    let Some(options) = options else { return Ok(parsed) };
    let plain = options.copy()?;
    if plain.contains("cache")? {
        plain.del_item("cache")?;
    }
    let Value::Object(map) = from_py(plain.as_any())? else { unreachable!("a dict is an object") };
    if let Some(info) = map.get("info").filter(|i| !i.is_null()) {
        parsed.info = info.clone();
    }
    parsed.log_level = map.get("log_level").and_then(Value::as_str).map(str::to_owned);
    if let Some(capabilities) = map.get("capabilities") {
        parsed.capabilities = capabilities.clone();
    }
    parsed.era = match map.get("era").and_then(Value::as_str).unwrap_or("auto") {
        "auto" => EraPreference::Auto,
        "legacy" => EraPreference::Legacy,
        "modern" | "2026-07-28" => EraPreference::Modern,
        "pinned" => EraPreference::Pinned,
        other => return Err(PyValueError::new_err(format!("unknown mode {other:?} (auto, legacy or 2026-07-28)"))),
    };
    parsed.prior_discover = map.get("prior_discover").filter(|d| !d.is_null()).cloned();
    if let Some(seconds) = map.get("read_timeout_seconds").and_then(Value::as_f64) {
        parsed.peer.request_timeout = Duration::from_secs_f64(seconds);
    }
    parsed.cache = cache_config(options)?;
    if let Some(claims) = map.get("result_claims") {
        parsed.result_claims = result_claims(claims)?;
    }
    Ok(parsed)
}

/// `options["result_claims"]`: a list of `{extension, result_type, method,
/// protocol_versions}` (the binding's `ResultClaim`s by extension).
fn result_claims(claims: &Value) -> PyResult<Vec<ResultClaim>> {
    let invalid = || PyValueError::new_err("result_claims must be a list of claim objects");
    let text = |claim: &Value, key: &str| claim.get(key).and_then(Value::as_str).map(str::to_owned).ok_or_else(invalid);
    let claims = claims.as_array().ok_or_else(invalid)?;
    claims
        .iter()
        .map(|claim| {
            let protocol_versions = match claim.get("protocol_versions") {
                None | Some(Value::Null) => None,
                Some(Value::Array(versions)) => Some(
                    versions
                        .iter()
                        .map(|v| v.as_str().map(str::to_owned).ok_or_else(invalid))
                        .collect::<PyResult<_>>()?,
                ),
                Some(_) => return Err(invalid()),
            };
            Ok(ResultClaim {
                extension: text(claim, "extension")?,
                result_type: text(claim, "result_type")?,
                method: text(claim, "method")?,
                protocol_versions,
            })
        })
        .collect()
}

/// Checks a client's result claims together against `capabilities` (core's
/// `check_claims`: a tag claimed once, by a declared extension).
#[pyfunction]
pub fn check_result_claims(claims: &Bound<'_, PyAny>, capabilities: &Bound<'_, PyAny>) -> PyResult<()> {
    let claims = result_claims(&from_py(claims)?)?;
    ferrymcp_core::client::claims::check_claims(&claims, &from_py(capabilities)?).map_err(PyValueError::new_err)
}

/// Checks one result claim as it is made (core's rule; the official `ResultClaim`'s
/// `ValueError`s).
#[pyfunction]
#[pyo3(signature = (result_type, method, protocol_versions = None))]
pub fn check_result_claim(result_type: &str, method: &str, protocol_versions: Option<Vec<String>>) -> PyResult<()> {
    ResultClaim::check(result_type, method, protocol_versions.as_deref()).map_err(PyValueError::new_err)
}

/// `options["cache"]`: absent or `None` turns the cache off; otherwise a dict of the
/// `CacheConfig` fields (`partition`, `target_id`, `default_ttl_ms`, `share_public`,
/// `max_entries`, and `clock`, a callable returning epoch seconds).
fn cache_config(options: &Bound<'_, PyDict>) -> PyResult<Option<CacheConfig>> {
    let Some(cache) = options.get_item("cache")? else { return Ok(None) };
    if cache.is_none() {
        return Ok(None);
    }
    let cache = cache.cast::<PyDict>()?;
    let field = |name: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
        Ok(cache.get_item(name)?.filter(|value| !value.is_none()))
    };
    let mut config = CacheConfig::python();
    if let Some(partition) = field("partition")? {
        config.partition = partition.extract()?;
    }
    config.target_id = field("target_id")?.map(|t| t.extract()).transpose()?;
    if let Some(ttl) = field("default_ttl_ms")? {
        let ttl: i64 = ttl.extract()?;
        config.default_ttl_ms =
            u64::try_from(ttl).map_err(|_| PyValueError::new_err(format!("default_ttl_ms must be >= 0, got {ttl}")))?;
    }
    if let Some(share) = field("share_public")? {
        config.share_public = share.extract()?;
    }
    if let Some(max) = field("max_entries")? {
        config.max_entries = max.extract()?;
    }
    if let Some(clock) = field("clock")? {
        let clock = clock.unbind();
        config.clock = Some(Arc::new(move || {
            Python::attach(|py| match clock.bind(py).call0().and_then(|now| now.extract::<f64>()) {
                Ok(now) => now,
                Err(e) => {
                    e.print(py);
                    f64::NAN
                }
            })
        }));
    }
    config.check().map_err(PyValueError::new_err)?;
    Ok(Some(config))
}

/// An async Python callable answering one kind of input.
fn input_callback(function: Py<PyAny>, event_loop: LoopCell) -> InputCallback {
    let callable = Arc::new(PyCallable { function, is_async: true, event_loop });
    Arc::new(move |params: Value| {
        let callable = callable.clone();
        Box::pin(async move {
            let call = callable.call(move |py| PyTuple::new(py, [to_py(py, &params)?]));
            call.await.map_err(|e| match e {
                ferrymcp_core::server::HandlerError::Rpc(e) => e,
                other => ErrorObject::internal(other.to_string()),
            })
        })
    })
}

fn callbacks(
    callbacks: Option<&Bound<'_, PyDict>>,
    event_loop: &Bound<'_, PyAny>,
    handle: &LoopHandle,
) -> PyResult<ClientCallbacks> {
    // The official Python client's answers where the SDKs differ (core's dialect): a
    // request without a callback is `-32600 Elicitation not supported` and the like.
    let mut parsed = ClientCallbacks { dialect: ferrymcp_core::server::Dialect::PythonSdk, ..Default::default() };
    let Some(callbacks) = callbacks else { return Ok(parsed) };
    let cell: LoopCell = Arc::new(std::sync::Mutex::new(Some((event_loop.clone().unbind(), handle.clone()))));
    let get = |name: &str| -> PyResult<Option<Py<PyAny>>> {
        Ok(callbacks.get_item(name)?.filter(|f| !f.is_none()).map(Bound::unbind))
    };
    parsed.sampling = get("sampling")?.map(|f| input_callback(f, cell.clone()));
    parsed.elicitation = get("elicitation")?.map(|f| input_callback(f, cell.clone()));
    parsed.roots = get("roots")?.map(|f| input_callback(f, cell.clone()));
    if let Some(function) = get("notification")? {
        let (handle, function) = (handle.clone(), Arc::new(function));
        parsed.notification = Some(Arc::new(move |method: &str, params: Value| {
            let (function, method) = (function.clone(), method.to_owned());
            handle.post(Box::new(move |py| {
                if let Ok(params) = to_py(py, &params) {
                    let _ = function.bind(py).call1((method, params));
                }
            }));
        }));
    }
    Ok(parsed)
}

/// What every way of connecting starts from: the loop's inbox, the options, the callbacks.
pub(crate) fn prepare(
    py: Python<'_>,
    options: Option<&Bound<'_, PyDict>>,
    callbacks: Option<&Bound<'_, PyDict>>,
) -> PyResult<(LoopHandle, ClientOptions, ClientCallbacks)> {
    let event_loop = running_loop(py)?;
    let handle = handle_for(&event_loop)?;
    let (options, callbacks) = (client_options(options)?, self::callbacks(callbacks, &event_loop, &handle)?);
    Ok((handle, options, callbacks))
}

/// An awaitable of the client `connecting` makes.
fn connected<'py>(
    py: Python<'py>,
    handle: LoopHandle,
    connecting: impl Future<Output = Result<Client, ClientError>> + Send + 'static,
) -> PyResult<Bound<'py, PyAny>> {
    awaitable(py, async move {
        match connecting.await {
            Ok(client) => ok(NativeClient { client, handle }),
            Err(e) => fail(move |py| client_error(py, e)),
        }
    })
}

#[pymethods]
impl NativeClient {
    /// Starts a server process and connects to it (an awaitable of the client).
    #[staticmethod]
    #[pyo3(signature = (command, args, env = None, cwd = None, options = None, callbacks = None))]
    fn spawn<'py>(
        py: Python<'py>,
        command: String,
        args: Vec<String>,
        env: Option<HashMap<String, String>>,
        cwd: Option<String>,
        options: Option<&Bound<'py, PyDict>>,
        callbacks: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (handle, options, callbacks) = prepare(py, options, callbacks)?;
        let mut spawn = ChildCommand::new(command).args(args);
        spawn.env = env.unwrap_or_default().into_iter().map(|(k, v)| (k.into(), v.into())).collect();
        spawn.cwd = cwd.map(Into::into);
        connected(py, handle, Client::spawn(spawn, options, callbacks))
    }

    /// Connects to a Streamable HTTP endpoint (either era, or the deprecated HTTP+SSE
    /// transport of old servers), sending `headers` and a bearer token with every request,
    /// or authorizing with OAuth (`oauth`, see `oauth.rs`). `ca_file` trusts only that PEM
    /// bundle (else the platform's store); `client_cert` is a certificate chain and key
    /// (PEM files) to present.
    #[staticmethod]
    /// `exchange` (an async `send(method, url, headers, body, sink)`, see `exchange.rs`)
    /// carries every request through the program's own httpx client instead.
    #[pyo3(signature = (url, headers = None, bearer_token = None, options = None, callbacks = None, oauth = None, ca_file = None, client_cert = None, exchange = None))]
    #[allow(clippy::too_many_arguments)]
    fn connect_http<'py>(
        py: Python<'py>,
        url: String,
        headers: Option<Vec<(String, String)>>,
        bearer_token: Option<String>,
        options: Option<&Bound<'py, PyDict>>,
        callbacks: Option<&Bound<'py, PyDict>>,
        oauth: Option<&Bound<'py, PyDict>>,
        ca_file: Option<PathBuf>,
        client_cert: Option<(PathBuf, PathBuf)>,
        exchange: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (handle, options, callbacks) = prepare(py, options, callbacks)?;
        let mut http = HttpClientOptions::new(url);
        if let Some(function) = exchange {
            let event_loop = running_loop(py)?.unbind();
            let cell: LoopCell = Arc::new(std::sync::Mutex::new(Some((event_loop, handle.clone()))));
            let callable = PyCallable { function, is_async: true, event_loop: cell };
            http.exchange = Some(HttpExchange(Arc::new(PyExchange(Arc::new(callable)))));
        }
        http.headers = headers.unwrap_or_default();
        http.bearer_token = bearer_token;
        if let Some(oauth) = oauth {
            let event_loop = running_loop(py)?.unbind();
            let cell: LoopCell = Arc::new(std::sync::Mutex::new(Some((event_loop, handle.clone()))));
            http.oauth = Some(crate::oauth::oauth(oauth, cell)?);
        }
        http.tls = ClientTls { ca_file, client_cert };
        connected(py, handle, Client::connect_http(http, options, callbacks))
    }

    /// Connects in memory to a server of this process.
    #[staticmethod]
    #[pyo3(signature = (server, options = None, callbacks = None))]
    fn connect_server<'py>(
        py: Python<'py>,
        server: &NativeServer,
        options: Option<&Bound<'py, PyDict>>,
        callbacks: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        server.capture_loop(py)?;
        let (handle, options, callbacks) = prepare(py, options, callbacks)?;
        let served = server.server.clone();
        connected(py, handle, async move {
            let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
            tokio::spawn(async move { served.serve(server_source, server_sink).await });
            Client::connect(client_source, client_sink, options, callbacks).await
        })
    }

    /// Connects over the messages `port` carries (streams the program made): era probe,
    /// then handshake, as over a pipe.
    #[staticmethod]
    #[pyo3(signature = (port, options = None, callbacks = None))]
    fn connect_port<'py>(
        py: Python<'py>,
        port: &NativePort,
        options: Option<&Bound<'py, PyDict>>,
        callbacks: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (handle, options, callbacks) = prepare(py, options, callbacks)?;
        let (source, sink) = port.take_engine()?;
        connected(py, handle, Client::connect(source, sink, options, callbacks))
    }

    fn server_details<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let details = self.client.server();
        to_py(
            py,
            &json!({
                "protocol_version": details.protocol_version,
                "modern": details.modern,
                "capabilities": details.capabilities,
                "info": details.info,
                "instructions": details.instructions,
                "discover": details.discover,
            }),
        )
    }

    /// Sends a request; resolves to the result dict. `progress(progress, total, message)`
    /// is called on the loop for each progress notification.
    /// `cache_mode` ("use", "refresh", "bypass") sends it through the response cache.
    /// `allow_input_required` returns a result asking for input as it is (no rounds).
    /// `validate_tool` (a `tools/call`'s tool name) checks the result against the tool's
    /// `outputSchema` (listing the tools first when the tool is unknown) before resolving, in
    /// the same future: no second trip across the FFI.
    // The Python call's keywords, one parameter each.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (method, params, timeout = None, progress = None, cache_mode = None, allow_input_required = false, validate_tool = None))]
    fn request<'py>(
        &self,
        py: Python<'py>,
        method: String,
        params: &Bound<'py, PyAny>,
        timeout: Option<f64>,
        progress: Option<Py<PyAny>>,
        cache_mode: Option<String>,
        allow_input_required: bool,
        validate_tool: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (client, params) = (self.client.clone(), from_py(params)?);
        let cache_mode = cache_mode.map(|mode| CacheMode::parse(&mode).map_err(PyValueError::new_err)).transpose()?;
        let mut options = RequestOptions { timeout: timeout.map(Duration::from_secs_f64), ..RequestOptions::default() };
        if let Some(function) = progress {
            let (handle, function) = (self.handle.clone(), Arc::new(function));
            options.on_progress = Some(Arc::new(move |p: Progress| {
                let function = function.clone();
                handle.post(Box::new(move |py| {
                    let _ = function.bind(py).call1((p.progress, p.total, p.message));
                }));
            }));
        }
        awaitable(py, async move {
            let answer = match cache_mode {
                _ if allow_input_required => client.request_once(&method, params, options).await,
                Some(mode) => client.cached_request(&method, params, options, mode).await,
                None => client.request(&method, params, options).await,
            };
            let answer = match (answer, validate_tool) {
                (Ok(result), Some(name)) => client.validate_tool_result(&name, &result).await.map(|()| result),
                (answer, _) => answer,
            };
            match answer {
                Ok(result) => ok(Json(result)),
                Err(e) => fail(move |py| client_error(py, e)),
            }
        })
    }

    /// Whether a `method` result tagged `result_type` is the shape of a result claim active
    /// on this connection (core's `Client::claimed`).
    fn claims(&self, method: &str, result_type: &str) -> bool {
        self.client.claimed(method, &json!({ "resultType": result_type })).is_some()
    }

    /// Checks a `tools/call` result of tool `name` against its `outputSchema` (core's).
    fn validate_tool_result<'py>(
        &self,
        py: Python<'py>,
        name: String,
        result: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (client, result) = (self.client.clone(), from_py(result)?);
        awaitable(py, async move {
            match client.validate_tool_result(&name, &result).await {
                Ok(()) => ok(()),
                Err(e) => fail(move |py| client_error(py, e)),
            }
        })
    }

    /// Every item of a paginated list.
    fn list_all<'py>(&self, py: Python<'py>, method: String, key: String) -> PyResult<Bound<'py, PyAny>> {
        let client = self.client.clone();
        awaitable(py, async move {
            match client.list_all(&method, &key).await {
                Ok(items) => ok(Json(Value::Array(items))),
                Err(e) => fail(move |py| client_error(py, e)),
            }
        })
    }

    fn close<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let client = self.client.clone();
        awaitable(py, async move {
            client.close().await;
            ok(())
        })
    }

    /// Sends `notifications/roots/list_changed`.
    fn send_roots_list_changed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let client = self.client.clone();
        awaitable(py, async move {
            match client.send_roots_list_changed().await {
                Ok(()) => ok(()),
                Err(e) => fail(move |py| client_error(py, e)),
            }
        })
    }

    /// Calls a tool as a task: resolves to `{"task": Task}`, or `{"result": CallToolResult}`
    /// when the server answered at once.
    #[pyo3(signature = (name, arguments, ttl = None, meta = None, timeout = None))]
    fn call_tool_as_task<'py>(
        &self,
        py: Python<'py>,
        name: String,
        arguments: &Bound<'py, PyAny>,
        ttl: Option<u64>,
        meta: Option<&Bound<'py, PyAny>>,
        timeout: Option<f64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (client, arguments) = (self.client.clone(), from_py(arguments)?);
        let meta = match meta.map(from_py).transpose()? {
            None | Some(Value::Null) => None,
            Some(Value::Object(meta)) => Some(meta),
            Some(_) => return Err(PyValueError::new_err("meta must be a dict")),
        };
        let options = RequestOptions { timeout: timeout.map(Duration::from_secs_f64), ..RequestOptions::default() };
        awaitable(py, async move {
            match client.call_tool_as_task(&name, arguments, ttl, meta, options).await {
                Ok(TaskCall::Task(task)) => ok(Json(json!({ "task": task }))),
                Ok(TaskCall::Result(result)) => ok(Json(json!({ "result": result }))),
                Err(e) => fail(move |py| client_error(py, e)),
            }
        })
    }

    /// `tasks/get`: the task (the official `Task` members).
    fn get_task<'py>(&self, py: Python<'py>, task_id: String) -> PyResult<Bound<'py, PyAny>> {
        let client = self.client.clone();
        awaitable(py, async move { json_outcome(client.get_task(&task_id).await.map(Value::Object)) })
    }

    /// One polling step: waits the interval `previous` suggests, then `tasks/get`; `None`
    /// once `previous` was terminal.
    #[pyo3(signature = (task_id, previous = None))]
    fn poll_task_step<'py>(
        &self,
        py: Python<'py>,
        task_id: String,
        previous: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let client = self.client.clone();
        let previous = match previous.map(from_py).transpose()? {
            Some(Value::Object(previous)) => Some(previous),
            _ => None,
        };
        awaitable(py, async move {
            let step = client.poll_task_step(&task_id, previous.as_ref()).await;
            json_outcome(step.map(|task| task.map_or(Value::Null, Value::Object)))
        })
    }

    /// `tasks/update` (2026-07-28): answers by input key.
    fn update_task<'py>(
        &self,
        py: Python<'py>,
        task_id: String,
        input_responses: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let Value::Object(responses) = from_py(input_responses)? else {
            return Err(PyValueError::new_err("input_responses must be a dict of answers by input key"));
        };
        let client = self.client.clone();
        awaitable(py, async move { json_outcome(client.update_task(&task_id, responses).await) })
    }

    /// `tasks/cancel`: the task after cancelling.
    fn cancel_task<'py>(&self, py: Python<'py>, task_id: String) -> PyResult<Bound<'py, PyAny>> {
        let client = self.client.clone();
        awaitable(py, async move { json_outcome(client.cancel_task(&task_id).await.map(Value::Object)) })
    }

    /// `tasks/list` (2025-11-25): one page.
    #[pyo3(signature = (cursor = None))]
    fn list_tasks<'py>(&self, py: Python<'py>, cursor: Option<String>) -> PyResult<Bound<'py, PyAny>> {
        let client = self.client.clone();
        awaitable(py, async move { json_outcome(client.list_tasks(cursor.as_deref()).await) })
    }

    /// The task's outcome once it has one (its input answered through the callbacks).
    fn task_result<'py>(&self, py: Python<'py>, task_id: String) -> PyResult<Bound<'py, PyAny>> {
        let client = self.client.clone();
        awaitable(py, async move { json_outcome(client.task_result(&task_id).await) })
    }

    /// Opens a `subscriptions/listen` stream with `filter` (the wire `SubscriptionFilter`);
    /// resolves once the server acknowledges it.
    #[pyo3(signature = (filter, timeout = None))]
    fn listen<'py>(
        &self,
        py: Python<'py>,
        filter: &Bound<'py, PyAny>,
        timeout: Option<f64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (client, filter) = (self.client.clone(), from_py(filter)?);
        awaitable(py, async move {
            match client.listen(filter, timeout.map(Duration::from_secs_f64)).await {
                Ok(subscription) => ok(NativeSubscription { subscription }),
                Err(e) => fail(move |py| client_error(py, e)),
            }
        })
    }
}

fn json_outcome(outcome: Result<Value, ClientError>) -> crate::bridge::Deliver {
    match outcome {
        Ok(value) => ok(Json(value)),
        Err(e) => fail(move |py| client_error(py, e)),
    }
}

/// One open `subscriptions/listen` stream.
#[pyclass(module = "ferrymcp._native", frozen)]
pub struct NativeSubscription {
    subscription: Subscription,
}

#[pymethods]
impl NativeSubscription {
    /// The filter the server honours.
    #[getter]
    fn honored<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.subscription.honored_filter())
    }

    /// The listen request's id, in `_meta` of every notification on the stream.
    #[getter]
    fn subscription_id<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.subscription.id())
    }

    /// Ends the subscription (idempotent).
    fn close<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let subscription = self.subscription.clone();
        awaitable(py, async move {
            subscription.close().await;
            ok(())
        })
    }

    /// Resolves once the subscription has ended: "local", "graceful" or "remote".
    fn closed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let subscription = self.subscription.clone();
        awaitable(py, async move { ok(subscription.closed().await.as_str()) })
    }
}

/// The environment a child server inherits by default (core's list of variables, the
/// official SDKs' own), for `get_default_environment()`.
#[pyfunction]
pub fn default_environment() -> HashMap<String, String> {
    ferrymcp_core::client::child::default_environment().into_iter().collect()
}
