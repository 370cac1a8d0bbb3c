//! The hot path of a request's POST: HTTP/1.1 connections of the transport's own, driven
//! by hyper directly, without reqwest's layers nor hyper-util's pool around them.
//!
//! Each call a gateway forwards is one POST. Through reqwest that cost about 53,000
//! instructions (callgrind, benches/README.md), much of it in layers a plain `http://`
//! endpoint does not use: the URL parsed again twice (the redirect policy's
//! `on_request`, the response's URL) and once more into a `Uri`, the header map cloned
//! for the retry and redirect layers, the request boxed into tower's services. Then
//! hyper-util's pooled client (the one reqwest drives inside) cost about 9,000 more: its
//! pool is keyed by scheme and authority, hashed with SipHash byte by byte at each
//! checkout and return, and each answer spawned a task to give its connection back. One
//! transport connection talks to one endpoint, so here the pool is a plain list of idle
//! connections (no key), and a connection goes back to it as soon as its answer's head
//! arrived (it is taken again only once hyper says it is ready, that is once the answer's
//! body was read).
//!
//! So a POST to an `http://` endpoint that no proxy intercepts (the same environment
//! check reqwest makes), on a connection without OAuth, goes out here, with the TCP
//! settings reqwest gives its own sockets (`TCP_NODELAY`, TCP keep-alive, the connect
//! timeout) and its pool's (idle connections closed after 90 s), the same headers in the
//! same order (see `Connection::direct_headers`), and hyper-util's retry: a request that
//! never went out because the idle connection it was given had closed meanwhile is sent
//! again on a new connection. Everything else stays reqwest's: `https://` (rustls),
//! proxies, OAuth, the deprecated HTTP+SSE transport, notifications, GET and DELETE. An
//! answer that redirects is sent again through reqwest, which follows redirects, and the
//! connection stays with reqwest from then on.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::client::conn::http1::{self, SendRequest};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::connect::dns::GaiResolver;
use hyper_util::client::proxy::matcher::Matcher;
use reqwest::header::{HOST, HeaderMap, HeaderValue, LOCATION};
use reqwest::{Method, StatusCode, Url};

/// reqwest's defaults for its own pool and sockets (`ClientBuilder::new`).
const POOL_IDLE: Duration = Duration::from_secs(90);
const TCP_KEEPALIVE: Duration = Duration::from_secs(15);
const TCP_KEEPALIVE_RETRIES: u32 = 3;
#[cfg(any(target_os = "android", target_os = "fuchsia", target_os = "linux"))]
const TCP_USER_TIMEOUT: Duration = Duration::from_secs(30);

pub(crate) struct Direct {
    connector: HttpConnector<GaiResolver>,
    /// The endpoint, to connect to.
    uri: http::Uri,
    /// The endpoint's path and query: what the request line names (origin form).
    path: http::Uri,
    /// The `Host` header hyper-util would write for `uri` (host, and the port unless 80).
    host: HeaderValue,
    idle: Arc<Mutex<Vec<Idle>>>,
    /// The task that closes connections idle longer than [`POOL_IDLE`] is running.
    reaping: AtomicBool,
    /// Cleared by the first redirect: reqwest, which follows them, sends from then on.
    on: AtomicBool,
}

/// A connection in the pool: its sender, and since when it is there.
struct Idle {
    sender: SendRequest<Full<Bytes>>,
    since: Instant,
}

impl Idle {
    /// Unusable from now on: closed, or ready (not busy with an answer) and idle too long.
    fn expired(&self, now: Instant) -> bool {
        self.sender.is_closed() || (self.sender.is_ready() && now.duration_since(self.since) > POOL_IDLE)
    }
}

/// Why a POST of the direct path failed, worded as hyper-util's client words it (what
/// reqwest showed before the direct path).
#[derive(Debug)]
pub(crate) enum DirectError {
    Connect(Box<dyn std::error::Error + Send + Sync>),
    Send(hyper::Error),
}

impl fmt::Display for DirectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Connect(_) => f.write_str("client error (Connect)"),
            Self::Send(_) => f.write_str("client error (SendRequest)"),
        }
    }
}

impl std::error::Error for DirectError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Connect(e) => Some(e.as_ref()),
            Self::Send(e) => Some(e),
        }
    }
}

impl Direct {
    /// The direct path to `url`, when it can take one: `http://`, and no proxy for it in
    /// the environment.
    pub fn new(url: &Url, connect_timeout: Duration) -> Option<Self> {
        if url.scheme() != "http" {
            return None;
        }
        let uri: http::Uri = url.as_str().parse().ok()?;
        if Matcher::from_system().intercept(&uri).is_some() {
            return None;
        }
        let host = match (uri.host(), uri.port_u16()) {
            (Some(host), Some(port)) if port != 80 => HeaderValue::from_str(&format!("{host}:{port}")).ok()?,
            (Some(host), _) => HeaderValue::from_str(host).ok()?,
            (None, _) => return None,
        };
        let path: http::Uri = uri.path_and_query().map_or("/", |p| p.as_str()).parse().ok()?;
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        connector.set_connect_timeout(Some(connect_timeout));
        connector.set_keepalive(Some(TCP_KEEPALIVE));
        connector.set_keepalive_interval(Some(TCP_KEEPALIVE));
        connector.set_keepalive_retries(Some(TCP_KEEPALIVE_RETRIES));
        #[cfg(any(target_os = "android", target_os = "fuchsia", target_os = "linux"))]
        connector.set_tcp_user_timeout(Some(TCP_USER_TIMEOUT));
        Some(Self {
            connector,
            uri,
            path,
            host,
            idle: Arc::default(),
            reaping: AtomicBool::new(false),
            on: AtomicBool::new(true),
        })
    }

