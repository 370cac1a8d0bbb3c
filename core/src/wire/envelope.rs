//! The borrowed parse of one JSON-RPC message.
//!
//! One pass of serde_json over the text collects the envelope members as `&RawValue`
//! slices; classification then checks the shape and names precisely what is wrong, so that a
//! malformed message gets an error that says why (and carries its id when it has a valid
//! one). Any serde error is a syntax error (-32700); every shape problem is found after the
//! pass (-32600), never inside it.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::error_object::{ErrorCode, ErrorObject};
use super::id::RequestId;
use super::recover::recover;
use super::scan;
use super::text::SharedStr;

/// A request id borrowed from the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Id<'a> {
    Number(i64),
    String(Cow<'a, str>),
}

impl Id<'_> {
    /// The owned id; a borrowed string becomes a view into `frame` (which must contain it).
    pub fn to_owned_in(&self, frame: &SharedStr) -> RequestId {
        match self {
            Id::Number(n) => RequestId::Number(*n),
            Id::String(Cow::Borrowed(s)) => RequestId::String(frame.slice_ref(s)),
            Id::String(Cow::Owned(s)) => RequestId::String(SharedStr::from(s.as_str())),
        }
    }

    pub fn to_owned(&self) -> RequestId {
        match self {
            Id::Number(n) => RequestId::Number(*n),
            Id::String(s) => RequestId::String(SharedStr::from(s.as_ref())),
        }
    }
}

/// One well-formed JSON-RPC message, borrowed from the text it was parsed from.
#[derive(Debug)]
pub enum Envelope<'a> {
    Request { id: Id<'a>, method: Cow<'a, str>, params: Option<&'a RawValue> },
    Notification { method: Cow<'a, str>, params: Option<&'a RawValue> },
    Result { id: Id<'a>, result: &'a RawValue },
    Error { id: Option<Id<'a>>, error: ErrorObject },
}

/// A parsed frame: one message, or a JSON-RPC batch whose elements are parsed one by one
/// with [`Parsed::element`].
#[derive(Debug)]
pub enum Parsed<'a> {
    Single(Envelope<'a>),
    Batch(Vec<&'a RawValue>),
}

impl<'a> Parsed<'a> {
    /// Classifies one element of a batch.
    pub fn element(raw: &'a RawValue) -> Result<Envelope<'a>, ParseError<'a>> {
        match parse(raw.get())? {
            Parsed::Single(envelope) => Ok(envelope),
            Parsed::Batch(_) => Err(ParseError::new(InvalidReason::NotAnObject, None, false)),
        }
    }
}

/// Why a message could not be accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InvalidReason {
    Syntax(String),
    NotAnObject,
    EmptyBatch,
    MissingVersion,
    WrongVersion,
    DuplicateMember(&'static str),
    MethodNotString,
    IdNull,
    IdNotStringOrInteger,
    RequestWithResult,
    ParamsNotStructured,
    ResultAndError,
    ResultWithoutId,
    InvalidErrorObject(String),
    NoMethodResultOrError,
}

impl InvalidReason {
    pub fn code(&self) -> i64 {
        match self {
            Self::Syntax(_) => ErrorCode::PARSE_ERROR,
            _ => ErrorCode::INVALID_REQUEST,
        }
    }
}

impl fmt::Display for InvalidReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax(e) => write!(f, "Parse error: {e}"),
            Self::NotAnObject => f.write_str("Invalid request: a message must be a JSON object"),
            Self::EmptyBatch => f.write_str("Invalid request: empty batch"),
            Self::MissingVersion => f.write_str("Invalid request: missing \"jsonrpc\": \"2.0\""),
            Self::WrongVersion => f.write_str("Invalid request: \"jsonrpc\" must be \"2.0\""),
            Self::DuplicateMember(m) => write!(f, "Invalid request: duplicate member \"{m}\""),
            Self::MethodNotString => f.write_str("Invalid request: \"method\" must be a string"),
            Self::IdNull => f.write_str("Invalid request: \"id\" must not be null"),
            Self::IdNotStringOrInteger => f.write_str("Invalid request: \"id\" must be a string or an integer"),
            Self::RequestWithResult => f.write_str("Invalid request: a request must not carry \"result\" or \"error\""),
            Self::ParamsNotStructured => f.write_str("Invalid request: \"params\" must be an object or an array"),
            Self::ResultAndError => f.write_str("Invalid response: both \"result\" and \"error\" are present"),
            Self::ResultWithoutId => f.write_str("Invalid response: \"result\" without an \"id\""),
            Self::InvalidErrorObject(e) => write!(f, "Invalid response: bad \"error\" object: {e}"),
            Self::NoMethodResultOrError => f.write_str("Invalid request: no \"method\", \"result\" or \"error\""),
        }
    }
}

