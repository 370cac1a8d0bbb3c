//! `NativeClient`: core's dual-era [`Client`] for the TypeScript `Client`.
//!
//! Requests go through core's `request` with the method and params the TypeScript layer
//! names (core adds the 2026-07-28 `_meta` and answers `input_required` rounds), and come
//! back as JSON text. Per request: a timeout, progress (a thread-safe function made for
//! that request and dropped with it) and a [`NativeCancel`]. `close()` drops the client,
//! and with it every JS callback it held; a server that goes away by itself is reported
//! through the weak `onClose` function.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Mutex;
use std::time::Duration;

use ferrymcp_core::client::cache::CacheMode;
use ferrymcp_core::client::child::{ChildCommand, StderrMode};
use ferrymcp_core::client::{
    Client, ClientCallbacks, ClientError, ClientOptions, EraPreference, ListChangedHandler, ListChangedHandlers,
    Subscription,
};
use ferrymcp_core::peer::{CloseReason, Peer, RequestOptions};
use ferrymcp_core::protocol::ErrorCode;
use napi::bindgen_prelude::{FnArgs, PromiseRaw, Unknown};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::{Env, Status};
use napi_derive::napi;
use serde_json::json;

use crate::cancel::NativeCancel;
use crate::client_callbacks::{self, Handled, JsNotificationFn, JsProgressFn, JsRequestFn};
use crate::error::{from_client, mcp_error, no_panic, parse};
use crate::port::NativePort;

/// How long a JS callback (sampling, elicitation, roots) may take, unless configured.
const DEFAULT_CALLBACK_TIMEOUT: Duration = Duration::from_secs(600);

/// The server process to start.
#[napi(object)]
pub struct SpawnConfig {
    pub command: String,
    pub args: Option<Vec<String>>,
    /// Set on top of core's default environment for a child (the official SDKs' short
    /// list of this process's variables).
    pub env: Option<HashMap<String, String>>,
    pub cwd: Option<String>,
    /// `"inherit"` (default), `"ignore"`, or `"lines"` (each line to `onStderr`).
    pub stderr: Option<String>,
}

#[napi(object)]
pub struct ClientConfig {
    pub info_json: String,
    pub capabilities_json: String,
    /// `"auto"`, `"legacy"` or `"modern"`; absent, core's default for the official
    /// TypeScript client ([`ClientOptions::typescript`]: legacy, the plain `initialize`).
    pub era: Option<String>,
    /// The legacy revision asked for in `initialize`.
    pub legacy_version: Option<String>,
    pub request_timeout_ms: Option<u32>,
    pub callback_timeout_ms: Option<u32>,
    pub sampling: bool,
    pub elicitation: bool,
    pub roots: bool,
    /// The official `listChanged` option without its functions:
    /// `{"tools": {"autoRefresh": true, "debounceMs": 300}, "prompts": ..., "resources": ...}`;
    /// each outcome goes to `onListChanged`.
    pub list_changed_json: Option<String>,
    /// The official `cachePartition` option (the response cache's partition).
    pub cache_partition: Option<String>,
    /// The official `defaultCacheTtlMs` option (TTL for results without a `ttlMs`).
    pub default_cache_ttl_ms: Option<f64>,
    /// The official `responseCacheStore` option: the `id` of a `NativeCacheStore`.
    pub cache_store: Option<u32>,
    /// The official `inputRequired.autoFulfill` (core's `answer_input`; default true).
    pub answer_input: Option<bool>,
    /// The official `inputRequired.maxRounds` (core's `max_input_rounds`).
    pub max_input_rounds: Option<u32>,
    /// The official `versionNegotiation.probe.timeoutMs` (core's `probe_timeout`); absent,
    /// core's default for the official TypeScript client (the request timeout).
    pub probe_timeout_ms: Option<u32>,
}

#[napi(object)]
pub struct RequestConfig {
    pub timeout_ms: Option<u32>,
    pub reset_timeout_on_progress: Option<bool>,
    pub max_total_timeout_ms: Option<u32>,
    /// `"use"`, `"refresh"` or `"bypass"`: send it through the response cache (the
    /// official `cacheMode` of the cacheable verbs).
    pub cache_mode: Option<String>,
    /// A `tools/call`'s tool name: the result is checked against the tool's `outputSchema`
    /// (listing the tools first when the tool is unknown) before resolving, in the same
    /// future (no second trip).
    pub validate_tool: Option<String>,
    /// The official `allowInputRequired`: send once, an `input_required` result resolves
    /// as it is (core's `request_once`).
    pub allow_input_required: Option<bool>,
}

