//! An MCP client for both eras.
//!
//! [`Client::connect`] probes the server: `server/discover` with the 2026-07-28 `_meta`; a
//! discover result (or a recognised modern error) means a modern server, anything else
//! (another error, or no answer in time) means a legacy one, and the client falls back to
//! `initialize`. The era is then fixed for the connection. Modern requests carry the
//! `_meta` keys the specification requires; when a modern server answers
//! `input_required`, the client answers each input through the host's callbacks and
//! retries, as the legacy server-to-client requests are answered through the same
//! callbacks.
//!
//! The client's own transports live here: a spawned server process ([`child`]) and
//! Streamable HTTP with the HTTP+SSE fallback ([`http`]).

pub mod auth;
pub mod cache;
mod callbacks;
pub mod child;
pub mod claims;
mod error;
pub mod http;
mod listen;
mod probe;
pub mod tasks;

use callbacks::Router;
pub use callbacks::{ClientCallbacks, InputCallback, NotificationCallback};
pub use claims::ResultClaim;
pub use error::ClientError;
pub use listen::{ListChangedCallback, ListChangedHandler, ListChangedHandlers, Subscription, SubscriptionEnd};
pub use tasks::TaskCall;

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Map, Value, json};

use self::cache::{CACHEABLE_METHODS, CacheConfig, CacheMode, ResponseCache};
use self::http::{HttpClientOptions, HttpSession, tool_param_headers};
use crate::framing::{FrameSink, FrameSource};
use crate::peer::{Peer, PeerConfig, RequestOptions};
use crate::protocol::{
    CallToolResult, CompleteResult, GetPromptResult, Prompt, ProtocolVersion, ReadResourceResult, Resource,
    ResourceTemplate, Tool, meta,
};
use crate::protocol::{ListTools, RequestMethod};
use crate::wire::{RawJson, RawResult};
use child::{ChildCommand, ChildProcess, ShutdownTimeouts};
use serde_json::value::RawValue;

/// Which era to speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EraPreference {
    /// Probe with `server/discover`, fall back to `initialize`.
    #[default]
    Auto,
    Legacy,
    Modern,
    /// Adopt 2026-07-28 without asking (the official Python client's version pin): nothing
    /// is sent before the first request, and the server is known only through
    /// [`ClientOptions::prior_discover`] when given (else no info, no capabilities).
    Pinned,
}

#[derive(Clone)]
pub struct ClientOptions {
    /// `clientInfo` (an `Implementation` object).
    pub info: Value,
    /// The client's capabilities; sampling, elicitation and roots are added for the
    /// callbacks that are set.
    pub capabilities: Value,
    pub era: EraPreference,
    /// The legacy revision asked for in `initialize`.
    pub legacy_version: String,
    /// How long the `server/discover` probe of [`EraPreference::Auto`] waits before
    /// assuming a legacy server; `None`: as long as any request
    /// ([`PeerConfig::request_timeout`]), the official TypeScript client's default.
    pub probe_timeout: Option<Duration>,
    /// How many `input_required` rounds one request may take (10, as in the official
    /// Python and TypeScript clients).
    pub max_input_rounds: usize,
    /// Whether [`Client::request`] answers `input_required` results through the callbacks
    /// (the default, the official clients' auto-fulfilment) or fails with
    /// [`ClientError::InputRequired`] (the official TypeScript client's `autoFulfill: false`:
    /// a caller wanting the result sends it with [`Client::request_once`] and retries itself).
    pub answer_input: bool,
    /// The log level opted in to on a 2026-07-28 connection: stamped in `_meta` of every
    /// request (the only way to get log messages there; a request's own `_meta` level
    /// wins). No effect on a legacy (handshake-era) connection, as in the official Python
    /// and TypeScript clients: nothing is sent implicitly there; call
    /// [`Client::set_logging_level`] for `logging/setLevel`.
    pub log_level: Option<String>,
    /// Refresh lists when the server says they changed (the official TypeScript client's
    /// `listChanged` option); on a modern server this opens a `subscriptions/listen`.
    pub list_changed: ListChangedHandlers,
    /// The response cache (on by default with an in-memory store of 1024 entries, as in
    /// the official clients); `None` turns it off.
    pub cache: Option<CacheConfig>,
    pub peer: PeerConfig,
    /// A `server/discover` result saved from an earlier connection, adopted as the
    /// server's details under [`EraPreference::Pinned`] (ignored otherwise, as there).
    pub prior_discover: Option<Value>,
    /// The result shapes the client's extensions claim (see [`claims`]): each claiming
    /// extension must be declared in `capabilities.extensions`, and is declared only at a
    /// revision where one of its claims is active (never in the legacy handshake).
    pub result_claims: Vec<ResultClaim>,
}

