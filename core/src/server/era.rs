//! Which era a request belongs to, and the checks a 2026-07-28 request must pass.
//!
//! On one connection both eras coexist: a request whose `_meta` carries any
//! `io.modelcontextprotocol/` key (and `server/discover` or `subscriptions/listen`, which
//! exist only there) is modern and served statelessly; everything else belongs to the
//! legacy session. Modern checks run in the order the specification gives: `_meta` keys
//! (-32602), then the version (-32022), then the method (-32601).

use std::sync::LazyLock;

use serde_json::{Map, Value, json};

use super::dialect::Dialect;
use crate::protocol::{LoggingLevel, ProtocolVersion, meta};
use crate::wire::{ErrorCode, ErrorObject, RawJson};

/// Methods that 2026-07-28 removed.
const REMOVED: [&str; 5] = ["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"];

pub(crate) fn is_modern(method: &str, params: &Map<String, Value>) -> bool {
    if matches!(method, "server/discover" | "subscriptions/listen") {
        return true;
    }
    params
        .get("_meta")
        .and_then(Value::as_object)
        .is_some_and(|meta| meta.keys().any(|k| k.starts_with(meta::MCP_PREFIX)))
}

/// What a valid modern request declared that serving it needs (its capabilities and
/// client info are read from its `_meta` when asked for).
pub(crate) struct ModernMeta<'a> {
    pub version: &'a str,
    pub log_level: Option<&'a str>,
}

/// The checks a 2026-07-28 request must pass; borrows what its `_meta` declared (the HTTP
/// endpoint checks before it hands the request over, and copies nothing).
pub(crate) fn check_modern<'a>(
    method: &str,
    params: &'a Map<String, Value>,
    dialect: Dialect,
) -> Result<ModernMeta<'a>, ErrorObject> {
    let missing = |what: &str| ErrorObject::invalid_params(format!("Invalid params: _meta must carry \"{what}\""));
    let fields = params.get("_meta").and_then(Value::as_object).ok_or_else(|| missing(meta::PROTOCOL_VERSION))?;
    let version =
        fields.get(meta::PROTOCOL_VERSION).and_then(Value::as_str).ok_or_else(|| missing(meta::PROTOCOL_VERSION))?;
    fields
        .get(meta::CLIENT_CAPABILITIES)
        .filter(|c| c.is_object())
        .ok_or_else(|| missing(meta::CLIENT_CAPABILITIES))?;
    if !ProtocolVersion::parse(version).is_some_and(ProtocolVersion::is_modern) {
        return Err(unsupported_version(version));
    }
    if REMOVED.contains(&method) {
        return Err(ErrorObject::method_not_found(method));
    }
    let log_level = match fields.get(meta::LOG_LEVEL) {
        None => None,
        Some(Value::String(level)) if level.parse::<LoggingLevel>().is_ok() => Some(level.as_str()),
        Some(other) => return Err(dialect.invalid_log_level(other)),
    };
    Ok(ModernMeta { version, log_level })
}

/// The 2026-07-28 revisions, as the inbound ladder takes them.
pub(crate) static SUPPORTED: LazyLock<Vec<String>> =
    LazyLock::new(|| ProtocolVersion::strings(&ProtocolVersion::MODERN).into_iter().map(str::to_owned).collect());

/// Whether `params._meta` names a protocol version: what opens a 2026-07-28 stream where
/// the first request decides the stream's era ([`Dialect::locks_stream_era`]; a bare
/// `_meta` is no evidence, legacy requests carry `progressToken` there).
pub(crate) fn names_version(params: &Map<String, Value>) -> bool {
    params.get("_meta").and_then(Value::as_object).is_some_and(|meta| meta.contains_key(meta::PROTOCOL_VERSION))
}

/// The answer to `initialize` on a stream its first request opened at 2026-07-28 (where
/// the stream's era is locked): -32022 naming the served revisions, and the one
/// `initialize` proposed when it is a string.
pub(crate) fn initialize_on_modern_stream(params: &Map<String, Value>) -> ErrorObject {
    let supported = ProtocolVersion::strings(&ProtocolVersion::MODERN);
    let data = match params.get("protocolVersion").and_then(Value::as_str) {
        Some(requested) => json!({"supported": supported, "requested": requested}),
        None => json!({"supported": supported}),
    };
    ErrorObject::new(
        ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
        "connection is serving the 2026-07-28 protocol; the initialize handshake is not accepted",
    )
    .with_data(RawJson::to_json(&data).expect("JSON"))
}

/// The answer to a request naming a 2026-07-28 version on a stream that opened with the
/// handshake (where the stream's era is locked).
pub(crate) fn modern_on_legacy_stream() -> ErrorObject {
    ErrorObject::invalid_request(
        "this connection serves the handshake protocol era; requests carrying the 2026-07-28 envelope are not accepted on it",
    )
}

pub(crate) fn unsupported_version(requested: &str) -> ErrorObject {
    let data = json!({"supported": ProtocolVersion::strings(&ProtocolVersion::MODERN), "requested": requested});
    ErrorObject::new(ErrorCode::UNSUPPORTED_PROTOCOL_VERSION, format!("Unsupported protocol version: {requested}"))
        .with_data(RawJson::to_json(&data).expect("JSON"))
}

/// The answer to a 2025-era request on a server that serves 2026-07-28 only (the official
/// TypeScript SDK's `legacy: 'reject'`): -32022 naming the supported revisions and the one
/// the request named (`initialize`'s `protocolVersion`, or over HTTP the version header),
/// if it named one.
pub(crate) fn legacy_rejected(requested: Option<&str>) -> ErrorObject {
    let Some(requested) = requested else {
        let data = json!({"supported": ProtocolVersion::strings(&ProtocolVersion::MODERN)});
        return ErrorObject::new(
            ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version: the request did not name a protocol version",
        )
        .with_data(RawJson::to_json(&data).expect("JSON"));
    };
    unsupported_version(requested)
}
