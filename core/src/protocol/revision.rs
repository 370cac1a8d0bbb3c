//! The revisions of MCP that ferrymcp speaks, and what each one allows.
//!
//! The feature predicates answer "may this be sent or expected under that revision?". They
//! encode the specification's changelog, not a policy: the server and client layers decide
//! what to do with the answer.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::wire::ErrorCode;

/// One MCP revision. Variants are in chronological order, so `<` means "older than".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProtocolVersion {
    /// The first revision: initialize handshake, stdio and HTTP+SSE.
    V2024_11_05,
    /// Streamable HTTP, batches, audio, tool annotations, completions capability.
    V2025_03_26,
    /// No batches, structured tool output, form elicitation, resource links, titles.
    V2025_06_18,
    /// JSON Schema 2020-12, icons, URL elicitation, tools in sampling, tasks.
    V2025_11_25,
    /// The modern, stateless era: no initialize, `_meta` on every request, MRTR.
    V2026_07_28,
}

/// The revision string did not name a revision ferrymcp knows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown MCP protocol version {0:?}")]
pub struct UnknownProtocolVersion(pub String);

impl ProtocolVersion {
    /// Every revision, oldest first.
    pub const ALL: [ProtocolVersion; 5] =
        [Self::V2024_11_05, Self::V2025_03_26, Self::V2025_06_18, Self::V2025_11_25, Self::V2026_07_28];
    /// The revisions negotiated with `initialize`, oldest first.
    pub const LEGACY: [ProtocolVersion; 4] =
        [Self::V2024_11_05, Self::V2025_03_26, Self::V2025_06_18, Self::V2025_11_25];
    /// The stateless revisions (`_meta` on every request), oldest first.
    pub const MODERN: [ProtocolVersion; 1] = [Self::V2026_07_28];
    /// The newest revision that uses `initialize` and sessions.
    pub const LATEST_LEGACY: ProtocolVersion = Self::V2025_11_25;
    /// The newest revision.
    pub const LATEST: ProtocolVersion = Self::V2026_07_28;
    /// The revision assumed for an HTTP request that names none (no `MCP-Protocol-Version`
    /// header), as the specification says.
    pub const DEFAULT_NEGOTIATED: ProtocolVersion = Self::V2025_03_26;

