//! What every task of one HTTP connection shares: the HTTP client, the endpoint, the
//! session, and the channel of incoming frames.
//!
//! Answers arrive on many HTTP responses at once (one per POST, the standalone GET
//! stream, resumed streams); each task pushes the frames it reads into one channel, which
//! is the connection's [`FrameSource`](crate::framing::FrameSource). A request that
//! fails at the HTTP level is answered here with a JSON-RPC error for its id, so the
//! caller waiting on it learns why at once. A request that fails for want of a server
//! (its answer broke off, or nothing answered) makes the connection check that the server
//! still answers HTTP at all; when it does not, the server is gone and the connection
//! ends, as a child process's exit ends a stdio connection.

use std::collections::HashMap;
use std::io;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderValue};
use reqwest::{Method, RequestBuilder, Url};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::direct::{Direct, add_host, replace_headers};
use super::failure::HttpFailure;
use super::headers::{PROTOCOL_VERSION, SESSION_ID};
use super::param_headers::{ParamHeader, tool_param_headers};
use super::session::Handshake;
use crate::client::auth::{AuthError, OAuth};
use crate::framing::SourceEvent;
use crate::tls::ClientTls;
use crate::wire::{ErrorCode, ErrorObject, RawJson, RequestId, SharedStr, encode};

pub(crate) const EVENT_STREAM: &str = "text/event-stream";
const ACCEPT_BOTH: &str = "application/json, text/event-stream";

/// Which HTTP transport the server turned out to speak.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Streamable,
    /// The deprecated 2024-11-05 HTTP+SSE transport: POST to this endpoint, answers on SSE.
    LegacySse(Url),
}

/// Responses whose content the transport itself needs.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Hook {
    /// The negotiated version goes into `MCP-Protocol-Version` from then on.
    Initialize,
    /// Tool definitions say which parameters become `Mcp-Param-*` headers.
    ToolsList,
}

pub(crate) struct State {
    pub mode: Mode,
    pub session: Option<HeaderValue>,
    /// The legacy revision `initialize` negotiated, sent on every request after it.
    pub version: Option<String>,
    /// The revision the last 2026-07-28 request named, for the notifications and
    /// responses that follow it (they carry no `_meta` of their own).
    pub modern_version: Option<String>,
    pub tools: HashMap<String, Vec<ParamHeader>>,
    pub handshake: Handshake,
    hooks: HashMap<i64, Hook>,
    /// Our requests whose answers are still being read, to stop reading when cancelled.
    running: HashMap<i64, CancellationToken>,
}

pub(crate) struct Connection {
    pub http: reqwest::Client,
    /// The direct path of requests' POSTs, when the endpoint allows one (see [`Direct`]).
    direct: Option<Direct>,
    pub url: Url,
    pub connect_timeout: Duration,
    pub tls: ClientTls,
    /// The user's headers and the bearer token, sent with every request.
    pub fixed: HeaderMap,
    pub state: Mutex<State>,
    frames: mpsc::Sender<io::Result<SourceEvent>>,
    /// Stops every background task and ends the source.
    pub stop: CancellationToken,
    /// Held while a forgotten session is replaced, so only one request replaces it.
    pub renewing: tokio::sync::Mutex<()>,
    /// The OAuth client, when the server is reached with OAuth.
    pub oauth: Option<Arc<OAuth>>,
    /// The access token last handed out by [`Self::oauth`], sent with every request.
    token: Mutex<Option<String>>,
    /// The host's HTTP client, which then carries every request (see [`super::Exchange`]).
    exchange: Option<super::HttpExchange>,
}

/// The answer to a request's POST, from whichever client sent it.
pub(crate) enum Posted {
    Reqwest(reqwest::Response),
    /// From the direct path; not yet read.
    Direct(http::Response<hyper::body::Incoming>),
}

impl Posted {
    /// As a reqwest response, for the paths that read one (streams, errors, retries).
    pub fn into_reqwest(self) -> reqwest::Response {
        match self {
            Self::Reqwest(response) => response,
            Self::Direct(response) => reqwest::Response::from(response.map(reqwest::Body::wrap)),
        }
    }
}

#[derive(Deserialize)]
struct Head {
    id: Option<Value>,
    method: Option<IgnoredAny>,
}

impl Connection {
    pub fn new(
        http: reqwest::Client,
        url: Url,
        connect_timeout: Duration,
        tls: ClientTls,
        fixed: HeaderMap,
        frames: mpsc::Sender<io::Result<SourceEvent>>,
        oauth: Option<Arc<OAuth>>,
    ) -> Self {
        let state = State {
            mode: Mode::Streamable,
            session: None,
            version: None,
            modern_version: None,
            tools: HashMap::new(),
            handshake: Handshake::default(),
            hooks: HashMap::new(),
            running: HashMap::new(),
        };
        let renewing = tokio::sync::Mutex::new(());
        let direct = if oauth.is_none() { Direct::new(&url, connect_timeout) } else { None };
        Self {
            http,
            direct,
            url,
            connect_timeout,
            tls,
            fixed,
            state: Mutex::new(state),
            frames,
            stop: CancellationToken::new(),
            renewing,
            oauth,
            token: Mutex::new(None),
            exchange: None,
        }
    }