impl Default for ClientOptions {
    fn default() -> Self {
        Self {
            info: json!({"name": "ferrymcp-client", "version": env!("CARGO_PKG_VERSION")}),
            capabilities: json!({}),
            era: EraPreference::Auto,
            legacy_version: ProtocolVersion::LATEST_LEGACY.as_str().into(),
            probe_timeout: Some(Duration::from_secs(5)),
            max_input_rounds: 10,
            answer_input: true,
            log_level: None,
            list_changed: ListChangedHandlers::default(),
            cache: Some(CacheConfig::python()),
            peer: PeerConfig::default(),
            prior_discover: None,
            result_claims: Vec::new(),
        }
    }
}

impl ClientOptions {
    /// The official TypeScript v2 client's connect defaults, for the binding that takes its
    /// API: no negotiation unless asked (`versionNegotiation` absent, or its `mode`, is the
    /// plain `initialize` handshake: [`EraPreference::Legacy`]), and when asked, a probe that
    /// waits the request timeout (`probe.timeoutMs` absent), and its response cache
    /// ([`CacheConfig::typescript`]). The official Python v2 client differs (`mode="auto"`,
    /// a bounded probe, [`CacheConfig::python`]): that is [`ClientOptions::python`].
    pub fn typescript() -> Self {
        Self {
            era: EraPreference::Legacy,
            probe_timeout: None,
            cache: Some(CacheConfig::typescript()),
            ..Self::default()
        }
    }

    /// The official Python v2 client's connect defaults, for the binding that takes its
    /// API: `mode="auto"` (the probe, then `initialize` for a 2025-era server), and a probe
    /// that waits 10 s (its `DISCOVER_TIMEOUT_SECONDS`), whatever the request timeout.
    pub fn python() -> Self {
        Self { era: EraPreference::Auto, probe_timeout: Some(Duration::from_secs(10)), ..Self::default() }
    }

    /// The capabilities declared to a server speaking `version` (see [`claims`]).
    pub fn capabilities_at(&self, version: &str) -> Value {
        claims::capabilities_at(&self.capabilities, &self.result_claims, version)
    }

    /// How long the probe waits (see [`ClientOptions::probe_timeout`]).
    pub fn probe_wait(&self) -> Duration {
        self.probe_timeout.unwrap_or(self.peer.request_timeout)
    }
}

/// What the handshake learnt about the server.
#[derive(Clone, Debug)]
pub struct ServerDetails {
    pub protocol_version: String,
    pub modern: bool,
    pub capabilities: Value,
    pub info: Value,
    pub instructions: Option<String>,
    /// The `server/discover` result the details came from (none after `initialize`, or
    /// for a pin without a prior result).
    pub discover: Option<Value>,
}

/// A connected MCP client. Cheap to clone.
#[derive(Clone)]
pub struct Client {
    peer: Peer,
    details: Arc<ServerDetails>,
    options: Arc<ClientOptions>,
    /// What answers the server's requests and notifications, by method.
    router: Arc<Router>,
    child: Option<ChildProcess>,
    /// Over HTTP: the session, and tools with invalid `x-mcp-header` annotations are left
    /// out of lists.
    http: Option<HttpSession>,
    /// The listen stream the `listChanged` option opened (modern servers).
    auto_subscription: Option<Subscription>,
    /// The response cache, unless turned off.
    cache: Option<Arc<ResponseCache>>,
    /// Each listed tool's `outputSchema` (`None`: it has none), from the `tools/list`
    /// results this client received, to validate `structuredContent` of its calls.
    output_schemas: Arc<Mutex<HashMap<String, Option<Arc<OutputSchema>>>>>,
    /// On a modern connection, the `_meta` [`add_meta`](Self::add_meta) gives params that
    /// have none, encoded once: [`request_raw`](Self::request_raw) writes it as it is.
    meta_text: Option<Arc<Box<RawValue>>>,
}

impl Client {
    /// Connects over a transport and runs the handshake.
    pub async fn connect<S: FrameSource, K: FrameSink>(
        source: S,
        sink: K,
        options: ClientOptions,
        callbacks: ClientCallbacks,
    ) -> Result<Client, ClientError> {
        let (mut client, handlers) = Self::handshake(source, sink, options, callbacks, None).await?;
        client.install_list_changed(&handlers).await;
        Ok(client)
    }

