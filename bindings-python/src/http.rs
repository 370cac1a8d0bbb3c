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
    ServeOptions, auth_info_from_json, serve,
};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use serde_json::Value;

use crate::bridge::{awaitable, fail, ok};
use crate::call::{LoopCell, PyCallable};
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
/// `event_store` (a `RedisStore`: the endpoint is one of several replicas)): only what the
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
    let redis = match settings.get_item("event_store")? {
        Some(store) if !store.is_none() => Some(store.cast::<crate::redis::NativeRedisStore>()?.get().store.clone()),
        _ => None,
    };
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