    /// The revision as it appears on the wire, e.g. `"2025-06-18"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::V2024_11_05 => "2024-11-05",
            Self::V2025_03_26 => "2025-03-26",
            Self::V2025_06_18 => "2025-06-18",
            Self::V2025_11_25 => "2025-11-25",
            Self::V2026_07_28 => "2026-07-28",
        }
    }

    /// The wire strings of `versions`, e.g. for `supportedVersions`.
    pub fn strings(versions: &[ProtocolVersion]) -> Vec<&'static str> {
        versions.iter().map(|v| v.as_str()).collect()
    }

    /// The revision named by `text`, if ferrymcp knows it.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == text)
    }

    /// True for the stateless era (2026-07-28 and later): `_meta` on every request, no
    /// `initialize`, no sessions, no server-to-client requests.
    pub const fn is_modern(self) -> bool {
        matches!(self, Self::V2026_07_28)
    }

    /// True for the revisions negotiated with `initialize`.
    pub const fn is_legacy(self) -> bool {
        !self.is_modern()
    }

    const fn at_least(self, other: Self) -> bool {
        self as u8 >= other as u8
    }

    /// JSON-RPC batches (arrays) may be sent and must be accepted: 2025-03-26 only.
    pub const fn allows_batches(self) -> bool {
        matches!(self, Self::V2025_03_26)
    }

    /// `initialize`, `notifications/initialized`, `ping` and sessions exist.
    pub const fn has_initialize(self) -> bool {
        self.is_legacy()
    }

    /// The server may send requests to the client (sampling, elicitation, roots).
    pub const fn has_server_requests(self) -> bool {
        self.is_legacy()
    }

    /// `logging/setLevel` exists (modern requests carry a log level in `_meta` instead).
    pub const fn has_set_level(self) -> bool {
        self.is_legacy()
    }

    /// `resources/subscribe` and `resources/unsubscribe` exist (modern: `subscriptions/listen`).
    pub const fn has_resource_subscribe(self) -> bool {
        self.is_legacy()
    }

    /// Audio content blocks (>= 2025-03-26).
    pub const fn has_audio_content(self) -> bool {
        self.at_least(Self::V2025_03_26)
    }

    /// Tool annotations (read-only, destructive, idempotent, open-world hints; >= 2025-03-26).
    pub const fn has_tool_annotations(self) -> bool {
        self.at_least(Self::V2025_03_26)
    }

    /// The `completions` server capability (>= 2025-03-26).
    pub const fn has_completions_capability(self) -> bool {
        self.at_least(Self::V2025_03_26)
    }

    /// `message` in progress notifications (>= 2025-03-26).
    pub const fn has_progress_message(self) -> bool {
        self.at_least(Self::V2025_03_26)
    }

    /// `outputSchema` on tools and `structuredContent` in results (>= 2025-06-18).
    pub const fn has_structured_output(self) -> bool {
        self.at_least(Self::V2025_06_18)
    }

    /// `elicitation/create` in form mode (>= 2025-06-18).
    pub const fn has_elicitation(self) -> bool {
        self.at_least(Self::V2025_06_18)
    }

    /// `resource_link` content blocks (>= 2025-06-18).
    pub const fn has_resource_links(self) -> bool {
        self.at_least(Self::V2025_06_18)
    }

    /// `title` on tools, resources, prompts and implementations (>= 2025-06-18).
    pub const fn has_titles(self) -> bool {
        self.at_least(Self::V2025_06_18)
    }

    /// `context` in `completion/complete` (>= 2025-06-18).
    pub const fn has_completion_context(self) -> bool {
        self.at_least(Self::V2025_06_18)
    }

    /// The `MCP-Protocol-Version` HTTP header on every request (>= 2025-06-18).
    pub const fn has_protocol_version_header(self) -> bool {
        self.at_least(Self::V2025_06_18)
    }

    /// URL-mode elicitation (>= 2025-11-25).
    pub const fn has_url_elicitation(self) -> bool {
        self.at_least(Self::V2025_11_25)
    }

    /// `icons` on tools, resources, prompts and implementations (>= 2025-11-25).
    pub const fn has_icons(self) -> bool {
        self.at_least(Self::V2025_11_25)
    }

    /// `tools` and `toolChoice` in sampling, and tool use / tool result content (>= 2025-11-25).
    pub const fn has_sampling_tools(self) -> bool {
        self.at_least(Self::V2025_11_25)
    }

    /// Schemas without `$schema` default to JSON Schema 2020-12 (>= 2025-11-25).
    pub const fn defaults_to_json_schema_2020_12(self) -> bool {
        self.at_least(Self::V2025_11_25)
    }

    /// Tasks as part of the core protocol (2025-11-25 only; later an extension).
    pub const fn has_core_tasks(self) -> bool {
        matches!(self, Self::V2025_11_25)
    }

    /// The SSE priming event and `retry` on Streamable HTTP streams, so a server may close
    /// a stream for the client to resume (>= 2025-11-25).
    pub const fn has_sse_priming(self) -> bool {
        self.at_least(Self::V2025_11_25)
    }

    /// `resultType` on every result (modern).
    pub const fn has_result_type(self) -> bool {
        self.is_modern()
    }

    /// `ttlMs` and `cacheScope` on list results, `resources/read` and `server/discover` (modern).
    pub const fn has_cache_hints(self) -> bool {
        self.is_modern()
    }

    /// `input_required` results with `inputRequests`, answered by retry (modern).
    pub const fn has_mrtr(self) -> bool {
        self.is_modern()
    }

    /// `server/discover` and `subscriptions/listen` (modern).
    pub const fn has_discover(self) -> bool {
        self.is_modern()
    }

    /// The JSON-RPC error code for "resource not found": -32002 before 2026, -32602 from 2026.
    pub const fn resource_not_found_code(self) -> i64 {
        if self.is_modern() { ErrorCode::INVALID_PARAMS } else { ErrorCode::RESOURCE_NOT_FOUND }
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ProtocolVersion {
    type Err = UnknownProtocolVersion;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse(text).ok_or_else(|| UnknownProtocolVersion(text.to_owned()))
    }
}

impl Serialize for ProtocolVersion {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ProtocolVersion {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_round_trip_and_order_is_chronological() {
        for v in ProtocolVersion::ALL {
            assert_eq!(ProtocolVersion::parse(v.as_str()), Some(v));
        }
        assert!(ProtocolVersion::ALL.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(ProtocolVersion::parse("v999.0.0"), None);
        assert!(ProtocolVersion::LATEST.is_modern() && ProtocolVersion::LATEST_LEGACY.is_legacy());
    }

    #[test]
    fn feature_boundaries() {
        use ProtocolVersion::*;
        assert!(V2025_03_26.allows_batches() && !V2025_06_18.allows_batches() && !V2024_11_05.allows_batches());
        assert!(!V2025_03_26.has_structured_output() && V2025_06_18.has_structured_output());
        assert!(!V2025_06_18.has_url_elicitation() && V2025_11_25.has_url_elicitation());
        assert_eq!(V2025_11_25.resource_not_found_code(), -32002);
        assert_eq!(V2026_07_28.resource_not_found_code(), -32602);
    }
}