    /// Connects and runs the handshake; the `listChanged` handlers are returned, to be
    /// installed once the client is complete (its transport's session or child included).
    async fn handshake<S: FrameSource, K: FrameSink>(
        source: S,
        sink: K,
        mut options: ClientOptions,
        callbacks: ClientCallbacks,
        url: Option<&str>,
    ) -> Result<(Client, ListChangedHandlers), ClientError> {
        callbacks.declare(&mut options.capabilities);
        claims::check_claims(&options.result_claims, &options.capabilities).map_err(ClientError::Usage)?;
        let cache = match &options.cache {
            Some(config) => Some(Arc::new(ResponseCache::new(config, url).map_err(ClientError::Usage)?)),
            None => None,
        };
        let router = callbacks.router_with_cache(cache.clone(), Some(&options.capabilities))?;
        let peer = Peer::spawn(source, sink, router.clone(), options.peer.clone());
        let details = match probe::handshake(&peer, &options).await {
            Ok(details) => details,
            Err(e) => {
                peer.close().await;
                return Err(e);
            }
        };
        let handlers = std::mem::take(&mut options.list_changed);
        // What every request of the connection declares from now on (a modern request's
        // `_meta`), at the revision it speaks.
        options.capabilities = options.capabilities_at(&details.protocol_version);
        if let Some(cache) = &cache {
            cache.set_version(&details.protocol_version);
        }
        let client = Client {
            peer,
            details: Arc::new(details),
            options: Arc::new(options),
            router,
            child: None,
            http: None,
            auto_subscription: None,
            cache,
            output_schemas: Arc::default(),
            meta_text: None,
        };
        let mut client = client;
        if client.details.modern {
            let mut params = Map::new();
            client.add_meta(&mut params);
            client.meta_text = serde_json::value::to_raw_value(&params["_meta"]).ok().map(Arc::new);
        }
        Ok((client, handlers))
    }

    /// Connects to the MCP endpoint at `http.url` over Streamable HTTP (either era, or the
    /// deprecated HTTP+SSE transport of old servers).
    pub async fn connect_http(
        http: HttpClientOptions,
        options: ClientOptions,
        callbacks: ClientCallbacks,
    ) -> Result<Client, ClientError> {
        let (source, sink) = self::http::connect(&http).map_err(|e| ClientError::Transport(e.to_string()))?;
        let session = sink.session();
        let (mut client, handlers) = Self::handshake(source, sink, options, callbacks, Some(&http.url)).await?;
        client.http = Some(session);
        client.install_list_changed(&handlers).await;
        Ok(client)
    }

    /// Starts a server process and connects to it over its stdio.
    pub async fn spawn(
        command: ChildCommand,
        options: ClientOptions,
        callbacks: ClientCallbacks,
    ) -> Result<Client, ClientError> {
        let transport = child::spawn(command).map_err(|e| ClientError::Transport(e.to_string()))?;
        let process = transport.process.clone();
        match Self::handshake(transport.source, transport.sink, options, callbacks, None).await {
            Ok((mut client, handlers)) => {
                client.child = Some(process);
                client.install_list_changed(&handlers).await;
                Ok(client)
            }
            Err(e) => {
                let _ = process.shutdown(ShutdownTimeouts::default()).await;
                Err(e)
            }
        }
    }

    /// The `subscriptions/listen` stream [`ClientOptions::list_changed`] opened on a modern
    /// connection (the official TypeScript client's `autoOpenedSubscription`); none on a
    /// legacy one, or when the server declares none of the lists.
    pub fn auto_subscription(&self) -> Option<&Subscription> {
        self.auto_subscription.as_ref()
    }

    /// Closes the connection; a spawned server is shut down as the specification says
    /// (stdin closed, then SIGTERM, then SIGKILL).
    pub async fn close(&self) {
        self.router.hooks.clear();
        if let Some(subscription) = &self.auto_subscription {
            subscription.cancel_now();
        }
        self.peer.close().await;
        if let Some(child) = &self.child {
            let _ = child.shutdown(ShutdownTimeouts::default()).await;
        }
    }

    pub fn server(&self) -> &ServerDetails {
        &self.details
    }

    pub fn peer(&self) -> &Peer {
        &self.peer
    }

    /// The server process this client started ([`spawn`](Self::spawn) only): its pid, for
    /// a host that measures or supervises it.
    pub fn child(&self) -> Option<&ChildProcess> {
        self.child.as_ref()
    }

    /// The HTTP session (over HTTP only): its id, and ending it.
    pub fn http_session(&self) -> Option<&HttpSession> {
        self.http.as_ref()
    }

    /// Sends any request and returns its result. On a modern connection the `_meta` keys
    /// are added, and `input_required` answers are resolved through the callbacks.
    pub async fn request(&self, method: &str, params: Value, options: RequestOptions) -> Result<Value, ClientError> {
        self.request_rounds(method, params, options).await.map(|(result, _)| result)
    }

    /// Sends a request once without answering `input_required`: a 2026-07-28 result that
    /// asks for input is returned as it is, for a caller that answers it and retries with
    /// `inputResponses` and `requestState` itself (the official Python session's
    /// `allow_input_required=True`). Otherwise the same as [`request`](Self::request).
    pub async fn request_once(
        &self,
        method: &str,
        params: Value,
        options: RequestOptions,
    ) -> Result<Value, ClientError> {
        let Value::Object(mut params) = params else {
            return Err(ClientError::Usage("params must be a JSON object".into()));
        };
        if self.details.modern {
            self.add_meta(&mut params);
        }
        self.send(method, &params, options).await
    }

