//! Multi-round-trip requests (MRTR, 2026-07-28): instead of sending requests to the client,
//! a modern server answers `tools/call`, `prompts/get` or `resources/read` with an
//! [`InputRequiredResult`]; the client retries the request (new id) with `inputResponses`
//! and the unchanged `requestState`.
//!
//! An input request is a bare `{method, params}` object, so it reuses the typed
//! [`Request`](super::Request) with no `jsonrpc` or `id`.

use indexmap::IndexMap;

use serde::{Deserialize, Serialize};

use super::base::{JsonObject, RequestParams};
use super::elicitation::{ElicitParams, ElicitResult};
use super::meta::{RequestMeta, ResultMeta};
use super::methods::{CreateMessageRequest, ElicitRequest, ListRootsRequest};
use super::roots::ListRootsResult;
use super::sampling::{CreateMessageParams, CreateMessageResult};
use super::tags::InputRequiredTag;

/// Input requests by key; the client answers each under the same key.
pub type InputRequests = IndexMap<String, InputRequest>;

/// Answers by key, as the bare client results.
pub type InputResponses = IndexMap<String, InputResponse>;

/// One thing the server needs from the client. Told apart by `method`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum InputRequest {
    /// `sampling/createMessage` (needs the client's `sampling` capability).
    Sampling(CreateMessageRequest),
    /// `roots/list` (needs `roots`).
    ListRoots(ListRootsRequest),
    /// `elicitation/create` (needs `elicitation`).
    Elicitation(ElicitRequest),
}

impl InputRequest {
    /// Ask the client's LLM.
    pub fn sampling(params: CreateMessageParams) -> Self {
        Self::Sampling(CreateMessageRequest::bare(params))
    }

    /// Ask for the client's roots.
    pub fn list_roots() -> Self {
        Self::ListRoots(ListRootsRequest::bare(RequestParams::default()))
    }

    /// Ask the user.
    pub fn elicitation(params: ElicitParams) -> Self {
        Self::Elicitation(ElicitRequest::bare(params))
    }

    /// The method asked for.
    pub fn method(&self) -> &'static str {
        match self {
            Self::Sampling(request) => request.method(),
            Self::ListRoots(request) => request.method(),
            Self::Elicitation(request) => request.method(),
        }
    }
}

/// One answer from the client: the result of the corresponding [`InputRequest`]. Told
/// apart by their required members (`model`, `roots`, `action`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[allow(clippy::large_enum_variant)] // built once per retry; boxing would only cost callers
pub enum InputResponse {
    /// The sampled message.
    Sampling(CreateMessageResult),
    /// The roots.
    ListRoots(ListRootsResult),
    /// The user's answer.
    Elicitation(ElicitResult),
}

/// `{"resultType": "input_required", ...}`: the request needs input from the client
/// before it can complete. It must carry `inputRequests`, `requestState` or both, and is
/// never cached.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InputRequiredResult {
    /// `"input_required"`.
    pub result_type: InputRequiredTag,
    /// What the server needs, by key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_requests: Option<InputRequests>,
    /// Opaque state the client echoes on the retry. Integrity-protecting it is the
    /// server's job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
    /// Result metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<ResultMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// The result of a method that may need input: `tools/call`, `prompts/get`,
/// `resources/read`. Read by `resultType`: `"input_required"` gives
/// [`MaybeInputRequired::InputRequired`], anything else (or nothing) `Complete`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[allow(clippy::large_enum_variant)] // the complete results are as large
pub enum MaybeInputRequired<T> {
    /// The server needs input first.
    InputRequired(InputRequiredResult),
    /// The request is answered.
    Complete(T),
}

/// The MRTR members of a retried request's params (`InputResponseRequestParams`), for a
/// layer that handles them the same way for every method. Other members land in `extra`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InputResponseParams {
    /// The answers, by key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<InputResponses>,
    /// The echoed state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// Every other member of the params.
    #[serde(flatten)]
    pub extra: JsonObject,
}