/// A message that could not be accepted, with what could still be learnt from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError<'a> {
    pub reason: InvalidReason,
    /// The message's id, when it had a valid one (or one could be recovered from bad JSON).
    pub id: Option<Id<'a>>,
    /// The message looked like a response (no `method`, a `result` or `error`): such a
    /// message is never answered, so that two peers cannot bounce errors forever.
    pub response_like: bool,
}

impl<'a> ParseError<'a> {
    fn new(reason: InvalidReason, id: Option<Id<'a>>, response_like: bool) -> Self {
        Self { reason, id, response_like }
    }

    pub fn to_error_object(&self) -> ErrorObject {
        ErrorObject::new(self.reason.code(), self.reason.to_string())
    }
}

impl fmt::Display for ParseError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.reason.fmt(f)
    }
}

/// Parses one frame of text into a message or a batch.
///
/// The hand-rolled scan takes every plain object, whatever its size (its string skipping
/// tests 32 bytes at a time, a third of serde_json's instructions on a 1 MiB text; see
/// benches/README.md); serde_json takes the rest (batches and anything the scan will not
/// vouch for), and names the syntax error when there is one.
pub fn parse(text: &str) -> Result<Parsed<'_>, ParseError<'_>> {
    if let Some(members) = scan::members(text) {
        return classify(&members).map(Parsed::Single);
    }
    match serde_json::from_str::<Top<'_>>(text) {
        Ok(Top::Object(members)) => classify(&members).map(Parsed::Single),
        Ok(Top::Array(items)) if items.is_empty() => Err(ParseError::new(InvalidReason::EmptyBatch, None, false)),
        Ok(Top::Array(items)) => Ok(Parsed::Batch(items)),
        Ok(Top::Other) => Err(ParseError::new(InvalidReason::NotAnObject, None, false)),
        Err(e) => {
            let found = recover(text.as_bytes());
            let id = found.id.map(|id| match id {
                RequestId::Number(n) => Id::Number(n),
                RequestId::String(s) => Id::String(Cow::Owned(s.to_string())),
            });
            Err(ParseError::new(InvalidReason::Syntax(e.to_string()), id, found.response_like))
        }
    }
}

fn classify<'a>(m: &Members<'a>) -> Result<Envelope<'a>, ParseError<'a>> {
    let response_like = m.method.is_none() && (m.result.is_some() || m.error.is_some());
    let id = m.id.map(parse_id);
    let valid_id = match &id {
        Some(Ok(id)) => Some(id.clone()),
        _ => None,
    };
    let fail = |reason| Err(ParseError::new(reason, valid_id.clone(), response_like));

    if let Some(member) = m.duplicate {
        return fail(InvalidReason::DuplicateMember(member));
    }
    match m.jsonrpc {
        None => return fail(InvalidReason::MissingVersion),
        Some(v) if !is_version_2(v) => return fail(InvalidReason::WrongVersion),
        Some(_) => {}
    }
    if let Some(method) = m.method {
        if !method.get().starts_with('"') {
            return fail(InvalidReason::MethodNotString);
        }
        if m.result.is_some() || m.error.is_some() {
            return fail(InvalidReason::RequestWithResult);
        }
        let params = match m.params {
            Some(p) if p.get() == "null" => None,
            Some(p) if !p.get().starts_with(['{', '[']) => {
                return fail(InvalidReason::ParamsNotStructured);
            }
            p => p,
        };
        let method = match json_string(method) {
            Ok(method) => method,
            Err(reason) => return fail(reason),
        };
        return match id {
            None => Ok(Envelope::Notification { method, params }),
            Some(Ok(id)) => Ok(Envelope::Request { id, method, params }),
            Some(Err(reason)) => fail(reason),
        };
    }
    match (m.result, m.error) {
        (Some(_), Some(_)) => fail(InvalidReason::ResultAndError),
        (Some(result), None) => match id {
            Some(Ok(id)) => Ok(Envelope::Result { id, result }),
            None | Some(Err(InvalidReason::IdNull)) => fail(InvalidReason::ResultWithoutId),
            Some(Err(reason)) => fail(reason),
        },
        (None, Some(error)) => {
            let id = match id {
                None | Some(Err(InvalidReason::IdNull)) => None,
                Some(Ok(id)) => Some(id),
                Some(Err(reason)) => return fail(reason),
            };
            match serde_json::from_str::<ErrorObject>(error.get()) {
                Ok(error) => Ok(Envelope::Error { id, error }),
                Err(e) => fail(InvalidReason::InvalidErrorObject(e.to_string())),
            }
        }
        (None, None) => fail(InvalidReason::NoMethodResultOrError),
    }
}

