//! The protocol's constants, read from core for the Python layer: revisions, error codes,
//! log levels, `_meta` keys and the defaults the official signatures spell out.
//!
//! `ferrymcp.types` takes its version and error-code constants from here, so they cannot
//! drift from what the engine sends and checks.

use ferrymcp_core::protocol::{ErrorCode, LoggingLevel, ProtocolVersion, meta};
use ferrymcp_core::server::DEFAULT_MAX_LISTEN_STREAMS;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Adds the constants to the module.
pub fn add(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    let versions: Vec<&str> = ProtocolVersion::ALL.iter().map(|v| v.as_str()).collect();
    module.add("PROTOCOL_VERSIONS", versions)?;
    module.add("LATEST_PROTOCOL_VERSION", ProtocolVersion::LATEST_LEGACY.as_str())?;
    module.add("MODERN_PROTOCOL_VERSION", ProtocolVersion::LATEST.as_str())?;
    module.add("DEFAULT_NEGOTIATED_VERSION", ProtocolVersion::DEFAULT_NEGOTIATED.as_str())?;
    let codes = PyDict::new(py);
    for (name, code) in ErrorCode::ALL {
        codes.set_item(name, code)?;
    }
    module.add("ERROR_CODES", codes)?;
    let levels: Vec<&str> = LoggingLevel::ALL.iter().map(|l| l.as_str()).collect();
    module.add("LOG_LEVELS", levels)?;
    let keys = PyDict::new(py);
    for (name, key) in [
        ("PROTOCOL_VERSION", meta::PROTOCOL_VERSION),
        ("CLIENT_CAPABILITIES", meta::CLIENT_CAPABILITIES),
        ("CLIENT_INFO", meta::CLIENT_INFO),
        ("LOG_LEVEL", meta::LOG_LEVEL),
        ("SERVER_INFO", meta::SERVER_INFO),
        ("SUBSCRIPTION_ID", meta::SUBSCRIPTION_ID),
        ("RELATED_TASK", meta::RELATED_TASK),
    ] {
        keys.set_item(name, key)?;
    }
    module.add("META_KEYS", keys)?;
    module.add("DEFAULT_MAX_LISTEN_STREAMS", DEFAULT_MAX_LISTEN_STREAMS)?;
    Ok(())
}

/// What the 2025-11-25 tool-naming rule finds in a name, in the official Python SDK's
/// words (`validate_tool_name`): whether it follows the rule, and every finding.
#[pyfunction]
pub fn check_tool_name(name: &str) -> (bool, Vec<String>) {
    let check = ferrymcp_core::protocol::tool_names::check(name, ferrymcp_core::protocol::tool_names::Wording::Python);
    (check.valid, check.warnings)
}
