//! `NativeServer`: core's [`Server`] for the TypeScript `McpServer`.
//!
//! Registration takes the MCP definition as JSON text and a JS handler (see
//! [`crate::handlers`]); core validates the definition and names the problem when it is
//! wrong. Serving stdio keeps the connection's peer so `close()` can end it; the promise
//! of `serveStdio()` is what keeps Node alive while a client is connected, and it resolves
//! when stdin ends.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use ferrymcp_core::peer::{BoxFuture, Peer, PeerConfig};
use ferrymcp_core::protocol::ServerCapabilities;
use ferrymcp_core::server::{
    APPLICATION_ANSWERED, CacheHint, Dialect, NotificationHandler, ResourceCacheHint, ResourceLister, Server,
    ServerOptions, ServerSession, TaskStart, ToolOptions,
};
use napi::Status;
use napi::bindgen_prelude::Unknown;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;
use serde_json::Value;

use crate::error::{from_registry, internal, invalid, no_panic, parse};
use crate::handlers::{JsHandler, JsHandlerFn};
use crate::port::NativePort;

/// `(paramsJson) => void`, weak: a client notification for the application.
pub type JsNotifyFn = ThreadsafeFunction<String, Unknown<'static>, String, Status, false, true>;

/// A closure as core's notification handler.
struct NotifyJs<F>(F);

impl<F> NotificationHandler for NotifyJs<F>
where
    F: Fn(Value, Option<ServerSession>) -> BoxFuture<()> + Send + Sync + 'static,
{
    fn handle(&self, params: Value, session: Option<ServerSession>) -> BoxFuture<()> {
        (self.0)(params, session)
    }
}

/// How long a JS handler may take before its request fails, unless configured.
const DEFAULT_HANDLER_TIMEOUT: Duration = Duration::from_secs(600);

#[napi(object)]
pub struct ServerConfig {
    /// Items per page of list results (all in one page when absent).
    pub page_size: Option<u32>,
    /// Deadline of one JS handler call, in milliseconds.
    pub handler_timeout_ms: Option<u32>,
    /// Deadline of the server's own requests to the client (sampling, elicitation, roots).
    pub request_timeout_ms: Option<u32>,
    /// The official `cacheHints` option as JSON text: `{method: {ttlMs, cacheScope}}`.
    pub cache_hints_json: Option<String>,
    /// The keys that seal 2026-07-28 request state: the first seals, every one opens
    /// (rotation); replicas share them. Absent: `FERRYMCP_STATE_KEY`, else random.
    pub state_keys: Option<Vec<napi::bindgen_prelude::Buffer>>,
    /// How long sealed request state stays valid, in milliseconds.
    pub state_ttl_ms: Option<u32>,
    /// The official `inputRequired.legacyShim` (core's default when absent: on).
    pub legacy_shim: Option<bool>,
    /// The official `inputRequired.maxRounds` (a positive integer; core's default, 8).
    pub input_max_rounds: Option<u32>,
    /// The official `inputRequired.roundTimeoutMs` (positive; core's default, 600 000).
    pub round_timeout_ms: Option<f64>,
    /// The official `supportedProtocolVersions`: the revisions `initialize` accepts, in
    /// preference order (core checks the list: `ServerOptions::set_legacy_versions`).
    pub supported_protocol_versions: Option<Vec<String>>,
}

/// The `cacheHints` entries as core's hints: `ttlMs` a whole number of milliseconds >= 0
/// (0 when absent), `cacheScope` `"public"` or `"private"` (the default).
fn cache_hints(hints: &Value) -> napi::Result<Vec<(&str, CacheHint)>> {
    let Value::Object(hints) = hints else { return Err(invalid("cacheHints must be an object".to_owned())) };
    let hint = |method: &str, hint: &Value| -> napi::Result<CacheHint> {
        let given = resource_cache_hint(hint, &format!("cacheHints[{method:?}]"))?;
        Ok(CacheHint { ttl_ms: given.ttl_ms.unwrap_or(0), public: given.public.unwrap_or(false) })
    };
    hints.iter().map(|(method, value)| Ok((method.as_str(), hint(method, value)?))).collect()
}

