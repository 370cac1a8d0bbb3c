//! The official Python SDK's inbound request ladder (`mcp.shared.inbound`): the rungs a
//! decoded 2026-07-28 request passes before it is routed to the per-request-envelope path,
//! worded as the official SDK words them, and the header-value codec both ends share.
//!
//! Pure: no I/O. The Python binding's `ferrymcp.shared.inbound` converts values to and
//! from this module and decides nothing itself.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use serde_json::{Map, Value, json};

use super::headers::{METHOD_HEADER, NAME_HEADER, PROTOCOL_VERSION_HEADER};
use super::meta;
use crate::wire::{ErrorCode, ErrorObject, RawJson};

/// Method -> the request field `Mcp-Name` mirrors, as the official ladder compares it
/// (the official SDK's `NAME_BEARING_METHODS`; core's own [`super::headers::NAME_FIELDS`]
/// also routes the tasks extension's methods).
pub const NAME_BEARING_METHODS: [(&str, &str); 3] =
    [("tools/call", "name"), ("prompts/get", "name"), ("resources/read", "uri")];

/// The official `ERROR_CODE_HTTP_STATUS`: the HTTP status a JSON-RPC error code is sent
/// with; codes not listed keep the caller's default.
pub const ERROR_CODE_HTTP_STATUS: [(i64, u16); 7] = [
    (ErrorCode::PARSE_ERROR, 400),
    (ErrorCode::INVALID_REQUEST, 400),
    (ErrorCode::INVALID_PARAMS, 400),
    (ErrorCode::HEADER_MISMATCH, 400),
    (ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY, 400),
    (ErrorCode::UNSUPPORTED_PROTOCOL_VERSION, 400),
    (ErrorCode::METHOD_NOT_FOUND, 404),
];

/// A request whose envelope passed every rung: the envelope's raw values (`client_info`
/// is `Null` when the optional key is absent).
#[derive(Clone, Debug, PartialEq)]
pub struct ModernRoute {
    /// `io.modelcontextprotocol/protocolVersion`.
    pub protocol_version: String,
    /// `io.modelcontextprotocol/clientInfo`, or `Null`.
    pub client_info: Value,
    /// `io.modelcontextprotocol/clientCapabilities`, unchecked.
    pub client_capabilities: Value,
}

const SENTINEL_HEAD: &str = "=?base64?";
const SENTINEL_TAIL: &str = "?=";

fn sentinel_payload(value: &str) -> Option<&str> {
    let payload = value.strip_prefix(SENTINEL_HEAD)?.strip_suffix(SENTINEL_TAIL)?;
    (!payload.contains('\n')).then_some(payload)
}

/// A value as an HTTP header carries it: as-is when it is visible ASCII (and space) without
/// edge whitespace and does not look like the sentinel, else `=?base64?…?=`.
pub fn encode_header_value(value: &str) -> String {
    let plain = value.bytes().all(|b| b == b' ' || b.is_ascii_graphic())
        && value.trim_matches(' ') == value
        && sentinel_payload(value).is_none();
    if plain { value.to_owned() } else { format!("{SENTINEL_HEAD}{}{SENTINEL_TAIL}", B64.encode(value)) }
}

/// The inverse of [`encode_header_value`]: `None` for a malformed sentinel (bad or
/// non-canonical Base64, or bytes that are not UTF-8), so it never matches a body value.
pub fn decode_header_value(value: &str) -> Option<String> {
    let Some(payload) = sentinel_payload(value) else { return Some(value.to_owned()) };
    let bytes = B64.decode(payload).ok()?;
    if B64.encode(&bytes) != payload {
        return None;
    }
    String::from_utf8(bytes).ok()
}

/// The name of a routing header (`mcp-protocol-version`, `mcp-method`, `mcp-name`) that
/// appears more than once among raw header names, compared case-insensitively.
pub fn find_duplicated_routing_header<'a>(names: impl IntoIterator<Item = &'a str>) -> Option<&'static str> {
    let mut seen: Vec<&'static str> = Vec::new();
    for name in names {
        let Some(routing) =
            [PROTOCOL_VERSION_HEADER, METHOD_HEADER, NAME_HEADER].into_iter().find(|r| r.eq_ignore_ascii_case(name))
        else {
            continue;
        };
        if seen.contains(&routing) {
            return Some(routing);
        }
        seen.push(routing);
    }
    None
}