    /// [`request`](Self::request), and how many `input_required` rounds it took.
    async fn request_rounds(
        &self,
        method: &str,
        params: Value,
        options: RequestOptions,
    ) -> Result<(Value, usize), ClientError> {
        let Value::Object(mut params) = params else {
            return Err(ClientError::Usage("params must be a JSON object".into()));
        };
        if !self.details.modern {
            return Ok((self.send(method, &params, options).await?, 0));
        }
        self.add_meta(&mut params);
        let mut round = 0;
        loop {
            let result = self.send(method, &params, options.clone()).await?;
            if result.get("resultType") != Some(&json!("input_required")) {
                return Ok((result, round));
            }
            if round == self.options.max_input_rounds || !self.options.answer_input {
                return Err(self.unanswered(method, result));
            }
            self.answer_round(&result, &mut params).await?;
            round += 1;
        }
    }

    /// [`request`](Self::request) returning the result's JSON text as the server sent it
    /// (member order, numbers and escapes untouched), for a proxy that passes it on: the
    /// top-level members of a modern result that matter (`resultType`, and what a server
    /// passing it on checks before stamping it) are read in one scan without parsing the
    /// rest, and travel with the text ([`RawResult`]); only an `input_required` result is
    /// parsed, to answer it. `tools/list` is parsed as [`request`](Self::request) parses it
    /// (the client learns the output schemas).
    pub async fn request_raw(
        &self,
        method: &str,
        mut params: Map<String, Value>,
        options: RequestOptions,
    ) -> Result<RawResult, ClientError> {
        if method == ListTools::METHOD {
            let result = self.request(method, Value::Object(params), options).await?;
            return Ok(RawJson::from_value(&result).into());
        }
        if !self.details.modern {
            let raw: RawJson = self.peer.request(method, Some(&params), options).await?;
            return Ok(raw.into());
        }
        // Params without a `_meta` (a proxy's, once the front hop's keys are gone) get the
        // connection's, written as encoded once; others have the keys added.
        let meta_text = self.meta_text.as_deref().map(|meta| &**meta).filter(|_| !params.contains_key("_meta"));
        if meta_text.is_none() {
            self.add_meta(&mut params);
        }
        let raw = self.send_raw(method, &params, meta_text, options.clone()).await?;
        self.raw_rounds(method, params, meta_text, options, raw).await
    }

