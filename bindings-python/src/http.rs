//! `NativeHttpServer`: core's built-in Streamable HTTP server, started from Python.
//!
//! Starting and stopping are awaitables, so the asyncio loop keeps running Python
//! handlers while core binds, serves and drains; nothing here blocks on tokio with the GIL
//! held. The endpoint's behaviour (both eras, sessions, guards) is all core's
//! `HttpHandler`; this file only turns the Python-side settings into its options.

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::sync::Mutex;
use std::time::Duration;

use ferrymcp_core::transport::http::{HttpHandler, HttpOptions, HttpServer, LOOPBACK_HOSTS, ServeOptions, serve};
use pyo3::exceptions::{PyOSError, PyValueError};
use ferrymcp_core::server::Server;
use pyo3::prelude::*;

use crate::bridge::{awaitable, fail, ok};

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

/// Host-header names to accept: loopback names when bound to loopback (against DNS
/// rebinding, as the official SDK does), every name otherwise.
fn allowed_hosts(addr: &SocketAddr) -> Vec<String> {
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_loopback() => LOOPBACK_HOSTS.iter().map(|h| (*h).to_owned()).collect(),
        IpAddr::V6(ip) if ip.is_loopback() => LOOPBACK_HOSTS.iter().map(|h| (*h).to_owned()).collect(),
        _ => Vec::new(),
    }
}

/// What the Python side configures about the endpoint.
pub struct HttpSettings {
    pub host: String,
    pub port: u16,
    pub endpoint: String,
    pub max_body: Option<usize>,
    pub max_sessions: Option<usize>,
    pub session_idle: Option<f64>,
}

/// Binds and serves `server` over Streamable HTTP; the awaitable gives the running
/// `NativeHttpServer`.
pub fn start<'py>(py: Python<'py>, server: Server, settings: HttpSettings) -> PyResult<Bound<'py, PyAny>> {
    if !settings.endpoint.starts_with('/') {
        return Err(PyValueError::new_err(format!("the endpoint path must start with '/': {:?}", settings.endpoint)));
    }
    let addr = address(&settings.host, settings.port)?;
    let defaults = HttpOptions::default();
    let options = HttpOptions {
        endpoint: settings.endpoint,
        allowed_hosts: allowed_hosts(&addr),
        max_body: settings.max_body.unwrap_or(defaults.max_body),
        max_sessions: settings.max_sessions.unwrap_or(defaults.max_sessions),
        session_idle: settings.session_idle.map(Duration::from_secs_f64).unwrap_or(defaults.session_idle),
        ..defaults
    };
    let handler = HttpHandler::new(server, options);
    awaitable(py, async move {
        match serve(handler, ServeOptions { addr, ..ServeOptions::default() }).await {
            Ok(server) => {
                ok(NativeHttpServer { local_addr: server.local_addr(), running: Mutex::new(Some(server)) })
            }
            Err(e) => fail(move |_| PyOSError::new_err(format!("cannot listen on {addr}: {e}"))),
        }
    })
}
