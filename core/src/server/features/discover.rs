//! The 2026-07-28 `server/discover` result: the supported versions, the capabilities (from
//! [`crate::server::capabilities`], as `initialize` declares them, with what only the
//! modern era has) and the instructions.

use serde_json::{Value, json};

use crate::protocol::ProtocolVersion;
use crate::server::ServerShared;
use crate::server::capabilities::capabilities;

pub(crate) fn discover(server: &ServerShared) -> Value {
    let mut result = json!({
        "supportedVersions": ProtocolVersion::strings(&ProtocolVersion::MODERN),
        "capabilities": capabilities(server, true),
    });
    if let Some(instructions) = &server.instructions {
        result["instructions"] = json!(instructions);
    }
    result
}
