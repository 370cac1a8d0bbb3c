//! A result's JSON text passed on by a proxy, with what was read of it on the way.
//!
//! A proxy's client receives an upstream result as text and reads its `resultType` (does
//! it ask for input?); the front server then checks the same text for what stamping would
//! add (`resultType`, `_meta` naming a server, the cache members) before sending it on.
//! Both read the same few top-level members, so they are read once, in the client's scan,
//! and travel with the text ([`RawResult`]).

use std::fmt;

use serde_json::value::RawValue;

use super::text::{RawJson, object_members};
use crate::protocol::meta;

/// A result's JSON text, and what a scan of it found when one was made.
#[derive(Clone)]
pub struct RawResult {
    text: RawJson,
    read: Option<ResultMembers>,
}

impl RawResult {
    /// `text` with its members read now (one scan of it, and of its `_meta`).
    pub(crate) fn read(text: RawJson) -> Self {
        let read = ResultMembers::read(&text);
        Self { text, read }
    }

    pub fn text(&self) -> &RawJson {
        &self.text
    }

    pub fn into_text(self) -> RawJson {
        self.text
    }

    pub fn get(&self) -> &str {
        self.text.get()
    }

    /// What the scan of the text found; `None` when none was made (or it is no object).
    pub(crate) fn members(&self) -> Option<ResultMembers> {
        self.read
    }
}

/// Text not read yet: its members are read when they are needed.
impl From<RawJson> for RawResult {
    fn from(text: RawJson) -> Self {
        Self { text, read: None }
    }
}

impl fmt::Debug for RawResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text.get())
    }
}

/// What a result's top-level members say to its client and to a server passing it on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ResultMembers {
    /// `resultType` is `input_required` (escaped or not).
    pub asks_input: bool,
    /// `resultType` is there, and `_meta` is an object naming a server, or no object
    /// (which stamping leaves alone).
    named: bool,
    /// `resultType` is a plain string other than `complete`: no cache members are added.
    incomplete: bool,
    /// `ttlMs` and `cacheScope` are both there.
    cached: bool,
}

impl ResultMembers {
    /// One scan of `text`'s top-level members (and of its `_meta`'s); `None` when it is no
    /// JSON object.
    pub fn read(text: &RawJson) -> Option<Self> {
        let [result_type, fields, ttl, scope] = text.members(["resultType", "_meta", "ttlMs", "cacheScope"])?;
        let named = match (result_type, fields) {
            (Some(_), Some(fields)) => match object_members(fields.get(), [meta::SERVER_INFO]) {
                Some([server_info]) => server_info.is_some(),
                None => !fields.get().starts_with('{'),
            },
            _ => false,
        };
        let result_type = result_type.map(RawValue::get);
        Some(Self {
            asks_input: result_type.is_some_and(asks_input),
            named,
            incomplete: result_type.is_some_and(|t| t.starts_with('"') && !t.contains('\\') && t != "\"complete\""),
            cached: ttl.is_some() && scope.is_some(),
        })
    }

    /// Whether a 2026-07-28 result already carries what stamping would add, so that
    /// stamping would change nothing: `resultType`, a `_meta` object naming the server (a
    /// `_meta` that is not an object stamping leaves alone), and, with a cache hint
    /// (`hinted`) on a complete result, `ttlMs` and `cacheScope`. Anything unsure (an
    /// escaped `resultType`) counts as not stamped, and a parse and stamp decide.
    pub fn stamped(&self, hinted: bool) -> bool {
        self.named && (!hinted || self.incomplete || self.cached)
    }
}

/// Whether a `resultType`'s JSON text is the string `input_required` (escapes decoded).
fn asks_input(result_type: &str) -> bool {
    result_type == "\"input_required\""
        || (result_type.contains('\\')
            && serde_json::from_str::<String>(result_type).is_ok_and(|t| t == "input_required"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_required_is_read_from_the_text_of_result_type() {
        assert!(super::asks_input(r#""input_required""#));
        assert!(super::asks_input(r#""input\u005frequired""#));
        assert!(!super::asks_input(r#""complete""#));
        assert!(!super::asks_input(r#""input_required ""#));
        assert!(!super::asks_input("null"));
    }

    #[test]
    fn the_members_of_one_scan_say_whether_it_asks_for_input() {
        let read = |text: &str| ResultMembers::read(&RawJson::from_text(text.to_owned()).unwrap());
        assert!(read(r#"{"resultType":"input_required","inputRequests":{}}"#).unwrap().asks_input);
        assert!(!read(r#"{"resultType":"complete","content":[]}"#).unwrap().asks_input);
        assert!(!read(r#"{"content":[]}"#).unwrap().asks_input);
        assert_eq!(read("[1]"), None);
    }
}