/// One `{ttlMs?, cacheScope?}` hint with the fields it sets; `what` names it in errors.
fn resource_cache_hint(hint: &Value, what: &str) -> napi::Result<ResourceCacheHint> {
    if !hint.is_object() {
        return Err(invalid(format!("{what} must be an object {{ttlMs?, cacheScope?}}")));
    }
    let ttl_ms = match hint.get("ttlMs") {
        None => None,
        Some(ttl) => {
            Some(ttl.as_u64().ok_or_else(|| invalid(format!("{what}.ttlMs must be an integer >= 0, not {ttl}")))?)
        }
    };
    let public = match hint.get("cacheScope") {
        None => None,
        Some(Value::String(scope)) if scope == "public" => Some(true),
        Some(Value::String(scope)) if scope == "private" => Some(false),
        Some(_) => return Err(invalid(format!("{what}.cacheScope must be 'public' or 'private'"))),
    };
    Ok(ResourceCacheHint { ttl_ms, public })
}

/// A resource's own `cacheHint` (JSON text), for the resource `what`.
fn own_cache_hint(json: Option<&str>, what: &str) -> napi::Result<Option<ResourceCacheHint>> {
    json.map(|text| resource_cache_hint(&parse(text, "cacheHint")?, &format!("the cacheHint of {what}"))).transpose()
}

#[napi]
pub struct NativeServer {
    server: Server,
    peer_config: PeerConfig,
    handler_timeout: Duration,
    peer: Mutex<Option<Peer>>,
}

#[napi]
impl NativeServer {
    #[napi(constructor)]
    pub fn new(info_json: String, instructions: Option<String>, config: Option<ServerConfig>) -> napi::Result<Self> {
        let info = parse(&info_json, "serverInfo")?;
        let config = config.unwrap_or(ServerConfig {
            page_size: None,
            handler_timeout_ms: None,
            request_timeout_ms: None,
            cache_hints_json: None,
            state_keys: None,
            state_ttl_ms: None,
            legacy_shim: None,
            input_max_rounds: None,
            round_timeout_ms: None,
            supported_protocol_versions: None,
        });
        // The official TypeScript SDK's capabilities (core's rules for them: `Dialect`).
        let mut options = ServerOptions {
            page_size: config.page_size.map(|n| n as usize),
            dialect: Dialect::TypeScriptSdk,
            ..ServerOptions::default()
        };
        if let Some(text) = &config.cache_hints_json {
            options
                .set_cache_hints(cache_hints(&parse(text, "cacheHints")?)?)
                .map_err(|e| invalid(format!("cacheHints: {e}")))?;
        }
        if let Some(versions) = &config.supported_protocol_versions {
            options.set_legacy_versions(versions).map_err(|e| invalid(format!("supportedProtocolVersions: {e}")))?;
        }
        if let Some(keys) = config.state_keys {
            let mut keys = keys.into_iter().map(|key| key.to_vec());
            options.state_key = keys.next();
            options.previous_state_keys = keys.collect();
            if options.state_key.is_none()
                || options.previous_state_keys.iter().chain(&options.state_key).any(Vec::is_empty)
            {
                return Err(invalid("requestStateKeys needs at least one key, and no empty one".to_owned()));
            }
        }
        if let Some(ms) = config.state_ttl_ms {
            options.state_ttl = Duration::from_millis(ms.into());
        }
        if let Some(ms) = config.request_timeout_ms {
            options.peer.request_timeout = Duration::from_millis(ms.into());
        }
        options.input_required.legacy_shim = config.legacy_shim;
        if let Some(rounds) = config.input_max_rounds {
            options.input_required.max_rounds = rounds as usize;
        }
        if let Some(ms) = config.round_timeout_ms {
            options.input_required.round_timeout = Duration::try_from_secs_f64(ms / 1000.0)
                .map_err(|_| invalid(format!("inputRequired.roundTimeoutMs must be a positive number (got {ms})")))?;
        }
        let handler_timeout =
            config.handler_timeout_ms.map_or(DEFAULT_HANDLER_TIMEOUT, |ms| Duration::from_millis(ms.into()));
        let peer_config = options.peer.clone();
        Ok(Self {
            // Core's floor on the sealing keys (`requestStateKeys`, else FERRYMCP_STATE_KEY):
            // `InvalidArg`, which the TypeScript layer throws as a `RangeError`.
            server: Server::try_with_info(info, instructions, options)
                .map_err(|e| napi::Error::new(Status::InvalidArg, e))?,
            peer_config,
            handler_timeout,
            peer: Mutex::new(None),
        })
    }

