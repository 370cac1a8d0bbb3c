//! The hot path of a request's POST: hyper-util's pooled HTTP/1.1 client, the one reqwest
//! drives inside, without reqwest's layers around it.
//!
//! Each call a gateway forwards is one POST. Through reqwest that cost about 53,000
//! instructions (callgrind, benches/README.md), much of it in layers a plain `http://`
//! endpoint does not use: the URL parsed again twice (the redirect policy's
//! `on_request`, the response's URL) and once more into a `Uri`, the header map cloned
//! for the retry and redirect layers, the request boxed into tower's services. So a POST
//! to an `http://` endpoint that no proxy intercepts (the same environment check reqwest
//! makes), on a connection without OAuth, goes to hyper-util's client here, built with
//! the TCP and pool settings reqwest gives its own (keep-alive, `TCP_NODELAY`, the
//! connect timeout, idle connections kept 90 s), with the same headers in the same order
//! (see `Connection::direct_headers`). Everything else stays reqwest's: `https://`
//! (rustls), proxies, OAuth, the deprecated HTTP+SSE transport, notifications, GET and
//! DELETE. An answer that redirects is sent again through reqwest, which follows
//! redirects, and the connection stays with reqwest from then on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::proxy::matcher::Matcher;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use reqwest::header::{HOST, HeaderMap, HeaderValue, LOCATION};
use reqwest::{Method, StatusCode, Url};

/// reqwest's defaults for its own pool and sockets (`ClientBuilder::new`).
const POOL_IDLE: Duration = Duration::from_secs(90);
const TCP_KEEPALIVE: Duration = Duration::from_secs(15);
const TCP_KEEPALIVE_RETRIES: u32 = 3;
#[cfg(any(target_os = "android", target_os = "fuchsia", target_os = "linux"))]
const TCP_USER_TIMEOUT: Duration = Duration::from_secs(30);

pub(crate) struct Direct {
    client: Client<HttpConnector, Full<Bytes>>,
    uri: http::Uri,
    /// The `Host` header hyper-util would write for `uri` (host, and the port unless 80).
    host: HeaderValue,
    /// Cleared by the first redirect: reqwest, which follows them, sends from then on.
    on: AtomicBool,
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
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        connector.set_connect_timeout(Some(connect_timeout));
        connector.set_keepalive(Some(TCP_KEEPALIVE));
        connector.set_keepalive_interval(Some(TCP_KEEPALIVE));
        connector.set_keepalive_retries(Some(TCP_KEEPALIVE_RETRIES));
        #[cfg(any(target_os = "android", target_os = "fuchsia", target_os = "linux"))]
        connector.set_tcp_user_timeout(Some(TCP_USER_TIMEOUT));
        let client = Client::builder(TokioExecutor::new())
            .timer(TokioTimer::new())
            .pool_timer(TokioTimer::new())
            .pool_idle_timeout(POOL_IDLE)
            .build(connector);
        Some(Self { client, uri, host, on: AtomicBool::new(true) })
    }

    pub fn is_on(&self) -> bool {
        self.on.load(Ordering::Relaxed)
    }

    pub fn host(&self) -> &HeaderValue {
        &self.host
    }

    /// POSTs `body` with `headers` (complete: see `Connection::direct_headers`). `None`
    /// when the answer redirects: the caller sends the request again through reqwest.
    pub async fn post(
        &self,
        body: Bytes,
        headers: HeaderMap,
    ) -> Result<Option<http::Response<Incoming>>, hyper_util::client::legacy::Error> {
        let mut request = http::Request::new(Full::new(body));
        *request.method_mut() = Method::POST;
        *request.uri_mut() = self.uri.clone();
        *request.headers_mut() = headers;
        let response = self.client.request(request).await?;
        if follows(response.status()) && response.headers().contains_key(LOCATION) {
            self.on.store(false, Ordering::Relaxed);
            return Ok(None);
        }
        Ok(Some(response))
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
