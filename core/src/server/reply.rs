//! What a served request answers before it is encoded: a result value, a `*/list` page, or
//! the JSON text a raw handler answered (a proxy's upstream result, passed on as it is).
//!
//! A page keeps its items as the JSON text each definition was serialised to once, at
//! registration, and is written out by joining those texts. Listing 1000 tools thus copies
//! about 150 KB of text instead of cloning, serialising and dropping 1000 `Value` trees,
//! which was nearly all of a listing's time.

use serde_json::{Map, Value};

use crate::wire::{RawJson, RawResult, ResultMembers};

pub(crate) enum Reply {
    Value(Value),
    Page(Page),
    Raw(RawResult),
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
    /// adds (`hinted`: a cache hint applies; [`ResultMembers::stamped`], from the members
    /// its client read, or read here), so it goes out untouched; otherwise it is parsed
    /// here, once, and stamped as a value.
    pub fn members_mut(&mut self, hinted: bool) -> Option<&mut Map<String, Value>> {
        if let Self::Raw(raw) = self {
            let read = raw.members().or_else(|| ResultMembers::read(raw.text()));
            if read.is_some_and(|m| m.stamped(hinted)) {
                return None;
            }
            *self = Self::Value(raw.text().parse_owned().unwrap_or(Value::Null));
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
            Self::Raw(raw) => return Ok(raw.text().clone()),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> RawJson {
        RawJson::from_text(text.to_owned()).unwrap()
    }

    /// Whether stamping would add nothing, from one scan of the text.
    fn stamped(raw: &RawJson, hinted: bool) -> bool {
        ResultMembers::read(raw).is_some_and(|m| m.stamped(hinted))
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
        // Text read by the server itself, or with the members its client read.
        for reply in [RawResult::from(raw(text)), RawResult::read(raw(text))] {
            let mut reply = Reply::Raw(reply);
            assert!(reply.members_mut(false).is_none());
            assert_eq!(reply.encode().unwrap().get(), text);
            // A cache hint: the cache members are missing, so it is parsed and stamped.
            assert!(reply.members_mut(true).is_some());
        }
        for reply in [RawResult::from(raw(r#"{"z":1,"a":2}"#)), RawResult::read(raw(r#"{"z":1,"a":2}"#))] {
            let mut reply = Reply::Raw(reply);
            let members = reply.members_mut(false).expect("parsed to be stamped");
            members.insert("resultType".into(), Value::from("complete"));
            assert_eq!(reply.encode().unwrap().get(), r#"{"z":1,"a":2,"resultType":"complete"}"#);
        }
    }
}