    /// The core server, for the HTTP endpoint that serves it ([`crate::http`]).
    pub(crate) fn core(&self) -> Server {
        self.server.clone()
    }

    fn handler(&self, handler: JsHandlerFn, what: String) -> JsHandler {
        JsHandler::new(handler, self.handler_timeout, what)
    }

    /// Registers a tool from its `Tool` definition (JSON text). `taskStart`: where a
    /// task-supporting tool's task starts, `"atCall"` (the default), `"onRequest"` (when
    /// the handler calls `startTask`) or `"handler"` (the handler makes its 2025-11-25 task
    /// with `ctx.taskStore` and returns `CreateTaskResult`: v1's `registerToolTask`).
    /// `handlerChecksArguments`: the handler checks the arguments itself (a schema library's
    /// parse), so core does not check them first.
    #[napi]
    pub fn add_tool(
        &self,
        definition_json: String,
        #[napi(ts_arg_type = "(payloadJson: string, ctx: NativeContext) => void")] handler: JsHandlerFn,
        task_start: Option<String>,
        handler_checks_arguments: Option<bool>,
    ) -> napi::Result<()> {
        let definition = parse(&definition_json, "the tool definition")?;
        let task_start = match task_start.as_deref() {
            None | Some("atCall") => TaskStart::AtCall,
            Some("onRequest") => TaskStart::OnRequest,
            Some("handler") => TaskStart::Handler,
            Some(other) => {
                return Err(napi::Error::from_reason(format!(
                    "taskStart must be \"atCall\", \"onRequest\" or \"handler\", not {other:?}"
                )));
            }
        };
        let what = format!("tool {}", definition["name"]);
        let options = ToolOptions {
            task_start,
            handler_checks_arguments: handler_checks_arguments.unwrap_or(false),
            ..ToolOptions::default()
        };
        self.server.add_tool_with(definition, self.handler(handler, what), options).map_err(from_registry)
    }

    /// Registers a resource; `cacheHintJson` is its own `cacheHint` (`{ttlMs?, cacheScope?}`)
    /// for its `resources/read` results, which core puts over the server's hint.
    #[napi]
    pub fn add_resource(
        &self,
        definition_json: String,
        #[napi(ts_arg_type = "(payloadJson: string, ctx: NativeContext) => void")] handler: JsHandlerFn,
        cache_hint_json: Option<String>,
    ) -> napi::Result<()> {
        let definition = parse(&definition_json, "the resource definition")?;
        let what = format!("resource {}", definition["uri"]);
        let cache_hint = own_cache_hint(cache_hint_json.as_deref(), &what)?;
        let handler = self.handler(handler, what);
        match cache_hint {
            None => self.server.add_resource(definition, handler),
            Some(hint) => self.server.add_resource_with_cache_hint(definition, handler, hint),
        }
        .map_err(from_registry)
    }

