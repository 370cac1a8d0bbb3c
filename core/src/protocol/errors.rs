//! MCP's error codes beyond JSON-RPC's, the shapes of their `data`, and constructors for
//! the error objects.
//!
//! Which code to use under which revision is the server's decision; the one rule that is
//! pure data, the resource-not-found code, is
//! [`ProtocolVersion::resource_not_found_code`].

use serde::{Deserialize, Serialize};

use crate::wire::{ErrorObject, RawJson};

use super::base::JsonObject;
use super::capabilities::ClientCapabilities;
use super::elicitation::ElicitUrlParams;
use super::revision::ProtocolVersion;

/// MCP error codes. JSON-RPC's own are [`crate::wire::ErrorCode`].
pub struct McpErrorCode;

impl McpErrorCode {
    /// Resource not found, up to 2025-11-25 (2026-07-28 uses -32602).
    pub const RESOURCE_NOT_FOUND: i64 = -32002;
    /// An HTTP header is missing, malformed or disagrees with the body (2026-07-28).
    pub const HEADER_MISMATCH: i64 = -32020;
    /// The request needs a client capability its `_meta` did not declare (2026-07-28).
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
    /// The request's protocol revision is not supported (2026-07-28).
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
    /// URL elicitation is required first (2025-11-25 only).
    pub const URL_ELICITATION_REQUIRED: i64 = -32042;
    /// The codes 2026-07-28 reserves for the specification: -32099 to -32020.
    pub const RESERVED: std::ops::RangeInclusive<i64> = -32099..=-32020;
}

/// `data` of -32022.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UnsupportedProtocolVersionData {
    /// The revisions the server supports; the client retries with one of them.
    pub supported: Vec<String>,
    /// The revision the client asked for.
    pub requested: String,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `data` of -32021.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissingRequiredClientCapabilityData {
    /// The capabilities the request needs, e.g. `{"sampling": {}}`.
    pub required_capabilities: ClientCapabilities,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `data` of a resource-not-found error (either code).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ResourceNotFoundData {
    /// The URI that was asked for.
    pub uri: String,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `data` of -32042 (2025-11-25).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UrlElicitationRequiredData {
    /// The URL elicitations the user must complete.
    pub elicitations: Vec<ElicitUrlParams>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

fn with_data<T: Serialize>(error: ErrorObject, data: &T) -> ErrorObject {
    match RawJson::to_json(data) {
        Ok(data) => error.with_data(data),
        Err(_) => error,
    }
}

/// -32020: a header is missing, malformed or disagrees with the body.
pub fn header_mismatch(message: impl Into<String>) -> ErrorObject {
    ErrorObject::new(McpErrorCode::HEADER_MISMATCH, message)
}

/// -32021 with the capabilities the request needs.
pub fn missing_required_client_capability(required: ClientCapabilities) -> ErrorObject {
    let data = MissingRequiredClientCapabilityData { required_capabilities: required, extra: JsonObject::new() };
    with_data(
        ErrorObject::new(McpErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY, "Missing required client capability"),
        &data,
    )
}

/// -32022 naming the requested revision and the supported ones.
pub fn unsupported_protocol_version(requested: &str, supported: &[ProtocolVersion]) -> ErrorObject {
    let data = UnsupportedProtocolVersionData {
        supported: supported.iter().map(|v| v.as_str().to_owned()).collect(),
        requested: requested.to_owned(),
        extra: JsonObject::new(),
    };
    with_data(ErrorObject::new(McpErrorCode::UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version"), &data)
}

/// Resource not found, with the code `version` uses and `data: {uri}`.
pub fn resource_not_found(version: ProtocolVersion, uri: &str) -> ErrorObject {
    let data = ResourceNotFoundData { uri: uri.to_owned(), extra: JsonObject::new() };
    with_data(ErrorObject::new(version.resource_not_found_code(), format!("Resource not found: {uri}")), &data)
}
