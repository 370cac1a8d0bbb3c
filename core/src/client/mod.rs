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
mod callbacks;
pub mod child;
mod error;
pub mod http;
mod listen;
mod probe;
pub mod tasks;

use callbacks::Router;
pub use callbacks::{ClientCallbacks, InputCallback, NotificationCallback};
pub use error::ClientError;
pub use listen::{ListChangedCallback, ListChangedHandler, ListChangedHandlers, Subscription, SubscriptionEnd};
pub use tasks::TaskCall;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};

use self::http::{HttpClientOptions, HttpSession, tool_param_headers};
use crate::framing::{FrameSink, FrameSource};
use crate::peer::{Peer, PeerConfig, RequestOptions};
use crate::protocol::{
    CallToolResult, CompleteResult, GetPromptResult, Prompt, ProtocolVersion, ReadResourceResult, Resource,
    ResourceTemplate, Tool, meta,
};
use crate::protocol::{ListTools, RequestMethod};
use child::{ChildCommand, ChildProcess, ShutdownTimeouts};

/// Which era to speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EraPreference {
    /// Probe with `server/discover`, fall back to `initialize`.
    #[default]
    Auto,
    Legacy,
    Modern,
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
    /// How long the `server/discover` probe waits before assuming a legacy server.
    pub probe_timeout: Duration,
    /// How many `input_required` rounds one request may take.
    pub max_input_rounds: usize,
    /// The log level asked for: in `_meta` of every 2026-07-28 request (the only way to get
    /// log messages there), or with `logging/setLevel` after a legacy handshake.
    pub log_level: Option<String>,
    /// Refresh lists when the server says they changed (the official TypeScript client's
    /// `listChanged` option); on a modern server this opens a `subscriptions/listen`.
    pub list_changed: ListChangedHandlers,
    pub peer: PeerConfig,
}

impl Default for ClientOptions {
    fn default() -> Self {
        Self {
            info: json!({"name": "ferrymcp-client", "version": env!("CARGO_PKG_VERSION")}),
            capabilities: json!({}),
            era: EraPreference::Auto,
            legacy_version: ProtocolVersion::LATEST_LEGACY.as_str().into(),
            probe_timeout: Duration::from_secs(5),
            max_input_rounds: 16,
            log_level: None,
            list_changed: ListChangedHandlers::default(),
            peer: PeerConfig::default(),
        }
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
}

impl Client {
    /// Connects over a transport and runs the handshake.
    pub async fn connect<S: FrameSource, K: FrameSink>(
        source: S,
        sink: K,
        options: ClientOptions,
        callbacks: ClientCallbacks,
    ) -> Result<Client, ClientError> {
        let (mut client, handlers) = Self::handshake(source, sink, options, callbacks).await?;
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
    ) -> Result<(Client, ListChangedHandlers), ClientError> {
        callbacks.declare(&mut options.capabilities);
        let router = callbacks.router()?;
        let peer = Peer::spawn(source, sink, router.clone(), options.peer.clone());
        let details = match probe::handshake(&peer, &options).await {
            Ok(details) => details,
            Err(e) => {
                peer.close().await;
                return Err(e);
            }
        };
        let handlers = std::mem::take(&mut options.list_changed);
        let client = Client {
            peer,
            details: Arc::new(details),
            options: Arc::new(options),
            router,
            child: None,
            http: None,
            auto_subscription: None,
        };
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
        let (mut client, handlers) = Self::handshake(source, sink, options, callbacks).await?;
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
        match Self::handshake(transport.source, transport.sink, options, callbacks).await {
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
        let Value::Object(mut params) = params else {
            return Err(ClientError::Usage("params must be a JSON object".into()));
        };
        if !self.details.modern {
            return self.send(method, &params, options).await;
        }
        self.add_meta(&mut params);
        for _ in 0..=self.options.max_input_rounds {
            let result = self.send(method, &params, options.clone()).await?;
            if result.get("resultType") != Some(&json!("input_required")) {
                return Ok(result);
            }
            let responses = self.answer_inputs(&result).await?;
            params.insert("inputResponses".into(), Value::Object(responses));
            match result.get("requestState") {
                Some(state) => params.insert("requestState".into(), state.clone()),
                None => params.shift_remove("requestState"),
            };
        }
        Err(ClientError::Protocol(format!(
            "{method} still asked for input after {} rounds",
            self.options.max_input_rounds
        )))
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
        if method == ListTools::METHOD && self.http.is_some() {
            drop_tools_with_bad_headers(&mut result);
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
            if let Some(level) = &self.options.log_level {
                fields.insert(meta::LOG_LEVEL.into(), json!(level));
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

/// Reads a result into its protocol type.
fn typed<T: serde::de::DeserializeOwned>(value: Value, method: &str) -> Result<T, ClientError> {
    serde_json::from_value(value).map_err(|e| ClientError::Protocol(format!("malformed {method} result: {e}")))
}