    /// Registers a template; `lister`, when given, lists the resources it covers;
    /// `cacheHintJson` is its own `cacheHint`, as for [`NativeServer::add_resource`].
    #[napi]
    pub fn add_resource_template(
        &self,
        definition_json: String,
        #[napi(ts_arg_type = "(payloadJson: string, ctx: NativeContext) => void")] handler: JsHandlerFn,
        #[napi(ts_arg_type = "((payloadJson: string, ctx: NativeContext) => void) | undefined | null")] lister: Option<
            JsHandlerFn,
        >,
        cache_hint_json: Option<String>,
    ) -> napi::Result<()> {
        let definition = parse(&definition_json, "the resource template definition")?;
        let what = format!("resource template {}", definition["uriTemplate"]);
        let cache_hint = own_cache_hint(cache_hint_json.as_deref(), &what)?;
        let handler = self.handler(handler, what.clone());
        let lister = lister.map(|lister| self.handler(lister, format!("the list callback of {what}")));
        match (lister, cache_hint) {
            (None, None) => self.server.add_resource_template(definition, handler),
            (Some(lister), None) => self.server.add_listed_resource_template(definition, handler, lister),
            (lister, Some(hint)) => {
                let lister = lister.map(|l| Arc::new(l) as Arc<dyn ResourceLister>);
                self.server.add_resource_template_with_cache_hint(definition, handler, lister, hint)
            }
        }
        .map_err(from_registry)
    }

    #[napi]
    pub fn add_prompt(
        &self,
        definition_json: String,
        #[napi(ts_arg_type = "(payloadJson: string, ctx: NativeContext) => void")] handler: JsHandlerFn,
    ) -> napi::Result<()> {
        let definition = parse(&definition_json, "the prompt definition")?;
        let what = format!("prompt {}", definition["name"]);
        self.server.add_prompt(definition, self.handler(handler, what)).map_err(from_registry)
    }

    /// Answers `completion/complete` (its params in, a `CompleteResult` out).
    #[napi]
    pub fn set_completion_handler(
        &self,
        #[napi(ts_arg_type = "(payloadJson: string, ctx: NativeContext) => void")] handler: JsHandlerFn,
    ) {
        self.server.set_completion_handler(self.handler(handler, "the completion handler".into()));
    }

    /// Serves request `method` with `handler` (its params in, the whole result out): one
    /// of MCP's feature methods the application answers itself (core's
    /// `APPLICATION_ANSWERED`: `tools/list`, `tools/call`, ...), or one of its own. The
    /// low-level `Server.setRequestHandler`; other MCP methods are refused.
    #[napi]
    pub fn set_request_handler(
        &self,
        method: String,
        #[napi(ts_arg_type = "(payloadJson: string, ctx: NativeContext) => void")] handler: JsHandlerFn,
    ) -> napi::Result<()> {
        let handler = self.handler(handler, format!("the {method} handler"));
        let set = if APPLICATION_ANSWERED.contains(&method.as_str()) {
            self.server.set_feature_handler(&method, handler)
        } else {
            self.server.set_request_handler(&method, handler)
        };
        set.map_err(from_registry)
    }

    /// Keeps the server's 2025-11-25 tasks in the application's store.
    #[napi]
    pub fn set_task_store(&self, store: &crate::task_store::NativeTaskStore) {
        self.server.set_task_store(store.task_store());
    }

    /// Keeps the server's 2025-11-25 tasks in this in-memory store (an `InMemoryTaskStore`
    /// the application also reads).
    #[napi]
    pub fn set_in_memory_task_store(&self, store: &crate::task_store::NativeInMemoryTaskStore) {
        self.server.set_task_store(store.task_store());
    }

    /// Stops serving the application's request `method`; whether it was served.
    #[napi]
    pub fn remove_request_handler(&self, method: String) -> bool {
        self.server.remove_request_handler(&method)
    }

    /// Delivers client notification `method` to `handler(paramsJson)` (weak: it does not
    /// keep Node alive). The engine's own (`notifications/cancelled`, `.../progress`) are
    /// refused. The low-level `Server.setNotificationHandler`.
    #[napi]
    pub fn set_notification_handler(
        &self,
        method: String,
        #[napi(ts_arg_type = "(paramsJson: string) => void")] handler: JsNotifyFn,
    ) -> napi::Result<()> {
        let deliver = move |params: Value, _session: Option<ServerSession>| -> BoxFuture<()> {
            handler.call(params.to_string(), ThreadsafeFunctionCallMode::NonBlocking);
            Box::pin(std::future::ready(()))
        };
        self.server.set_notification_handler(&method, NotifyJs(deliver)).map_err(from_registry)
    }