/// The ladder's last rung: `-32022` naming `supported` when `requested` is not in it.
pub fn unsupported_protocol_version_rejection(requested: &str, supported: &[String]) -> Option<ErrorObject> {
    if supported.iter().any(|v| v == requested) {
        return None;
    }
    let data = RawJson::to_json(&json!({"supported": supported, "requested": requested})).expect("JSON");
    Some(ErrorObject::new(ErrorCode::UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version").with_data(data))
}

/// The official validation ladder over a decoded JSON-RPC request body, first failing rung
/// wins: the `params._meta` envelope carries the protocol version and client capabilities
/// (`-32602`); when `headers` are given (keyed by lowercase name), `MCP-Protocol-Version`,
/// `Mcp-Method` and, for [`NAME_BEARING_METHODS`], `Mcp-Name` mirror the body (`-32020`);
/// the version is a string (`-32602`) that `supported` lists (`-32022`). Whether the
/// method exists is not a rung.
pub fn classify_inbound_request(
    body: &Value,
    headers: Option<&Map<String, Value>>,
    supported: &[String],
) -> Result<ModernRoute, ErrorObject> {
    let Some(envelope) = body.get("params").and_then(|p| p.get("_meta")).and_then(Value::as_object) else {
        return Err(ErrorObject::invalid_params(format!(
            "params._meta must be an object carrying the required '{}' and '{}' envelope keys",
            meta::PROTOCOL_VERSION,
            meta::CLIENT_CAPABILITIES
        )));
    };
    let missing: Vec<&str> = [meta::PROTOCOL_VERSION, meta::CLIENT_CAPABILITIES]
        .into_iter()
        .filter(|k| !envelope.contains_key(*k))
        .collect();
    if !missing.is_empty() {
        return Err(ErrorObject::invalid_params(format!(
            "params._meta is missing the required envelope key(s): {}",
            missing.join(", ")
        )));
    }
    let protocol_version = &envelope[meta::PROTOCOL_VERSION];
    if let Some(headers) = headers {
        let mismatch = |message: String| Err(ErrorObject::new(ErrorCode::HEADER_MISMATCH, message));
        let header = |name: &str| headers.get(name).filter(|v| !v.is_null());
        match header(PROTOCOL_VERSION_HEADER) {
            Some(value) if value == protocol_version => {}
            _ => {
                return mismatch(format!(
                    "{PROTOCOL_VERSION_HEADER} header does not match the request envelope's protocol version"
                ));
            }
        }
        let method = body.get("method").filter(|m| !m.is_null());
        if header(METHOD_HEADER) != method {
            return mismatch(format!("{METHOD_HEADER} header does not match the request body's method"));
        }
        let name_key = method
            .and_then(Value::as_str)
            .and_then(|m| NAME_BEARING_METHODS.iter().find(|(bearing, _)| *bearing == m))
            .map(|(_, key)| *key);
        if let Some(key) = name_key
            && let Some(expected) = body["params"].get(key).filter(|v| !v.is_null())
        {
            let decoded = header(NAME_HEADER).and_then(Value::as_str).and_then(decode_header_value);
            if decoded.as_deref() != expected.as_str() || !expected.is_string() {
                return mismatch(format!("{NAME_HEADER} header does not match the request body's '{key}' parameter"));
            }
        }
    }
    let Some(version) = protocol_version.as_str() else {
        return Err(ErrorObject::invalid_params("the protocol-version envelope value must be a string"));
    };
    if let Some(rejection) = unsupported_protocol_version_rejection(version, supported) {
        return Err(rejection);
    }
    Ok(ModernRoute {
        protocol_version: version.to_owned(),
        client_info: envelope.get(meta::CLIENT_INFO).cloned().unwrap_or(Value::Null),
        client_capabilities: envelope[meta::CLIENT_CAPABILITIES].clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn supported() -> Vec<String> {
        vec!["2026-07-28".to_owned()]
    }

    fn body(meta: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "_meta": meta}})
    }

    fn envelope() -> Value {
        json!({meta::PROTOCOL_VERSION: "2026-07-28", meta::CLIENT_CAPABILITIES: {}})
    }

    fn headers(pairs: &[(&str, &str)]) -> Map<String, Value> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), Value::from(*v))).collect()
    }

    #[test]
    fn the_rungs_fail_in_order_in_the_official_words() {
        let no_meta = json!({"method": "initialize", "params": {}});
        let error = classify_inbound_request(&no_meta, None, &supported()).unwrap_err();
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert_eq!(
            error.message,
            "params._meta must be an object carrying the required 'io.modelcontextprotocol/protocolVersion' and \
             'io.modelcontextprotocol/clientCapabilities' envelope keys"
        );
        let error = classify_inbound_request(&body(json!({})), None, &supported()).unwrap_err();
        assert_eq!(
            error.message,
            "params._meta is missing the required envelope key(s): io.modelcontextprotocol/protocolVersion, \
             io.modelcontextprotocol/clientCapabilities"
        );
        let good =
            headers(&[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call"), ("mcp-name", "echo")]);
        let route = classify_inbound_request(&body(envelope()), Some(&good), &supported()).unwrap();
        assert_eq!(route.protocol_version, "2026-07-28");
        assert_eq!(route.client_info, Value::Null);
        let wrong = headers(&[("mcp-protocol-version", "2025-11-25"), ("mcp-method", "tools/call")]);
        let error = classify_inbound_request(&body(envelope()), Some(&wrong), &supported()).unwrap_err();
        assert_eq!(error.code, ErrorCode::HEADER_MISMATCH);
        assert_eq!(error.message, "mcp-protocol-version header does not match the request envelope's protocol version");
        let wrong = headers(&[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/list")]);
        let error = classify_inbound_request(&body(envelope()), Some(&wrong), &supported()).unwrap_err();
        assert_eq!(error.message, "mcp-method header does not match the request body's method");
        let wrong = headers(&[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call"), ("mcp-name", "x")]);
        let error = classify_inbound_request(&body(envelope()), Some(&wrong), &supported()).unwrap_err();
        assert_eq!(error.message, "mcp-name header does not match the request body's 'name' parameter");
        let encoded = headers(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", &encode_header_value("echo\n")),
        ]);
        let mut newline = body(envelope());
        newline["params"]["name"] = json!("echo\n");
        assert!(classify_inbound_request(&newline, Some(&encoded), &supported()).is_ok());
        let numeric = json!({meta::PROTOCOL_VERSION: 7, meta::CLIENT_CAPABILITIES: {}});
        let error = classify_inbound_request(&body(numeric), None, &supported()).unwrap_err();
        assert_eq!(error.message, "the protocol-version envelope value must be a string");
        let old = json!({meta::PROTOCOL_VERSION: "2025-11-25", meta::CLIENT_CAPABILITIES: {}});
        let error = classify_inbound_request(&body(old), None, &supported()).unwrap_err();
        assert_eq!(error.code, ErrorCode::UNSUPPORTED_PROTOCOL_VERSION);
        let data: Value = error.data.unwrap().parse_owned().unwrap();
        assert_eq!(data, json!({"supported": ["2026-07-28"], "requested": "2025-11-25"}));
    }

    #[test]
    fn header_values_round_trip_and_a_malformed_sentinel_decodes_to_nothing() {
        for value in ["plain", " edge", "caf\u{e9}", "=?base64?x?=", "=?base64?="] {
            assert_eq!(decode_header_value(&encode_header_value(value)).as_deref(), Some(value), "{value}");
        }
        assert_eq!(encode_header_value("=?base64?="), "=?base64?=");
        assert_eq!(decode_header_value("=?base64?!!?="), None);
        assert_eq!(decode_header_value("=?base64?QR==?="), None);
        assert_eq!(decode_header_value("=?base64?/w==?="), None);
        assert_eq!(find_duplicated_routing_header(["Mcp-Method", "accept", "mcp-method"]), Some("mcp-method"));
        assert_eq!(find_duplicated_routing_header(["mcp-param-a", "mcp-param-a"]), None);
    }
}
