//! What each side supports. Legacy peers exchange capabilities once, in `initialize`;
//! modern clients send theirs in every request's `_meta` and servers publish theirs in
//! `server/discover`.
//!
//! Capabilities are an open set: members MCP names are fields, settings objects MCP leaves
//! open are [`JsonObject`]s, and anything else is kept in `extra`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::base::JsonObject;

/// The tasks extension's identifier (SEP-2663), under `capabilities.extensions` on both
/// sides.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// The capabilities of a client.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClientCapabilities {
    /// The client can list roots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roots: Option<RootsCapability>,
    /// The client can sample from an LLM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<SamplingCapability>,
    /// The client can ask its user for input (2025-06-18).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<ElicitationCapability>,
    /// Task-augmented requests (2025-11-25 only; later the tasks extension).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<JsonObject>,
    /// Non-standard capabilities, by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<JsonObject>,
    /// MCP extensions, by identifier (e.g. `io.modelcontextprotocol/ui`) (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<JsonObject>,
    /// Capabilities this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `roots` of [`ClientCapabilities`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RootsCapability {
    /// The client sends `notifications/roots/list_changed` (legacy only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `sampling` of [`ClientCapabilities`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SamplingCapability {
    /// The client honours `includeContext` (2025-11-25; deprecated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<JsonObject>,
    /// The client accepts `tools` and `toolChoice` (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<JsonObject>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `elicitation` of [`ClientCapabilities`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ElicitationCapability {
    /// Form mode (2025-11-25; implied when neither mode is named).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<JsonObject>,
    /// URL mode (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<JsonObject>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

impl ElicitationCapability {
    /// Form mode is supported: declared, or implied by an object naming no mode.
    pub fn supports_form(&self) -> bool {
        self.form.is_some() || self.url.is_none()
    }

    /// URL mode is supported (it is never implied).
    pub fn supports_url(&self) -> bool {
        self.url.is_some()
    }
}

/// The capabilities of a server.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ServerCapabilities {
    /// The server offers tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<ListChangedCapability>,
    /// The server offers resources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourcesCapability>,
    /// The server offers prompts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<ListChangedCapability>,
    /// The server sends log messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logging: Option<JsonObject>,
    /// The server answers `completion/complete` (2025-03-26).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completions: Option<JsonObject>,
    /// Task-augmented requests (2025-11-25 only; later the tasks extension).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<JsonObject>,
    /// Non-standard capabilities, by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<JsonObject>,
    /// MCP extensions, by identifier (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<JsonObject>,
    /// Capabilities this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `tools` or `prompts` of [`ServerCapabilities`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListChangedCapability {
    /// The server sends `notifications/*/list_changed` for this list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `resources` of [`ServerCapabilities`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourcesCapability {
    /// The server accepts subscriptions to single resources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscribe: Option<bool>,
    /// The server sends `notifications/resources/list_changed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

impl ServerCapabilities {
    /// Merges `over` into these capabilities as the official TypeScript SDK's
    /// `registerCapabilities` does: a member `over` names replaces this one, except that two
    /// objects merge one level deep (`{"tools": {"listChanged": false}}` keeps the other
    /// settings of `tools`; `experimental` and `extensions` gain entries).
    pub fn merge(&mut self, over: &ServerCapabilities) {
        let (Ok(Value::Object(mut merged)), Ok(Value::Object(over))) =
            (serde_json::to_value(&*self), serde_json::to_value(over))
        else {
            unreachable!("capabilities serialise to objects")
        };
        for (name, value) in over {
            match (merged.get_mut(&name), value) {
                (Some(Value::Object(base)), Value::Object(members)) => base.extend(members),
                (_, value) => {
                    merged.insert(name, value);
                }
            }
        }
        *self = serde_json::from_value(Value::Object(merged)).expect("merging members of one type keeps the type");
    }

    /// Checks what the schema of every revision requires of an author's capabilities:
    /// each `experimental` and `extensions` entry is an object. The error names the entry.
    pub fn check(&self) -> Result<(), String> {
        for (member, entries) in [("experimental", &self.experimental), ("extensions", &self.extensions)] {
            for (name, value) in entries.iter().flatten() {
                if !value.is_object() {
                    return Err(format!("capabilities.{member}[{name:?}] must be an object, not {value}"));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::ServerCapabilities;

    fn caps(value: serde_json::Value) -> ServerCapabilities {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn merging_replaces_members_and_merges_objects_one_level() {
        let base = json!({"tools": {"listChanged": true}, "resources": {"subscribe": true, "listChanged": true},
            "experimental": {"a": {"x": 1}}, "custom": {"k": 1}});
        let over = json!({"resources": {"listChanged": false}, "experimental": {"b": {}},
            "extensions": {"com.example/ext": {"v": 2}}, "custom": {"j": 2}, "other": true});
        let mut merged = caps(base);
        merged.merge(&caps(over));
        let expected = json!({"tools": {"listChanged": true}, "resources": {"subscribe": true, "listChanged": false},
            "experimental": {"a": {"x": 1}, "b": {}}, "extensions": {"com.example/ext": {"v": 2}},
            "custom": {"k": 1, "j": 2}, "other": true});
        assert_eq!(serde_json::to_value(&merged).unwrap(), expected);
    }

    #[test]
    fn entries_that_are_not_objects_are_named() {
        assert!(caps(json!({"experimental": {"a": {}}, "extensions": {"b/c": {}}})).check().is_ok());
        let error = caps(json!({"extensions": {"com.example/x": true}})).check().unwrap_err();
        assert!(error.contains("capabilities.extensions[\"com.example/x\"]"), "{error}");
    }
}
