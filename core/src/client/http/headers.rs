//! The headers each POST carries, derived from the message it carries.
//!
//! 2026-07-28 mirrors body fields into headers so intermediaries can route without
//! parsing: `MCP-Protocol-Version` (equal to `_meta`'s), `Mcp-Method`, `Mcp-Name` for the
//! methods the protocol's table names ([`crate::protocol::headers::NAME_FIELDS`], the one
//! the server checks against), and `Mcp-Param-*` for the tool
//! parameters the server designated. Legacy sessions add `Mcp-Session-Id` and the
//! negotiated version. The extra headers are harmless to a legacy server, so the same
//! rules serve both eras.

use std::borrow::Cow;
use std::collections::HashMap;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::param_headers::{ParamHeader, header_text, param_value};

use crate::protocol::headers::{
    METHOD_HEADER as METHOD, NAME_HEADER as NAME, PARAM_HEADER_PREFIX as PARAM_PREFIX, name_field,
};
pub(crate) use crate::protocol::headers::{
    PROTOCOL_VERSION_HEADER as PROTOCOL_VERSION, SESSION_ID_HEADER as SESSION_ID,
};

pub(crate) const LAST_EVENT_ID: &str = "last-event-id";

/// What a POST's headers and routing are derived from, read from the frame in one pass
/// without building its tree: the members as slices of the frame, then only `params`'
/// members that matter. (Parsing every outgoing message into a `Value` just to read
/// these was a measurable share of a forwarded call.)
#[derive(Default, Deserialize)]
pub(crate) struct Outline<'a> {
    #[serde(borrow, default)]
    pub method: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
}

/// The members of `params` the headers use; values stay slices until asked for.
#[derive(Default, Deserialize)]
struct ParamsOutline<'a> {
    #[serde(borrow, default, rename = "_meta")]
    meta: Option<MetaOutline<'a>>,
    #[serde(borrow, default)]
    name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    uri: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "taskId")]
    task_id: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "requestId")]
    request_id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
}

#[derive(Default, Deserialize)]
struct MetaOutline<'a> {
    #[serde(borrow, default, rename = "io.modelcontextprotocol/protocolVersion")]
    version: Option<Cow<'a, str>>,
}

/// A parsed outline: the message's and its params'.
pub(crate) struct Parsed<'a> {
    pub message: Outline<'a>,
    params: ParamsOutline<'a>,
}

impl<'a> Parsed<'a> {
    /// The outline of `frame`; `None` when it is not a JSON object.
    pub fn of(frame: &'a [u8]) -> Option<Self> {
        let message: Outline<'a> = serde_json::from_slice(frame).ok()?;
        // Params that are not an object (or hold members of other types) mirror nothing.
        let params = message.params.and_then(|p| serde_json::from_str(p.get()).ok()).unwrap_or_default();
        Some(Self { message, params })
    }

    pub fn method(&self) -> Option<&str> {
        self.message.method.as_deref()
    }

    /// The id, when it is an integer (the ids this client sends).
    pub fn id(&self) -> Option<i64> {
        self.message.id.and_then(|id| id.get().parse().ok())
    }

    /// `params.requestId` as an integer (of `notifications/cancelled`).
    pub fn request_id(&self) -> Option<i64> {
        self.params.request_id.and_then(|id| id.get().parse().ok())
    }

    /// The protocol version a 2026-07-28 message names in its `_meta`.
    pub fn meta_version(&self) -> Option<&str> {
        self.params.meta.as_ref()?.version.as_deref()
    }

    fn field(&self, field: &str) -> Option<String> {
        let raw = match field {
            "name" => self.params.name,
            "uri" => self.params.uri,
            "taskId" => self.params.task_id,
            _ => None,
        }?;
        serde_json::from_str(raw.get()).ok()
    }
}

/// The mirrored headers of `message` (a request or notification; responses get none).
/// `version` is the negotiated one, used when the message's `_meta` names none.
pub(crate) fn message_headers(
    message: &Parsed<'_>,
    version: Option<&str>,
    tools: &HashMap<String, Vec<ParamHeader>>,
) -> HeaderMap {
    let mut headers = HeaderMap::new();
    if let Some(version) = message.meta_version().or(version) {
        insert(&mut headers, PROTOCOL_VERSION, version);
    }
    let Some(method) = message.method() else {
        return headers;
    };
    insert(&mut headers, METHOD, method);
    let Some(field) = name_field(method) else { return headers };
    let Some(name) = message.field(field) else {
        return headers;
    };
    insert(&mut headers, NAME, &name);
    if method == "tools/call"
        && let Some(designated) = tools.get(&name).filter(|h| !h.is_empty())
    {
        let arguments = message.params.arguments.and_then(|a| serde_json::from_str::<Value>(a.get()).ok());
        let arguments = arguments.unwrap_or(Value::Null);
        for header in designated {
            if let Some(value) = param_value(&arguments, &header.path) {
                insert(&mut headers, &format!("{PARAM_PREFIX}{}", header.name), &value);
            }
        }
    }
    headers
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
    use crate::protocol::meta::PROTOCOL_VERSION as META_VERSION;

    fn message_headers(message: &Value, version: Option<&str>, tools: &HashMap<String, Vec<ParamHeader>>) -> HeaderMap {
        let frame = serde_json::to_vec(message).unwrap();
        super::message_headers(&Parsed::of(&frame).unwrap(), version, tools)
    }

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
