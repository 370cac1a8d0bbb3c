//! `_meta`: the metadata object on params, results, notifications and most entities.
//!
//! The keys MCP reserves are constants here; the typed views ([`RequestMeta`],
//! [`ResultMeta`], [`NotificationMeta`]) name them as fields and keep every other key in
//! `extra`, so metadata another party added is passed on untouched.

use serde::{Deserialize, Serialize};

use crate::wire::RequestId;

use super::base::JsonObject;
use super::capabilities::ClientCapabilities;
use super::lifecycle::Implementation;
use super::logging::LoggingLevel;
use super::utilities::ProgressToken;

/// A `_meta` object with no members MCP interprets (on tools, resources, content...).
pub type Meta = JsonObject;

/// The prefix of the `_meta` keys MCP itself defines; a request whose `_meta` carries one
/// is a 2026-07-28 request.
pub const MCP_PREFIX: &str = "io.modelcontextprotocol/";
/// `_meta` key: the request's protocol revision (modern requests, required).
pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key: the client's capabilities for this request (modern requests, required).
pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key: the client's [`Implementation`] (modern requests, should be present).
pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key: the lowest log level the client wants for this request (modern, optional).
pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// `_meta` key: the server's [`Implementation`] (modern results, should be present).
pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// `_meta` key: the `subscriptions/listen` request id a notification belongs to (modern).
pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
/// `_meta` key: the task a message relates to (tasks, 2025-11-25 and the tasks extension).
pub const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";
/// `_meta` key: the token progress notifications for this request will carry.
pub const PROGRESS_TOKEN: &str = "progressToken";
/// `_meta` keys reserved for W3C trace context propagation.
pub const TRACE_CONTEXT: [&str; 3] = ["traceparent", "tracestate", "baggage"];

/// True if `key` is reserved for MCP: its prefix's second label is `modelcontextprotocol`
/// or `mcp` (`io.modelcontextprotocol/x`, `dev.mcp/x`), or it is a trace-context key.
pub fn is_reserved_key(key: &str) -> bool {
    if TRACE_CONTEXT.contains(&key) {
        return true;
    }
    let Some((prefix, _)) = key.split_once('/') else { return false };
    matches!(prefix.split('.').nth(1), Some("modelcontextprotocol" | "mcp"))
}

/// `_meta` of request params. Every field is optional here: a modern request must carry
/// the protocol version and client capabilities, and checking that is the server's job
/// (it answers -32602 when they are missing).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestMeta {
    /// Asks for `notifications/progress` carrying this token.
    #[serde(rename = "progressToken", default, skip_serializing_if = "Option::is_none")]
    pub progress_token: Option<ProgressToken>,
    /// The revision of this request (modern). A string, because an unknown revision must
    /// still be read to be refused with -32022.
    #[serde(rename = "io.modelcontextprotocol/protocolVersion", default, skip_serializing_if = "Option::is_none")]
    pub protocol_version: Option<String>,
    /// The client's capabilities for this request (modern).
    #[serde(rename = "io.modelcontextprotocol/clientCapabilities", default, skip_serializing_if = "Option::is_none")]
    pub client_capabilities: Option<ClientCapabilities>,
    /// The client software (modern).
    #[serde(rename = "io.modelcontextprotocol/clientInfo", default, skip_serializing_if = "Option::is_none")]
    pub client_info: Option<Implementation>,
    /// Log messages at or above this level may accompany the response (modern).
    #[serde(rename = "io.modelcontextprotocol/logLevel", default, skip_serializing_if = "Option::is_none")]
    pub log_level: Option<LoggingLevel>,
    /// Every other key, kept as it came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `_meta` of results.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ResultMeta {
    /// The server software (modern results should carry it).
    #[serde(rename = "io.modelcontextprotocol/serverInfo", default, skip_serializing_if = "Option::is_none")]
    pub server_info: Option<Implementation>,
    /// Every other key, kept as it came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `_meta` of notifications.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NotificationMeta {
    /// On a modern `subscriptions/listen` stream: the id of the listen request, with the
    /// same JSON type.
    #[serde(rename = "io.modelcontextprotocol/subscriptionId", default, skip_serializing_if = "Option::is_none")]
    pub subscription_id: Option<RequestId>,
    /// Every other key, kept as it came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_prefixes() {
        assert!(is_reserved_key(PROTOCOL_VERSION));
        assert!(is_reserved_key("dev.mcp/x"));
        assert!(is_reserved_key("org.modelcontextprotocol.api/x"));
        assert!(is_reserved_key("traceparent"));
        assert!(!is_reserved_key("com.example.mcp/x"));
        assert!(!is_reserved_key("progressToken"));
    }
}