/// `(line) => void`, weak: each line the child writes to stderr, when asked for.
pub type JsStderrFn = ThreadsafeFunction<String, Unknown<'static>, String, Status, false, true>;

fn command(spawn: SpawnConfig, on_stderr: Option<JsStderrFn>) -> napi::Result<ChildCommand> {
    let mut command = ChildCommand::new(spawn.command).args(spawn.args.unwrap_or_default());
    for (key, value) in spawn.env.unwrap_or_default() {
        command = command.env(key, value);
    }
    if let Some(cwd) = spawn.cwd {
        command = command.current_dir(cwd);
    }
    let stderr = match (spawn.stderr.as_deref(), on_stderr) {
        (None | Some("inherit"), _) => StderrMode::Inherit,
        (Some("ignore"), _) => StderrMode::Discard,
        (Some("lines"), Some(on_stderr)) => StderrMode::Lines(std::sync::Arc::new(move |line: &str| {
            on_stderr.call(line.to_owned(), ThreadsafeFunctionCallMode::NonBlocking);
        })),
        (Some(other), _) => {
            let message = format!("stderr {other:?} is not one of inherit, ignore, lines (with onStderr)");
            return Err(mcp_error(ErrorCode::INVALID_PARAMS, &message, None));
        }
    };
    Ok(command.stderr(stderr))
}

fn options(config: &ClientConfig) -> napi::Result<ClientOptions> {
    let mut options = ClientOptions {
        info: parse(&config.info_json, "clientInfo")?,
        capabilities: parse(&config.capabilities_json, "capabilities")?,
        ..ClientOptions::typescript()
    };
    options.era = match config.era.as_deref() {
        None => options.era,
        Some("auto") => EraPreference::Auto,
        Some("legacy") => EraPreference::Legacy,
        Some("modern") => EraPreference::Modern,
        Some(other) => return Err(mcp_error(ErrorCode::INVALID_PARAMS, &format!("unknown era {other:?}"), None)),
    };
    if let Some(version) = &config.legacy_version {
        options.legacy_version = version.clone();
    }
    if let Some(answer) = config.answer_input {
        options.answer_input = answer;
    }
    if let Some(rounds) = config.max_input_rounds {
        options.max_input_rounds = rounds as usize;
    }
    if let Some(ms) = config.request_timeout_ms {
        options.peer.request_timeout = Duration::from_millis(ms.into());
    }
    if let Some(ms) = config.probe_timeout_ms {
        options.probe_timeout = Some(Duration::from_millis(ms.into()));
    }
    if let Some(cache) = options.cache.as_mut() {
        cache.partition = config.cache_partition.clone().unwrap_or_default();
        if let Some(id) = config.cache_store {
            cache.store = Some(crate::cache_store::store_of(id)?);
        }
        if let Some(ttl) = config.default_cache_ttl_ms {
            if !(ttl.is_finite() && ttl >= 0.0) {
                let message = format!("defaultCacheTtlMs must be a non-negative number, got {ttl}");
                return Err(mcp_error(ErrorCode::INVALID_PARAMS, &message, None));
            }
            cache.default_ttl_ms = ttl as u64;
        }
    }
    Ok(options)
}

/// `(list, outcomeJson) => void`, weak: a list after a change, `{"items": [...] | null}`
/// or `{"error": message}`.
pub type JsListChangedFn =
    ThreadsafeFunction<FnArgs<(String, String)>, Unknown<'static>, FnArgs<(String, String)>, Status, false, true>;

