//! An MCP server that serves both eras at once.
//!
//! A [`Server`] holds what is offered (the registry) and the server-wide state (connected
//! sessions, `subscriptions/listen` streams, the key that seals MRTR state). Each connection
//! gets a [`Connection`]: a legacy session once `initialize` arrives, while any request
//! carrying the 2026-07-28 `_meta` is served statelessly beside it (see [`era`]). Tools,
//! resources and prompts are served by one code path for both eras ([`features`]), each
//! request picked by method in one place ([`router`]), the application's own methods
//! beside MCP's ([`custom`]); what differs (error codes, result stamping, how input reaches the client) is decided there
//! from the request's era, never in a binding.
//!
//! The server's own transports live here too: stdio ([`Server::serve_stdio`], over the
//! shared [`crate::transport::stdio`]) and the Streamable HTTP endpoint ([`http`]).

mod auth_info;
pub(crate) mod capabilities;
mod context;
mod custom;
mod dialect;
pub(crate) mod era;
mod features;
mod handlers;
pub mod http;
mod in_process;
mod input_batch;
mod legacy_shim;
mod listed_tools;
pub(crate) mod middleware;
mod mrtr;
pub(crate) mod notify;
pub(crate) mod outbound;
pub(crate) mod params;
mod registry;
mod reply;
mod router;
mod session;
mod session_handle;
mod tasks;
pub mod template;

pub use auth_info::AuthInfo;
pub use capabilities::Features;
pub use context::{Context, require_client_extension};
pub use custom::{APPLICATION_ANSWERED, NotificationHandler, RawRequestHandler, RequestHandler};
pub(crate) use dialect::python_repr;
pub use dialect::{Dialect, no_back_channel_method};
pub use features::MAX_COMPLETION_VALUES;
pub use handlers::{
    CompletionHandler, HandlerError, HandlerFuture, PromptHandler, ResourceHandler, ResourceLister, ToolHandler,
};
pub use input_batch::{BatchedHandler, InputAnswer, InputBatch, input_batch};
pub use listed_tools::ListedTools;
pub use middleware::{Answer, Inbound, Middleware, Next};
pub use mrtr::{
    MIN_STATE_KEY_LEN, REQUEST_STATE_LOG, StateCodec, StateCodecHandle, check_state_key_config, check_state_keys,
    request_state_rejected,
};
pub(crate) use notify::Fanout;
pub use outbound::Outbound;
pub use params::Params;
pub use registry::{ArgumentWording, RegistryError, ToolOptions};
pub(crate) use router::is_builtin_request;
pub use session::Connection;
pub(crate) use session::{FrontParams, Incoming};
pub use session_handle::ServerSession;
pub use tasks::{
    CallingTaskStore, CreateTaskOptions, EXTENSION as TASKS_EXTENSION, InMemoryTaskStore, RequestTaskStore, SpecTask,
    TaskOptions, TaskPage, TaskStart, TaskStore, TaskStoreCall, TaskStoreOperation, TaskSupport,
    check_task_mode as check_spec_task_mode, is_terminal as is_terminal_task_status,
};
pub use template::{ExpandError, Operator, TemplateError, UriTemplate, Variable};

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, RwLock, Weak};
use std::time::Duration;

use serde_json::{Value, json};

use crate::framing::{FrameSink, FrameSource};
use crate::peer::{CloseReason, Peer, PeerConfig};
use crate::protocol::{ProtocolVersion, ServerCapabilities};

/// A cache hint for 2026-07-28 results (`ttlMs`, `cacheScope`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheHint {
    pub ttl_ms: u64,
    /// `true` for `"public"` (the same for every user), `false` for `"private"`.
    pub public: bool,
}

impl CacheHint {
    /// What a cacheable result carries when nobody gave a hint: not to be reused.
    pub const NONE: CacheHint = CacheHint { ttl_ms: 0, public: false };
}

/// A resource's (or resource template's) own hint for its `resources/read` results, as
/// the official TypeScript SDK's `registerResource(..., { cacheHint })`: each field it
/// sets wins over the server's hint for `resources/read`, a field it leaves `None` falls
/// back to that hint, and what the handler's result carries itself wins over both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResourceCacheHint {
    pub ttl_ms: Option<u64>,
    pub public: Option<bool>,
}

