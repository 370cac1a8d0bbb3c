//! The built-in server: hyper on a TCP listener, bound to 127.0.0.1 unless told otherwise.
//!
//! HTTP/1.1 with keep-alive and HTTP/2 on the same port, `TCP_NODELAY` on every
//! connection (answers are small and latency matters more than packet count), a timeout
//! for reading request headers, and an idle timeout after which a connection that moved no
//! byte is closed gracefully (a request still running is answered first; SSE streams stay
//! alive through their keep-alive comments). Shutdown stops accepting, ends long-lived
//! streams and sessions, lets requests in flight finish, and gives up after a grace period.
//! With a certificate ([`ServeOptions::tls`]) it serves `https://` (see [`crate::tls`]).

use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::HttpHandler;
use super::idle::Tracked;

#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub addr: SocketAddr,
    /// How long a client may take to send a request's headers.
    pub header_timeout: Duration,
    /// A connection that moves no byte this long is closed.
    pub idle_timeout: Duration,
    /// How long shutdown waits for requests in flight.
    pub shutdown_grace: Duration,
    /// Serve `https://` with this certificate (none: plain HTTP).
    pub tls: Option<crate::tls::ServerTls>,
}

impl Default for ServeOptions {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            header_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(120),
            shutdown_grace: Duration::from_secs(30),
            tls: None,
        }
    }
}

/// A running server.
pub struct HttpServer {
    local_addr: SocketAddr,
    stop: CancellationToken,
    task: JoinHandle<()>,
}

impl HttpServer {
    /// The address it listens on (the port the OS chose when asked for 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Graceful shutdown; returns when the last connection is done or the grace expired.
    pub async fn shutdown(self) {
        self.stop.cancel();
        let _ = self.task.await;
    }

    /// Runs until the server is shut down from elsewhere (never, for a plain binary).
    pub async fn wait(self) {
        let _ = self.task.await;
    }
}

/// Binds and starts serving `handler`.
pub async fn serve(handler: HttpHandler, options: ServeOptions) -> io::Result<HttpServer> {
    // The certificate is read before binding: a bad one fails the start, not each client.
    let tls = match &options.tls {
        Some(tls) => Some(acceptor(tls)?),
        None => None,
    };
    let listener = TcpListener::bind(options.addr).await?;
    let local_addr = listener.local_addr()?;
    let stop = CancellationToken::new();
    let task = tokio::spawn(accept_loop(listener, handler, options, tls, stop.clone()));
    Ok(HttpServer { local_addr, stop, task })
}

#[cfg(feature = "tls")]
type Acceptor = tokio_rustls::TlsAcceptor;
#[cfg(not(feature = "tls"))]
type Acceptor = std::convert::Infallible;

#[cfg(feature = "tls")]
fn acceptor(tls: &crate::tls::ServerTls) -> io::Result<Acceptor> {
    Ok(tokio_rustls::TlsAcceptor::from(std::sync::Arc::new(crate::tls::server_config(tls)?)))
}

#[cfg(not(feature = "tls"))]
fn acceptor(_: &crate::tls::ServerTls) -> io::Result<Acceptor> {
    Err(crate::tls::unavailable())
}

async fn accept_loop(
    listener: TcpListener,
    handler: HttpHandler,
    options: ServeOptions,
    tls: Option<Acceptor>,
    stop: CancellationToken,
) {
    // Every connection task holds a clone of `alive`; when the last one ends, `done` closes.
    let (alive, mut done) = mpsc::channel::<()>(1);
    loop {
        let accepted = tokio::select! {
            _ = stop.cancelled() => break,
            accepted = listener.accept() => accepted,
        };
        match accepted {
            Ok((tcp, _)) => {
                let _ = tcp.set_nodelay(true);
                let (handler, options, stop, alive) = (handler.clone(), options.clone(), stop.clone(), alive.clone());
                match &tls {
                    None => {
                        tokio::spawn(connection(tcp, handler, options, stop, alive));
                    }
                    #[cfg(feature = "tls")]
                    Some(acceptor) => {
                        let accepting = acceptor.accept(tcp);
                        tokio::spawn(async move {
                            // The handshake within the time a client has to send its headers.
                            match tokio::time::timeout(options.header_timeout, accepting).await {
                                Ok(Ok(tls)) => connection(tls, handler, options, stop, alive).await,
                                Ok(Err(e)) => tracing::debug!("TLS handshake failed: {e}"),
                                Err(_) => tracing::debug!("TLS handshake timed out"),
                            }
                        });
                    }
                    #[cfg(not(feature = "tls"))]
                    Some(never) => match *never {},
                }
            }
            Err(e) => {
                tracing::warn!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
    drop((listener, alive));
    handler.stop_streams();
    if tokio::time::timeout(options.shutdown_grace, done.recv()).await.is_err() {
        tracing::warn!("shutdown grace expired with connections open");
    }
    handler.end_sessions().await;
}

/// Serves one connection until the client closes it, or it idles, or the server stops:
/// then it is shut down gracefully (a response in progress is finished first).
async fn connection<S>(
    stream: S,
    handler: HttpHandler,
    options: ServeOptions,
    stop: CancellationToken,
    _alive: mpsc::Sender<()>,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (io, activity) = Tracked::new(stream);
    let service = service_fn(move |request| {
        let handler = handler.clone();
        async move { Ok::<_, Infallible>(handler.handle(request).await) }
    });
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder.http1().timer(TokioTimer::new()).header_read_timeout(options.header_timeout).keep_alive(true);
    builder.http2().timer(TokioTimer::new()).keep_alive_interval(Some(options.idle_timeout / 2));
    let conn = builder.serve_connection(TokioIo::new(io), service);
    let mut conn = std::pin::pin!(conn);
    let mut closing = false;
    loop {
        let deadline = activity.last() + options.idle_timeout;
        tokio::select! {
            _ = conn.as_mut() => return,
            _ = stop.cancelled(), if !closing => closing = true,
            _ = tokio::time::sleep_until(deadline), if !closing => closing = activity.last() + options.idle_timeout <= Instant::now(),
        }
        if closing {
            conn.as_mut().graceful_shutdown();
        }
    }
}
