//! Prompts: `prompts/list` and `prompts/get`.

use super::base::list_result;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::base::{JsonObject, ResultType};
use super::content::{ContentBlock, Role};
use super::icons::Icon;
use super::meta::{Meta, RequestMeta, ResultMeta};
use super::mrtr::InputResponses;

/// A prompt template the server offers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Prompt {
    /// Its programmatic name.
    pub name: String,
    /// A display name (2025-06-18).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The arguments it takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Vec<PromptArgument>>,
    /// Icons (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Metadata (2025-06-18).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// One argument of a [`Prompt`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromptArgument {
    /// Its name.
    pub name: String,
    /// A display name (2025-06-18).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// It must be given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

list_result! {
    /// Result of `prompts/list`.
    ListPromptsResult {
        /// This page of prompts.
        prompts: Prompt
    }
}

/// Params of `prompts/get`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetPromptParams {
    /// The prompt.
    pub name: String,
    /// Argument values, all strings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<BTreeMap<String, String>>,
    /// Answers to an earlier `input_required` result (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<InputResponses>,
    /// The `requestState` of that result, echoed unchanged (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// Result of `prompts/get`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetPromptResult {
    /// What the filled-in prompt is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
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

/// One message of a prompt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PromptMessage {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: ContentBlock,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

impl PromptMessage {
    /// A message from `role` with `content`.
    pub fn new(role: Role, content: ContentBlock) -> Self {
        Self { role, content, extra: JsonObject::new() }
    }
}