    /// [`request_raw`](Self::request_raw) of params given as an object's members without
    /// `_meta`, their values as JSON text (a proxy's, kept as the front client sent them):
    /// written as they are, the connection's `_meta` after them, so they are never parsed
    /// (unless the server asks for input, which is answered as `request_raw` answers it).
    /// Members with a `_meta`, and `tools/list`, are parsed and sent by `request_raw`.
    pub async fn request_raw_members(
        &self,
        method: &str,
        members: &[(Cow<'_, str>, &RawValue)],
        options: RequestOptions,
    ) -> Result<RawResult, ClientError> {
        let parsed = || -> Result<Map<String, Value>, ClientError> {
            let parse = |(key, value): &(Cow<'_, str>, &RawValue)| {
                serde_json::from_str(value.get()).map(|value| (key.to_string(), value))
            };
            members.iter().map(parse).collect::<Result<_, _>>().map_err(|e| ClientError::Usage(e.to_string()))
        };
        if method == ListTools::METHOD || members.iter().any(|(key, _)| key == "_meta") {
            return self.request_raw(method, parsed()?, options).await;
        }
        if !self.details.modern {
            let params = MembersWithMeta { members, meta: None };
            let raw: RawJson = self.peer.request(method, Some(&params), options).await?;
            return Ok(raw.into());
        }
        let Some(meta) = self.meta_text.as_deref().map(|meta| &**meta) else {
            return self.request_raw(method, parsed()?, options).await;
        };
        let params = MembersWithMeta { members, meta: Some(meta) };
        let raw = RawResult::read(self.peer.request(method, Some(&params), options.clone()).await?);
        if !raw.members().is_some_and(|m| m.asks_input) {
            return Ok(raw);
        }
        self.raw_rounds(method, parsed()?, Some(meta), options, raw).await
    }

    /// Sends `params` (with `meta` written after them, when given) and returns the result's
    /// text with the members read of it.
    async fn send_raw(
        &self,
        method: &str,
        params: &Map<String, Value>,
        meta: Option<&RawValue>,
        options: RequestOptions,
    ) -> Result<RawResult, ClientError> {
        let raw = match meta {
            Some(meta) => self.peer.request(method, Some(&WithMeta { params, meta }), options).await?,
            None => self.peer.request(method, Some(params), options).await?,
        };
        Ok(RawResult::read(raw))
    }

    /// The `input_required` rounds of [`request_raw`](Self::request_raw), from its first
    /// result `raw`: each answered through the callbacks and retried, until a result that
    /// asks for nothing.
    async fn raw_rounds(
        &self,
        method: &str,
        mut params: Map<String, Value>,
        meta: Option<&RawValue>,
        options: RequestOptions,
        mut raw: RawResult,
    ) -> Result<RawResult, ClientError> {
        let mut round = 0;
        loop {
            if !raw.members().is_some_and(|m| m.asks_input) {
                return Ok(raw);
            }
            let result: Value = raw
                .text()
                .parse_owned()
                .map_err(|e| ClientError::Protocol(format!("{method} result is not JSON: {e}")))?;
            if round == self.options.max_input_rounds || !self.options.answer_input {
                return Err(self.unanswered(method, result));
            }
            self.answer_round(&result, &mut params).await?;
            round += 1;
            raw = self.send_raw(method, &params, meta, options.clone()).await?;
        }
    }

    /// Answers an `input_required` result's requests and sets up `params` for the retry.
    async fn answer_round(&self, result: &Value, params: &mut Map<String, Value>) -> Result<(), ClientError> {
        let responses = self.answer_inputs(result).await?;
        params.insert("inputResponses".into(), Value::Object(responses));
        match result.get("requestState") {
            Some(state) => params.insert("requestState".into(), state.clone()),
            None => params.shift_remove("requestState"),
        };
        Ok(())
    }

    /// The error for an `input_required` result left unanswered: answering is off, or the
    /// last round allowed still asked.
    fn unanswered(&self, method: &str, result: Value) -> ClientError {
        let rounds = self.options.answer_input.then_some(self.options.max_input_rounds);
        ClientError::InputRequired { method: method.to_owned(), rounds, last: Box::new(result) }
    }

    /// [`request`](Self::request) through the response cache (see [`cache`]): for the
    /// cacheable methods without a cursor, a fresh entry is served without a round trip
    /// (`CacheMode::Use`) and a fetched result is stored for its `ttlMs`. Params with a
    /// `_meta` always reach the server (`Use` acts as `Refresh`); a continuation page is
    /// never cached, and one refused for its cursor evicts the listing; a `resources/read`
    /// seeded with `inputResponses`/`requestState`, or answered after input rounds, is never
    /// stored. Other methods, and every method with the cache off, are plain requests.
    pub async fn cached_request(
        &self,
        method: &str,
        params: Value,
        options: RequestOptions,
        mode: CacheMode,
    ) -> Result<Value, ClientError> {
        let cache = match &self.cache {
            Some(cache) if mode != CacheMode::Bypass && CACHEABLE_METHODS.contains(&method) => cache,
            _ => return self.request(method, params, options).await,
        };
        if self.peer.is_closed() {
            return Err(ClientError::Peer(crate::peer::PeerError::Closed(crate::peer::CloseReason::Local)));
        }
        let present = |key: &str| params.get(key).is_some_and(|v| !v.is_null());
        let mode = if present("_meta") && mode == CacheMode::Use { CacheMode::Refresh } else { mode };
        let params_key = if method == "resources/read" {
            if present("inputResponses") || present("requestState") {
                return self.request(method, params, options).await;
            }
            params.get("uri").and_then(Value::as_str).unwrap_or_default().to_owned()
        } else {
            if present("cursor") {
                let answer = self.request(method, params, options).await;
                if let Err(e) = &answer
                    && e.code() == crate::wire::ErrorCode::INVALID_PARAMS
                {
                    cache.evict(method, "").await;
                }
                return answer;
            }
            String::new()
        };
        if mode == CacheMode::Use
            && let Some(hit) = cache.read(method, &params_key).await
        {
            return Ok(hit);
        }
        let generation = cache.capture(method, &params_key);
        let (result, rounds) = self.request_rounds(method, params, options).await?;
        if rounds == 0 {
            cache.write(method, &params_key, &result, generation, mode).await;
        } else if mode == CacheMode::Refresh {
            cache.evict(method, &params_key).await;
        }
        Ok(result)
    }

    /// Records the `outputSchema` of each listed tool; a complete listing (first page,
    /// no next cursor) forgets the tools it no longer names.
    fn learn_output_schemas(&self, result: &Value, first_page: bool) {
        let Some(Value::Array(tools)) = result.get("tools") else { return };
        let mut schemas = self.output_schemas.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if first_page && result.get("nextCursor").is_none_or(Value::is_null) {
            schemas.clear();
        }
        for tool in tools {
            if let Some(name) = tool.get("name").and_then(Value::as_str) {
                let schema = tool.get("outputSchema").filter(|s| !s.is_null()).cloned().map(OutputSchema::new);
                schemas.insert(name.to_owned(), schema);
            }
        }
    }

    /// Checks a `tools/call` result against the tool's `outputSchema`, as the official
    /// clients do: a result that is not an error must carry `structuredContent` matching
    /// it. The schema is the one the last `tools/list` gave; a tool this client has not
    /// seen listed makes it list the tools first (a tool still unknown is not checked).
    /// A result asking for input (`input_required`, 2026-07-28) is not a tool's answer
    /// yet: it is not checked.
    pub async fn validate_tool_result(&self, name: &str, result: &Value) -> Result<(), ClientError> {
        if result.get("isError").and_then(Value::as_bool) == Some(true)
            || result.get("resultType").and_then(Value::as_str) == Some("input_required")
            || self.claimed(crate::protocol::CallTool::METHOD, result).is_some()
        {
            return Ok(());
        }
        let known = |client: &Self| {
            client.output_schemas.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(name).cloned()
        };
        let schema = match known(self) {
            Some(schema) => schema,
            None => {
                self.list_all("tools/list", "tools").await?;
                match known(self) {
                    Some(schema) => schema,
                    None => {
                        tracing::warn!("tool {name} not listed by server, cannot validate any structured content");
                        None
                    }
                }
            }
        };
        let Some(schema) = schema else { return Ok(()) };
        let invalid = |detail: String| ClientError::OutputSchema { tool: name.to_owned(), missing: false, detail };
        // Present is enough: from 2026-07-28 `null` is a structured result like any other
        // value (SEP-2106), which the schema then judges.
        let Some(content) = result.get("structuredContent") else {
            return Err(ClientError::OutputSchema { tool: name.to_owned(), missing: true, detail: String::new() });
        };
        let validator = schema.validator().map_err(|e| invalid(format!("invalid schema: {e}")))?;
        if let Some(error) = validator.iter_errors(content).next() {
            return Err(invalid(error.to_string()));
        }
        Ok(())
    }

    /// The `resultType` of `result`, a result of `method`, when one of the client's
    /// [`ClientOptions::result_claims`] active on this connection claims it: the result is
    /// that claim's shape, not the method's own (and is not checked as one).
    pub fn claimed<'a>(&self, method: &str, result: &'a Value) -> Option<&'a str> {
        let tag = result.get("resultType")?.as_str()?;
        let version = &self.details.protocol_version;
        self.options
            .result_claims
            .iter()
            .any(|c| c.method == method && c.result_type == tag && c.active_at(version))
            .then_some(tag)
    }

