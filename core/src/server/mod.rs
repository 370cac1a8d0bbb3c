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
mod context;
mod custom;
pub(crate) mod era;
mod features;
mod handlers;
pub mod http;
mod mrtr;
mod notify;
pub(crate) mod outbound;
mod registry;
mod reply;
mod router;
mod session;
mod session_handle;
mod tasks;
mod template;

pub use auth_info::AuthInfo;
pub use context::Context;
pub use custom::{NotificationHandler, RequestHandler};
pub use handlers::{
    CompletionHandler, HandlerError, HandlerFuture, PromptHandler, ResourceHandler, ResourceLister, ToolHandler,
};
pub use outbound::Outbound;
pub use registry::RegistryError;
pub use session::Connection;
pub(crate) use session::Incoming;
pub use session_handle::ServerSession;
pub use tasks::{EXTENSION as TASKS_EXTENSION, TaskOptions, TaskStart, TaskSupport};
pub use template::UriTemplate;

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, RwLock, Weak};
use std::time::Duration;

use serde_json::{Value, json};

use crate::framing::{FrameSink, FrameSource};
use crate::peer::{CloseReason, Peer, PeerConfig};

/// A cache hint for 2026-07-28 results (`ttlMs`, `cacheScope`).
#[derive(Clone, Copy, Debug)]
pub struct CacheHint {
    pub ttl_ms: u64,
    /// `true` for `"public"` (the same for every user), `false` for `"private"`.
    pub public: bool,
}

#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// Items per page of `*/list`; `None` returns everything in one page.
    pub page_size: Option<usize>,
    /// Hints on list results (modern era).
    pub list_cache: CacheHint,
    /// Hints on `resources/read` results (modern era).
    pub read_cache: CacheHint,
    /// The key that seals MRTR `requestState`; replicas behind one endpoint must share it.
    /// Random per process when `None`.
    pub state_key: Option<Vec<u8>>,
    /// How long a sealed `requestState` stays valid.
    pub state_ttl: Duration,
    /// Settings of each connection's RPC engine.
    pub peer: PeerConfig,
    /// How tasks (the `io.modelcontextprotocol/tasks` extension) are kept.
    pub tasks: TaskOptions,
}

impl Default for ServerOptions {
    fn default() -> Self {
        Self {
            page_size: None,
            list_cache: CacheHint { ttl_ms: 0, public: false },
            read_cache: CacheHint { ttl_ms: 0, public: false },
            state_key: None,
            state_ttl: Duration::from_secs(600),
            peer: PeerConfig::default(),
            tasks: TaskOptions::default(),
        }
    }
}

/// The methods whose 2026-07-28 results carry cache hints; all but `resources/read` share
/// [`ServerOptions::list_cache`].
pub const CACHEABLE_METHODS: [&str; 6] =
    ["server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"];

impl ServerOptions {
    /// Applies per-method cache hints, as the official SDKs take them (`cache_hints` in
    /// Python, `cacheHints` in TypeScript), so both bindings pass them here unchanged:
    /// `resources/read` has its own hint, and the lists and `server/discover` share one, so
    /// hints given for several of those must agree. An unknown method or a disagreement is
    /// an error that names it.
    pub fn set_cache_hints<'a>(&mut self, hints: impl IntoIterator<Item = (&'a str, CacheHint)>) -> Result<(), String> {
        let mut lists: Option<(&str, CacheHint)> = None;
        for (method, hint) in hints {
            match method {
                "resources/read" => self.read_cache = hint,
                _ if CACHEABLE_METHODS.contains(&method) => match lists {
                    Some((first, agreed)) if (agreed.ttl_ms, agreed.public) != (hint.ttl_ms, hint.public) => {
                        return Err(format!(
                            "cache hints of {first} and {method} differ; the lists and server/discover share one"
                        ));
                    }
                    Some(_) => {}
                    None => lists = Some((method, hint)),
                },
                _ => return Err(format!("{method} is not cacheable (cacheable: {})", CACHEABLE_METHODS.join(", "))),
            }
        }
        if let Some((_, hint)) = lists {
            self.list_cache = hint;
        }
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
    /// The application's own request and notification methods.
    pub custom: RwLock<custom::CustomMethods>,
    pub sealer: mrtr::Sealer,
    pub connections: Mutex<HashMap<u64, Weak<Connection>>>,
    pub listeners: Mutex<HashMap<u64, notify::Listener>>,
    pub next_id: AtomicU64,
    pub tasks: tasks::TaskStore,
}

