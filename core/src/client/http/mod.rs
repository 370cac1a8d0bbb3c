//! The Streamable HTTP client transport, both eras, with the deprecated HTTP+SSE
//! transport as a fallback.
//!
//! The peer engine sees a frame source and sink like any other transport: each outgoing
//! frame becomes a POST ([`post`]) with the headers its message implies ([`headers`],
//! [`param_headers`]), and every message the server sends back, on whichever response it
//! travels, comes out of one channel ([`connection`]). Legacy sessions get their
//! `Mcp-Session-Id` (renewed when the server forgets it, [`session`]), a standalone GET
//! stream ([`standalone`]), resumption with `Last-Event-ID` ([`resume`], [`sse`]) and a
//! DELETE on close (or earlier, through [`HttpSession`]). Era detection needs no
//! code of its own here: a modern request refused with a non-modern error reads as a
//! legacy server to the client's probe, which falls back to `initialize`, and a refused
//! `initialize` makes the transport try HTTP+SSE ([`legacy_sse`]).
//!
//! HTTP is reqwest's: one pooled client per connection (keep-alive reuse, `TCP_NODELAY`),
//! `https://` with rustls (see `crate::tls`), OAuth from [`crate::client::auth`]; a
//! request's POST to a plain `http://` endpoint takes the direct path of [`direct`]
//! (hyper-util's pooled client, which reqwest drives inside, without reqwest's layers).

mod connection;
mod direct;
mod failure;
mod headers;
mod legacy_sse;
mod param_headers;
mod post;
mod resume;
mod session;
mod sse;
mod standalone;

pub use failure::{HttpFailure, TerminateError};
pub use param_headers::{ParamHeader, tool_param_headers};

use std::io;
use std::sync::Arc;
use std::time::Duration;

use bytes::{Buf, Bytes};
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderName, HeaderValue};
use reqwest::{Method, StatusCode, Url};
use tokio::sync::mpsc;

use crate::client::auth::OAuth;
use crate::framing::{FrameSink, FrameSource, SourceEvent};
use crate::peer::BoxFuture;
pub use crate::tls::ClientTls;
use connection::{Connection, Mode};

/// Incoming messages buffered before the readers of HTTP responses wait for the peer.
const QUEUE: usize = 1024;
/// How long closing waits for the server to acknowledge the session's DELETE.
const DELETE_WAIT: Duration = Duration::from_secs(2);

/// Where the server is and what to send it besides the protocol's own headers.
#[derive(Clone, Debug)]
pub struct HttpClientOptions {
    pub url: String,
    /// Sent with every request (`Authorization`, API keys, tracing headers...).
    pub headers: Vec<(String, String)>,
    /// Sent as `Authorization: Bearer <token>`.
    pub bearer_token: Option<String>,
    pub connect_timeout: Duration,
    /// How `https://` servers are checked (the platform's trust store by default), and
    /// the client certificate, if any.
    pub tls: ClientTls,
    /// OAuth 2.1 as the MCP authorization specification describes it: tokens on every
    /// request, authorization on a 401, step-up on a 403 `insufficient_scope`.
    pub oauth: Option<Arc<OAuth>>,
    /// The host's own HTTP client, which then carries every request of the connection
    /// (and of its OAuth) instead of the transport's: see [`Exchange`].
    pub exchange: Option<HttpExchange>,
}

/// An HTTP client of the host's that carries the transport's requests (the official Python
/// client's `http_client=`: an httpx client with its own transport, proxies, auth or
/// hooks). The transport still decides every request (method, URL, headers, body) and
/// reads every response; the exchange only moves them: it sends `request` and answers
/// with the response's head and a body that streams as it arrives. An error is the
/// failure's text (the request could not be sent, or no response came).
pub trait Exchange: Send + Sync + 'static {
    fn send(&self, request: http::Request<Bytes>) -> BoxFuture<Result<http::Response<reqwest::Body>, String>>;
}

/// A shared [`Exchange`].
#[derive(Clone)]
pub struct HttpExchange(pub Arc<dyn Exchange>);

