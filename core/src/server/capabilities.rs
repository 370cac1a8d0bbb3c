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
//!   and honours the 2026-07-28 `_meta` log level on every request.
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

/// The capabilities the server declares to a client of this era (`modern`: 2026-07-28).
pub(crate) fn capabilities(server: &ServerShared, modern: bool) -> ServerCapabilities {
    let registry = server.registry.read().unwrap();
    let offered = registry.offered.or(server.options.features_up_front);
    let tasks = modern && registry.tools.values().any(|tool| tool.task_support != TaskSupport::Forbidden);
    drop(registry);
    let list_changed = || Some(ListChangedCapability { list_changed: Some(true), ..Default::default() });
    let mut derived = ServerCapabilities {
        tools: offered.tools.then(list_changed).flatten(),
        resources: offered.resources.then(|| ResourcesCapability {
            subscribe: Some(true),
            list_changed: Some(true),
            ..Default::default()
        }),
        prompts: offered.prompts.then(list_changed).flatten(),
        logging: Some(Default::default()),
        completions: server.completion.read().unwrap().is_some().then(Default::default),
        ..Default::default()
    };
    if tasks {
        derived.extensions = Some([(TASKS_EXTENSION.to_owned(), json!({}))].into_iter().collect());
    }
    derived.merge(&server.capabilities.read().unwrap());
    derived
}
