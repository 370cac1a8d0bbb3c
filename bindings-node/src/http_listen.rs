//! `listen()`: core's built-in hyper server on a TCP port, the fastest way to serve
//! Streamable HTTP from Node (no request or response crosses into JS; only handlers do).
//!
//! Binds 127.0.0.1 unless told otherwise; which host names it answers is core's default
//! for the host it is bound to (loopback names only on loopback, against DNS
//! rebinding), unless the allowed hosts are given. `close()` stops accepting, ends long-lived streams and
//! sessions, and lets requests in flight finish. The promise of `closed()` is what keeps
//! Node alive while the server listens, like a listening `http.Server`.

use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Mutex;

use ferrymcp_core::protocol::ErrorCode;
use ferrymcp_core::server::http::{HttpHandler, HttpServer, ServeOptions, serve};
use ferrymcp_core::tls::ServerTls;
use napi_derive::napi;
use tokio_util::sync::CancellationToken;

use crate::error::{internal, mcp_error, no_panic};
use crate::events::NativeEventStore;
use crate::http::{HttpConfig, options};
use crate::http_bearer::JsVerifierFn;
use crate::redis::NativeRedisStore;
use crate::server::NativeServer;

/// A listening server.
#[napi]
pub struct NativeHttpListener {
    local_addr: SocketAddr,
    endpoint: String,
    running: Mutex<Option<HttpServer>>,
    closed: CancellationToken,
}

fn address(host: &str, port: u16) -> napi::Result<SocketAddr> {
    let invalid = |why: String| mcp_error(ErrorCode::INVALID_PARAMS, &why, None);
    (host, port)
        .to_socket_addrs()
        .map_err(|e| invalid(format!("cannot resolve host {host:?}: {e}")))?
        .next()
        .ok_or_else(|| invalid(format!("host {host:?} has no address")))
}

/// The certificate chain and key files (PEM) of an `https://` listener.
#[napi(object)]
pub struct TlsFiles {
    pub cert_file: String,
    pub key_file: String,
}

/// Binds `host:port` (port 0: the OS picks) and serves `server` there at `config.endpoint`,
/// over TLS when given `tls`.
// Positional, as JavaScript calls it (`listenHttp(server, host, port, config, ...)`).
#[allow(clippy::too_many_arguments)]
#[napi]
pub async fn listen_http(
    server: &NativeServer,
    host: String,
    port: u16,
    config: HttpConfig,
    #[napi(ts_arg_type = "((token: string) => Promise<string>) | undefined | null")] verifier: Option<JsVerifierFn>,
    redis: Option<&NativeRedisStore>,
    events: Option<&NativeEventStore>,
    tls: Option<TlsFiles>,
) -> napi::Result<NativeHttpListener> {
    let addr = address(&host, port)?;
    let options = options(config, verifier, redis, events, Some(&host))?;
    let endpoint = options.endpoint.clone();
    let handler = HttpHandler::new(server.core(), options);
    no_panic(async move {
        let tls = tls.map(|files| ServerTls { cert_file: files.cert_file.into(), key_file: files.key_file.into() });
        let running = serve(handler, ServeOptions { addr, tls, ..ServeOptions::default() })
            .await
            .map_err(|e| internal(format!("cannot listen on {addr}: {e}")))?;
        Ok(NativeHttpListener {
            local_addr: running.local_addr(),
            endpoint,
            running: Mutex::new(Some(running)),
            closed: CancellationToken::new(),
        })
    })
    .await
}

#[napi]
impl NativeHttpListener {
    /// The address bound (the port the OS chose when asked for 0).
    #[napi(getter)]
    pub fn host(&self) -> String {
        self.local_addr.ip().to_string()
    }

    #[napi(getter)]
    pub fn port(&self) -> u16 {
        self.local_addr.port()
    }

    #[napi(getter)]
    pub fn endpoint(&self) -> String {
        self.endpoint.clone()
    }

    /// Resolves once the server has closed.
    #[napi]
    pub async fn closed(&self) -> napi::Result<()> {
        self.closed.cancelled().await;
        Ok(())
    }

    /// Graceful shutdown (once; later calls resolve at once).
    #[napi]
    pub async fn close(&self) -> napi::Result<()> {
        let running = self.running.lock().unwrap_or_else(|p| p.into_inner()).take();
        let closed = self.closed.clone();
        no_panic(async move {
            if let Some(server) = running {
                server.shutdown().await;
            }
            closed.cancel();
            Ok(())
        })
        .await
    }
}