#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// Items per page of `*/list`; `None` returns everything in one page.
    pub page_size: Option<usize>,
    /// Hints on the results of each cacheable method (modern era); set them with
    /// [`ServerOptions::set_cache_hints`].
    pub cache_hints: CacheHints,
    /// The key that seals MRTR `requestState`; replicas behind one endpoint must share it.
    /// Random per process when `None` (unless `FERRYMCP_STATE_KEY` is set); replicas
    /// behind one endpoint must share it.
    pub state_key: Option<Vec<u8>>,
    /// Keys that no longer seal `requestState` but still open it, for rotation: put the
    /// new key in `state_key` and the old one here for one `state_ttl`.
    pub previous_state_keys: Vec<Vec<u8>>,
    /// The application's own sealing of `requestState`, used instead of the keys.
    pub state_codec: Option<mrtr::StateCodecHandle>,
    /// How long a sealed `requestState` stays valid.
    pub state_ttl: Duration,
    /// The service a sealed `requestState` is bound to besides its method, target and
    /// principal: a state sealed for another audience does not open, even under a shared
    /// key (the official Python `MCPServer` binds its server name, which the Python binding
    /// passes). `None`: no audience.
    pub state_audience: Option<String>,
    /// Whether the `requestState` a handler puts in its own `input_required` result is
    /// sealed by core (the default: it comes back intact, bound and expiring, on
    /// [`Context::request_state`]), or is the application's to protect: it goes out as the
    /// handler gave it and comes back as the client sent it, as the official Python SDK's
    /// low-level `Server` does without its request-state middleware (the Python binding's
    /// low-level `Server` chooses this). A state core sealed for its own rounds
    /// (`cx.elicit`) still opens as such.
    pub seal_handler_state: bool,
    /// Settings of each connection's RPC engine.
    pub peer: PeerConfig,
    /// How tasks (the `io.modelcontextprotocol/tasks` extension) are kept.
    pub tasks: TaskOptions,
    /// The lists declared even while empty, because the binding's API registers their
    /// handlers when the server is built (the official Python `MCPServer`: all three);
    /// others are declared once registered. See [`capabilities`].
    pub features_up_front: Features,
    /// How a failing tool's `isError` text reads: the handler's message as it is (the
    /// TypeScript SDKs), or `Error executing tool NAME: message` (the official Python
    /// SDK, 1.x and 2.x), which the Python binding chooses.
    pub tool_error_names_tool: bool,
    /// How a call to a tool the server does not have is answered: a JSON-RPC error
    /// (`-32602 Unknown tool: NAME`, the specification's answer and the default), or a
    /// result with `isError` and that text (the official Python SDK's `MCPServer` /
    /// `FastMCP`, 1.x and 2.x, which the Python binding chooses for them).
    pub unknown_tool_is_result: bool,
    /// At most this many `subscriptions/listen` streams open at once; one more is refused
    /// (`-32603 Subscription limit reached`) before its acknowledgement. `None`: no cap.
    /// Default [`DEFAULT_MAX_LISTEN_STREAMS`], for every binding and transport.
    pub max_listen_streams: Option<usize>,
    /// Serve 2026-07-28 clients only (the official TypeScript SDK's `legacy: 'reject'` of
    /// `createMcpHandler` and `serveStdio`): a 2025-era request is answered with -32022
    /// naming the supported revisions and the one it asked for (over HTTP with `400`), a
    /// 2025-era notification is dropped (HTTP: `202`), a posted response is `400` and a
    /// session's GET or DELETE `405`. Default `false`: one server serves both eras.
    /// [`Server::set_reject_legacy`] changes it later.
    pub reject_legacy: bool,
    /// The 2025-era revisions `initialize` accepts, in preference order, the first being
    /// the answer to a revision not listed (the official SDKs' `supportedProtocolVersions`).
    /// `None` (the default): every 2025-era revision core speaks, the newest the answer.
    /// Set it with [`ServerOptions::set_legacy_versions`], which checks the list; see
    /// [`ServerOptions::legacy_revision`] for what an entry core does not know is served as.
    pub legacy_versions: Option<Vec<String>>,
    /// Whose answers the server gives where the official SDKs differ (capabilities it
    /// could declare, error wording, completion totals): see [`Dialect`]. Default
    /// [`Dialect::Ferrymcp`]; the Python binding selects [`Dialect::PythonSdk`], the Node binding
    /// [`Dialect::TypeScriptSdk`].
    pub dialect: Dialect,
    /// Within [`Dialect::PythonSdk`], the official 1.x API's answers where they differ
    /// from 2.x's (the Python binding chooses them for `ferrymcp.server.fastmcp.FastMCP`
    /// and for a low-level `Server` built with 1.x's decorators): `capabilities.experimental`
    /// always declared (`{}` when empty), `resources.subscribe` always `false` (the
    /// dialect's `declares_empty_experimental` and `declares_app_subscribe`), a JSON-RPC
    /// error a tool's handler raised is a tool error, and a legacy `resources/read` that
    /// fails is code 0 with the cause in its text (see [`Dialect::v1_tool_error_is_result`]
    /// and [`Dialect::v1_read_failed`]).
    pub python_v1: bool,
    /// How a handler's own `input_required` result answers a 2025-era request (the legacy
    /// shim, its round cap and its per-request timeout): see [`InputRequiredOptions`].
    pub input_required: InputRequiredOptions,
}