fn is_version_2(raw: &RawValue) -> bool {
    raw.get() == "\"2.0\"" || (raw.get().starts_with('"') && json_string(raw).is_ok_and(|v| v == "2.0"))
}

fn parse_id(raw: &RawValue) -> Result<Id<'_>, InvalidReason> {
    let text = raw.get();
    match text.as_bytes()[0] {
        b'"' => json_string(raw).map(Id::String),
        b'-' | b'0'..=b'9' => text.parse::<i64>().map(Id::Number).map_err(|_| InvalidReason::IdNotStringOrInteger),
        b'n' => Err(InvalidReason::IdNull),
        _ => Err(InvalidReason::IdNotStringOrInteger),
    }
}

/// The text of a JSON string value: borrowed when it has no escapes, decoded otherwise.
/// Valid JSON can still escape half a surrogate pair (`"\ud800"`), which no Rust string
/// holds: that is refused as a parse error.
fn json_string(raw: &RawValue) -> Result<Cow<'_, str>, InvalidReason> {
    let text = raw.get();
    let inner = &text[1..text.len() - 1];
    // Method names and ids are short: a plain loop beats memchr's set-up.
    if !inner.as_bytes().contains(&b'\\') {
        Ok(Cow::Borrowed(inner))
    } else {
        serde_json::from_str(text).map(Cow::Owned).map_err(|e| InvalidReason::Syntax(e.to_string()))
    }
}

/// The envelope members, collected in one pass (by [`scan`](super::scan) or serde_json).
#[derive(Default)]
pub(super) struct Members<'a> {
    pub jsonrpc: Option<&'a RawValue>,
    pub id: Option<&'a RawValue>,
    pub method: Option<&'a RawValue>,
    pub params: Option<&'a RawValue>,
    pub result: Option<&'a RawValue>,
    pub error: Option<&'a RawValue>,
    pub duplicate: Option<&'static str>,
}

enum Top<'a> {
    Object(Members<'a>),
    Array(Vec<&'a RawValue>),
    Other,
}

enum Key {
    Jsonrpc,
    Id,
    Method,
    Params,
    Result,
    Error,
    Other,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
                Ok(match key {
                    "jsonrpc" => Key::Jsonrpc,
                    "id" => Key::Id,
                    "method" => Key::Method,
                    "params" => Key::Params,
                    "result" => Key::Result,
                    "error" => Key::Error,
                    _ => Key::Other,
                })
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

impl<'de> Deserialize<'de> for Top<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TopVisitor)
    }
}

struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = Top<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON-RPC message")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top<'de>, A::Error> {
        let mut m = Members::default();
        while let Some(key) = map.next_key::<Key>()? {
            let (slot, name) = match key {
                Key::Jsonrpc => (&mut m.jsonrpc, "jsonrpc"),
                Key::Id => (&mut m.id, "id"),
                Key::Method => (&mut m.method, "method"),
                Key::Params => (&mut m.params, "params"),
                Key::Result => (&mut m.result, "result"),
                Key::Error => (&mut m.error, "error"),
                Key::Other => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            let value = map.next_value::<&'de RawValue>()?;
            if slot.replace(value).is_some() {
                m.duplicate.get_or_insert(name);
            }
        }
        Ok(Top::Object(m))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Top<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(4));
        while let Some(item) = seq.next_element::<&'de RawValue>()? {
            items.push(item);
        }
        Ok(Top::Array(items))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Top<'de>, E> {
        Ok(Top::Other)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Top<'de>, E> {
        Ok(Top::Other)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Top<'de>, E> {
        Ok(Top::Other)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Top<'de>, E> {
        Ok(Top::Other)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Top<'de>, E> {
        Ok(Top::Other)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Top<'de>, E> {
        Ok(Top::Other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(text: &str) -> InvalidReason {
        parse(text).unwrap_err().reason
    }

    #[test]
    fn request_borrows_method_and_params() {
        let text = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo"}}"#;
        let Parsed::Single(Envelope::Request { id, method, params }) = parse(text).unwrap() else {
            panic!("not a request")
        };
        assert_eq!(id, Id::Number(7));
        assert!(matches!(method, Cow::Borrowed("tools/call")));
        assert_eq!(params.unwrap().get(), r#"{"name":"echo"}"#);
    }

    #[test]
    fn escaped_method_and_string_id_decode() {
        let text = r#"{"jsonrpc":"2.0","id":"a\"b","method":"tools\/call"}"#;
        let Parsed::Single(Envelope::Request { id, method, params }) = parse(text).unwrap() else {
            panic!("not a request")
        };
        assert_eq!(id, Id::String(Cow::Borrowed("a\"b")));
        assert_eq!(method, "tools/call");
        assert!(params.is_none());
    }

    #[test]
    fn notification_result_and_error() {
        let n = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        assert!(matches!(parse(n).unwrap(), Parsed::Single(Envelope::Notification { .. })));
        let r = r#"{"jsonrpc":"2.0","id":"x","result":{}}"#;
        assert!(matches!(parse(r).unwrap(), Parsed::Single(Envelope::Result { .. })));
        let e = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}"#;
        let Parsed::Single(Envelope::Error { id, error }) = parse(e).unwrap() else { panic!() };
        assert_eq!(id, None);
        assert_eq!(error.code, -32700);
    }

    #[test]
    fn every_malformed_shape_is_named() {
        use InvalidReason::*;
        assert!(matches!(reason("{"), Syntax(_)));
        assert_eq!(reason("42"), NotAnObject);
        assert_eq!(reason("[]"), EmptyBatch);
        assert_eq!(reason(r#"{"id":1,"method":"m"}"#), MissingVersion);
        assert_eq!(reason(r#"{"jsonrpc":"1.0","id":1,"method":"m"}"#), WrongVersion);
        assert_eq!(reason(r#"{"jsonrpc":2.0,"id":1,"method":"m"}"#), WrongVersion);
        assert_eq!(reason(r#"{"jsonrpc":"2.0","id":null,"method":"m"}"#), IdNull);
        assert_eq!(reason(r#"{"jsonrpc":"2.0","id":{},"method":"m"}"#), IdNotStringOrInteger);
        assert_eq!(reason(r#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#), IdNotStringOrInteger);
        assert_eq!(reason(r#"{"jsonrpc":"2.0","id":true,"method":"m"}"#), IdNotStringOrInteger);
        assert_eq!(reason(r#"{"jsonrpc":"2.0","id":1,"method":3}"#), MethodNotString);
        assert_eq!(reason(r#"{"jsonrpc":"2.0","id":1,"method":"m","result":1}"#), RequestWithResult);
        assert_eq!(reason(r#"{"jsonrpc":"2.0","id":1,"method":"m","params":3}"#), ParamsNotStructured);
        assert_eq!(reason(r#"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":""}}"#), ResultAndError);
        assert_eq!(reason(r#"{"jsonrpc":"2.0","result":1}"#), ResultWithoutId);
        assert!(matches!(reason(r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}"#), InvalidErrorObject(_)));
        assert_eq!(reason(r#"{"jsonrpc":"2.0","id":1}"#), NoMethodResultOrError);
        assert_eq!(reason(r#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"m"}"#), DuplicateMember("jsonrpc"));
    }

    #[test]
    fn an_unpaired_surrogate_is_a_parse_error_not_a_panic() {
        let e = parse(r#"{"jsonrpc":"2.0","id":1,"method":"\ud800"}"#).unwrap_err();
        assert!(matches!(&e.reason, InvalidReason::Syntax(why) if why.contains("escape")), "{e}");
        assert_eq!(e.id, Some(Id::Number(1)));
        let e = parse(r#"{"jsonrpc":"2.0","id":"\udc00","method":"m"}"#).unwrap_err();
        assert!(matches!(e.reason, InvalidReason::Syntax(_)));
        assert_eq!(reason(r#"{"jsonrpc":"\ud800","id":1,"method":"m"}"#), InvalidReason::WrongVersion);
    }

    #[test]
    fn errors_keep_a_valid_id_and_know_responses() {
        let e = parse(r#"{"jsonrpc":"1.0","id":"q","method":"m"}"#).unwrap_err();
        assert_eq!(e.id, Some(Id::String(Cow::Borrowed("q"))));
        assert!(!e.response_like);
        let e = parse(r#"{"jsonrpc":"2.0","id":4,"result":1,"error":{}}"#).unwrap_err();
        assert!(e.response_like);
        let e = parse(r#"{"jsonrpc":"2.0","id":9,"method":"m","params":"#).unwrap_err();
        assert_eq!(e.id, Some(Id::Number(9)));
        assert_eq!(e.to_error_object().code, -32700);
    }

    #[test]
    fn null_params_count_as_absent_and_unknown_members_are_ignored() {
        let text = r#"{"jsonrpc":"2.0","x":[1,{"y":2}],"id":1,"method":"m","params":null}"#;
        let Parsed::Single(Envelope::Request { params, .. }) = parse(text).unwrap() else { panic!() };
        assert!(params.is_none());
    }

    /// What serde_json alone makes of `text` (the path the scan must agree with).
    fn serde_members(text: &str) -> Option<[Option<&str>; 7]> {
        match serde_json::from_str::<Top<'_>>(text) {
            Ok(Top::Object(m)) => Some(slices(m)),
            _ => None,
        }
    }

    fn slices(m: Members<'_>) -> [Option<&str>; 7] {
        fn get(raw: Option<&RawValue>) -> Option<&str> {
            raw.map(RawValue::get)
        }
        [get(m.jsonrpc), get(m.id), get(m.method), get(m.params), get(m.result), get(m.error), m.duplicate]
    }

    /// The scan may refuse what serde_json accepts (serde_json then decides), but whatever it
    /// accepts must come out exactly as serde_json has it, and it must accept the common case.
    #[test]
    fn the_scan_agrees_with_serde_json_on_every_mutation() {
        let messages = [
            r#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello \"w\u00e9rld\" \/\b\f\n\r\t"},"_meta":{"progressToken":42}}}"#,
            r#" { "jsonrpc" : "2.0" , "id" : "a-1" , "result" : [ 1 , -2.5e+3 , 0.0 , 1E-2 , true , false , null , [ ] , { } , "é€😀" ] } "#,
            r#"{"jsonrpc":"2.0","id":-7,"error":{"code":-32601,"message":"nope","data":{"x":[[[{}]]]}}}"#,
            r#"{"x":{"id":1},"jsonrpc":"2.0","id":1,"id":2,"method":"m","y":[0,1e5],"method":"n"}"#,
            "{\"jsonrpc\":\"2.0\",\t\"method\":\"notifications/progress\",\r\n\"params\":{}}",
            "{}",
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        ];
        let inserts = ["", "\"", "\\", ",", ":", "{", "}", "[", "]", " ", "0", "-", ".", "e", "\u{1}", "\\u12", "é"];
        let mut checked = 0;
        for message in messages {
            assert_eq!(scan::members(message).map(slices), serde_members(message), "{message}");
            for at in (0..=message.len()).filter(|at| message.is_char_boundary(*at)) {
                let next = message[at..].chars().next().map_or(at, |c| at + c.len_utf8());
                for insert in inserts {
                    for cut in [at, next] {
                        let text = format!("{}{insert}{}", &message[..at], &message[cut..]);
                        if let Some(scanned) = scan::members(&text) {
                            assert_eq!(Some(slices(scanned)), serde_members(&text), "{text}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "only {checked} mutations were accepted");
    }

    #[test]
    fn the_scan_leaves_batches_escaped_names_and_deep_nesting_to_serde_json() {
        assert!(scan::members(r#"[{"jsonrpc":"2.0","method":"m"}]"#).is_none());
        assert!(scan::members(r#"{"jsonrpc":"2.0",}"#).is_none());
        assert!(scan::members(r#"{"jsonrpc":"2.0","#).is_none());
        assert!(scan::members(r#"{"jsonrp\u0063":"2.0","method":"m"}"#).is_none());
        let deep = format!(r#"{{"jsonrpc":"2.0","method":"m","params":{}{}}}"#, "[".repeat(100), "]".repeat(100));
        assert!(scan::members(&deep).is_none());
        assert!(matches!(parse(&deep), Ok(Parsed::Single(Envelope::Notification { .. }))));
        assert_eq!(
            reason(r#"{"jsonrp\u0063":"2.0","jsonrpc":"2.0","id":1,"method":"m"}"#),
            InvalidReason::DuplicateMember("jsonrpc")
        );
    }

    #[test]
    fn batches_split_into_elements() {
        let text = r#"[{"jsonrpc":"2.0","id":1,"method":"a"}, 5]"#;
        let Parsed::Batch(items) = parse(text).unwrap() else { panic!() };
        assert!(matches!(Parsed::element(items[0]), Ok(Envelope::Request { .. })));
        assert_eq!(Parsed::element(items[1]).unwrap_err().reason, InvalidReason::NotAnObject);
    }
}