/// Reads the `listChanged` option (its values checked as the official client does) into
/// core's handlers, each outcome going to `on_changed`.
fn list_changed(json: Option<&str>, on_changed: Option<JsListChangedFn>) -> napi::Result<ListChangedHandlers> {
    let mut handlers = ListChangedHandlers::default();
    let (Some(json), Some(on_changed)) = (json, on_changed) else { return Ok(handlers) };
    let config: serde_json::Value = parse(json, "listChanged")?;
    let on_changed = std::sync::Arc::new(on_changed);
    let invalid = |list: &str, why: &str| {
        mcp_error(ErrorCode::INVALID_PARAMS, &format!("Invalid {list} listChanged options: {why}"), None)
    };
    for list in ["tools", "prompts", "resources"] {
        let Some(options) = config.get(list).filter(|o| !o.is_null()) else { continue };
        let func = on_changed.clone();
        let mut handler = ListChangedHandler::new(std::sync::Arc::new(move |outcome| {
            let outcome = match outcome {
                Ok(items) => json!({"items": items}),
                Err(e) => json!({"error": e.to_string()}),
            };
            func.call((list.to_owned(), outcome.to_string()).into(), ThreadsafeFunctionCallMode::NonBlocking);
        }));
        match options.get("autoRefresh") {
            None => {}
            Some(serde_json::Value::Bool(on)) => handler.auto_refresh = *on,
            Some(_) => return Err(invalid(list, "autoRefresh must be a boolean")),
        }
        match options.get("debounceMs") {
            None => {}
            Some(ms) => match ms.as_u64() {
                Some(ms) => handler.debounce = Duration::from_millis(ms),
                None => return Err(invalid(list, "debounceMs must be a non-negative integer")),
            },
        }
        match list {
            "tools" => handlers.tools = Some(handler),
            "prompts" => handlers.prompts = Some(handler),
            _ => handlers.resources = Some(handler),
        }
    }
    Ok(handlers)
}

/// Starts a server process and connects to it (era probe, then handshake).
#[napi]
pub async fn spawn_client(
    spawn: SpawnConfig,
    config: ClientConfig,
    #[napi(ts_arg_type = "((method: string, paramsJson: string, reply: NativeReply) => void) | undefined | null")]
    on_request: Option<JsRequestFn>,
    #[napi(ts_arg_type = "((method: string, paramsJson: string) => void) | undefined | null")] on_notification: Option<
        JsNotificationFn,
    >,
    #[napi(ts_arg_type = "((reason: string) => void) | undefined | null")] on_close: Option<JsCloseFn>,
    #[napi(ts_arg_type = "((line: string) => void) | undefined | null")] on_stderr: Option<JsStderrFn>,
    #[napi(ts_arg_type = "((list: string, outcomeJson: string) => void) | undefined | null")] on_list_changed: Option<
        JsListChangedFn,
    >,
) -> napi::Result<NativeClient> {
    let command = command(spawn, on_stderr)?;
    let hooks = Hooks { on_request, on_notification, on_close, on_list_changed };
    open(config, hooks, |options, callbacks| Client::spawn(command, options, callbacks)).await
}

/// Connects over the messages `port` carries (a JavaScript `Transport`): era probe, then
/// handshake, as over a pipe.
#[napi]
pub async fn connect_port(
    port: &NativePort,
    config: ClientConfig,
    #[napi(ts_arg_type = "((method: string, paramsJson: string, reply: NativeReply) => void) | undefined | null")]
    on_request: Option<JsRequestFn>,
    #[napi(ts_arg_type = "((method: string, paramsJson: string) => void) | undefined | null")] on_notification: Option<
        JsNotificationFn,
    >,
    #[napi(ts_arg_type = "((reason: string) => void) | undefined | null")] on_close: Option<JsCloseFn>,
    #[napi(ts_arg_type = "((list: string, outcomeJson: string) => void) | undefined | null")] on_list_changed: Option<
        JsListChangedFn,
    >,
) -> napi::Result<NativeClient> {
    let (source, sink) = port.take_engine()?;
    let hooks = Hooks { on_request, on_notification, on_close, on_list_changed };
    open(config, hooks, |options, callbacks| Client::connect(source, sink, options, callbacks)).await
}

/// The JS functions a connection calls.
pub(crate) struct Hooks {
    pub on_request: Option<JsRequestFn>,
    pub on_notification: Option<JsNotificationFn>,
    pub on_close: Option<JsCloseFn>,
    pub on_list_changed: Option<JsListChangedFn>,
}

