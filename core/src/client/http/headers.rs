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
use std::marker::PhantomData;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde::Deserialize;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

use super::param_headers::{ParamHeader, param_value};
use crate::protocol::inbound::encode_header_value;

use crate::protocol::headers::{
    METHOD_HEADER as METHOD, NAME_HEADER as NAME, PARAM_HEADER_PREFIX as PARAM_PREFIX, name_field,
};
pub(crate) use crate::protocol::headers::{
    PROTOCOL_VERSION_HEADER as PROTOCOL_VERSION, SESSION_ID_HEADER as SESSION_ID,
};

pub(crate) const LAST_EVENT_ID: &str = "last-event-id";

/// What a POST's headers and routing are derived from, read from the frame in one pass
/// without building its tree: the members as slices of the frame, and of `params` only
/// the members that matter. (Parsing every outgoing message into a `Value` just to read
/// these was a measurable share of a forwarded call, and so was reading `params` a second
/// time from its slice: benches/README.md.)
#[derive(Default, Deserialize)]
pub(crate) struct Outline<'a> {
    #[serde(borrow, default)]
    pub method: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    params: LenientParams<'a>,
}

/// The members of `params` the headers use; values stay slices until asked for.
#[derive(Default)]
struct ParamsOutline<'a> {
    meta_version: Option<Cow<'a, str>>,
    name: Option<&'a RawValue>,
    uri: Option<&'a RawValue>,
    task_id: Option<&'a RawValue>,
    request_id: Option<&'a RawValue>,
    arguments: Option<&'a RawValue>,
}

/// `params`' outline, read in the pass over the frame. Params that mirror nothing give
/// an empty outline, whatever else the frame holds: params that are no object, a member
/// named twice, a `_meta` that is no object, a version that is no string. (The same
/// params a typed read of the outline refuses; a JSON-RPC array of params is no MCP
/// request and mirrors nothing either.)
#[derive(Default)]
struct LenientParams<'a>(ParamsOutline<'a>);

impl<'de: 'a, 'a> Deserialize<'de> for LenientParams<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ParamsVisitor(PhantomData))
    }
}

struct ParamsVisitor<'a>(PhantomData<&'a ()>);

/// Sets `slot` to the next value, unless one was read before (then `Err(())`: a
/// duplicate member spoils the outline, as in a typed read).
fn once<'de, T, A>(map: &mut A, slot: &mut Option<T>, seen: &mut bool) -> Result<Result<(), ()>, A::Error>
where
    T: Deserialize<'de>,
    A: MapAccess<'de>,
{
    if std::mem::replace(seen, true) {
        map.next_value::<IgnoredAny>()?;
        return Ok(Err(()));
    }
    *slot = map.next_value()?;
    Ok(Ok(()))
}

impl<'de: 'a, 'a> Visitor<'de> for ParamsVisitor<'a> {
    type Value = LenientParams<'a>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("params")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        const KEYS: &[&str] = &["_meta", "name", "uri", "taskId", "requestId", "arguments"];
        let mut outline = ParamsOutline::default();
        let mut seen = [false; 6];
        let mut spoiled = false;
        while let Some(key) = map.next_key_seed(KeyIn(KEYS))? {
            let read = match key {
                Some(0) if std::mem::replace(&mut seen[0], true) => {
                    map.next_value::<IgnoredAny>()?;
                    Err(())
                }
                Some(0) => map.next_value::<LenientMeta<'a>>()?.0.map(|version| outline.meta_version = version),
                Some(1) => once(&mut map, &mut outline.name, &mut seen[1])?,
                Some(2) => once(&mut map, &mut outline.uri, &mut seen[2])?,
                Some(3) => once(&mut map, &mut outline.task_id, &mut seen[3])?,
                Some(4) => once(&mut map, &mut outline.request_id, &mut seen[4])?,
                Some(_) => once(&mut map, &mut outline.arguments, &mut seen[5])?,
                None => map.next_value::<IgnoredAny>().map(|_| Ok(()))?,
            };
            spoiled |= read.is_err();
        }
        Ok(if spoiled { LenientParams::default() } else { LenientParams(outline) })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(LenientParams::default())
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(LenientParams::default())
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(LenientParams::default())
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(LenientParams::default())
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(LenientParams::default())
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(LenientParams::default())
    }

    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(LenientParams::default())
    }
}

/// `_meta`'s protocol version: `Ok(None)` for none (or a null `_meta`), `Err(())` for a
/// `_meta` that spoils the params' outline (see [`LenientParams`]).
struct LenientMeta<'a>(Result<Option<Cow<'a, str>>, ()>);

impl<'de: 'a, 'a> Deserialize<'de> for LenientMeta<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(MetaVisitor(PhantomData))
    }
}

