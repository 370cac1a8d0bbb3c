//! The shapes of the `data` of MCP's errors, and constructors for the error objects. The
//! codes themselves are [`ErrorCode`] (one type for JSON-RPC's and MCP's).
//!
//! Which code to use under which revision is the server's decision; the one rule that is
//! pure data, the resource-not-found code, is
//! [`ProtocolVersion::resource_not_found_code`].

use serde::{Deserialize, Serialize};

pub use crate::wire::ErrorCode;
use crate::wire::{ErrorObject, RawJson};

use super::base::JsonObject;
use super::capabilities::ClientCapabilities;
use super::elicitation::ElicitUrlParams;
use super::revision::ProtocolVersion;

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
    ErrorObject::new(ErrorCode::HEADER_MISMATCH, message)
}

/// -32021 with the capabilities the request needs.
pub fn missing_required_client_capability(required: ClientCapabilities) -> ErrorObject {
    let data = MissingRequiredClientCapabilityData { required_capabilities: required, extra: JsonObject::new() };
    with_data(
        ErrorObject::new(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY, "Missing required client capability"),
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
    with_data(ErrorObject::new(ErrorCode::UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version"), &data)
}

/// Resource not found, with the code `version` uses and `data: {uri}`.
pub fn resource_not_found(version: ProtocolVersion, uri: &str) -> ErrorObject {
    let data = ResourceNotFoundData { uri: uri.to_owned(), extra: JsonObject::new() };
    with_data(ErrorObject::new(version.resource_not_found_code(), format!("Resource not found: {uri}")), &data)
}