    /// Sends a notification (a custom one, or MCP's such as
    /// `notifications/roots/list_changed`); `params` `Null` sends none.
    pub async fn notify(&self, method: &str, params: Value) -> Result<(), ClientError> {
        let params = Some(params).filter(|p| !p.is_null());
        self.peer.notify(method, params.as_ref()).await.map_err(ClientError::from)
    }

    /// Tells the server the client's roots changed (`notifications/roots/list_changed`;
    /// the official clients' `send_roots_list_changed` / `sendRootsListChanged`). The roots
    /// capability is deprecated in 2026-07-28, which defines no client notifications: it is
    /// still sent, as the official clients do, and a modern server ignores it.
    pub async fn send_roots_list_changed(&self) -> Result<(), ClientError> {
        self.notify("notifications/roots/list_changed", Value::Null).await
    }

    async fn send(
        &self,
        method: &str,
        params: &Map<String, Value>,
        options: RequestOptions,
    ) -> Result<Value, ClientError> {
        let raw = self.peer.request(method, Some(params), options).await?;
        let mut result: Value =
            raw.parse_owned().map_err(|e| ClientError::Protocol(format!("{method} result is not JSON: {e}")))?;
        if method == ListTools::METHOD {
            if self.http.is_some() {
                drop_tools_with_bad_headers(&mut result);
            }
            self.learn_output_schemas(&result, !params.contains_key("cursor"));
        }
        Ok(result)
    }

    fn add_meta(&self, params: &mut Map<String, Value>) {
        let fields = params.entry("_meta").or_insert_with(|| json!({}));
        if let Value::Object(fields) = fields {
            fields.insert(meta::PROTOCOL_VERSION.into(), json!(self.details.protocol_version));
            // A request that declares more (one accepting tasks) keeps its own.
            fields.entry(meta::CLIENT_CAPABILITIES).or_insert_with(|| self.options.capabilities.clone());
            fields.insert(meta::CLIENT_INFO.into(), self.options.info.clone());
            // The configured level is a default: a request's own `_meta` level wins (as
            // in the official Python client).
            if let Some(level) = &self.options.log_level {
                fields.entry(meta::LOG_LEVEL).or_insert_with(|| json!(level));
            }
        }
    }

