//! The protocol's constants, read from core for the TypeScript layer: revisions, error
//! codes, log levels and `_meta` keys.
//!
//! The TypeScript `ErrorCode` enum and the version constants are built from this, so they
//! cannot drift from what the engine sends and checks. One call returns all of them as
//! one object (read once at load), typed field by field in the generated declarations.

use ferrymcp_core::framing::DEFAULT_MAX_FRAME;
use ferrymcp_core::peer::PeerConfig;
use ferrymcp_core::protocol::{ErrorCode, LoggingLevel, ProtocolVersion, meta};
use ferrymcp_core::server::MIN_STATE_KEY_LEN;
use ferrymcp_core::server::http::{BODY_TOO_LARGE_TEMPLATE, HttpOptions};
use ferrymcp_core::wire::MAX_BATCH_SIZE;
use napi_derive::napi;

/// Every JSON-RPC and MCP error code the engine uses, by the official SDK's names.
#[napi(object)]
pub struct ErrorCodes {
    pub parse_error: i64,
    pub invalid_request: i64,
    pub method_not_found: i64,
    pub invalid_params: i64,
    pub internal_error: i64,
    pub connection_closed: i64,
    pub request_timeout: i64,
    pub resource_not_found: i64,
    pub header_mismatch: i64,
    pub missing_required_client_capability: i64,
    pub unsupported_protocol_version: i64,
    pub url_elicitation_required: i64,
    pub request_cancelled: i64,
}

/// The `_meta` keys MCP reserves.
#[napi(object)]
pub struct MetaKeys {
    pub protocol_version: String,
    pub client_capabilities: String,
    pub client_info: String,
    pub log_level: String,
    pub server_info: String,
    pub subscription_id: String,
    pub related_task: String,
}

/// The engine's defaults that the official SDK exports as constants, as core has them.
#[napi(object)]
pub struct Defaults {
    /// How long a request waits for its answer unless told otherwise.
    pub request_timeout_ms: f64,
    /// The largest HTTP request body the endpoint reads.
    pub max_request_body_size: f64,
    /// The longest stdio message (one line) the engine reads.
    pub stdio_max_message_size: f64,
    /// The shortest request-state sealing key core accepts, in bytes.
    pub min_state_key_len: f64,
    /// The most messages one JSON-RPC batch may hold (a longer one is refused whole).
    pub max_batch_size: f64,
    /// How often an idle SSE stream of the HTTP endpoint carries a keep-alive comment.
    pub sse_keep_alive_ms: f64,
}

#[napi(object)]
pub struct Vocabulary {
    /// Every revision the engine speaks, oldest first.
    pub protocol_versions: Vec<String>,
    /// The newest revision negotiated with `initialize`.
    pub latest_protocol_version: String,
    /// The newest (stateless) revision.
    pub modern_protocol_version: String,
    /// The revision assumed when an HTTP request names none.
    pub default_negotiated_version: String,
    pub error_codes: ErrorCodes,
    /// The log levels, least severe first.
    pub log_levels: Vec<String>,
    pub meta_keys: MetaKeys,
    /// The W3C trace-context keys `_meta` may carry (`traceparent`, `tracestate`, `baggage`).
    pub trace_context_keys: Vec<String>,
    pub defaults: Defaults,
    /// The message of the 413 that answers an HTTP request body over the limit, with
    /// `{limit}` where the limit (in bytes) goes.
    pub body_too_large_template: String,
}

