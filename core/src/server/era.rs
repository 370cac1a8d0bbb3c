//! Which era a request belongs to, and the checks a 2026-07-28 request must pass.
//!
//! On one connection both eras coexist: a request whose `_meta` carries any
//! `io.modelcontextprotocol/` key (and `server/discover` or `subscriptions/listen`, which
//! exist only there) is modern and served statelessly; everything else belongs to the
//! legacy session. Modern checks run in the order the specification gives: `_meta` keys
//! (-32602), then the version (-32022), then the method (-32601).

use serde_json::{Map, Value, json};

use crate::wire::{ErrorObject, RawJson};

pub const LEGACY_VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
pub const MODERN_VERSIONS: [&str; 1] = ["2026-07-28"];

pub(crate) const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub(crate) const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
pub(crate) const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
pub(crate) const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
pub(crate) const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
pub(crate) const META_SUBSCRIPTION: &str = "io.modelcontextprotocol/subscriptionId";

/// Methods that 2026-07-28 removed.
const REMOVED: [&str; 5] = ["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"];

pub(crate) fn is_modern(method: &str, params: &Map<String, Value>) -> bool {
    if matches!(method, "server/discover" | "subscriptions/listen") {
        return true;
    }
    params
        .get("_meta")
        .and_then(Value::as_object)
        .is_some_and(|meta| meta.keys().any(|k| k.starts_with("io.modelcontextprotocol/")))
}

/// What a valid modern request declared about its client.
pub(crate) struct ModernMeta {
    pub version: String,
    pub capabilities: Value,
    pub client_info: Value,
    pub log_level: Option<String>,
}

pub(crate) fn check_modern(method: &str, params: &Map<String, Value>) -> Result<ModernMeta, ErrorObject> {
    let missing = |what: &str| ErrorObject::invalid_params(format!("Invalid params: _meta must carry \"{what}\""));
    let meta = params.get("_meta").and_then(Value::as_object).ok_or_else(|| missing(META_VERSION))?;
    let version = meta.get(META_VERSION).and_then(Value::as_str).ok_or_else(|| missing(META_VERSION))?;
    let capabilities =
        meta.get(META_CAPABILITIES).filter(|c| c.is_object()).ok_or_else(|| missing(META_CAPABILITIES))?;
    if !MODERN_VERSIONS.contains(&version) {
        return Err(unsupported_version(version));
    }
    if REMOVED.contains(&method) {
        return Err(ErrorObject::method_not_found(method));
    }
    let log_level = match meta.get(META_LOG_LEVEL) {
        None => None,
        Some(Value::String(level)) if super::context::level_rank(level).is_some() => Some(level.clone()),
        Some(other) => return Err(ErrorObject::invalid_params(format!("Invalid params: unknown log level {other}"))),
    };
    Ok(ModernMeta {
        version: version.to_owned(),
        capabilities: capabilities.clone(),
        client_info: meta.get(META_CLIENT_INFO).cloned().unwrap_or(Value::Null),
        log_level,
    })
}

pub(crate) fn unsupported_version(requested: &str) -> ErrorObject {
    let data = json!({"supported": MODERN_VERSIONS, "requested": requested});
    ErrorObject::new(-32022, format!("Unsupported protocol version: {requested}"))
        .with_data(RawJson::to_json(&data).expect("JSON"))
}

/// The legacy version to answer `initialize` with: the requested one if supported, else
/// the newest.
pub(crate) fn negotiate(requested: &str) -> &'static str {
    LEGACY_VERSIONS.iter().find(|v| **v == requested).copied().unwrap_or(LEGACY_VERSIONS[3])
}