    async fn answer_inputs(&self, result: &Value) -> Result<Map<String, Value>, ClientError> {
        let mut responses = Map::new();
        let requests = result.get("inputRequests").and_then(Value::as_object).cloned().unwrap_or_default();
        for (key, request) in requests {
            let method = request.get("method").and_then(Value::as_str).unwrap_or_default();
            let params = request.get("params").cloned().unwrap_or_else(|| json!({}));
            let answer = self.router.answer(method, params).await.map_err(ClientError::Input)?;
            responses.insert(key, answer);
        }
        Ok(responses)
    }

    /// All pages of a list (`tools`, `resources`, `resourceTemplates`, `prompts`).
    pub async fn list_all(&self, method: &str, key: &str) -> Result<Vec<Value>, ClientError> {
        let mut items = Vec::new();
        let mut cursor: Option<Value> = None;
        loop {
            let params = match &cursor {
                Some(cursor) => json!({"cursor": cursor}),
                None => json!({}),
            };
            let mut page = self.request(method, params, RequestOptions::default()).await?;
            if let Some(Value::Array(list)) = page.get_mut(key).map(Value::take) {
                items.extend(list);
            }
            match page.get("nextCursor") {
                Some(next) if next.is_string() && Some(next) != cursor.as_ref() => cursor = Some(next.clone()),
                _ => return Ok(items),
            }
        }
    }

    /// Every tool, across all pages (over HTTP, without those [`request`](Self::request)
    /// leaves out).
    pub async fn list_tools(&self) -> Result<Vec<Tool>, ClientError> {
        typed(Value::Array(self.list_all("tools/list", "tools").await?), "tools/list")
    }

    pub async fn list_resources(&self) -> Result<Vec<Resource>, ClientError> {
        typed(Value::Array(self.list_all("resources/list", "resources").await?), "resources/list")
    }

    pub async fn list_resource_templates(&self) -> Result<Vec<ResourceTemplate>, ClientError> {
        typed(
            Value::Array(self.list_all("resources/templates/list", "resourceTemplates").await?),
            "resources/templates/list",
        )
    }

    pub async fn list_prompts(&self) -> Result<Vec<Prompt>, ClientError> {
        typed(Value::Array(self.list_all("prompts/list", "prompts").await?), "prompts/list")
    }

    /// Calls a tool. A tool that fails is a result with `is_error`, not an `Err`.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Value,
        options: RequestOptions,
    ) -> Result<CallToolResult, ClientError> {
        let result = self.request("tools/call", json!({"name": name, "arguments": arguments}), options).await?;
        self.validate_tool_result(name, &result).await?;
        typed(result, "tools/call")
    }

    pub async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult, ClientError> {
        typed(self.request("resources/read", json!({"uri": uri}), RequestOptions::default()).await?, "resources/read")
    }

    pub async fn get_prompt(&self, name: &str, arguments: Value) -> Result<GetPromptResult, ClientError> {
        let params = json!({"name": name, "arguments": arguments});
        typed(self.request("prompts/get", params, RequestOptions::default()).await?, "prompts/get")
    }

    pub async fn complete(&self, reference: Value, argument: Value) -> Result<CompleteResult, ClientError> {
        let params = json!({"ref": reference, "argument": argument});
        typed(self.request("completion/complete", params, RequestOptions::default()).await?, "completion/complete")
    }

    /// `ping` (legacy servers only; a modern one has no ping).
    pub async fn ping(&self) -> Result<(), ClientError> {
        self.legacy_only("ping")?;
        self.request("ping", json!({}), RequestOptions::default()).await.map(drop)
    }

    /// Asks a legacy server for `notifications/message` at `level` and above.
    pub async fn set_logging_level(&self, level: &str) -> Result<(), ClientError> {
        self.legacy_only("logging/setLevel")?;
        self.request("logging/setLevel", json!({"level": level}), RequestOptions::default()).await.map(drop)
    }

    pub async fn subscribe_resource(&self, uri: &str) -> Result<(), ClientError> {
        self.legacy_only("resources/subscribe")?;
        self.request("resources/subscribe", json!({"uri": uri}), RequestOptions::default()).await.map(drop)
    }

    pub async fn unsubscribe_resource(&self, uri: &str) -> Result<(), ClientError> {
        self.legacy_only("resources/unsubscribe")?;
        self.request("resources/unsubscribe", json!({"uri": uri}), RequestOptions::default()).await.map(drop)
    }

    fn legacy_only(&self, method: &str) -> Result<(), ClientError> {
        if self.details.modern {
            return Err(ClientError::Usage(format!("{method} does not exist in {}", ProtocolVersion::LATEST)));
        }
        Ok(())
    }
}

