//! The headers each POST carries, derived from the message it carries.
//!
//! 2026-07-28 mirrors body fields into headers so intermediaries can route without
//! parsing: `MCP-Protocol-Version` (equal to `_meta`'s), `Mcp-Method`, `Mcp-Name` for the
//! methods the protocol's table names ([`crate::protocol::headers::NAME_FIELDS`], the one
//! the server checks against), and `Mcp-Param-*` for the tool
//! parameters the server designated. Legacy sessions add `Mcp-Session-Id` and the
//! negotiated version. The extra headers are harmless to a legacy server, so the same
//! rules serve both eras.

use std::collections::HashMap;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::Value;

use super::param_headers::{ParamHeader, header_text, param_value};

use crate::protocol::headers::{
    METHOD_HEADER as METHOD, NAME_HEADER as NAME, PARAM_HEADER_PREFIX as PARAM_PREFIX, name_field,
};
pub(crate) use crate::protocol::headers::{
    PROTOCOL_VERSION_HEADER as PROTOCOL_VERSION, SESSION_ID_HEADER as SESSION_ID,
};
use crate::protocol::meta::PROTOCOL_VERSION as META_VERSION;

pub(crate) const LAST_EVENT_ID: &str = "last-event-id";

/// The mirrored headers of `message` (a request or notification; responses get none).
/// `version` is the negotiated one, used when the message's `_meta` names none.
pub(crate) fn message_headers(
    message: &Value,
    version: Option<&str>,
    tools: &HashMap<String, Vec<ParamHeader>>,
) -> HeaderMap {
    let mut headers = HeaderMap::new();
    let params = message.get("params");
    if let Some(version) = meta_version(message).or(version) {
        insert(&mut headers, PROTOCOL_VERSION, version);
    }
    let Some(method) = message.get("method").and_then(Value::as_str) else {
        return headers;
    };
    insert(&mut headers, METHOD, method);
    let Some(field) = name_field(method) else { return headers };
    let Some(name) = params.and_then(|p| p.get(field)).and_then(Value::as_str) else {
        return headers;
    };
    insert(&mut headers, NAME, name);
    if method == "tools/call" {
        let arguments = params.and_then(|p| p.get("arguments")).unwrap_or(&Value::Null);
        for header in tools.get(name).into_iter().flatten() {
            if let Some(value) = param_value(arguments, &header.path) {
                insert(&mut headers, &format!("{PARAM_PREFIX}{}", header.name), &value);
            }
        }
    }
    headers
}

/// The protocol version a 2026-07-28 message names in its `_meta`.
pub(crate) fn meta_version(message: &Value) -> Option<&str> {
    message.get("params")?.get("_meta")?.get(META_VERSION)?.as_str()
}

/// Inserts a header; names are checked tokens and values pass through [`header_text`], so
/// neither can be refused.
fn insert(headers: &mut HeaderMap, name: &str, value: &str) {
    let name = HeaderName::from_bytes(name.as_bytes()).expect("header names are RFC 9110 tokens");
    let value = HeaderValue::from_str(&header_text(value)).expect("header_text yields visible ASCII");
    headers.insert(name, value);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn modern_call_mirrors_method_name_version_and_params() {
        let tools =
            HashMap::from([("t".to_owned(), vec![ParamHeader { path: vec!["r".into()], name: "Region".into() }])]);
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "t", "arguments": {"r": "é"}, "_meta": {META_VERSION: "2026-07-28"}}});
        let headers = message_headers(&call, Some("2025-11-25"), &tools);
        assert_eq!(headers[PROTOCOL_VERSION], "2026-07-28");
        assert_eq!(headers[METHOD], "tools/call");
        assert_eq!(headers[NAME], "t");
        assert_eq!(headers["mcp-param-region"], "=?base64?w6k=?=");

        let read = json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": "file:///a b"}});
        let headers = message_headers(&read, Some("2025-11-25"), &tools);
        assert_eq!(headers[PROTOCOL_VERSION], "2025-11-25");
        assert_eq!(headers[NAME], "file:///a b");

        for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
            let task = json!({"jsonrpc": "2.0", "id": 4, "method": method, "params": {"taskId": "t-1"}});
            assert_eq!(message_headers(&task, Some("2026-07-28"), &tools)[NAME], "t-1", "{method}");
        }

        let response = json!({"jsonrpc": "2.0", "id": 3, "result": {}});
        assert_eq!(message_headers(&response, None, &tools).len(), 0);
    }
}