impl Server {
    /// A server named `name` at `version`.
    pub fn new(name: &str, version: &str) -> Self {
        Self::with_info(json!({"name": name, "version": version}), None, ServerOptions::default())
    }

    /// A server from a full `Implementation` object (name, version, title, icons, ...).
    pub fn with_info(info: Value, instructions: Option<String>, options: ServerOptions) -> Self {
        let sealer = mrtr::Sealer::new(options.state_key.clone(), options.state_ttl);
        let tasks = tasks::TaskStore::new(options.tasks.clone());
        Self {
            shared: Arc::new(ServerShared {
                info,
                instructions,
                options,
                registry: Default::default(),
                completion: Default::default(),
                custom: Default::default(),
                sealer,
                connections: Default::default(),
                listeners: Default::default(),
                next_id: AtomicU64::new(1),
                tasks,
            }),
        }
    }

    /// Adds a tool. One whose definition declares `execution.taskSupport` runs as a task
    /// for clients that accept tasks, the task starting as the call arrives.
    pub fn add_tool(&self, definition: Value, handler: impl ToolHandler) -> Result<(), RegistryError> {
        self.shared.registry.write().unwrap().add_tool(definition, Arc::new(handler), TaskStart::AtCall)
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
        self.shared.registry.write().unwrap().add_tool(definition, Arc::new(handler), task_start)
    }

    pub fn add_resource(&self, definition: Value, handler: impl ResourceHandler) -> Result<(), RegistryError> {
        self.shared.registry.write().unwrap().add_resource(definition, Arc::new(handler))
    }

    pub fn add_resource_template(&self, definition: Value, handler: impl ResourceHandler) -> Result<(), RegistryError> {
        self.shared.registry.write().unwrap().add_template(definition, Arc::new(handler), None)
    }

    /// A template whose `lister` names the resources it covers: `resources/list` includes
    /// them after the static resources, in template registration order.
    pub fn add_listed_resource_template(
        &self,
        definition: Value,
        handler: impl ResourceHandler,
        lister: impl ResourceLister,
    ) -> Result<(), RegistryError> {
        self.shared.registry.write().unwrap().add_template(definition, Arc::new(handler), Some(Arc::new(lister)))
    }

    pub fn add_prompt(&self, definition: Value, handler: impl PromptHandler) -> Result<(), RegistryError> {
        self.shared.registry.write().unwrap().add_prompt(definition, Arc::new(handler))
    }

    pub fn set_completion_handler(&self, handler: impl CompletionHandler) {
        *self.shared.completion.write().unwrap() = Some(Arc::new(handler));
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
    fn read_has_its_own_hint_and_the_lists_share_one() {
        let mut options = ServerOptions::default();
        let hints = [("tools/list", PUBLIC), ("resources/read", PRIVATE), ("prompts/list", PUBLIC)];
        options.set_cache_hints(hints).unwrap();
        assert_eq!((options.list_cache.ttl_ms, options.list_cache.public), (60_000, true));
        assert_eq!((options.read_cache.ttl_ms, options.read_cache.public), (5_000, false));
    }

    #[test]
    fn disagreeing_lists_and_unknown_methods_are_named() {
        let mut options = ServerOptions::default();
        let error = options.set_cache_hints([("tools/list", PUBLIC), ("server/discover", PRIVATE)]).unwrap_err();
        assert!(error.contains("tools/list") && error.contains("server/discover"), "{error}");
        let error = options.set_cache_hints([("tools/call", PUBLIC)]).unwrap_err();
        assert!(error.contains("tools/call is not cacheable"), "{error}");
    }
}