/// Over HTTP a tool whose `x-mcp-header` annotations break the rules is left out of a
/// `tools/list` result (with a warning), as 2026-07-28 requires, so one malformed
/// definition never makes the others unusable, whichever way the list was asked for.
fn drop_tools_with_bad_headers(result: &mut Value) {
    let Some(Value::Array(tools)) = result.get_mut("tools") else { return };
    tools.retain(|tool| match tool.get("inputSchema").map(tool_param_headers) {
        Some(Err(why)) => {
            let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
            tracing::warn!("tool {name:?} rejected: {why}");
            false
        }
        _ => true,
    });
}

/// A listed tool's `outputSchema`, compiled once, at its first use, and kept until a
/// `tools/list` result lists the tool again (or forgets it): compiling it for every call
/// cost more than the call itself.
struct OutputSchema {
    schema: Value,
    validator: std::sync::OnceLock<Result<jsonschema::Validator, String>>,
}

impl OutputSchema {
    fn new(schema: Value) -> Arc<Self> {
        Arc::new(Self { schema, validator: std::sync::OnceLock::new() })
    }

    /// The compiled validator, or why the schema does not compile.
    fn validator(&self) -> Result<&jsonschema::Validator, &str> {
        self.validator
            .get_or_init(|| jsonschema::validator_for(&self.schema).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(String::as_str)
    }
}

/// Reads a result into its protocol type.
fn typed<T: serde::de::DeserializeOwned>(value: Value, method: &str) -> Result<T, ClientError> {
    serde_json::from_value(value).map_err(|e| ClientError::Protocol(format!("malformed {method} result: {e}")))
}

/// Params followed by a `_meta` given as JSON text (`params` has no `_meta` of its own).
struct WithMeta<'a> {
    params: &'a Map<String, Value>,
    meta: &'a RawValue,
}

impl serde::Serialize for WithMeta<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.params.len() + 1))?;
        for (key, value) in self.params {
            map.serialize_entry(key, value)?;
        }
        map.serialize_entry("_meta", self.meta)?;
        map.end()
    }
}

/// Params given as an object's members (values as JSON text), `_meta` written after them.
struct MembersWithMeta<'a, 'm> {
    members: &'a [(Cow<'m, str>, &'m RawValue)],
    meta: Option<&'a RawValue>,
}

impl serde::Serialize for MembersWithMeta<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.members.len() + usize::from(self.meta.is_some())))?;
        for (key, value) in self.members {
            map.serialize_entry(key.as_ref(), value)?;
        }
        if let Some(meta) = self.meta {
            map.serialize_entry("_meta", meta)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, json};

    #[test]
    fn members_with_a_meta_text_are_written_as_they_came_with_the_meta_after_them() {
        let text = r#"{"name": "t", "arguments": {"b": 1.50, "a": "\u00e9"}}"#;
        let members = crate::wire::members_in_order(text).unwrap();
        let meta = serde_json::value::to_raw_value(&json!({"v": 1})).unwrap();
        let written = serde_json::to_string(&super::MembersWithMeta { members: &members, meta: Some(&meta) }).unwrap();
        assert_eq!(written, r#"{"name":"t","arguments":{"b": 1.50, "a": "\u00e9"},"_meta":{"v":1}}"#);
        let written = serde_json::to_string(&super::MembersWithMeta { members: &members, meta: None }).unwrap();
        assert_eq!(written, r#"{"name":"t","arguments":{"b": 1.50, "a": "\u00e9"}}"#);
    }

    #[test]
    fn params_with_a_meta_text_encode_as_the_meta_added_to_them() {
        let mut params = Map::new();
        params.insert("name".into(), json!("t"));
        params.insert("arguments".into(), json!({"b": 1, "a": [2]}));
        let meta = json!({"io.modelcontextprotocol/protocolVersion": "v", "x": {"y": 1}});
        let text = serde_json::value::to_raw_value(&meta).unwrap();
        let written = serde_json::to_string(&super::WithMeta { params: &params, meta: &text }).unwrap();
        params.insert("_meta".into(), meta);
        assert_eq!(written, serde_json::to_string(&params).unwrap());
    }

    /// Each official client's probe wait comes from its option constructor: the Python v2
    /// client's `DISCOVER_TIMEOUT_SECONDS` (10 s, whatever the request timeout), the
    /// TypeScript v2 client's request timeout.
    #[test]
    fn each_sdk_constructor_holds_its_official_probe_wait() {
        use std::time::Duration;
        let mut python = super::ClientOptions::python();
        python.peer.request_timeout = Duration::from_secs(600);
        assert_eq!(python.probe_wait(), Duration::from_secs(10));
        assert_eq!(python.era, super::EraPreference::Auto);
        let mut typescript = super::ClientOptions::typescript();
        typescript.peer.request_timeout = Duration::from_secs(600);
        assert_eq!(typescript.probe_wait(), Duration::from_secs(600));
    }
}