impl std::fmt::Debug for HttpExchange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HttpExchange")
    }
}

/// A request that could not be sent or got no response, with its causes.
#[derive(Debug)]
pub struct SendError(String);

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SendError {}

/// Sends `request` with reqwest, or through the host's `exchange` when there is one.
pub(crate) async fn send(
    exchange: Option<&HttpExchange>,
    request: reqwest::RequestBuilder,
) -> Result<reqwest::Response, SendError> {
    let Some(exchange) = exchange else {
        return request.send().await.map_err(|e| SendError(chain(&e)));
    };
    let request = request.build().map_err(|e| SendError(chain(&e)))?;
    let body = request.body().and_then(reqwest::Body::as_bytes).map(Bytes::copy_from_slice).unwrap_or_default();
    let mut built = http::Request::new(body);
    *built.method_mut() = request.method().clone();
    *built.uri_mut() =
        request.url().as_str().parse().map_err(|e| SendError(format!("bad URL {}: {e}", request.url())))?;
    *built.headers_mut() = request.headers().clone();
    let response = exchange.0.send(built).await.map_err(SendError)?;
    Ok(reqwest::Response::from(response))
}

impl HttpClientOptions {
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            headers: Vec::new(),
            bearer_token: None,
            connect_timeout: Duration::from_secs(10),
            tls: ClientTls::default(),
            oauth: None,
            exchange: None,
        }
    }

    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn bearer_token(mut self, token: impl Into<String>) -> Self {
        self.bearer_token = Some(token.into());
        self
    }
}

/// Messages from the server, whichever HTTP response they came on.
pub struct HttpSource {
    frames: mpsc::Receiver<io::Result<SourceEvent>>,
    conn: Arc<Connection>,
}

/// Messages to the server, one POST each.
pub struct HttpSink {
    conn: Arc<Connection>,
}

/// The legacy session of a connection, for the host: its id, and ending it on purpose.
#[derive(Clone)]
pub struct HttpSession {
    conn: Arc<Connection>,
}

impl HttpSession {
    /// The `Mcp-Session-Id` the server gave (none on 2026-07-28, which has no sessions,
    /// nor before the handshake).
    pub fn id(&self) -> Option<String> {
        self.conn.session().and_then(|id| id.to_str().ok().map(str::to_owned))
    }

    /// Ends the session with a DELETE, as the specification describes. A server that does
    /// not let clients end sessions answers 405, which is no failure; nor is a session the
    /// server already forgot (404). The connection stays usable for what needs no session.
    /// A refusal carries the server's answer (`failure`).
    pub async fn terminate(&self) -> Result<(), TerminateError> {
        let failed = |message| TerminateError { message, failure: None };
        let Some(response) = delete_session(&self.conn).await.map_err(failed)? else { return Ok(()) };
        let status = response.status();
        if status.is_success() || status == StatusCode::METHOD_NOT_ALLOWED || status == StatusCode::NOT_FOUND {
            return Ok(());
        }
        let message = format!("DELETE {} answered HTTP {status}", self.conn.url);
        Err(TerminateError { message, failure: Some(HttpFailure::of(&response)) })
    }
}

/// Sends the DELETE that ends the session, if there is one, and forgets it; the answer
/// (its body unread), `None` without a session.
async fn delete_session(conn: &Connection) -> Result<Option<reqwest::Response>, String> {
    if conn.session().is_none() || conn.mode() != Mode::Streamable {
        return Ok(None);
    }
    let delete = conn.send(conn.request(Method::DELETE, conn.url.clone()));
    let answer = tokio::time::timeout(DELETE_WAIT, delete).await;
    conn.state.lock().unwrap().session = None;
    match answer {
        Ok(Ok(response)) => Ok(Some(response)),
        Ok(Err(e)) => Err(format!("DELETE {} failed: {e}", conn.url)),
        Err(_) => Err(format!("DELETE {} got no answer in {DELETE_WAIT:?}", conn.url)),
    }
}

