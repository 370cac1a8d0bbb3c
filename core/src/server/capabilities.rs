//! The server's capabilities, computed in one place for both eras: the `initialize` result
//! (legacy) and `server/discover` (2026-07-28) both call [`capabilities`].
//!
//! What is declared is derived from what the server has, then the author's explicit
//! capabilities are merged over it (as the official TypeScript SDK merges
//! `registerCapabilities`: members replace, objects merge one level deep), so an author can
//! turn a flag off (`{"tools": {"listChanged": false}}`), declare something core cannot
//! see, and add `experimental` and `extensions` entries.
//!
//! Derived:
//! - `tools`, `resources`, `prompts`: once one was registered (a resource template counts
//!   for `resources`), or when the server's options say its API registers that list up
//!   front ([`ServerOptions::features_up_front`](super::ServerOptions::features_up_front)).
//!   Registration is remembered: removing the last tool keeps `tools`, as the official
//!   SDKs keep the list handler they installed, and `listChanged` tells the client when
//!   tools come back. Core honours `listChanged` for all three (`notify_*_changed` reaches
//!   legacy sessions and `subscriptions/listen` streams) and `resources.subscribe` (legacy
//!   `resources/subscribe`, modern `resourceSubscriptions`), so they are `true`.
//! - `completions`: with a completion handler.
//! - `logging`: always. The official SDKs declare it exactly when `logging/setLevel` is
//!   served (Python's low-level server: a `setLevel` handler; TypeScript: the `logging`
//!   capability installs one), and core serves `logging/setLevel` on every legacy session
//!   and honours the 2026-07-28 `_meta` log level on every request. In the official Python
//!   SDK's dialect ([`Dialect::PythonSdk`](super::Dialect)) core serves it only through the
//!   application's handler, and declares it only then, as that SDK does.
//! - In that dialect a list declares `listChanged` (and `resources.subscribe`) to a legacy
//!   client only as the application declares it (its `NotificationOptions`, its
//!   `resources/subscribe` handler), `false` otherwise even for a list core keeps (the
//!   official `MCPServer` sends list changes only when the application does); to a
//!   2026-07-28 client a list core keeps declares them, one the application answers itself
//!   only as it declares them. Under its 1.x API (`ServerOptions::python_v1`)
//!   `resources.subscribe` is `false` and `experimental` declared (`{}`) always.
//! - In the official TypeScript SDK's dialect (`Dialect::TypeScriptSdk`) `logging` is
//!   declared only as the application declares it (and only then served and sent), a
//!   list core keeps with `listChanged: true`, one the application answers itself and
//!   `resources.subscribe` only as the application declares them: no flag is declared
//!   `false`, as that SDK's servers declare only what they were given.
//! - the tasks extension (`extensions["io.modelcontextprotocol/tasks"]`): on 2026-07-28
//!   only (it does not exist before, and core runs tasks only for modern requests), once a
//!   tool supports tasks.
//!
//! Which lists are declared when empty differs between the official SDKs, and the choice
//! is made here with an explicit option rather than in a binding: the official Python
//! `MCPServer`/`FastMCP` installs the tools, resources and prompts handlers when it is
//! built, so it declares all three on an empty server, while the TypeScript `McpServer`
//! declares each with its first registration. Core derives from what is registered (the
//! TypeScript behaviour, and the Rust API's default); a binding whose official API
//! registers lists up front says which in `features_up_front` (the Python binding: all
//! three).

use serde_json::json;

use super::ServerShared;
use super::tasks::TaskSupport;
use crate::protocol::{ListChangedCapability, ResourcesCapability, ServerCapabilities, TASKS_EXTENSION};

/// A set of the three list features.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    pub tools: bool,
    pub resources: bool,
    pub prompts: bool,
}

impl Features {
    /// None of them: each is declared once registered.
    pub const NONE: Self = Self { tools: false, resources: false, prompts: false };
    /// All three, as an API that registers every list handler when the server is built.
    pub const ALL: Self = Self { tools: true, resources: true, prompts: true };

