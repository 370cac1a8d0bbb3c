//! What a served request answers before it is encoded: a result value, or a `*/list` page.
//!
//! A page keeps its items as the JSON text each definition was serialised to once, at
//! registration, and is written out by joining those texts. Listing 1000 tools thus copies
//! about 150 KB of text instead of cloning, serialising and dropping 1000 `Value` trees,
//! which was nearly all of a listing's time.

use serde_json::{Map, Value};

use crate::wire::RawJson;

pub(crate) enum Reply {
    Value(Value),
    Page(Page),
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
    pub fn members_mut(&mut self) -> Option<&mut Map<String, Value>> {
        match self {
            Self::Value(Value::Object(map)) => Some(map),
            Self::Value(_) => None,
            Self::Page(page) => Some(&mut page.members),
        }
    }

    pub fn encode(&self) -> serde_json::Result<RawJson> {
        let page = match self {
            Self::Value(value) => return Ok(RawJson::from_value(value)),
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
