//! Core's Streamable HTTP endpoint from Python: its options, and the built-in server.
//!
//! `NativeHttpServer` is core's hyper server (`mcp.run("streamable-http")`); the ASGI
//! face of the same `HttpHandler` is in `asgi.rs`. Starting and stopping are awaitables,
//! so the asyncio loop keeps running Python handlers while core binds, serves and drains;
//! nothing here blocks on tokio with the GIL held. The endpoint's behaviour (both eras,
//! sessions, guards, bearer auth) is all core's; this file only turns the Python-side
//! settings into its options and a Python `TokenVerifier` into core's verifier.

use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ferrymcp_core::peer::BoxFuture;
use ferrymcp_core::server::AuthInfo;
use ferrymcp_core::server::http::{
    AuthError, BearerAuth, BearerVerifier, GuardStyle, HttpHandler, HttpOptions, HttpServer, HttpSettings,
    NamedEventStore, NamedReplay, NamingEventStore, RouteAnswer, RouteRequest, Routes, ServeOptions,
    auth_info_from_json, serve,
};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use serde_json::Value;

use crate::bridge::{awaitable, fail, ok};
use crate::call::{LoopCell, PyCallable, args};
use crate::convert::from_py;

/// A running server; `shutdown()` stops it gracefully (once).
#[pyclass(module = "ferrymcp._native", frozen)]
pub struct NativeHttpServer {
    local_addr: SocketAddr,
    running: Mutex<Option<HttpServer>>,
}

#[pymethods]
impl NativeHttpServer {
    /// `(host, port)` it listens on (the port the OS chose when asked for 0).
    #[getter]
    fn address(&self) -> (String, u16) {
        (self.local_addr.ip().to_string(), self.local_addr.port())
    }

    /// Stops accepting, ends streams and sessions, lets requests in flight finish.
    fn shutdown<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let running = self.running.lock().unwrap().take();
        awaitable(py, async move {
            if let Some(server) = running {
                server.shutdown().await;
            }
            ok(())
        })
    }
}

fn address(host: &str, port: u16) -> PyResult<SocketAddr> {
    (host, port)
        .to_socket_addrs()
        .map_err(|e| PyValueError::new_err(format!("cannot resolve host {host:?}: {e}")))?
        .next()
        .ok_or_else(|| PyValueError::new_err(format!("host {host:?} has no address")))
}

fn strings(value: &Value, key: &str) -> PyResult<Option<Vec<String>>> {
    match value.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| PyValueError::new_err(format!("{key} must be a list of str")))
            })
            .collect::<PyResult<_>>()
            .map(Some),
        Some(_) => Err(PyValueError::new_err(format!("{key} must be a list of str"))),
    }
}

/// A Python `TokenVerifier` as core's verifier: the Python layer wraps it in an async
/// function of the token that returns core's `AuthInfo` as a dict, or `None` for a token
/// it does not accept. It runs on the server's asyncio loop; an exception it raises is a
/// failed verification (500), as in the official SDK. Core applies the policy.
struct PyVerifier(Arc<PyCallable>);

impl BearerVerifier for PyVerifier {
    fn verify(&self, token: &str) -> BoxFuture<Result<AuthInfo, AuthError>> {
        let (callable, token) = (self.0.clone(), token.to_owned());
        Box::pin(async move {
            match callable.call(move |py: Python<'_>| PyTuple::new(py, [token])).await {
                Ok(value) => auth_info_from_json(value),
                Err(e) => Err(AuthError::Failed(format!("the token verifier failed: {e}"))),
            }
        })
    }
}

/// The application's routes (`@mcp.custom_route`s) as core's [`Routes`]: the Python layer
/// hands an async `answer(method, path, query, headers, body)` (headers a list of
/// `(bytes, bytes)`) that runs the Starlette route and returns `(status, headers, body)`,
/// or `None` when no route takes the path. Core decides which paths reach it.
struct PyRoutes(Arc<PyCallable>);

