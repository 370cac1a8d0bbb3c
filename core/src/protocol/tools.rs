//! Tools: `tools/list` and `tools/call`.

use super::base::list_result;
use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::wire::RawJson;

use super::base::{JsonObject, ResultType};
use super::content::ContentBlock;
use super::icons::Icon;
use super::meta::{Meta, RequestMeta, ResultMeta};
use super::mrtr::InputResponses;
use super::tasks::TaskMetadata;

/// A tool the server offers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// The name it is called by.
    pub name: String,
    /// A display name (2025-06-18).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of the arguments, an object schema (`"type": "object"`).
    pub input_schema: JsonObject,
    /// JSON Schema of `structuredContent` (2025-06-18). An object schema up to 2025-11-25;
    /// any schema from 2026-07-28.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<JsonObject>,
    /// Behaviour hints (2025-03-26).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Icons (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Task support (2025-11-25 only; later the tasks extension).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<ToolExecution>,
    /// Metadata (2025-06-18).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

impl Tool {
    /// A tool named `name` taking arguments described by `input_schema`.
    pub fn new(name: impl Into<String>, input_schema: JsonObject) -> Self {
        Self { name: name.into(), input_schema, ..Self::default() }
    }
}

/// Hints about a tool's behaviour. Untrusted unless the server is trusted.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not change its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may destroy data (meaningful when not read-only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling it twice with the same arguments has no further effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool talks to an open world of outside entities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// How a tool may be executed (2025-11-25).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolExecution {
    /// Whether the tool may run as a task; `forbidden` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_support: Option<TaskSupport>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// Whether a tool supports task-augmented calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskSupport {
    /// Never as a task.
    Forbidden,
    /// Either way.
    Optional,
    /// Only as a task.
    Required,
}

list_result! {
    /// Result of `tools/list`.
    ListToolsResult {
        /// This page of tools.
        tools: Tool
    }
}

/// Params of `tools/call`.
///
/// `arguments` stays as the raw JSON text it arrived as, so the server can validate it and
/// hand it to a binding without building a DOM. This type therefore has its own
/// `Deserialize`, which reads straight from the JSON parser (a derived one with `extra`
/// would buffer the object first, and raw values cannot be buffered).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolParams {
    /// The tool to call.
    pub name: String,
    /// The arguments, a JSON object; absent when the tool takes none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<RawJson>,
    /// Run as a task (2025-11-25).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskMetadata>,
    /// Answers to the `inputRequests` of an earlier `input_required` result (2026-07-28).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<InputResponses>,
    /// The `requestState` of that result, echoed unchanged (2026-07-28).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
    /// Request metadata.
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

impl CallToolParams {
    /// A call of `name` with `arguments` (a JSON object).
    pub fn new(name: impl Into<String>, arguments: Option<RawJson>) -> Self {
        Self { name: name.into(), arguments, ..Self::default() }
    }
}

impl<'de> Deserialize<'de> for CallToolParams {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ParamsVisitor;
        impl<'de> Visitor<'de> for ParamsVisitor {
            type Value = CallToolParams;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("tools/call params")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CallToolParams, A::Error> {
                let mut params = CallToolParams::default();
                let mut name = None;
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "name" => name = Some(map.next_value()?),
                        "arguments" => params.arguments = map.next_value()?,
                        "task" => params.task = map.next_value()?,
                        "inputResponses" => params.input_responses = map.next_value()?,
                        "requestState" => params.request_state = map.next_value()?,
                        "_meta" => params.meta = map.next_value()?,
                        _ => {
                            let value: Value = map.next_value()?;
                            params.extra.insert(key, value);
                        }
                    }
                }
                params.name = name.ok_or_else(|| de::Error::missing_field("name"))?;
                Ok(params)
            }
        }
        deserializer.deserialize_map(ParamsVisitor)
    }
}

/// Result of `tools/call`. A tool that fails reports it here with `isError: true`, so the
/// model sees the failure; protocol errors are JSON-RPC errors instead.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    /// Unstructured content. Read as empty when a peer leaves it out.
    #[serde(default)]
    pub content: Vec<ContentBlock>,
    /// Structured output matching the tool's `outputSchema` (2025-06-18). An object up to
    /// 2025-11-25; any JSON value from 2026-07-28.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// The tool failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// `"complete"` (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// Result metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

impl CallToolResult {
    /// A successful result with `content`.
    pub fn new(content: Vec<ContentBlock>) -> Self {
        Self { content, ..Self::default() }
    }

    /// A failed result whose text explains the failure to the model.
    pub fn error(message: impl Into<String>) -> Self {
        Self { content: vec![ContentBlock::text(message)], is_error: Some(true), ..Self::default() }
    }
}