/// Connects with `connect` (given the core options and callbacks `config` and the JS
/// functions make), and watches for the server going away.
pub(crate) async fn open<F>(
    config: ClientConfig,
    hooks: Hooks,
    connect: impl FnOnce(ClientOptions, ClientCallbacks) -> F,
) -> napi::Result<NativeClient>
where
    F: Future<Output = Result<Client, ClientError>>,
{
    let Hooks { on_request, on_notification, on_close, on_list_changed } = hooks;
    let mut options = options(&config)?;
    options.list_changed = list_changed(config.list_changed_json.as_deref(), on_list_changed)?;
    let timeout = config.callback_timeout_ms.map_or(DEFAULT_CALLBACK_TIMEOUT, |ms| Duration::from_millis(ms.into()));
    let handled = Handled { sampling: config.sampling, elicitation: config.elicitation, roots: config.roots };
    let callbacks = client_callbacks::callbacks(on_request, on_notification, handled, timeout);
    let connecting = connect(options, callbacks);
    let client = no_panic(async move { connecting.await.map_err(from_client) }).await?;
    if let Some(on_close) = on_close {
        watch_close(client.peer().clone(), on_close);
    }
    Ok(NativeClient { client: Mutex::new(Some(client)) })
}

/// `(reason) => void`, weak: told when the connection ends other than by `close()`.
pub type JsCloseFn = ThreadsafeFunction<String, Unknown<'static>, String, Status, false, true>;

/// Tells JS when the server goes away on its own (it exited, or closed its stdout), so
/// `onclose` fires at once, as with the official SDK.
fn watch_close(peer: Peer, on_close: JsCloseFn) {
    tokio::spawn(async move {
        let reason = peer.closed().await;
        if reason != CloseReason::Local {
            on_close.call(reason.to_string(), ThreadsafeFunctionCallMode::NonBlocking);
        }
    });
}

#[napi]
pub struct NativeClient {
    client: Mutex<Option<Client>>,
}

impl NativeClient {
    pub(crate) fn client(&self) -> napi::Result<Client> {
        let client = self.client.lock().unwrap_or_else(|p| p.into_inner());
        client.clone().ok_or_else(|| mcp_error(ErrorCode::CONNECTION_CLOSED, "the client is closed", None))
    }
}

#[napi]
impl NativeClient {
    /// What the handshake learnt: `{protocolVersion, modern, capabilities, serverInfo, instructions?, discover?}`
    /// (`discover`: the `server/discover` result the details came from, when there was one).
    #[napi(getter)]
    pub fn server_json(&self) -> napi::Result<String> {
        let details = self.client()?.server().clone();
        let mut server = json!({
            "protocolVersion": details.protocol_version,
            "modern": details.modern,
            "capabilities": details.capabilities,
            "serverInfo": details.info,
        });
        if let Some(instructions) = details.instructions {
            server["instructions"] = json!(instructions);
        }
        if let Some(discover) = details.discover {
            server["discover"] = discover;
        }
        Ok(server.to_string())
    }

    /// Whether the connection has ended (the server went away, or `close()`).
    #[napi(getter)]
    pub fn is_closed(&self) -> bool {
        self.client().map_or(true, |client| client.peer().is_closed())
    }