fn route_answer(answer: &Bound<'_, PyAny>) -> PyResult<Option<RouteAnswer>> {
    if answer.is_none() {
        return Ok(None);
    }
    let (status, head, body) = answer.extract::<(u16, Bound<'_, PyList>, Bound<'_, PyBytes>)>()?;
    let mut headers = Vec::with_capacity(head.len());
    for pair in head.iter() {
        let (name, value) = pair.extract::<(Bound<'_, PyBytes>, Bound<'_, PyBytes>)>()?;
        headers.push((bytes::Bytes::copy_from_slice(name.as_bytes()), bytes::Bytes::copy_from_slice(value.as_bytes())));
    }
    Ok(Some(RouteAnswer { status, headers, body: bytes::Bytes::copy_from_slice(body.as_bytes()) }))
}

impl Routes for PyRoutes {
    fn handle(&self, request: RouteRequest) -> BoxFuture<Result<Option<RouteAnswer>, String>> {
        let callable = self.0.clone();
        Box::pin(async move {
            let args = args(move |py: Python<'_>| {
                let headers = PyList::empty(py);
                for (name, value) in &request.headers {
                    headers.append((PyBytes::new(py, name.as_str().as_bytes()), PyBytes::new(py, value.as_bytes())))?;
                }
                let query = PyBytes::new(py, request.query.as_deref().unwrap_or("").as_bytes());
                PyTuple::new(
                    py,
                    [
                        request.method.as_str().into_pyobject(py)?.into_any(),
                        request.path.as_str().into_pyobject(py)?.into_any(),
                        query.into_any(),
                        headers.into_any(),
                        PyBytes::new(py, &request.body).into_any(),
                    ],
                )
            });
            callable.call_as(args, route_answer).await.map_err(|e| e.to_string())
        })
    }
}

/// An application's `EventStore` (the official interface) as core's [`NamingEventStore`]:
/// the Python layer hands two async functions, `store(stream_id, message_json | None) ->
/// event_id` and `replay(last_event_id) -> (stream_id, [(event_id, message_json)]) | None`,
/// that convert the messages to and from the official `JSONRPCMessage` and call the
/// store's `store_event` and `replay_events_after`. They run on the server's loop.
struct PyEventStore {
    store: Arc<PyCallable>,
    replay: Arc<PyCallable>,
}

fn event_name(answer: &Bound<'_, PyAny>) -> PyResult<String> {
    answer.extract::<String>()
}

