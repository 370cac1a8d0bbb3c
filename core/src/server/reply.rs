//! What a served request answers before it is encoded: a result value, a `*/list` page, or
//! the JSON text a raw handler answered (a proxy's upstream result, passed on as it is).
//!
//! A page keeps its items as the JSON text each definition was serialised to once, at
//! registration, and is written out by joining those texts. Listing 1000 tools thus copies
//! about 150 KB of text instead of cloning, serialising and dropping 1000 `Value` trees,
//! which was nearly all of a listing's time.

use serde_json::{Map, Value};

use crate::protocol::meta;
use crate::wire::{RawJson, object_members};

pub(crate) enum Reply {
    Value(Value),
    Page(Page),
    Raw(RawJson),
}

/// One page of a listing: the items under `key`, beside the result's other members.
pub(crate) struct Page {
    pub key: &'static str,
    pub items: Vec<RawJson>,
    pub members: Map<String, Value>,
}

impl From<Value> for Reply {
    fn from(value: Value) -> Self {
        Self::Value(value)
    }
}

impl Reply {
    /// The result's members, for stamping; `None` when the result is not an object.
    /// For [`Reply::Raw`], `None` also when the text already has every member stamping
    /// adds (`hinted`: a cache hint applies), so it goes out untouched; otherwise it is
    /// parsed here, once, and stamped as a value.
    pub fn members_mut(&mut self, hinted: bool) -> Option<&mut Map<String, Value>> {
        if let Self::Raw(raw) = self {
            if stamped(raw, hinted) {
                return None;
            }
            *self = Self::Value(raw.parse_owned().unwrap_or(Value::Null));
        }
        match self {
            Self::Value(Value::Object(map)) => Some(map),
            Self::Value(_) | Self::Raw(_) => None,
            Self::Page(page) => Some(&mut page.members),
        }
    }

    pub fn encode(&self) -> serde_json::Result<RawJson> {
        let page = match self {
            Self::Value(value) => return Ok(RawJson::from_value(value)),
            Self::Raw(raw) => return Ok(raw.clone()),
            Self::Page(page) => page,
        };
        let size: usize = page.items.iter().map(|item| item.get().len() + 1).sum();
        let mut out = Vec::with_capacity(size + page.key.len() + 64);
        out.push(b'{');
        serde_json::to_writer(&mut out, page.key)?;
        out.extend_from_slice(b":[");
        for (i, item) in page.items.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(item.get().as_bytes());
        }
        out.push(b']');
        for (key, value) in &page.members {
            out.push(b',');
            serde_json::to_writer(&mut out, key)?;
            out.push(b':');
            serde_json::to_writer(&mut out, value)?;
        }
        out.push(b'}');
        let text = String::from_utf8(out).expect("JSON text is UTF-8");
        Ok(RawJson::trusted(text.into()))
    }
}

/// Whether a 2026-07-28 result's text already carries what [`stamp`] would add, so that
/// stamping would change nothing: `resultType`, a `_meta` object naming the server (a
/// `_meta` that is not an object stamping leaves alone), and, with a cache hint on a
/// complete result, `ttlMs` and `cacheScope`. Anything unsure (not an object, an escaped
/// `resultType`) counts as not stamped, and the caller's parse and stamp decide.
///
/// [`stamp`]: super::features::stamp::stamp
fn stamped(raw: &RawJson, hinted: bool) -> bool {
    let Some([Some(result_type), Some(fields), ttl, scope]) =
        raw.members(["resultType", "_meta", "ttlMs", "cacheScope"])
    else {
        return false;
    };
    let named = match object_members(fields.get(), [meta::SERVER_INFO]) {
        Some([server_info]) => server_info.is_some(),
        None => !fields.get().starts_with('{'),
    };
    let result_type = result_type.get();
    // A plain string other than "complete": no cache members are added.
    let incomplete = result_type.starts_with('"') && !result_type.contains('\\') && result_type != "\"complete\"";
    named && (!hinted || incomplete || (ttl.is_some() && scope.is_some()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> RawJson {
        RawJson::from_text(text.to_owned()).unwrap()
    }

    #[test]
    fn a_raw_result_is_left_alone_only_when_stamping_would_add_nothing() {
        let info = r#""_meta":{"io.modelcontextprotocol/serverInfo":{"name":"up"}}"#;
        let complete = format!(r#"{{"b":1.50,"resultType":"complete",{info}}}"#);
        assert!(stamped(&raw(&complete), false));
        // A cache hint applies: a complete result needs both of its members.
        assert!(!stamped(&raw(&complete), true));
        let cached = format!(r#"{{"resultType":"complete",{info},"ttlMs":5,"cacheScope":"public"}}"#);
        assert!(stamped(&raw(&cached), true));
        let asking = format!(r#"{{"resultType":"input_required",{info}}}"#);
        assert!(stamped(&raw(&asking), true));
        // What stamping adds is missing, or unsure: the result is parsed and stamped.
        assert!(!stamped(&raw(r#"{"resultType":"complete"}"#), false));
        assert!(!stamped(&raw(r#"{"resultType":"complete","_meta":{}}"#), false));
        assert!(!stamped(&raw(&format!(r#"{{{info}}}"#)), false));
        assert!(!stamped(&raw(&format!(r#"{{"resultType":"compl\u0065te",{info}}}"#)), true));
        assert!(!stamped(&raw("[1]"), false));
        assert!(stamped(&raw(r#"{"resultType":"complete","_meta":null}"#), false));
    }

    #[test]
    fn a_raw_reply_goes_out_as_its_text_and_is_stamped_as_a_value_when_it_must_be() {
        let text = r#"{"z": 1.50, "resultType":"complete", "_meta":{"io.modelcontextprotocol/serverInfo":{}}}"#;
        let mut reply = Reply::Raw(raw(text));
        assert!(reply.members_mut(false).is_none());
        assert_eq!(reply.encode().unwrap().get(), text);
        let mut reply = Reply::Raw(raw(r#"{"z":1,"a":2}"#));
        let members = reply.members_mut(false).expect("parsed to be stamped");
        members.insert("resultType".into(), Value::from("complete"));
        assert_eq!(reply.encode().unwrap().get(), r#"{"z":1,"a":2,"resultType":"complete"}"#);
    }
}
