//! What the server declares about itself: the capabilities `initialize` answers, and the
//! 2026-07-28 `server/discover` result (versions, capabilities with the tasks extension
//! when a tool supports tasks, instructions).

use serde_json::{Value, json};

use crate::protocol::ProtocolVersion;
use crate::server::ServerShared;
use crate::server::tasks::{self, TaskSupport};

pub(crate) fn capabilities(server: &ServerShared) -> Value {
    let mut caps = json!({
        "tools": {"listChanged": true},
        "resources": {"subscribe": true, "listChanged": true},
        "prompts": {"listChanged": true},
        "logging": {},
    });
    if server.completion.read().unwrap().is_some() {
        caps["completions"] = json!({});
    }
    caps
}

/// The 2026-07-28 capabilities: the legacy ones, and the tasks extension once a tool
/// supports tasks (the extension does not exist before 2026-07-28).
pub(crate) fn discover(server: &ServerShared) -> Value {
    let mut caps = capabilities(server);
    let registry = server.registry.read().unwrap();
    if registry.tools.values().any(|tool| tool.task_support != TaskSupport::Forbidden) {
        caps["extensions"] = json!({ tasks::EXTENSION: {} });
    }
    drop(registry);
    let mut result =
        json!({"supportedVersions": ProtocolVersion::strings(&ProtocolVersion::MODERN), "capabilities": caps});
    if let Some(instructions) = &server.instructions {
        result["instructions"] = json!(instructions);
    }
    result
}