/// How a handler's own `input_required` result (the manual multi-round API) is served to a
/// 2025-era request of `tools/call`, `prompts/get` or `resources/read`, whose revision has
/// no `input_required` vocabulary: the official TypeScript SDK's `ServerOptions.inputRequired`.
///
/// With the legacy shim on, core makes each embedded input request a real request to the
/// client over the live session (answered within the originating request's stream),
/// collects the answers and runs the handler again with them as its `inputResponses` (this
/// round's only) and its `requestState` echoed byte for byte, until it answers, for at most
/// [`max_rounds`](Self::max_rounds) runs. Its failures answer as the request's family
/// does: a tool call's is a result with `isError`, a prompt's or a resource's a `-32603`
/// error. Off, the result fails loudly (`-32603`).
#[derive(Clone, Debug)]
pub struct InputRequiredOptions {
    /// Whether the shim serves 2025-era requests. `None`: the [`Dialect`]'s choice, on for
    /// [`Dialect::Ferrymcp`] (the official TypeScript SDK's default, `legacyShim: true`),
    /// off for [`Dialect::PythonSdk`] (the official Python SDK has no shim: its servers
    /// answer `-32603 Handler returned an invalid result`).
    pub legacy_shim: Option<bool>,
    /// How many times the shim runs the handler again for one request before it fails
    /// (`maxRounds`, default [`DEFAULT_SHIM_MAX_ROUNDS`]); at least 1.
    pub max_rounds: usize,
    /// How long each request the shim sends the client waits for its answer; progress
    /// the client reports on it starts the wait again (`roundTimeoutMs`, default
    /// [`DEFAULT_SHIM_ROUND_TIMEOUT`]).
    pub round_timeout: Duration,
}

/// The official TypeScript SDK's `inputRequired.maxRounds` default.
pub const DEFAULT_SHIM_MAX_ROUNDS: usize = 8;
/// The official TypeScript SDK's `inputRequired.roundTimeoutMs` default (600 000 ms): the
/// requests are answered by people, so the 60 s request default does not apply.
pub const DEFAULT_SHIM_ROUND_TIMEOUT: Duration = Duration::from_secs(600);

impl Default for InputRequiredOptions {
    fn default() -> Self {
        Self { legacy_shim: None, max_rounds: DEFAULT_SHIM_MAX_ROUNDS, round_timeout: DEFAULT_SHIM_ROUND_TIMEOUT }
    }
}

impl InputRequiredOptions {
    /// Whether the shim is on for a server of `dialect`.
    pub(crate) fn shim_on(&self, dialect: Dialect) -> bool {
        self.legacy_shim.unwrap_or_else(|| dialect.shims_legacy_input_required())
    }
}

/// The default cap on open `subscriptions/listen` streams: the official SDKs' default
/// (`maxSubscriptions` of the TypeScript `createMcpHandler` and `serveStdio`,
/// `max_subscriptions` of the Python `ListenHandler`).
pub const DEFAULT_MAX_LISTEN_STREAMS: usize = 1024;

