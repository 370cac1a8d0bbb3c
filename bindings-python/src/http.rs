//! Core's Streamable HTTP endpoint from Python: its options, and the built-in server.
//!
//! `NativeHttpServer` is core's hyper server (`mcp.run("streamable-http")`); the ASGI
//! face of the same `HttpHandler` is in `asgi.rs`. Starting and stopping are awaitables,
//! so the asyncio loop keeps running Python handlers while core binds, serves and drains;
//! nothing here blocks on tokio with the GIL held. The endpoint's behaviour (both eras,
//! sessions, guards) is all core's; this file only turns the Python-side settings into
//! its options.

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::sync::Mutex;
use std::time::Duration;

use ferrymcp_core::server::http::{HttpHandler, HttpOptions, HttpServer, LOOPBACK_HOSTS, ServeOptions, serve};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

use crate::bridge::{awaitable, fail, ok};
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

/// Hosts to accept when none are configured: loopback names when the server is reached on
/// loopback (against DNS rebinding, as the official SDK does), every name otherwise.
fn default_hosts(host: &str) -> Vec<String> {
    let loopback = match host.trim_matches(['[', ']']).parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback(),
        Err(_) => host.eq_ignore_ascii_case("localhost"),
    };
    if loopback { LOOPBACK_HOSTS.iter().map(|h| (*h).to_owned()).collect() } else { Vec::new() }
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

/// The endpoint's options from the dict the Python layer builds (`endpoint`, `host`,
/// `max_body`, `max_sessions`, `session_idle` and `retry` in seconds, `allowed_hosts`,
/// `allowed_origins`); what is missing keeps core's default.
pub fn options(settings: &Bound<'_, PyDict>) -> PyResult<HttpOptions> {
    let settings = from_py(settings.as_any())?;
    let defaults = HttpOptions::default();
    let endpoint = settings.get("endpoint").and_then(Value::as_str).unwrap_or(&defaults.endpoint).to_owned();
    if !endpoint.starts_with('/') {
        return Err(PyValueError::new_err(format!("the endpoint path must start with '/': {endpoint:?}")));
    }
    let number = |key: &str| settings.get(key).and_then(Value::as_f64);
    let host = settings.get("host").and_then(Value::as_str).unwrap_or("127.0.0.1");
    Ok(HttpOptions {
        endpoint,
        allowed_hosts: strings(&settings, "allowed_hosts")?.unwrap_or_else(|| default_hosts(host)),
        allowed_origins: strings(&settings, "allowed_origins")?.unwrap_or_default(),
        max_body: number("max_body").map_or(defaults.max_body, |n| n as usize),
        max_sessions: number("max_sessions").map_or(defaults.max_sessions, |n| n as usize),
        session_idle: number("session_idle").map_or(defaults.session_idle, Duration::from_secs_f64),
        retry: number("retry").map_or(defaults.retry, Duration::from_secs_f64),
        ..defaults
    })
}

/// Binds `host:port` and serves `handler`; the awaitable gives the running
/// `NativeHttpServer`.
pub fn start<'py>(py: Python<'py>, handler: HttpHandler, host: &str, port: u16) -> PyResult<Bound<'py, PyAny>> {
    let addr = address(host, port)?;
    awaitable(py, async move {
        match serve(handler, ServeOptions { addr, ..ServeOptions::default() }).await {
            Ok(server) => ok(NativeHttpServer { local_addr: server.local_addr(), running: Mutex::new(Some(server)) }),
            Err(e) => fail(move |_| PyOSError::new_err(format!("cannot listen on {addr}: {e}"))),
        }
    })
}