    pub fn is_on(&self) -> bool {
        self.on.load(Ordering::Relaxed)
    }

    pub fn host(&self) -> &HeaderValue {
        &self.host
    }

    /// POSTs `body` with `headers` (complete: see `Connection::direct_headers`). `None`
    /// when the answer redirects: the caller sends the request again through reqwest.
    pub async fn post(&self, body: Bytes, headers: HeaderMap) -> Result<Option<http::Response<Incoming>>, DirectError> {
        let mut request = http::Request::new(Full::new(body));
        *request.method_mut() = Method::POST;
        *request.uri_mut() = self.path.clone();
        *request.headers_mut() = headers;
        let response = loop {
            let (mut sender, reused) = match self.checkout() {
                Some(sender) => (sender, true),
                None => (self.connect().await?, false),
            };
            match sender.try_send_request(request).await {
                Ok(response) => {
                    self.checkin(sender);
                    break response;
                }
                Err(mut error) => match error.take_message() {
                    // An idle connection that closed before the request went out: another.
                    Some(unsent) if reused => request = unsent,
                    _ => return Err(DirectError::Send(error.into_error())),
                },
            }
        };
        if follows(response.status()) && response.headers().contains_key(LOCATION) {
            self.on.store(false, Ordering::Relaxed);
            return Ok(None);
        }
        Ok(Some(response))
    }

    /// The most recently used idle connection that is ready for a request; the expired
    /// ones met on the way are dropped, the busy ones left.
    fn checkout(&self) -> Option<SendRequest<Full<Bytes>>> {
        let now = Instant::now();
        let mut idle = self.idle.lock().unwrap();
        let mut at = idle.len();
        while at > 0 {
            at -= 1;
            if idle[at].expired(now) {
                idle.swap_remove(at);
            } else if idle[at].sender.is_ready() {
                return Some(idle.swap_remove(at).sender);
            }
        }
        None
    }

    /// Puts a connection back once its answer's head arrived: it is taken again when
    /// hyper says it is ready (the answer's body read, the connection kept alive).
    fn checkin(&self, sender: SendRequest<Full<Bytes>>) {
        if !sender.is_closed() {
            self.idle.lock().unwrap().push(Idle { sender, since: Instant::now() });
        }
    }

    async fn connect(&self) -> Result<SendRequest<Full<Bytes>>, DirectError> {
        self.start_reaping();
        let mut connector = self.connector.clone();
        let io = tower_service::Service::call(&mut connector, self.uri.clone())
            .await
            .map_err(|e| DirectError::Connect(Box::new(e)))?;
        let (sender, connection) = http1::handshake(io).await.map_err(|e| DirectError::Connect(Box::new(e)))?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!("HTTP connection to the server ended: {e}");
            }
        });
        Ok(sender)
    }

    /// Closes, now and then, the connections idle longer than [`POOL_IDLE`] (as
    /// hyper-util's pool does); the task ends with the transport.
    fn start_reaping(&self) {
        if self.reaping.swap(true, Ordering::Relaxed) {
            return;
        }
        let idle: Weak<Mutex<Vec<Idle>>> = Arc::downgrade(&self.idle);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(POOL_IDLE);
            every.tick().await;
            loop {
                every.tick().await;
                let Some(idle) = idle.upgrade() else { return };
                let now = Instant::now();
                idle.lock().unwrap().retain(|connection| !connection.expired(now));
            }
        });
    }
}

/// The statuses reqwest's default redirect policy follows (when a `Location` is given).
fn follows(status: StatusCode) -> bool {
    matches!(
        status,
        StatusCode::MOVED_PERMANENTLY
            | StatusCode::FOUND
            | StatusCode::SEE_OTHER
            | StatusCode::TEMPORARY_REDIRECT
            | StatusCode::PERMANENT_REDIRECT
    )
}

/// `headers` (a request's, before the message's own) with the message's headers put in
/// as reqwest's `RequestBuilder::headers` puts them: each name's first value replaces
/// what was there, its further values are added.
pub(crate) fn replace_headers(headers: &mut HeaderMap, message: &HeaderMap) {
    for name in message.keys() {
        let mut values = message.get_all(name).iter();
        if let Some(first) = values.next() {
            headers.insert(name.clone(), first.clone());
        }
        for value in values {
            headers.append(name.clone(), value.clone());
        }
    }
}

/// Adds the `Host` header hyper-util would add (at the end, where it adds it).
pub(crate) fn add_host(headers: &mut HeaderMap, host: &HeaderValue) {
    if !headers.contains_key(HOST) {
        headers.insert(HOST, host.clone());
    }
}