impl Default for ServerOptions {
    fn default() -> Self {
        Self {
            page_size: None,
            cache_hints: CacheHints::default(),
            state_key: None,
            previous_state_keys: Vec::new(),
            state_codec: None,
            state_ttl: Duration::from_secs(600),
            state_audience: None,
            seal_handler_state: true,
            peer: PeerConfig::default(),
            tasks: TaskOptions::default(),
            features_up_front: Features::NONE,
            tool_error_names_tool: false,
            unknown_tool_is_result: false,
            max_listen_streams: Some(DEFAULT_MAX_LISTEN_STREAMS),
            reject_legacy: false,
            legacy_versions: None,
            dialect: Dialect::Ferrymcp,
            python_v1: false,
            input_required: InputRequiredOptions::default(),
        }
    }
}

/// The methods whose 2026-07-28 results carry cache hints, each with its own.
pub const CACHEABLE_METHODS: [&str; 6] = {
    use crate::protocol::{
        Discover, ListPrompts, ListResourceTemplates, ListResources, ListTools, ReadResource, RequestMethod,
    };
    [
        Discover::METHOD,
        ListTools::METHOD,
        ListPrompts::METHOD,
        ListResources::METHOD,
        ListResourceTemplates::METHOD,
        ReadResource::METHOD,
    ]
};

/// One hint per cacheable method; a method without one answers [`CacheHint::NONE`].
/// Only [`ServerOptions::set_cache_hints`] fills it, so it never holds another method.
#[derive(Clone, Debug, Default)]
pub struct CacheHints([Option<CacheHint>; CACHEABLE_METHODS.len()]);

impl CacheHints {
    /// The hint of `method`'s results, `None` if its results are not cacheable.
    pub fn get(&self, method: &str) -> Option<CacheHint> {
        let index = CACHEABLE_METHODS.iter().position(|m| *m == method)?;
        Some(self.0[index].unwrap_or(CacheHint::NONE))
    }
}

impl ServerOptions {
    /// Sets the revisions `initialize` accepts ([`ServerOptions::legacy_versions`]), as the
    /// official `supportedProtocolVersions` lists them: revision dates (`YYYY-MM-DD`) in
    /// preference order. Entries of the 2026-07-28 era are left to `server/discover`, as
    /// there, and must be revisions core serves; a 2025-era entry core does not know (a
    /// draft's date) is served as the newest revision core knows that is not later than
    /// it, so one before 2024-11-05 is refused. The list needs one 2025-era entry. An
    /// error names the entry and nothing is applied.
    pub fn set_legacy_versions<S: AsRef<str>>(&mut self, versions: &[S]) -> Result<(), String> {
        let mut legacy = Vec::new();
        for version in versions {
            let version = version.as_ref();
            let dated = version.len() == 10
                && version
                    .bytes()
                    .enumerate()
                    .all(|(i, b)| if i == 4 || i == 7 { b == b'-' } else { b.is_ascii_digit() });
            if !dated {
                return Err(format!("{version:?} is not a protocol revision (a date, YYYY-MM-DD)"));
            }
            if version >= ProtocolVersion::MODERN[0].as_str() {
                if ProtocolVersion::parse(version).is_none() {
                    return Err(format!(
                        "{version:?} is a revision of the 2026-07-28 era that this server does not speak (it speaks {})",
                        ProtocolVersion::strings(&ProtocolVersion::MODERN).join(", ")
                    ));
                }
                continue;
            }
            if version < ProtocolVersion::LEGACY[0].as_str() {
                return Err(format!(
                    "{version:?} is older than the first protocol revision ({})",
                    ProtocolVersion::LEGACY[0].as_str()
                ));
            }
            legacy.push(version.to_owned());
        }
        if legacy.is_empty() {
            return Err("the list names no revision before 2026-07-28, so initialize could accept none".into());
        }
        self.legacy_versions = Some(legacy);
        Ok(())
    }