    /// Sends every request through the host's HTTP client (none: reqwest's, as built).
    /// The direct path is reqwest's own shortcut, so it is off then.
    pub fn set_exchange(&mut self, exchange: Option<super::HttpExchange>) {
        if exchange.is_some() {
            self.direct = None;
        }
        self.exchange = exchange;
    }

    /// Sends `request` (built by [`Self::request`] or [`Self::post`]).
    pub async fn send(&self, request: RequestBuilder) -> Result<reqwest::Response, super::SendError> {
        super::send(self.exchange.as_ref(), request).await
    }

    /// The access token for the next request (refreshed when about to expire), which
    /// [`Self::request`] then sends; `None` without OAuth or before any authorization.
    pub async fn bearer(&self) -> Result<Option<String>, AuthError> {
        let Some(oauth) = &self.oauth else { return Ok(None) };
        let token = oauth.bearer().await?;
        self.token.lock().unwrap().clone_from(&token);
        Ok(token)
    }

    pub fn session(&self) -> Option<HeaderValue> {
        self.state.lock().unwrap().session.clone()
    }

    pub fn mode(&self) -> Mode {
        self.state.lock().unwrap().mode.clone()
    }

    /// A request to `url` with the fixed headers, the session and the negotiated version.
    pub fn request(&self, method: Method, url: Url) -> RequestBuilder {
        let mut builder = self.http.request(method, url).headers(self.fixed.clone());
        if let Some(token) = &*self.token.lock().unwrap() {
            builder = builder.bearer_auth(token);
        }
        let state = self.state.lock().unwrap();
        if let Some(session) = &state.session {
            builder = builder.header(SESSION_ID, session.clone());
        }
        if let Some(version) = &state.version {
            builder = builder.header(PROTOCOL_VERSION, version.as_str());
        }
        builder
    }

