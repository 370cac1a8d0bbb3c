//! Shapes every request, notification and result builds on: params that carry only
//! `_meta`, pagination, `resultType`, cache hints and the empty result.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::meta::{NotificationMeta, RequestMeta, ResultMeta};

/// A JSON object: the members MCP leaves open (schemas, structured content, settings).
pub type JsonObject = Map<String, Value>;

/// An opaque pagination position; only the server that issued it can interpret it.
pub type Cursor = String;

/// Declares the result of a paginated `*/list`: its page of items plus the members every
/// such result shares (the cursor, the 2026-07-28 `resultType` and cache hints, `_meta`,
/// and unknown members kept as they came).
macro_rules! list_result {
    ($(#[$doc:meta])* $name:ident { $(#[$items_doc:meta])* $items:ident: $item:ty }) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            $(#[$items_doc])*
            pub $items: Vec<$item>,
            /// Where the next page starts; absent on the last page.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub next_cursor: Option<$crate::protocol::Cursor>,
            /// `"complete"` (2026-07-28).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub result_type: Option<$crate::protocol::ResultType>,
            /// How long the page stays fresh, in milliseconds (2026-07-28).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub ttl_ms: Option<u64>,
            /// Who may reuse the page (2026-07-28).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub cache_scope: Option<$crate::protocol::CacheScope>,
            /// Result metadata.
            #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
            pub meta: Option<$crate::protocol::ResultMeta>,
            /// Members this revision does not define, kept as they came.
            #[serde(flatten)]
            pub extra: $crate::protocol::JsonObject,
        }
    };
}
pub(crate) use list_result;

/// Params of a request that carries nothing but `_meta` (`ping`, `server/discover`,
/// `roots/list`, ...). Modern requests must have the `_meta`; legacy ones may omit it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RequestParams {
    /// Per-request metadata (protocol version, client capabilities, progress token...).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// Params of a notification that carries nothing but `_meta` (the list-changed ones,
/// `notifications/initialized`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NotificationParams {
    /// Notification metadata; on a modern listen stream it holds the subscription id.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<NotificationMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// Params of the list requests (`tools/list`, `resources/list`, ...).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PaginatedParams {
    /// Where to continue: the `nextCursor` of the previous page. Absent for the first page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<Cursor>,
    /// Per-request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// What kind of result this is (`resultType`, 2026-07-28). A result without it comes from
/// a legacy server and counts as [`ResultType::Complete`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum ResultType {
    /// `"complete"`: the request is answered.
    #[default]
    Complete,
    /// `"input_required"`: the server needs input from the client, see
    /// [`InputRequiredResult`](super::InputRequiredResult).
    InputRequired,
    /// A value defined by an extension.
    Other(String),
}

impl ResultType {
    /// The wire string.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Complete => "complete",
            Self::InputRequired => "input_required",
            Self::Other(other) => other,
        }
    }
}

impl fmt::Display for ResultType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ResultType {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ResultType {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Ok(match text.as_str() {
            "complete" => Self::Complete,
            "input_required" => Self::InputRequired,
            _ => Self::Other(text),
        })
    }
}

/// Who may reuse a cached result (`cacheScope`, 2026-07-28).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// Any client of this server may reuse it (user-independent lists).
    Public,
    /// Only the principal that received it (per-user reads).
    Private,
}

/// A result with no members of its own: `ping`, `logging/setLevel`, `resources/subscribe`.
/// Legacy servers answer exactly `{}`; modern ones add `resultType`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmptyResult {
    /// `"complete"` on modern results; absent on legacy ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Result metadata (server info on modern results).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}