/// The protocol's constants, from core.
#[napi]
pub fn vocabulary() -> Vocabulary {
    Vocabulary {
        protocol_versions: ProtocolVersion::ALL.iter().map(|v| v.as_str().to_owned()).collect(),
        latest_protocol_version: ProtocolVersion::LATEST_LEGACY.as_str().to_owned(),
        modern_protocol_version: ProtocolVersion::LATEST.as_str().to_owned(),
        default_negotiated_version: ProtocolVersion::DEFAULT_NEGOTIATED.as_str().to_owned(),
        error_codes: ErrorCodes {
            parse_error: ErrorCode::PARSE_ERROR,
            invalid_request: ErrorCode::INVALID_REQUEST,
            method_not_found: ErrorCode::METHOD_NOT_FOUND,
            invalid_params: ErrorCode::INVALID_PARAMS,
            internal_error: ErrorCode::INTERNAL_ERROR,
            connection_closed: ErrorCode::CONNECTION_CLOSED,
            request_timeout: ErrorCode::REQUEST_TIMEOUT,
            resource_not_found: ErrorCode::RESOURCE_NOT_FOUND,
            header_mismatch: ErrorCode::HEADER_MISMATCH,
            missing_required_client_capability: ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
            unsupported_protocol_version: ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
            url_elicitation_required: ErrorCode::URL_ELICITATION_REQUIRED,
            request_cancelled: ErrorCode::REQUEST_CANCELLED,
        },
        log_levels: LoggingLevel::ALL.iter().map(|l| l.as_str().to_owned()).collect(),
        meta_keys: MetaKeys {
            protocol_version: meta::PROTOCOL_VERSION.into(),
            client_capabilities: meta::CLIENT_CAPABILITIES.into(),
            client_info: meta::CLIENT_INFO.into(),
            log_level: meta::LOG_LEVEL.into(),
            server_info: meta::SERVER_INFO.into(),
            subscription_id: meta::SUBSCRIPTION_ID.into(),
            related_task: meta::RELATED_TASK.into(),
        },
        trace_context_keys: meta::TRACE_CONTEXT.iter().map(|key| (*key).to_owned()).collect(),
        defaults: Defaults {
            request_timeout_ms: PeerConfig::default().request_timeout.as_millis() as f64,
            max_request_body_size: HttpOptions::default().max_body as f64,
            stdio_max_message_size: DEFAULT_MAX_FRAME as f64,
            min_state_key_len: MIN_STATE_KEY_LEN as f64,
            max_batch_size: MAX_BATCH_SIZE as f64,
            sse_keep_alive_ms: HttpOptions::default().keep_alive.as_millis() as f64,
        },
        body_too_large_template: BODY_TOO_LARGE_TEMPLATE.to_owned(),
    }
}

/// What the 2025-11-25 tool-naming rule finds in a name, in the official TypeScript SDK's
/// words (`validateToolName`): core's check (`protocol::tool_names`).
#[napi(object)]
pub struct ToolNameCheck {
    pub is_valid: bool,
    pub warnings: Vec<String>,
}

#[napi]
pub fn check_tool_name(name: String) -> ToolNameCheck {
    let check =
        ferrymcp_core::protocol::tool_names::check(&name, ferrymcp_core::protocol::tool_names::Wording::TypeScript);
    ToolNameCheck { is_valid: check.valid, warnings: check.warnings }
}

/// The elicitation modes a client's `elicitation` capability admits (`getSupportedElicitationModes`):
/// core's reading ([`ElicitationModes`](ferrymcp_core::protocol::ElicitationModes)).
#[napi(object)]
pub struct SupportedElicitationModes {
    pub supports_form_mode: bool,
    pub supports_url_mode: bool,
}

/// `capabilityJson`: the capability's JSON text, or `undefined` when the client declares none.
#[napi]
pub fn supported_elicitation_modes(capability_json: Option<String>) -> napi::Result<SupportedElicitationModes> {
    let capability = capability_json
        .map(|text| serde_json::from_str::<serde_json::Value>(&text))
        .transpose()
        .map_err(|e| napi::Error::from_reason(format!("the elicitation capability is not JSON: {e}")))?;
    let modes = ferrymcp_core::protocol::ElicitationModes::of(capability.as_ref());
    Ok(SupportedElicitationModes { supports_form_mode: modes.form, supports_url_mode: modes.url })
}
