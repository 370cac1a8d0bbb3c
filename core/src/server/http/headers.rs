//! The request metadata headers of 2026-07-28 (`MCP-Protocol-Version`, `Mcp-Method`,
//! `Mcp-Name`, `Mcp-Param-*`), checked against the body they mirror.
//!
//! Intermediaries route on these headers while the server acts on the body; a request
//! where the two disagree is refused (400, -32020 HeaderMismatch) before anything runs.
//! The rungs are the official ladder's ([`crate::protocol::inbound`]), in its order: the
//! `_meta` envelope, then the headers, then the version; the wording is the dialect's.

use http::HeaderMap;
use serde_json::{Map, Value};

use crate::protocol::headers::{METHOD_HEADER, NAME_FIELDS, NAME_HEADER, PROTOCOL_VERSION_HEADER};
use crate::protocol::inbound::{self, HeaderMismatch, Rejection};
use crate::server::era;

/// A header's value as text, each byte one character (as the official Python server
/// decodes them, Latin-1), so a value with bytes a header should not carry still compares.
fn latin1(value: &http::HeaderValue) -> String {
    value.as_bytes().iter().map(|&b| char::from(b)).collect()
}

/// Runs the ladder over a 2026-07-28 request: no routing header twice, the envelope, the
/// standard headers against the body (`Mcp-Name` also for the tasks extension's methods,
/// [`NAME_FIELDS`]), the version, and for a `tools/call` the `Mcp-Param-*` headers of
/// `input_schema`, the called tool's.
pub(crate) fn check(
    headers: &HeaderMap,
    method: &str,
    params: &Map<String, Value>,
    input_schema: Option<&Value>,
) -> Result<(), Rejection> {
    if let Some(name) = inbound::find_duplicated_routing_header(headers.iter().map(|(n, _)| n.as_str())) {
        return Err(Rejection::Mismatch(Box::new(HeaderMismatch::Duplicated(name))));
    }
    let mut routing = Map::new();
    for name in [PROTOCOL_VERSION_HEADER, METHOD_HEADER, NAME_HEADER] {
        if let Some(value) = headers.get(name) {
            routing.insert(name.to_owned(), Value::String(latin1(value)));
        }
    }
    let method = Value::from(method);
    inbound::ladder(Some(&method), Some(params), Some(&routing), &era::SUPPORTED, &NAME_FIELDS)?;
    if let Some(schema) = input_schema {
        let arguments = params.get("arguments").cloned().unwrap_or_else(|| Value::Object(Map::new()));
        if arguments.is_object() {
            let raw: Vec<(&str, String)> = headers.iter().map(|(n, v)| (n.as_str(), latin1(v))).collect();
            let pairs = raw.iter().map(|(n, v)| (*n, v.as_str()));
            if let Some(mismatch) = inbound::validate_mcp_param_headers(schema, &arguments, pairs) {
                return Err(Rejection::Mismatch(Box::new(mismatch)));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().unwrap());
        }
        map
    }

    fn params(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    fn envelope() -> Value {
        json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}})
    }

    fn mismatch(result: Result<(), Rejection>) -> HeaderMismatch {
        match result {
            Err(Rejection::Mismatch(mismatch)) => *mismatch,
            other => panic!("not a mismatch: {other:?}"),
        }
    }

    #[test]
    fn the_envelope_comes_before_the_headers_and_a_routing_header_twice_is_refused() {
        let body = params(json!({"name": "echo", "_meta": {}}));
        let none = headers(&[]);
        assert!(matches!(check(&none, "tools/call", &body, None), Err(Rejection::Envelope(_))));
        let body = params(json!({"name": "echo", "_meta": envelope()}));
        let twice = headers(&[("mcp-method", "tools/call"), ("mcp-method", "tools/call")]);
        assert_eq!(mismatch(check(&twice, "tools/call", &body, None)), HeaderMismatch::Duplicated("mcp-method"));
        let latin = headers(&[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call")]);
        let mut bytes = latin.clone();
        bytes.insert("mcp-name", http::HeaderValue::from_bytes(b"\xe9cho").unwrap());
        let HeaderMismatch::Name { header, .. } = mismatch(check(&bytes, "tools/call", &body, None)) else {
            panic!("not Mcp-Name")
        };
        assert_eq!(header.as_deref(), Some("\u{e9}cho"));
    }

    #[test]
    fn a_task_request_is_routed_by_its_task_id() {
        let body = params(json!({"taskId": "t-1", "_meta": envelope()}));
        for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
            let good = headers(&[("mcp-protocol-version", "2026-07-28"), ("mcp-method", method), ("mcp-name", "t-1")]);
            assert!(check(&good, method, &body, None).is_ok(), "{method}");
            let mut wrong = good.clone();
            wrong.insert("mcp-name", "t-2".parse().unwrap());
            assert!(matches!(mismatch(check(&wrong, method, &body, None)), HeaderMismatch::Name { .. }), "{method}");
            wrong.remove("mcp-name");
            assert!(matches!(mismatch(check(&wrong, method, &body, None)), HeaderMismatch::Name { .. }), "{method}");
        }
    }
}