/// A transport to the MCP endpoint at `options.url`. Nothing is sent until the peer
/// sends its first message. Must be called inside a tokio runtime.
pub fn connect(options: &HttpClientOptions) -> io::Result<(HttpSource, HttpSink)> {
    let invalid = |what: String| io::Error::new(io::ErrorKind::InvalidInput, what);
    let url = Url::parse(&options.url).map_err(|e| invalid(format!("bad URL {:?}: {e}", options.url)))?;
    match url.scheme() {
        "http" => {}
        "https" if crate::tls::AVAILABLE => {}
        "https" => {
            return Err(invalid(format!("{url}: TLS is not built into this ferrymcp (its `tls` feature is off)")));
        }
        other => return Err(invalid(format!("{url}: {other}:// is not HTTP (http:// or https://)"))),
    }
    let mut fixed = HeaderMap::new();
    for (name, value) in &options.headers {
        let name =
            HeaderName::from_bytes(name.as_bytes()).map_err(|e| invalid(format!("bad header name {name:?}: {e}")))?;
        let value = HeaderValue::from_str(value).map_err(|e| invalid(format!("bad value for header {name}: {e}")))?;
        fixed.append(name, value);
    }
    if let Some(token) = &options.bearer_token {
        let mut value =
            HeaderValue::from_str(&format!("Bearer {token}")).map_err(|e| invalid(format!("bad bearer token: {e}")))?;
        value.set_sensitive(true);
        fixed.insert(AUTHORIZATION, value);
    }
    let http = http_client(&options.tls)?.tcp_nodelay(true).connect_timeout(options.connect_timeout);
    let http = http.build().map_err(io::Error::other)?;
    if let Some(oauth) = &options.oauth {
        oauth.bind(&url, &options.tls)?;
        oauth.bind_exchange(options.exchange.clone());
    }
    let (tx, frames) = mpsc::channel(QUEUE);
    let (timeout, tls, oauth) = (options.connect_timeout, options.tls.clone(), options.oauth.clone());
    let mut conn = Connection::new(http, url, timeout, tls, fixed, tx, oauth);
    conn.set_exchange(options.exchange.clone());
    let conn = Arc::new(conn);
    Ok((HttpSource { frames, conn: conn.clone() }, HttpSink { conn }))
}

/// An error with its causes (`error sending request: ...: invalid peer certificate:
/// UnknownIssuer`): reqwest's own message alone says only that a request failed.
pub(crate) fn chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// An HTTP client that checks servers as `tls` says.
pub fn http_client(tls: &ClientTls) -> io::Result<reqwest::ClientBuilder> {
    let builder = reqwest::Client::builder();
    #[cfg(feature = "tls")]
    {
        Ok(builder.tls_backend_preconfigured(crate::tls::client_config(tls)?))
    }
    #[cfg(not(feature = "tls"))]
    {
        tls.check().map(|()| builder)
    }
}

impl FrameSource for HttpSource {
    async fn next_event(&mut self) -> io::Result<SourceEvent> {
        tokio::select! {
            event = self.frames.recv() => event.unwrap_or(Ok(SourceEvent::End)),
            () = self.conn.stop.cancelled() => Ok(SourceEvent::End),
        }
    }
}

impl HttpSink {
    pub fn session(&self) -> HttpSession {
        HttpSession { conn: self.conn.clone() }
    }
}

impl FrameSink for HttpSink {
    async fn send(&mut self, batch: Bytes) -> io::Result<()> {
        let mut rest = batch;
        while !rest.is_empty() {
            let end = memchr::memchr(b'\n', &rest).unwrap_or(rest.len());
            let frame = rest.split_to(end);
            if !rest.is_empty() {
                rest.advance(1);
            }
            if !frame.is_empty() {
                post::send(&self.conn, frame).await;
            }
        }
        Ok(())
    }

    /// Ends the legacy session (DELETE, as the specification asks) and every stream.
    async fn close(&mut self) -> io::Result<()> {
        self.conn.stop.cancel();
        let _ = delete_session(&self.conn).await;
        Ok(())
    }
}