    fn or(self, other: Self) -> Self {
        Self {
            tools: self.tools || other.tools,
            resources: self.resources || other.resources,
            prompts: self.prompts || other.prompts,
        }
    }
}

/// Which features the application answers itself (the low-level server APIs).
struct AppAnswered {
    tools: bool,
    resources: bool,
    prompts: bool,
    subscribe: bool,
    completion: bool,
    set_level: bool,
}

/// The capabilities the server declares to a client of this era (`modern`: 2026-07-28).
pub(crate) fn capabilities(server: &ServerShared, modern: bool) -> ServerCapabilities {
    let registry = server.registry.read().unwrap();
    let answered = {
        let custom = server.custom.read().unwrap();
        AppAnswered {
            tools: custom.answers("tools/list"),
            resources: custom.answers("resources/list"),
            prompts: custom.answers("prompts/list"),
            subscribe: custom.answers("resources/subscribe"),
            completion: custom.answers("completion/complete"),
            set_level: custom.answers("logging/setLevel"),
        }
    };
    let engine = registry.offered.or(server.options.features_up_front);
    let offered =
        engine.or(Features { tools: answered.tools, resources: answered.resources, prompts: answered.prompts });
    let tasks = modern && registry.tools.values().any(|tool| tool.task_support != TaskSupport::Forbidden);
    drop(registry);
    // A list the engine keeps announces its changes; one the application answers itself
    // does so only on a 2026-07-28 `subscriptions/listen` stream (the engine's), unless
    // the application declares more (`register_capabilities`), as the official low-level
    // servers derive it.
    let dialect = server.options.dialect;
    let flag = |on: bool| (on || !dialect.omits_false_flags()).then_some(on);
    let changes = |engine_keeps: bool| flag(dialect.announces_changes(engine_keeps, false, modern));
    let list_changed =
        |engine_keeps: bool| ListChangedCapability { list_changed: changes(engine_keeps), ..Default::default() };
    // The official TypeScript `McpServer` keeps its resources but declares `subscribe`
    // only as the application does.
    let subscribe_kept = engine.resources && !dialect.omits_false_flags();
    let mut derived = ServerCapabilities {
        tools: offered.tools.then(|| list_changed(engine.tools)),
        resources: offered.resources.then(|| ResourcesCapability {
            subscribe: flag(dialect.announces_changes(
                subscribe_kept,
                answered.subscribe && (modern || dialect.declares_app_subscribe(server.options.python_v1)),
                modern,
            )),
            list_changed: changes(engine.resources),
            ..Default::default()
        }),
        prompts: offered.prompts.then(|| list_changed(engine.prompts)),
        logging: dialect.declares_logging(answered.set_level).then(Default::default),
        completions: (server.completion.read().unwrap().is_some() || answered.completion).then(Default::default),
        ..Default::default()
    };
    if dialect.declares_empty_experimental(server.options.python_v1) {
        derived.experimental = Some(Default::default());
    }
    if tasks {
        derived.extensions = Some([(TASKS_EXTENSION.to_owned(), json!({}))].into_iter().collect());
    }
    derived.merge(&server.capabilities.read().unwrap());
    derived
}

/// Whether core itself serves `method`'s list (registered, or up front): `None` when
/// `method` belongs to none of the three lists.
pub(crate) fn engine_offers(server: &ServerShared, method: &str) -> Option<bool> {
    let engine = server.registry.read().unwrap().offered.or(server.options.features_up_front);
    match method {
        "tools/list" | "tools/call" => Some(engine.tools),
        "resources/list" | "resources/read" | "resources/templates/list" => Some(engine.resources),
        "prompts/list" | "prompts/get" => Some(engine.prompts),
        _ => None,
    }
}

/// Whether the server declares `logging` (derived or the application's own), without
/// computing the rest.
pub(crate) fn logging_declared(server: &ServerShared) -> bool {
    server.capabilities.read().unwrap().logging.is_some()
        || server.options.dialect.declares_logging(server.custom.read().unwrap().answers("logging/setLevel"))
}