    /// A POST of one message, accepting JSON or SSE.
    pub fn post(&self, url: Url, body: bytes::Bytes, headers: HeaderMap) -> RequestBuilder {
        self.request(Method::POST, url)
            .headers(headers)
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, ACCEPT_BOTH)
            .body(body)
    }

    /// Sends the POST of a request to `url`: straight through hyper-util's client when the
    /// connection allows it and `url` is the endpoint (see [`Direct`]), else through
    /// reqwest. The error is the failure with its causes, as reqwest words it.
    pub async fn send_post(&self, url: &Url, body: Bytes, headers: &HeaderMap) -> Result<Posted, String> {
        if let Some(direct) = self.direct.as_ref().filter(|direct| direct.is_on() && *url == self.url)
            && let Some(all) = self.direct_headers(headers, direct.host())
        {
            match direct.post(body.clone(), all).await {
                Ok(Some(response)) => return Ok(Posted::Direct(response)),
                // A redirect: reqwest sends it again and follows it.
                Ok(None) => {}
                Err(e) => return Err(format!("error sending request for url ({url}): {}", super::chain(&e))),
            }
        }
        match self.send(self.post(url.clone(), body, headers.clone())).await {
            Ok(response) => Ok(Posted::Reqwest(response)),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The headers [`Self::post`] gives reqwest for a message with `message` headers, in
    /// the same order, and the `Host` hyper-util then adds; `None` when the negotiated
    /// version is no header value (reqwest refuses the request then, and words why).
    fn direct_headers(&self, message: &HeaderMap, host: &HeaderValue) -> Option<HeaderMap> {
        let mut headers = self.fixed.clone();
        if self.token.lock().unwrap().is_some() {
            return None;
        }
        {
            let state = self.state.lock().unwrap();
            if let Some(session) = &state.session {
                headers.append(SESSION_ID, session.clone());
            }
            if let Some(version) = &state.version {
                headers.append(PROTOCOL_VERSION, HeaderValue::from_str(version).ok()?);
            }
        }
        replace_headers(&mut headers, message);
        headers.append(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.append(ACCEPT, HeaderValue::from_static(ACCEPT_BOTH));
        add_host(&mut headers, host);
        Some(headers)
    }

    /// A token that stops reading the answer to `id` (when the request is cancelled).
    pub fn track(&self, id: i64) -> CancellationToken {
        let token = self.stop.child_token();
        self.state.lock().unwrap().running.insert(id, token.clone());
        token
    }

    /// Stops reading the answer to `id`, if it is still being read, and forgets it.
    pub fn forget(&self, id: i64) {
        let mut state = self.state.lock().unwrap();
        state.hooks.remove(&id);
        if let Some(token) = state.running.remove(&id) {
            token.cancel();
        }
    }

    /// Remembers that the response to `id` must be looked at.
    pub fn hook(&self, id: i64, hook: Hook) {
        self.state.lock().unwrap().hooks.insert(id, hook);
    }

    /// Hands one incoming message to the peer; `Some(id)` when it is a response. Text that
    /// is no JSON-RPC message is dropped with a warning: the peer would answer it with an
    /// error, and there is no one on the server's side to read that.
    pub async fn deliver(&self, text: SharedStr) -> Option<Value> {
        let head = match serde_json::from_str::<Head>(&text) {
            Ok(head) => head,
            Err(e) => {
                tracing::warn!("dropped a message from the server that is not a JSON-RPC message ({e})");
                return None;
            }
        };
        let response_id = Some(head).filter(|head| head.method.is_none()).and_then(|head| head.id);
        if let Some(id) = response_id.as_ref().and_then(Value::as_i64) {
            let hook = self.state.lock().unwrap().hooks.remove(&id);
            if let Some(hook) = hook {
                self.apply(hook, &text);
            }
        }
        let _ = self.frames.send(Ok(SourceEvent::Frame(text))).await;
        response_id
    }

    fn apply(&self, hook: Hook, text: &str) {
        let Ok(message) = serde_json::from_str::<Value>(text) else { return };
        let Some(result) = message.get("result") else { return };
        let mut state = self.state.lock().unwrap();
        match hook {
            Hook::Initialize => {
                state.version = result.get("protocolVersion").and_then(Value::as_str).map(str::to_owned);
            }
            Hook::ToolsList => {
                for tool in result.get("tools").and_then(Value::as_array).into_iter().flatten() {
                    let Some(name) = tool.get("name").and_then(Value::as_str) else { continue };
                    match tool.get("inputSchema").map(tool_param_headers) {
                        Some(Ok(headers)) => state.tools.insert(name.to_owned(), headers),
                        _ => state.tools.remove(name),
                    };
                }
            }
        }
    }

    /// Answers our request `id` with an error, for an answer the server gave that is no
    /// JSON-RPC response (an HTTP error status, a body without the response). (Our ids are
    /// integers: the peer numbers its requests.) The client's era probe reads it as the
    /// refusal of a server that is not modern.
    pub async fn fail(&self, id: i64, why: String) {
        self.fail_with(id, &ErrorObject::new(ErrorCode::CONNECTION_CLOSED, why)).await;
    }

    /// Request `id` got no answer because the transport broke (the server could not be
    /// reached, or its stream broke): it fails as on a closed connection.
    pub async fn lose(&self, id: i64, why: String) {
        self.state.lock().unwrap().hooks.remove(&id);
        let _ = self.frames.send(Ok(SourceEvent::RequestFailed { id, reason: why })).await;
    }

    /// [`Self::fail`] for an answer the server gave at the HTTP level: `failure` goes in
    /// the error's `data`, for the bindings' typed HTTP errors.
    pub async fn fail_http(&self, id: i64, why: String, failure: &HttpFailure) {
        let error = ErrorObject::new(ErrorCode::CONNECTION_CLOSED, why).with_data(RawJson::from_value(&failure.data()));
        self.fail_with(id, &error).await;
    }

    pub async fn fail_with(&self, id: i64, error: &ErrorObject) {
        self.state.lock().unwrap().hooks.remove(&id);
        let mut frame = Vec::with_capacity(96);
        encode::error(&mut frame, Some(&RequestId::Number(id)), error);
        let text = String::from_utf8(frame).expect("encoded JSON is UTF-8");
        let _ = self.frames.send(Ok(SourceEvent::Frame(SharedStr::from(text)))).await;
    }

    /// Ends the connection with a transport error (the only stream answers came on broke).
    pub async fn broken(&self, why: String) {
        let _ = self.frames.send(Err(io::Error::other(why))).await;
    }

    /// Request `id` failed in a way that may mean the server is gone (`why`): it fails
    /// alone (as on a closed connection, [`Self::lose`]) if the server is still there, else
    /// the whole connection ends (and `id` with it).
    pub async fn lost(&self, id: i64, why: String) {
        if self.alive(&why).await {
            self.lose(id, why).await;
        }
    }

    /// After a failure that may mean the server is gone (`why`): whether it still answers.
    /// When it does not, the connection ends saying so, and every request still waiting
    /// fails with it.
    pub async fn alive(&self, why: &str) -> bool {
        if self.stop.is_cancelled() || self.reachable().await {
            return true;
        }
        let url = &self.url;
        self.broken(format!("the server at {url} is gone (it no longer answers; last: {why})")).await;
        false
    }

    /// Whether the server still answers HTTP: a HEAD on a connection of its own (a pooled
    /// one may be the one that just broke; and a bare TCP connect can still succeed while a
    /// killed server's listening socket is being torn down). Any status means it is there,
    /// and so does a slow answer (a busy server is no gone server).
    async fn reachable(&self) -> bool {
        if let Some(exchange) = &self.exchange {
            // The host's client reaches the server its own way: ask through it.
            let head = super::send(Some(exchange), self.http.head(self.url.clone()));
            return !matches!(tokio::time::timeout(self.connect_timeout, head).await, Ok(Err(_)));
        }
        let Ok(probe) = super::http_client(&self.tls) else { return true };
        let probe =
            probe.pool_max_idle_per_host(0).connect_timeout(self.connect_timeout).timeout(self.connect_timeout).build();
        let Ok(probe) = probe else { return true };
        match probe.head(self.url.clone()).send().await {
            Ok(_) => true,
            Err(e) => e.is_timeout(),
        }
    }
}