struct MetaVisitor<'a>(PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for MetaVisitor<'a> {
    type Value = LenientMeta<'a>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("_meta")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut version, mut seen, mut spoiled) = (None, false, false);
        while let Some(key) = map.next_key_seed(KeyIn(&[META_VERSION_KEY]))? {
            if key.is_none() {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            // A version that is no string (nor null) spoils it, as a typed read does.
            let read = version_text(map.next_value::<&'de RawValue>()?);
            spoiled |= std::mem::replace(&mut seen, true) || read.is_err();
            version = read.ok().flatten();
        }
        Ok(LenientMeta(if spoiled { Err(()) } else { Ok(version) }))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(LenientMeta(Ok(None)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(LenientMeta(Err(())))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(LenientMeta(Err(())))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(LenientMeta(Err(())))
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(LenientMeta(Err(())))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(LenientMeta(Err(())))
    }

    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(LenientMeta(Err(())))
    }
}

/// A JSON string or null, as a slice of the frame when it has no escapes.
fn version_text(value: &RawValue) -> Result<Option<Cow<'_, str>>, ()> {
    let text = value.get();
    if text == "null" {
        return Ok(None);
    }
    if let Ok(borrowed) = serde_json::from_str::<&str>(text) {
        return Ok(Some(Cow::Borrowed(borrowed)));
    }
    serde_json::from_str::<String>(text).map(|owned| Some(Cow::Owned(owned))).map_err(|_| ())
}

/// Reads a member's name as its place in a list of names (`None` for the others), without
/// allocating.
struct KeyIn(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for KeyIn {
    type Value = Option<usize>;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for KeyIn {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E>(self, name: &str) -> Result<Self::Value, E> {
        Ok(self.0.iter().position(|known| *known == name))
    }
}

/// The `_meta` key of the protocol version a 2026-07-28 message names.
const META_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// A parsed outline: the message's and its params'.
pub(crate) struct Parsed<'a> {
    pub message: Outline<'a>,
    params: ParamsOutline<'a>,
}

impl<'a> Parsed<'a> {
    /// The outline of `frame`; `None` when it is not a JSON object.
    pub fn of(frame: &'a [u8]) -> Option<Self> {
        let mut message: Outline<'a> = serde_json::from_slice(frame).ok()?;
        let params = std::mem::take(&mut message.params.0);
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
        self.params.meta_version.as_deref()
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

/// Inserts a header; names are checked tokens and values pass through [`encode_header_value`], so
/// neither can be refused.
fn insert(headers: &mut HeaderMap, name: &str, value: &str) {
    // The protocol's own names as static names: no copy, no check on every message.
    let name = match name {
        PROTOCOL_VERSION => HeaderName::from_static(PROTOCOL_VERSION),
        METHOD => HeaderName::from_static(METHOD),
        NAME => HeaderName::from_static(NAME),
        _ => HeaderName::from_bytes(name.as_bytes()).expect("header names are RFC 9110 tokens"),
    };
    let value = HeaderValue::from_str(&encode_header_value(value)).expect("encode_header_value yields visible ASCII");
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

/// The one-pass outline reads what the typed two-pass reading it replaced read, for every
/// shape of params: the reference below is that reading, kept for the comparison.
#[cfg(test)]
mod one_pass {
    use std::borrow::Cow;

    use serde::Deserialize;
    use serde_json::value::RawValue;

    use super::Parsed;

    #[derive(Deserialize)]
    struct Typed<'a> {
        #[serde(borrow, default)]
        method: Option<Cow<'a, str>>,
        #[serde(borrow, default)]
        id: Option<&'a RawValue>,
        #[serde(borrow, default)]
        params: Option<&'a RawValue>,
    }

    #[derive(Default, Deserialize)]
    struct TypedParams<'a> {
        #[serde(borrow, default, rename = "_meta")]
        meta: Option<TypedMeta<'a>>,
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
    struct TypedMeta<'a> {
        #[serde(borrow, default, rename = "io.modelcontextprotocol/protocolVersion")]
        version: Option<Cow<'a, str>>,
    }

    type Read = (Option<String>, Option<String>, Option<String>, [Option<String>; 5]);

    fn text(raw: Option<&RawValue>) -> Option<String> {
        raw.map(|raw| raw.get().to_owned())
    }

    fn typed(frame: &str) -> Option<Read> {
        let message: Typed<'_> = serde_json::from_str(frame).ok()?;
        let params: TypedParams<'_> =
            message.params.and_then(|p| serde_json::from_str(p.get()).ok()).unwrap_or_default();
        let version = params.meta.and_then(|m| m.version).map(Cow::into_owned);
        let members = [params.name, params.uri, params.task_id, params.request_id, params.arguments].map(text);
        Some((message.method.map(Cow::into_owned), text(message.id), version, members))
    }

    fn one_pass(frame: &str) -> Option<Read> {
        let parsed = Parsed::of(frame.as_bytes())?;
        let p = &parsed.params;
        let members = [p.name, p.uri, p.task_id, p.request_id, p.arguments].map(text);
        let version = parsed.meta_version().map(str::to_owned);
        Some((parsed.method().map(str::to_owned), text(parsed.message.id), version, members))
    }

    #[test]
    fn reads_what_the_typed_reading_read() {
        let v = r#""io.modelcontextprotocol/protocolVersion""#;
        let frames = [
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":{"a":[1,{"b":"c"}]},"_meta":{"x":{"y":1},VK:"2026-07-28"}}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":"s","method":"resources/read","params":{"uri":"file:///a b","_meta":null}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"r"}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t-1","_meta":{VK:"2026\u002d07-28"}}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"m"}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":null}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":"text"}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":5}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","name":"b"}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","_meta":5}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","_meta":{VK:5}}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","_meta":{VK:null}}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","_meta":{VK:"a",VK:"b"}}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","_meta":{},"_meta":{}}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"n\u0061me":"a","other":[1,2,{"name":3}]}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":null,"uri":{"a":1}}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":5,"params":{"name":"a"}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a"},"params":{}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a"#.to_owned(),
            r#"[{"jsonrpc":"2.0","id":1,"method":"m"}]"#.to_owned(),
        ];
        for frame in frames {
            let frame = frame.replace("VK", v);
            assert_eq!(one_pass(&frame), typed(&frame), "{frame}");
        }
    }
}
