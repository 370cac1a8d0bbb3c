//! JSON-RPC error objects, and [`ErrorCode`]: every code the engine sends or reads, JSON-RPC's
//! and MCP's, in one place.
//!
//! The codes live here, at the bottom of the stack, because every layer answers with them
//! (the wire parse errors, the engine's timeouts and closed connections, MCP's own);
//! [`crate::protocol`] re-exports the same type as part of its vocabulary. A number has
//! one name: where the official SDKs give one number two meanings, the name is the one
//! they expose and the doc comment says what else it stands for.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::text::RawJson;

/// JSON-RPC 2.0 and MCP error codes.
pub struct ErrorCode;

impl ErrorCode {
    /// The message is not valid JSON (JSON-RPC).
    pub const PARSE_ERROR: i64 = -32700;
    /// The message is not a valid request (JSON-RPC).
    pub const INVALID_REQUEST: i64 = -32600;
    /// No such method (JSON-RPC; 2026-07-28 also for methods it removed).
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Invalid params (JSON-RPC); from 2026-07-28 also "resource not found".
    pub const INVALID_PARAMS: i64 = -32602;
    /// Internal error (JSON-RPC).
    pub const INTERNAL_ERROR: i64 = -32603;
    /// The connection closed before the answer came (the official SDKs'
    /// `ConnectionClosed`). The same number is the generic "server error" with which the
    /// official Streamable HTTP servers refuse a request at the transport level (bad
    /// `Accept`, missing session header, forbidden `Origin`, ...), and ferrymcp's does too.
    pub const CONNECTION_CLOSED: i64 = -32000;
    /// The request timed out (the official SDKs' `RequestTimeout`). The same number is
    /// what the official Streamable HTTP servers answer (with 404) for an unknown
    /// `Mcp-Session-Id`, and ferrymcp's does too.
    pub const REQUEST_TIMEOUT: i64 = -32001;
    /// Resource not found, up to 2025-11-25 (2026-07-28 uses [`Self::INVALID_PARAMS`]).
    pub const RESOURCE_NOT_FOUND: i64 = -32002;
    /// An HTTP header is missing, malformed or disagrees with the body (2026-07-28).
    pub const HEADER_MISMATCH: i64 = -32020;
    /// The request needs a client capability its `_meta` did not declare (2026-07-28).
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
    /// The request's protocol revision is not supported (2026-07-28).
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
    /// URL elicitation is required first (2025-11-25).
    pub const URL_ELICITATION_REQUIRED: i64 = -32042;
    /// The request was cancelled (the code the official SDKs fail a cancelled call with).
    pub const REQUEST_CANCELLED: i64 = -32800;
    /// The codes 2026-07-28 reserves for the specification: -32099 to -32020.
    pub const RESERVED: std::ops::RangeInclusive<i64> = -32099..=-32020;
    /// The transport-level protocol errors of 2026-07-28 (answered with HTTP 400):
    /// header mismatch, missing capability, unsupported version.
    pub const TRANSPORT_PROTOCOL: std::ops::RangeInclusive<i64> = -32022..=-32020;

    /// Every named code with its name, for the bindings to export.
    pub const ALL: [(&'static str, i64); 13] = [
        ("PARSE_ERROR", Self::PARSE_ERROR),
        ("INVALID_REQUEST", Self::INVALID_REQUEST),
        ("METHOD_NOT_FOUND", Self::METHOD_NOT_FOUND),
        ("INVALID_PARAMS", Self::INVALID_PARAMS),
        ("INTERNAL_ERROR", Self::INTERNAL_ERROR),
        ("CONNECTION_CLOSED", Self::CONNECTION_CLOSED),
        ("REQUEST_TIMEOUT", Self::REQUEST_TIMEOUT),
        ("RESOURCE_NOT_FOUND", Self::RESOURCE_NOT_FOUND),
        ("HEADER_MISMATCH", Self::HEADER_MISMATCH),
        ("MISSING_REQUIRED_CLIENT_CAPABILITY", Self::MISSING_REQUIRED_CLIENT_CAPABILITY),
        ("UNSUPPORTED_PROTOCOL_VERSION", Self::UNSUPPORTED_PROTOCOL_VERSION),
        ("URL_ELICITATION_REQUIRED", Self::URL_ELICITATION_REQUIRED),
        ("REQUEST_CANCELLED", Self::REQUEST_CANCELLED),
    ];
}

/// The `error` member of a JSON-RPC error response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorObject {
    pub code: i64,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<RawJson>,
}

impl ErrorObject {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), data: None }
    }

    pub fn with_data(mut self, data: RawJson) -> Self {
        self.data = Some(data);
        self
    }

    /// The same error worded differently (an application's own text for an error whose
    /// code and data the engine chose).
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }

    pub fn parse_error(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::PARSE_ERROR, message)
    }

    pub fn invalid_request(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::INVALID_REQUEST, message)
    }

    pub fn method_not_found(method: &str) -> Self {
        Self::new(ErrorCode::METHOD_NOT_FOUND, format!("Method not found: {method}"))
    }

    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::INVALID_PARAMS, message)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::INTERNAL_ERROR, message)
    }
}

impl fmt::Display for ErrorObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (code {})", self.message, self.code)
    }
}

impl std::error::Error for ErrorObject {}

impl<'de> Deserialize<'de> for RawJson {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Box::<serde_json::value::RawValue>::deserialize(deserializer)?;
        Ok(RawJson::from(raw))
    }
}