    /// The 2025-era revision a version string is served as: itself if core knows it, the
    /// newest known revision not later than it for an unknown entry of
    /// [`ServerOptions::legacy_versions`]; `None` when this server does not accept it.
    pub fn legacy_revision(&self, version: &str) -> Option<ProtocolVersion> {
        match &self.legacy_versions {
            None => ProtocolVersion::parse(version).filter(|v| v.is_legacy()),
            Some(listed) if listed.iter().any(|v| v == version) => {
                ProtocolVersion::LEGACY.into_iter().rev().find(|known| known.as_str() <= version)
            }
            Some(_) => None,
        }
    }

    /// The revision a version string names on this server: a revision core knows, else
    /// what a listed unknown one is served as ([`ServerOptions::legacy_revision`]).
    pub fn revision_of(&self, version: &str) -> Option<ProtocolVersion> {
        ProtocolVersion::parse(version).or_else(|| self.legacy_revision(version))
    }

    /// The revision `initialize` answers a request for `requested` with, and what it is
    /// served as: the requested one if accepted, else the first accepted one.
    pub(crate) fn negotiate(&self, requested: &str) -> (String, ProtocolVersion) {
        if let Some(revision) = self.legacy_revision(requested) {
            return (requested.to_owned(), revision);
        }
        match &self.legacy_versions {
            None => (ProtocolVersion::LATEST_LEGACY.as_str().to_owned(), ProtocolVersion::LATEST_LEGACY),
            Some(listed) => {
                let first = listed[0].clone();
                let revision = self.legacy_revision(&first).unwrap_or(ProtocolVersion::LATEST_LEGACY);
                (first, revision)
            }
        }
    }

    /// The 2025-era revisions this server accepts, for refusals that list them.
    pub(crate) fn legacy_version_strings(&self) -> Vec<String> {
        match &self.legacy_versions {
            Some(listed) => listed.clone(),
            None => ProtocolVersion::strings(&ProtocolVersion::LEGACY).iter().map(|v| v.to_string()).collect(),
        }
    }

    /// Applies per-method cache hints, as the official SDKs take them (`cache_hints` in
    /// Python, `cacheHints` in TypeScript), so both bindings pass them here unchanged;
    /// each method's results carry its own hint. An unknown method is an error that names
    /// it (and nothing is applied).
    pub fn set_cache_hints<'a>(&mut self, hints: impl IntoIterator<Item = (&'a str, CacheHint)>) -> Result<(), String> {
        let mut applied = self.cache_hints.clone();
        for (method, hint) in hints {
            let Some(index) = CACHEABLE_METHODS.iter().position(|m| *m == method) else {
                return Err(format!("{method} is not cacheable (cacheable: {})", CACHEABLE_METHODS.join(", ")));
            };
            applied.0[index] = Some(hint);
        }
        self.cache_hints = applied;
        Ok(())
    }
}

/// An MCP server: build it, register what it offers, then serve connections.
#[derive(Clone)]
pub struct Server {
    shared: Arc<ServerShared>,
}

pub(crate) struct ServerShared {
    /// `serverInfo` (an `Implementation` object).
    pub info: Value,
    pub instructions: Option<String>,
    pub options: ServerOptions,
    pub registry: RwLock<registry::Registry>,
    pub completion: RwLock<Option<Arc<dyn CompletionHandler>>>,
    /// The author's capabilities: every [`Server::register_capabilities`], merged in order.
    pub capabilities: RwLock<ServerCapabilities>,
    /// The application's own request and notification methods.
    pub custom: RwLock<custom::CustomMethods>,
    /// The application's hook around every inbound message, if set.
    pub middleware: RwLock<Option<Arc<dyn middleware::Middleware>>>,
    pub sealer: mrtr::Sealer,
    pub connections: Mutex<HashMap<u64, Weak<Connection>>>,
    pub listeners: Mutex<HashMap<u64, notify::Listener>>,
    /// Where server-wide notifications also go: the other replicas, through the bus of
    /// each HTTP endpoint that has one.
    pub fanout: RwLock<Vec<Arc<dyn notify::Fanout>>>,
    pub next_id: AtomicU64,
    pub tasks: tasks::TaskTable,
    /// The 2025-11-25 revision's tasks: their store, and what runs.
    pub spec_tasks: tasks::spec::SpecTasks,
    /// Whether the application carries list changes and resource updates to the listen
    /// streams itself ([`Server::carry_listen_events`]).
    pub listen_carried: std::sync::atomic::AtomicBool,
    /// Fired by [`Server::close_listen_streams`] (then replaced): the streams open end
    /// gracefully.
    pub listen_closing: Mutex<tokio_util::sync::CancellationToken>,
    /// The cap on open listen streams: [`ServerOptions::max_listen_streams`] until
    /// [`Server::set_max_listen_streams`] changes it.
    pub max_listen_streams: Mutex<Option<usize>>,
    /// [`ServerOptions::reject_legacy`] until [`Server::set_reject_legacy`] changes it.
    pub reject_legacy: std::sync::atomic::AtomicBool,
}

