//! `server/discover` (2026-07-28): what a modern server supports, asked without a session.
//! Its params are [`RequestParams`](super::RequestParams) (only `_meta`).

use serde::{Deserialize, Serialize};

use super::base::{CacheScope, JsonObject, ResultType};
use super::capabilities::ServerCapabilities;
use super::meta::ResultMeta;

/// Result of `server/discover`. The server's [`Implementation`](super::Implementation)
/// goes in `_meta` (`io.modelcontextprotocol/serverInfo`), not in the body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscoverResult {
    /// Every revision the server accepts (strings: a client may list ones it does not know).
    pub supported_versions: Vec<String>,
    /// What the server offers.
    pub capabilities: ServerCapabilities,
    /// How to use this server, for the model's context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// `"complete"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// How long the answer stays fresh, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may reuse the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
    /// Result metadata (server info).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}
