//! Writing JSON-RPC messages straight into an outgoing frame buffer.
//!
//! Each message is built in one buffer with no intermediate value: the envelope by hand,
//! strings escaped by serde_json, params and results either copied verbatim from raw JSON
//! or serialised in place.

use serde::Serialize;

use super::error_object::ErrorObject;
use super::id::RequestId;

const HEAD: &[u8] = br#"{"jsonrpc":"2.0""#;

/// `{"jsonrpc":"2.0","id":…,"method":"…"` (close it with [`params_raw`]/[`params`] and [`end`]).
pub fn begin_request(buf: &mut Vec<u8>, id: &RequestId, method: &str) {
    buf.extend_from_slice(HEAD);
    buf.extend_from_slice(br#","id":"#);
    write_id(buf, id);
    buf.extend_from_slice(br#","method":"#);
    write_str(buf, method);
}

/// `{"jsonrpc":"2.0","method":"…"`.
pub fn begin_notification(buf: &mut Vec<u8>, method: &str) {
    buf.extend_from_slice(HEAD);
    buf.extend_from_slice(br#","method":"#);
    write_str(buf, method);
}

/// `,"params":` followed by `raw`, which must be one valid JSON value.
pub fn params_raw(buf: &mut Vec<u8>, raw: &str) {
    buf.extend_from_slice(br#","params":"#);
    buf.extend_from_slice(raw.as_bytes());
}

/// `,"params":` followed by `params` serialised in place.
pub fn params<P: Serialize + ?Sized>(buf: &mut Vec<u8>, params: &P) -> serde_json::Result<()> {
    buf.extend_from_slice(br#","params":"#);
    serde_json::to_writer(&mut *buf, params)
}

pub fn end(buf: &mut Vec<u8>) {
    buf.push(b'}');
}

/// A whole success response around `result`, one valid JSON value.
pub fn result(buf: &mut Vec<u8>, id: &RequestId, result: &str) {
    buf.reserve(result.len() + 64);
    buf.extend_from_slice(HEAD);
    buf.extend_from_slice(br#","id":"#);
    write_id(buf, id);
    buf.extend_from_slice(br#","result":"#);
    buf.extend_from_slice(result.as_bytes());
    buf.push(b'}');
}

/// A success response up to its result: `{"jsonrpc":"2.0","id":…,"result":` (the result
/// and `}` follow).
pub fn result_head(buf: &mut Vec<u8>, id: &RequestId) {
    buf.extend_from_slice(HEAD);
    buf.extend_from_slice(br#","id":"#);
    write_id(buf, id);
    buf.extend_from_slice(br#","result":"#);
}

/// A whole error response. `id` is `None` when the request's id could not be read: the
/// member is then left out, as the MCP schemas require (they allow no `null` id).
pub fn error(buf: &mut Vec<u8>, id: Option<&RequestId>, error: &ErrorObject) {
    buf.extend_from_slice(HEAD);
    if let Some(id) = id {
        buf.extend_from_slice(br#","id":"#);
        write_id(buf, id);
    }
    buf.extend_from_slice(br#","error":"#);
    serde_json::to_writer(&mut *buf, error).expect("an error object always serialises");
    buf.push(b'}');
}

fn write_id(buf: &mut Vec<u8>, id: &RequestId) {
    match id {
        RequestId::Number(n) => buf.extend_from_slice(itoa::Buffer::new().format(*n).as_bytes()),
        RequestId::String(s) => write_str(buf, s),
    }
}

fn write_str(buf: &mut Vec<u8>, text: &str) {
    serde_json::to_writer(&mut *buf, text).expect("a string always serialises");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::RawJson;

    fn text(buf: Vec<u8>) -> String {
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn writes_each_kind() {
        let mut buf = Vec::new();
        begin_request(&mut buf, &RequestId::Number(3), "tools/\"call\"");
        params_raw(&mut buf, r#"{"a":1}"#);
        end(&mut buf);
        assert_eq!(text(buf), r#"{"jsonrpc":"2.0","id":3,"method":"tools/\"call\"","params":{"a":1}}"#);

        let mut buf = Vec::new();
        begin_notification(&mut buf, "notifications/initialized");
        end(&mut buf);
        assert_eq!(text(buf), r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);

        let mut buf = Vec::new();
        result(&mut buf, &RequestId::from("x"), "{}");
        assert_eq!(text(buf), r#"{"jsonrpc":"2.0","id":"x","result":{}}"#);

        let mut buf = Vec::new();
        let data = RawJson::from_text(r#"{"k":[1]}"#).unwrap();
        error(&mut buf, None, &ErrorObject::parse_error("bad").with_data(data));
        assert_eq!(text(buf), r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"bad","data":{"k":[1]}}}"#);
    }
}