    #[napi]
    pub fn remove_notification_handler(&self, method: String) -> bool {
        self.server.remove_notification_handler(&method)
    }

    #[napi]
    pub fn remove_tool(&self, name: String) -> bool {
        self.server.remove_tool(&name)
    }

    #[napi]
    pub fn remove_resource(&self, uri: String) -> bool {
        self.server.remove_resource(&uri)
    }

    #[napi]
    pub fn remove_resource_template(&self, uri_template: String) -> bool {
        self.server.remove_resource_template(&uri_template)
    }

    #[napi]
    pub fn remove_prompt(&self, name: String) -> bool {
        self.server.remove_prompt(&name)
    }

    /// Merges the official `capabilities` (JSON text) over what core derives and what was
    /// registered before (core merges; see `ferrymcp_core::server::capabilities`).
    #[napi]
    pub fn register_capabilities(&self, capabilities_json: String) -> napi::Result<()> {
        let capabilities = serde_json::from_str::<ServerCapabilities>(&capabilities_json)
            .map_err(|e| invalid(format!("capabilities: {e}")))?;
        self.server.register_capabilities(&capabilities).map_err(invalid)
    }

    #[napi]
    pub async fn notify_tools_changed(&self) -> napi::Result<()> {
        let server = self.server.clone();
        no_panic(async move {
            server.notify_tools_changed().await;
            Ok(())
        })
        .await
    }

    #[napi]
    pub async fn notify_prompts_changed(&self) -> napi::Result<()> {
        let server = self.server.clone();
        no_panic(async move {
            server.notify_prompts_changed().await;
            Ok(())
        })
        .await
    }

    #[napi]
    pub async fn notify_resources_changed(&self) -> napi::Result<()> {
        let server = self.server.clone();
        no_panic(async move {
            server.notify_resources_changed().await;
            Ok(())
        })
        .await
    }

    #[napi]
    pub async fn notify_resource_updated(&self, uri: String) -> napi::Result<()> {
        let server = self.server.clone();
        no_panic(async move {
            server.notify_resource_updated(&uri).await;
            Ok(())
        })
        .await
    }

    /// `notifications/message` to the connected legacy sessions whose level allows it.
    #[napi]
    pub async fn notify_log(&self, level: String, data_json: String, logger: Option<String>) -> napi::Result<()> {
        let server = self.server.clone();
        let data = parse(&data_json, "log data")?;
        no_panic(async move {
            server.notify_log(&level, data, logger.as_deref()).await;
            Ok(())
        })
        .await
    }

    /// Serves this process's stdin and stdout; resolves (with the reason) when the
    /// connection closes: stdin ended, or `close()`.
    #[napi]
    pub async fn serve_stdio(&self) -> napi::Result<String> {
        let (source, sink) = ferrymcp_core::transport::stdio::stdio().map_err(|e| internal(format!("stdio: {e}")))?;
        let connection = self.server.connection();
        let peer = Peer::spawn(source, sink, connection.clone().handler(), self.peer_config.clone());
        connection.attach(&peer);
        *self.peer.lock().unwrap_or_else(|p| p.into_inner()) = Some(peer.clone());
        no_panic(async move { Ok(peer.closed().await.to_string()) }).await
    }

    /// Serves the connection whose messages `port` carries (a JavaScript `Transport`);
    /// resolves (with the reason) when it closes.
    #[napi]
    pub async fn serve_port(&self, port: &NativePort) -> napi::Result<String> {
        let (source, sink) = port.take_engine()?;
        let connection = self.server.connection();
        let peer = Peer::spawn(source, sink, connection.clone().handler(), self.peer_config.clone());
        connection.attach(&peer);
        *self.peer.lock().unwrap_or_else(|p| p.into_inner()) = Some(peer.clone());
        no_panic(async move { Ok(peer.closed().await.to_string()) }).await
    }

    /// Ends the connection being served, if any.
    #[napi]
    pub async fn close(&self) -> napi::Result<()> {
        let peer = self.peer.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(peer) = peer {
            no_panic(async move {
                peer.close().await;
                Ok(())
            })
            .await?;
        }
        Ok(())
    }
}