impl ServerShared {
    /// Whether 2025-era traffic is refused (see [`ServerOptions::reject_legacy`]).
    pub(crate) fn rejects_legacy(&self) -> bool {
        self.reject_legacy.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Server {
    /// A server named `name` at `version`.
    pub fn new(name: &str, version: &str) -> Self {
        Self::with_info(json!({"name": name, "version": version}), None, ServerOptions::default())
    }

    /// A server from a full `Implementation` object (name, version, title, icons, ...).
    ///
    /// # Panics
    ///
    /// When a configured request-state key (`state_key`, else `FERRYMCP_STATE_KEY`, and
    /// `previous_state_keys`) is shorter than [`MIN_STATE_KEY_LEN`] bytes: a short sealing
    /// key is never accepted. [`Server::try_with_info`] returns that as an error instead.
    pub fn with_info(info: Value, instructions: Option<String>, options: ServerOptions) -> Self {
        Self::try_with_info(info, instructions, options).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Server::with_info`], refusing a request-state key shorter than
    /// [`MIN_STATE_KEY_LEN`] bytes with [`check_state_key_config`]'s message.
    pub fn try_with_info(info: Value, instructions: Option<String>, options: ServerOptions) -> Result<Self, String> {
        check_state_key_config(&options)?;
        let sealer = mrtr::Sealer::new(
            options.state_key.clone(),
            options.previous_state_keys.clone(),
            options.state_codec.clone(),
            options.state_ttl,
        )
        .with_audience(options.state_audience.clone());
        let tasks = tasks::TaskTable::new(options.tasks.clone());
        let max_listen_streams = Mutex::new(options.max_listen_streams);
        let options_reject_legacy = options.reject_legacy;
        Ok(Self {
            shared: Arc::new(ServerShared {
                info,
                instructions,
                options,
                registry: Default::default(),
                completion: Default::default(),
                capabilities: Default::default(),
                custom: Default::default(),
                middleware: Default::default(),
                sealer,
                connections: Default::default(),
                listeners: Default::default(),
                fanout: Default::default(),
                next_id: AtomicU64::new(1),
                tasks,
                spec_tasks: Default::default(),
                listen_carried: Default::default(),
                listen_closing: Default::default(),
                max_listen_streams,
                reject_legacy: options_reject_legacy.into(),
            }),
        })
    }

    /// Serves 2026-07-28 clients only from now on, or both eras again (see
    /// [`ServerOptions::reject_legacy`]): for an application that learns it after building
    /// the server (an HTTP handler or a stdio server given a server by a factory).
    pub fn set_reject_legacy(&self, reject: bool) {
        self.shared.reject_legacy.store(reject, std::sync::atomic::Ordering::Relaxed);
    }

    /// Runs `middleware` around every message a client sends from now on (see
    /// [`Middleware`]); `None` removes it. One per server: a later call replaces it.
    pub fn set_middleware(&self, middleware: Option<Arc<dyn Middleware>>) {
        *self.shared.middleware.write().unwrap() = middleware;
    }

    /// Adds a tool. One whose definition declares `execution.taskSupport` runs as a task
    /// for clients that accept tasks, the task starting as the call arrives.
    pub fn add_tool(&self, definition: Value, handler: impl ToolHandler) -> Result<(), RegistryError> {
        self.add_tool_with(definition, handler, ToolOptions::default())
    }

    /// Adds a tool registered with [`ToolOptions`].
    pub fn add_tool_with(
        &self,
        definition: Value,
        handler: impl ToolHandler,
        options: ToolOptions,
    ) -> Result<(), RegistryError> {
        self.shared.registry.write().unwrap().add_tool(definition, Arc::new(handler), options)
    }

    /// Adds a tool whose task starts where `task_start` says: with
    /// [`TaskStart::OnRequest`], when its handler calls [`Context::start_task`] (after
    /// gathering input by MRTR rounds, say).
    pub fn add_tool_with_task_start(
        &self,
        definition: Value,
        handler: impl ToolHandler,
        task_start: TaskStart,
    ) -> Result<(), RegistryError> {
        self.add_tool_with(definition, handler, ToolOptions { task_start, ..ToolOptions::default() })
    }

    pub fn add_resource(&self, definition: Value, handler: impl ResourceHandler) -> Result<(), RegistryError> {
        self.shared.registry.write().unwrap().add_resource(definition, Arc::new(handler), None)
    }

    /// Adds a resource whose `resources/read` results carry its own cache hint (over the
    /// server's hint for `resources/read`, field by field; see [`ResourceCacheHint`]).
    pub fn add_resource_with_cache_hint(
        &self,
        definition: Value,
        handler: impl ResourceHandler,
        cache_hint: ResourceCacheHint,
    ) -> Result<(), RegistryError> {
        self.shared.registry.write().unwrap().add_resource(definition, Arc::new(handler), Some(cache_hint))
    }

    pub fn add_resource_template(&self, definition: Value, handler: impl ResourceHandler) -> Result<(), RegistryError> {
        self.shared.registry.write().unwrap().add_template(definition, Arc::new(handler), None, None)
    }

    /// Adds a resource template, listed through `lister` when one is given, whose
    /// `resources/read` results carry its own cache hint (see [`ResourceCacheHint`]).
    pub fn add_resource_template_with_cache_hint(
        &self,
        definition: Value,
        handler: impl ResourceHandler,
        lister: Option<Arc<dyn ResourceLister>>,
        cache_hint: ResourceCacheHint,
    ) -> Result<(), RegistryError> {
        self.shared.registry.write().unwrap().add_template(definition, Arc::new(handler), lister, Some(cache_hint))
    }

    /// A template whose `lister` names the resources it covers: `resources/list` includes
    /// them after the static resources, in template registration order.
    pub fn add_listed_resource_template(
        &self,
        definition: Value,
        handler: impl ResourceHandler,
        lister: impl ResourceLister,
    ) -> Result<(), RegistryError> {
        self.shared.registry.write().unwrap().add_template(definition, Arc::new(handler), Some(Arc::new(lister)), None)
    }

    pub fn add_prompt(&self, definition: Value, handler: impl PromptHandler) -> Result<(), RegistryError> {
        self.shared.registry.write().unwrap().add_prompt(definition, Arc::new(handler))
    }

    pub fn set_completion_handler(&self, handler: impl CompletionHandler) {
        *self.shared.completion.write().unwrap() = Some(Arc::new(handler));
    }

    /// Keeps the 2025-11-25 revision's tasks in `store` from now on (an application's own,
    /// say; [`InMemoryTaskStore`] by default). Tasks already created stay in the old store.
    pub fn set_task_store(&self, store: Arc<dyn TaskStore>) {
        self.shared.spec_tasks.set_store(store);
    }

    /// Declares the 2025-11-25 revision's tasks (`list`, `cancel`, task-augmented
    /// `tools/call`) to the sessions of that revision even without a task-supporting tool:
    /// the server's own `tools/call` handler starts its tasks
    /// ([`Context::begin_spec_task`]); `tasks/get`, `tasks/result`, `tasks/list` and
    /// `tasks/cancel` are served from the store as for any task.
    pub fn enable_spec_tasks(&self) {
        self.shared.spec_tasks.enable();
    }

    /// The store the 2025-11-25 revision's tasks are kept in.
    pub fn task_store(&self) -> Arc<dyn TaskStore> {
        self.shared.spec_tasks.store()
    }

    /// Merges `capabilities` over what the author declared so far (see [`capabilities`]);
    /// clients initializing or discovering afterwards see them. An `experimental` or
    /// `extensions` entry that is not an object is refused, naming it.
    pub fn register_capabilities(&self, capabilities: &ServerCapabilities) -> Result<(), String> {
        capabilities.check()?;
        self.shared.capabilities.write().unwrap().merge(capabilities);
        Ok(())
    }

    /// The capabilities this server declares now to a client of this era (`modern`:
    /// 2026-07-28), as `initialize` and `server/discover` answer them.
    pub fn capabilities(&self, modern: bool) -> ServerCapabilities {
        capabilities::capabilities(&self.shared, modern)
    }

    /// Removes a tool; call [`Server::notify_tools_changed`] afterwards.
    pub fn remove_tool(&self, name: &str) -> bool {
        self.shared.registry.write().unwrap().tools.shift_remove(name).is_some()
    }

    pub fn remove_resource(&self, uri: &str) -> bool {
        self.shared.registry.write().unwrap().resources.shift_remove(uri).is_some()
    }

    pub fn remove_resource_template(&self, uri_template: &str) -> bool {
        self.shared.registry.write().unwrap().templates.shift_remove(uri_template).is_some()
    }

    pub fn remove_prompt(&self, name: &str) -> bool {
        self.shared.registry.write().unwrap().prompts.shift_remove(name).is_some()
    }

    /// The `inputSchema` of tool `name`, for a transport that checks what the client
    /// mirrored into headers (`x-mcp-header`).
    pub(crate) fn tool_input_schema(&self, name: &str) -> Option<Value> {
        let registry = self.shared.registry.read().unwrap();
        registry.tools.get(name).map(|tool| tool.definition.get("inputSchema").cloned().unwrap_or(Value::Null))
    }

    /// A handle on each open legacy session (initialized, on any transport), to send
    /// requests and notifications to its client outside any request.
    pub fn legacy_sessions(&self) -> Vec<ServerSession> {
        let connections: Vec<_> =
            self.shared.connections.lock().unwrap().values().filter_map(|c| c.upgrade()).collect();
        connections.iter().filter_map(|c| c.session()).collect()
    }

    /// A new connection's handler, to run under a [`Peer`].
    pub fn connection(&self) -> Arc<Connection> {
        Connection::new(self.shared.clone())
    }

    /// Serves one connection until it closes.
    pub async fn serve<S: FrameSource, K: FrameSink>(&self, source: S, sink: K) -> CloseReason {
        let connection = self.connection();
        let peer = Peer::spawn(source, sink, connection.clone().handler(), self.shared.options.peer.clone());
        connection.attach(&peer);
        peer.closed().await
    }

    /// Serves this process's stdin and stdout until stdin ends.
    pub async fn serve_stdio(&self) -> std::io::Result<CloseReason> {
        let (source, sink) = crate::transport::stdio::stdio()?;
        Ok(self.serve(source, sink).await)
    }
}

#[cfg(test)]
mod cache_hint_tests {
    use super::{CacheHint, ServerOptions};

    const PUBLIC: CacheHint = CacheHint { ttl_ms: 60_000, public: true };
    const PRIVATE: CacheHint = CacheHint { ttl_ms: 5_000, public: false };

    #[test]
    fn every_method_keeps_its_own_hint() {
        let mut options = ServerOptions::default();
        let hints = [("tools/list", PUBLIC), ("resources/read", PRIVATE), ("prompts/list", PRIVATE)];
        options.set_cache_hints(hints).unwrap();
        let hints = &options.cache_hints;
        assert_eq!(hints.get("tools/list"), Some(PUBLIC));
        assert_eq!(hints.get("prompts/list"), Some(PRIVATE));
        assert_eq!(hints.get("resources/read"), Some(PRIVATE));
        assert_eq!(hints.get("server/discover"), Some(CacheHint::NONE));
        assert_eq!(hints.get("tools/call"), None);
    }

    #[test]
    fn unknown_methods_are_named_and_nothing_is_applied() {
        let mut options = ServerOptions::default();
        let error = options.set_cache_hints([("tools/list", PUBLIC), ("tools/call", PUBLIC)]).unwrap_err();
        assert!(error.contains("tools/call is not cacheable"), "{error}");
        assert_eq!(options.cache_hints.get("tools/list"), Some(CacheHint::NONE));
    }
}
