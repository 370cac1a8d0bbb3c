//! The request metadata headers of 2026-07-28 (`MCP-Protocol-Version`, `Mcp-Method`,
//! `Mcp-Name`, `Mcp-Param-*`), checked against the body they mirror.
//!
//! Intermediaries route on these headers while the server acts on the body; a request
//! where the two disagree is refused (400, -32020 HeaderMismatch) before anything runs.
//! Values outside plain header-safe ASCII arrive Base64-encoded between `=?base64?` and
//! `?=`, and are decoded before comparing.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use http::HeaderMap;
use serde_json::{Map, Value};

use super::VERSION_HEADER;
use crate::protocol::headers::{METHOD_HEADER, NAME_HEADER, PARAM_HEADER_PREFIX, name_field};
use crate::protocol::meta;
use crate::wire::{ErrorCode, ErrorObject};

fn mismatch(message: String) -> ErrorObject {
    ErrorObject::new(ErrorCode::HEADER_MISMATCH, format!("Header mismatch: {message}"))
}

/// Checks the standard headers; `input_schema` is the called tool's, for `Mcp-Param-*`.
pub(crate) fn check(
    headers: &HeaderMap,
    method: &str,
    params: &Map<String, Value>,
    input_schema: Option<&Value>,
) -> Result<(), ErrorObject> {
    let version = params.get("_meta").and_then(|m| m.get(meta::PROTOCOL_VERSION)).and_then(Value::as_str);
    match (header(headers, VERSION_HEADER)?, version) {
        (None, _) => return Err(mismatch("the MCP-Protocol-Version header is required".into())),
        (Some(header), Some(body)) if header != body => {
            return Err(mismatch(format!(
                "MCP-Protocol-Version header value {header:?} does not match body value {body:?}"
            )));
        }
        _ => {}
    }
    match header(headers, METHOD_HEADER)? {
        None => return Err(mismatch("the Mcp-Method header is required".into())),
        Some(header) if header != method => {
            return Err(mismatch(format!("Mcp-Method header value {header:?} does not match body value {method:?}")));
        }
        _ => {}
    }
    if let Some(field) = name_field(method) {
        let body = params.get(field).and_then(Value::as_str);
        match (decoded(headers, NAME_HEADER)?, body) {
            (None, _) => return Err(mismatch(format!("the Mcp-Name header is required for {method}"))),
            (Some(header), Some(body)) if header != body => {
                return Err(mismatch(format!("Mcp-Name header value {header:?} does not match body value {body:?}")));
            }
            _ => {}
        }
    }
    if let Some(schema) = input_schema {
        let arguments = params.get("arguments").cloned().unwrap_or(Value::Null);
        check_params(headers, schema, &arguments)?;
    }
    Ok(())
}

/// A header's value as text; a value with bytes a header may not carry is a mismatch.
fn header<'a>(headers: &'a HeaderMap, name: &str) -> Result<Option<&'a str>, ErrorObject> {
    match headers.get(name) {
        None => Ok(None),
        Some(value) => value
            .to_str()
            .map(|v| Some(v.trim()))
            .map_err(|_| mismatch(format!("the {name} header holds invalid characters"))),
    }
}

/// A header that may be Base64-encoded, decoded.
fn decoded(headers: &HeaderMap, name: &str) -> Result<Option<String>, ErrorObject> {
    let Some(value) = header(headers, name)? else { return Ok(None) };
    match value.strip_prefix("=?base64?").and_then(|v| v.strip_suffix("?=")) {
        None => Ok(Some(value.to_owned())),
        Some(encoded) => {
            let bytes = B64.decode(encoded).map_err(|_| mismatch(format!("the {name} header is not valid Base64")))?;
            String::from_utf8(bytes).map(Some).map_err(|_| mismatch(format!("the {name} header is not UTF-8")))
        }
    }
}

/// Every `x-mcp-header` property of the tool's schema, against the call's arguments.
fn check_params(headers: &HeaderMap, schema: &Value, arguments: &Value) -> Result<(), ErrorObject> {
    let mut annotated = Vec::new();
    collect(schema, &mut Vec::new(), &mut annotated);
    for (name, path) in annotated {
        let header_name = format!("{PARAM_HEADER_PREFIX}{}", name.to_ascii_lowercase());
        let value = path.iter().try_fold(arguments, |v, key| v.get(key)).filter(|v| !v.is_null());
        let Some(value) = value else { continue };
        let Some(header) = decoded(headers, &header_name)? else {
            return Err(mismatch(format!("the Mcp-Param-{name} header is required (the argument is present)")));
        };
        if !same(&header, value) {
            return Err(mismatch(format!(
                "Mcp-Param-{name} header value {header:?} does not match body value {value}"
            )));
        }
    }
    Ok(())
}

/// `(header name, property path)` of every statically reachable annotated property.
fn collect(schema: &Value, path: &mut Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
    if let Some(name) = schema.get("x-mcp-header").and_then(Value::as_str) {
        out.push((name.to_owned(), path.clone()));
    }
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else { return };
    for (key, property) in properties {
        path.push(key.clone());
        collect(property, path, out);
        path.pop();
    }
}

/// A header value against a primitive body value (integers compared as numbers).
fn same(header: &str, value: &Value) -> bool {
    match value {
        Value::String(s) => header == s,
        Value::Bool(b) => header == if *b { "true" } else { "false" },
        Value::Number(n) => header.parse::<f64>().ok().zip(n.as_f64()).is_some_and(|(h, b)| h == b),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    fn params(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn headers_must_mirror_the_body() {
        let body = params(
            json!({"name": "héllo", "arguments": {"region": "eu", "n": 42}, "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}),
        );
        let schema = json!({"properties": {"region": {"type": "string", "x-mcp-header": "Region"}, "n": {"type": "integer", "x-mcp-header": "N"}}});
        let good = headers(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "=?base64?aMOpbGxv?="),
            ("mcp-param-region", "eu"),
            ("mcp-param-n", "42.0"),
        ]);
        assert!(check(&good, "tools/call", &body, Some(&schema)).is_ok());
        for (name, value) in [
            ("mcp-method", "tools/list"),
            ("mcp-name", "other"),
            ("mcp-param-region", "us"),
            ("mcp-protocol-version", "2025-11-25"),
        ] {
            let mut bad = good.clone();
            bad.insert(name, value.parse().unwrap());
            assert_eq!(
                check(&bad, "tools/call", &body, Some(&schema)).unwrap_err().code,
                ErrorCode::HEADER_MISMATCH,
                "{name}"
            );
        }
        let mut missing = good.clone();
        missing.remove("mcp-param-n");
        assert_eq!(check(&missing, "tools/call", &body, Some(&schema)).unwrap_err().code, ErrorCode::HEADER_MISMATCH);
    }

    #[test]
    fn a_task_request_is_routed_by_its_task_id() {
        let body = params(json!({"taskId": "t-1", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}));
        for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
            let good = headers(&[("mcp-protocol-version", "2026-07-28"), ("mcp-method", method), ("mcp-name", "t-1")]);
            assert!(check(&good, method, &body, None).is_ok(), "{method}");
            let mut wrong = good.clone();
            wrong.insert("mcp-name", "t-2".parse().unwrap());
            assert_eq!(check(&wrong, method, &body, None).unwrap_err().code, ErrorCode::HEADER_MISMATCH, "{method}");
            wrong.remove("mcp-name");
            assert_eq!(check(&wrong, method, &body, None).unwrap_err().code, ErrorCode::HEADER_MISMATCH, "{method}");
        }
    }
}