fn replayed(answer: &Bound<'_, PyAny>) -> PyResult<Option<NamedReplay>> {
    if answer.is_none() {
        return Ok(None);
    }
    let (stream, events) = answer.extract::<(String, Bound<'_, PyList>)>()?;
    let mut replay = Vec::with_capacity(events.len());
    for event in events.iter() {
        let (name, message) = event.extract::<(String, Bound<'_, PyBytes>)>()?;
        replay.push((name, bytes::Bytes::copy_from_slice(message.as_bytes())));
    }
    Ok(Some((stream, replay)))
}

impl NamingEventStore for PyEventStore {
    fn store_event(&self, stream: String, message: Option<bytes::Bytes>) -> BoxFuture<Result<String, String>> {
        let callable = self.store.clone();
        Box::pin(async move {
            let args = args(move |py: Python<'_>| {
                let message = match &message {
                    Some(data) => PyBytes::new(py, data).into_any(),
                    None => py.None().into_bound(py),
                };
                PyTuple::new(py, [stream.into_pyobject(py)?.into_any(), message])
            });
            callable.call_as(args, event_name).await.map_err(|e| e.to_string())
        })
    }

    fn replay_events_after(&self, event_id: String) -> BoxFuture<Result<Option<NamedReplay>, String>> {
        let callable = self.replay.clone();
        Box::pin(async move {
            callable
                .call_as(move |py: Python<'_>| PyTuple::new(py, [event_id]), replayed)
                .await
                .map_err(|e| e.to_string())
        })
    }
}

/// Bearer auth from the `auth` dict (`verify`, `required_scopes`, `authorization_servers`,
/// `scopes_supported`, `resource`, `audience`; the metadata is served when `resource` is).
fn bearer(auth: &Bound<'_, PyDict>, event_loop: &LoopCell) -> PyResult<BearerAuth> {
    let verify = auth.get_item("verify")?.ok_or_else(|| PyValueError::new_err("auth needs a verify function"))?;
    let settings = auth.copy()?;
    settings.del_item("verify")?;
    let settings = from_py(settings.as_any())?;
    let text = |key: &str| settings.get(key).and_then(Value::as_str).map(str::to_owned);
    let callable = PyCallable { function: verify.unbind(), is_async: true, event_loop: event_loop.clone() };
    Ok(BearerAuth {
        verifier: Arc::new(PyVerifier(Arc::new(callable))),
        required_scopes: strings(&settings, "required_scopes")?.unwrap_or_default(),
        authorization_servers: strings(&settings, "authorization_servers")?.unwrap_or_default(),
        scopes_supported: strings(&settings, "scopes_supported")?,
        serve_metadata: text("resource").is_some(),
        resource: text("resource"),
        audience: text("audience"),
    })
}

/// The endpoint's options from the dict the Python layer builds (`endpoint`, `host`,
/// `max_body`, `max_sessions`, `session_idle` and `retry` in seconds, `allowed_hosts`,
/// `allowed_origins`, `dns_rebinding_protection`, `stateless`, `json_response`, `auth` (see `bearer`),
/// `event_store` (a `RedisStore`: the endpoint is one of several replicas; or the pair of
/// functions of an application's `EventStore`, see `PyEventStore`), `routes` (see
/// `PyRoutes`)): only what the
/// author set; core checks it and decides the rest, the Host and Origin defaults from
/// `host` (the address served on). A token verifier runs on `event_loop`.
pub fn options(settings: &Bound<'_, PyDict>, event_loop: &LoopCell) -> PyResult<HttpOptions> {
    let settings = settings.copy()?;
    let auth = match settings.get_item("auth")? {
        Some(auth) if !auth.is_none() => Some(bearer(auth.cast::<PyDict>()?, event_loop)?),
        _ => None,
    };
    if settings.contains("auth")? {
        settings.del_item("auth")?;
    }
    let auth_server = match settings.get_item("auth_server")? {
        Some(server) if !server.is_none() => {
            Some(crate::auth_server::auth_server(server.cast::<PyDict>()?, event_loop)?)
        }
        _ => None,
    };
    if settings.contains("auth_server")? {
        settings.del_item("auth_server")?;
    }
    let routes = match settings.get_item("routes")? {
        Some(answer) if !answer.is_none() => {
            let callable = PyCallable { function: answer.unbind(), is_async: true, event_loop: event_loop.clone() };
            Some(Arc::new(PyRoutes(Arc::new(callable))) as Arc<dyn Routes>)
        }
        _ => None,
    };
    if settings.contains("routes")? {
        settings.del_item("routes")?;
    }
    let mut redis = None;
    let mut named = None;
    match settings.get_item("event_store")? {
        Some(store) if store.is_instance_of::<crate::redis::NativeRedisStore>() => {
            redis = Some(store.cast::<crate::redis::NativeRedisStore>()?.get().store.clone());
        }
        Some(store) if !store.is_none() => {
            let (keep, replay) = store.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()?;
            let callable = |function: Bound<'_, PyAny>| {
                Arc::new(PyCallable { function: function.unbind(), is_async: true, event_loop: event_loop.clone() })
            };
            let store = PyEventStore { store: callable(keep), replay: callable(replay) };
            named = Some(
                Arc::new(NamedEventStore::new(Arc::new(store))) as Arc<dyn ferrymcp_core::server::http::EventStore>
            );
        }
        _ => {}
    }
    if settings.contains("event_store")? {
        settings.del_item("event_store")?;
    }
    let settings = from_py(settings.as_any())?;
    let number = |key: &str| settings.get(key).and_then(Value::as_f64);
    let seconds = |key: &str| number(key).map(Duration::try_from_secs_f64).transpose();
    let seconds = |key: &str| seconds(key).map_err(|e| PyValueError::new_err(format!("{key}: {e}")));
    let host = settings.get("host").and_then(Value::as_str);
    let mut settings = HttpSettings {
        endpoint: settings.get("endpoint").and_then(Value::as_str).map(str::to_owned),
        allowed_hosts: strings(&settings, "allowed_hosts")?,
        allowed_origins: strings(&settings, "allowed_origins")?,
        dns_rebinding_protection: settings.get("dns_rebinding_protection").and_then(Value::as_bool),
        max_body: number("max_body").map(|n| n as usize),
        max_sessions: number("max_sessions").map(|n| n as usize),
        session_idle: seconds("session_idle")?,
        retry: seconds("retry")?,
        auth,
        auth_server,
        stateless: settings.get("stateless").and_then(Value::as_bool).unwrap_or(false),
        json_response: settings.get("json_response").and_then(Value::as_bool).unwrap_or(false),
        // The official Python SDK's refusals before the body (421/403 plain text, 413
        // first); the TypeScript SDKs' differ, and the Node binding keeps core's default.
        guard_style: GuardStyle::PlainText,
        routes,
        event_store: named,
        ..HttpSettings::default()
    };
    if let Some(redis) = redis {
        redis.configure(&mut settings);
    }
    settings.resolve(host).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Binds `host:port` and serves `handler` (over TLS with `tls`: certificate chain and key
/// files); the awaitable gives the running `NativeHttpServer`.
pub fn start<'py>(
    py: Python<'py>,
    handler: HttpHandler,
    host: &str,
    port: u16,
    tls: Option<(std::path::PathBuf, std::path::PathBuf)>,
) -> PyResult<Bound<'py, PyAny>> {
    let addr = address(host, port)?;
    let tls = tls.map(|(cert_file, key_file)| ferrymcp_core::tls::ServerTls { cert_file, key_file });
    awaitable(py, async move {
        match serve(handler, ServeOptions { addr, tls, ..ServeOptions::default() }).await {
            Ok(server) => ok(NativeHttpServer { local_addr: server.local_addr(), running: Mutex::new(Some(server)) }),
            Err(e) => fail(move |_| PyOSError::new_err(format!("cannot listen on {addr}: {e}"))),
        }
    })
}

/// The canonical resource URI of an MCP server's URL (RFC 8707, as core's OAuth client
/// sends it); a `ValueError` when `url` is not an absolute URL.
#[pyfunction]
pub fn canonical_resource(url: &str) -> PyResult<String> {
    let parsed =
        reqwest::Url::parse(url).map_err(|e| PyValueError::new_err(format!("not an absolute URL: {url:?}: {e}")))?;
    Ok(ferrymcp_core::client::auth::discovery::canonical_resource(&parsed))
}

/// Whether the resource URI `resource` covers the server URL `server` (core's rule: the
/// same origin, and a path that is a prefix of the server's at a segment boundary);
/// `false` when either is not an absolute URL.
#[pyfunction]
pub fn resource_covers(resource: &str, server: &str) -> bool {
    reqwest::Url::parse(server)
        .is_ok_and(|server| ferrymcp_core::client::auth::discovery::resource_covers(resource, &server))
}

/// Where an endpoint at `endpoint` serves its protected resource metadata (RFC 9728), the
/// resource being `resource` (the resource server URL) when given.
#[pyfunction]
#[pyo3(signature = (resource, endpoint))]
pub fn metadata_path(resource: Option<&str>, endpoint: &str) -> String {
    ferrymcp_core::server::http::metadata_path(resource, endpoint)
}