    /// Sends a request; resolves its result as JSON text.
    #[napi]
    pub fn request<'env>(
        &self,
        env: &'env Env,
        method: String,
        params_json: String,
        config: Option<RequestConfig>,
        #[napi(ts_arg_type = "((progressJson: string) => void) | undefined | null")] on_progress: Option<JsProgressFn>,
        cancel: Option<&NativeCancel>,
    ) -> napi::Result<PromiseRaw<'env, String>> {
        let client = self.client()?;
        let params = parse(&params_json, "params")?;
        let mut options = RequestOptions::default();
        let (mut cache_mode, mut validate_tool, mut once) = (None, None, false);
        if let Some(config) = config {
            validate_tool = config.validate_tool;
            once = config.allow_input_required.unwrap_or(false);
            cache_mode = config
                .cache_mode
                .map(|mode| CacheMode::parse(&mode).map_err(|e| mcp_error(ErrorCode::INVALID_PARAMS, &e, None)))
                .transpose()?;
            options.timeout = config.timeout_ms.map(|ms| Duration::from_millis(ms.into()));
            options.reset_timeout_on_progress = config.reset_timeout_on_progress.unwrap_or(false);
            options.max_total_timeout = config.max_total_timeout_ms.map(|ms| Duration::from_millis(ms.into()));
        }
        options.on_progress = on_progress.map(client_callbacks::progress_callback);
        options.cancel = cancel.map(NativeCancel::token);
        env.spawn_future(no_panic(async move {
            let result = match cache_mode {
                _ if once => client.request_once(&method, params, options).await,
                Some(mode) => client.cached_request(&method, params, options, mode).await,
                None => client.request(&method, params, options).await,
            };
            let result = match (result, validate_tool) {
                (Ok(result), Some(name)) => client.validate_tool_result(&name, &result).await.map(|()| result),
                (result, _) => result,
            };
            Ok(result.map_err(from_client)?.to_string())
        }))
    }

    /// Sends `notifications/roots/list_changed`.
    #[napi]
    pub async fn send_roots_list_changed(&self) -> napi::Result<()> {
        let client = self.client()?;
        no_panic(async move { client.send_roots_list_changed().await.map_err(from_client) }).await
    }

    /// Opens a `subscriptions/listen` stream with the filter (JSON); resolves once the
    /// server acknowledges it.
    #[napi]
    pub async fn listen(&self, filter_json: String, timeout_ms: Option<u32>) -> napi::Result<NativeSubscription> {
        let client = self.client()?;
        let filter = parse(&filter_json, "filter")?;
        let timeout = timeout_ms.map(|ms| Duration::from_millis(ms.into()));
        no_panic(async move {
            let subscription = client.listen(filter, timeout).await.map_err(from_client)?;
            Ok(NativeSubscription { subscription })
        })
        .await
    }

    /// The stream the `listChanged` option opened on a modern connection (the official
    /// `autoOpenedSubscription`), if any.
    #[napi]
    pub fn auto_subscription(&self) -> napi::Result<Option<NativeSubscription>> {
        let client = self.client()?;
        Ok(client.auto_subscription().cloned().map(|subscription| NativeSubscription { subscription }))
    }

    /// Closes the connection (a spawned server gets stdin closed, then SIGTERM, then
    /// SIGKILL; an HTTP session is ended with a DELETE) and drops the JS callbacks.
    #[napi]
    pub async fn close(&self) -> napi::Result<()> {
        let client = self.client.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(client) = client {
            no_panic(async move {
                client.close().await;
                Ok(())
            })
            .await?;
        }
        Ok(())
    }
}

/// One open `subscriptions/listen` stream.
#[napi]
pub struct NativeSubscription {
    subscription: Subscription,
}

#[napi]
impl NativeSubscription {
    /// The filter the server honours (JSON).
    #[napi(getter)]
    pub fn honored_json(&self) -> String {
        self.subscription.honored_filter().to_string()
    }

    /// The listen request's id (JSON), in `_meta` of every notification on the stream.
    #[napi(getter)]
    pub fn id_json(&self) -> String {
        self.subscription.id().to_string()
    }

    /// Ends the subscription (idempotent).
    #[napi]
    pub async fn close(&self) -> napi::Result<()> {
        self.subscription.close().await;
        Ok(())
    }

    /// Resolves once the subscription has ended: `"local"`, `"graceful"` or `"remote"`.
    #[napi]
    pub async fn closed(&self) -> napi::Result<String> {
        Ok(self.subscription.closed().await.as_str().to_owned())
    }
}

/// The variables a child server inherits from this process by default (core's list, the
/// official SDKs' `DEFAULT_INHERITED_ENV_VARS`).
#[napi]
pub fn child_environment_vars() -> Vec<String> {
    ferrymcp_core::client::child::DEFAULT_INHERITED_ENV_VARS.iter().map(|name| (*name).to_owned()).collect()
}

/// This process's values of [`child_environment_vars`]: what a child server starts with
/// (the official SDKs' `getDefaultEnvironment()`).
#[napi]
pub fn child_environment() -> HashMap<String, String> {
    ferrymcp_core::client::child::default_environment().into_iter().collect()
}
