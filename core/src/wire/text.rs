//! Text that shares the frame it came from.
//!
//! A frame arrives as one `Bytes` buffer. Method names, string ids, params and results are
//! cheap, reference-counted views into it, so a parsed message owns its parts (it can move
//! to another task) without a copy of any of them.

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

use bytes::Bytes;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// Immutable UTF-8 text backed by a shared buffer.
#[derive(Clone, Default)]
pub struct SharedStr(Bytes);

impl SharedStr {
    /// Checks `bytes` for UTF-8 and wraps them without copying.
    pub fn from_utf8(bytes: Bytes) -> Result<Self, std::str::Utf8Error> {
        std::str::from_utf8(&bytes)?;
        Ok(Self(bytes))
    }

    pub const fn from_static(text: &'static str) -> Self {
        Self(Bytes::from_static(text.as_bytes()))
    }

    /// A view of `part`, which must be a sub-slice of `self`, sharing the buffer.
    pub(crate) fn slice_ref(&self, part: &str) -> Self {
        Self(self.0.slice_ref(part.as_bytes()))
    }

    pub fn as_str(&self) -> &str {
        // SAFETY: every constructor checks or inherits UTF-8 validity, and sub-slices are
        // taken only from `&str` views of the same buffer (on char boundaries).
        unsafe { std::str::from_utf8_unchecked(&self.0) }
    }

    pub fn into_bytes(self) -> Bytes {
        self.0
    }
}

impl From<String> for SharedStr {
    fn from(text: String) -> Self {
        Self(Bytes::from(text))
    }
}

impl From<&str> for SharedStr {
    fn from(text: &str) -> Self {
        Self(Bytes::copy_from_slice(text.as_bytes()))
    }
}

impl Deref for SharedStr {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for SharedStr {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for SharedStr {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}
impl Eq for SharedStr {}

impl PartialEq<str> for SharedStr {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SharedStr {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl Hash for SharedStr {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl fmt::Debug for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for SharedStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One JSON value kept as its text: a view into the frame it was parsed from.
///
/// Invariant: the text is a complete, valid JSON value (checked when it was parsed).
#[derive(Clone, PartialEq, Eq)]
pub struct RawJson(SharedStr);

impl RawJson {
    /// Parses `text` once to check it is one JSON value, then keeps it as is.
    pub fn from_text(text: impl Into<SharedStr>) -> serde_json::Result<Self> {
        let text = text.into();
        serde_json::from_str::<&RawValue>(text.as_str())?;
        Ok(Self(text))
    }

    /// Serialises `value` into a new buffer.
    pub fn to_json<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Self> {
        Ok(Self(SharedStr::from(serde_json::to_string(value)?)))
    }

    /// Writes `value` into a new buffer (the same text as [`RawJson::to_json`], faster on
    /// long strings; see [`super::write`]).
    pub fn from_value(value: &serde_json::Value) -> Self {
        let mut buf = Vec::with_capacity(128);
        super::write::value(&mut buf, value);
        // UTF-8 without a check: the writer copies only whole `&str`s and ASCII.
        Self(SharedStr(Bytes::from(buf)))
    }

    /// Wraps text already known to be one valid JSON value.
    pub(crate) fn trusted(text: SharedStr) -> Self {
        Self(text)
    }

    pub fn get(&self) -> &str {
        self.0.as_str()
    }

    /// Deserialises into `T`, borrowing strings from the frame where `T` allows it.
    pub fn parse<'a, T: Deserialize<'a>>(&'a self) -> serde_json::Result<T> {
        serde_json::from_str(self.get())
    }

    pub fn parse_owned<T: DeserializeOwned>(&self) -> serde_json::Result<T> {
        serde_json::from_str(self.get())
    }

    pub fn as_shared_str(&self) -> &SharedStr {
        &self.0
    }

    pub fn is_object(&self) -> bool {
        self.get().starts_with('{')
    }

    /// The top-level members `names` of an object, as slices of its text, read without
    /// building a tree (the other members are skipped). `None` when the text is not an
    /// object. A repeated member is its last occurrence, as `serde_json::Value` keeps it.
    pub fn members<const N: usize>(&self, names: [&str; N]) -> Option<[Option<&RawValue>; N]> {
        object_members(self.get(), names)
    }
}

/// [`RawJson::members`] of any JSON text (`None` also when it is not valid JSON).
pub fn object_members<'a, const N: usize>(text: &'a str, names: [&str; N]) -> Option<[Option<&'a RawValue>; N]> {
    let mut found = [None; N];
    let scanned = super::scan::each_member(text, |key, value| {
        if let Some(i) = names.iter().position(|name| *name == key) {
            found[i] = Some(value);
        }
    });
    if scanned.is_some() {
        return Some(found);
    }
    let mut seed = Members { names, found: [None; N] };
    let mut de = serde_json::Deserializer::from_str(text);
    serde::Deserializer::deserialize_map(&mut de, &mut seed).ok()?;
    de.end().ok()?;
    Some(seed.found)
}

/// An object's top-level members in the order written, as slices of its text, read in
/// one pass without building a tree. `None` when the text is not one valid JSON object or
/// names a member twice (which a `serde_json::Map` would fold into one, so a caller that
/// must see what a `Map` would see takes its own path then).
pub fn members_in_order(text: &str) -> Option<Vec<(Cow<'_, str>, &RawValue)>> {
    let mut members = Vec::with_capacity(8);
    let members = match super::scan::each_member(text, |key, value| members.push((Cow::Borrowed(key), value))) {
        Some(()) => members,
        None => {
            let mut de = serde_json::Deserializer::from_str(text);
            let members = serde::Deserializer::deserialize_map(&mut de, InOrder).ok()?;
            de.end().ok()?;
            members
        }
    };
    let repeated = members.iter().enumerate().any(|(i, (key, _))| members[..i].iter().any(|(k, _)| k == key));
    (!repeated).then_some(members)
}

/// The visitor of [`members_in_order`].
struct InOrder;

impl<'de> serde::de::Visitor<'de> for InOrder {
    type Value = Vec<(Cow<'de, str>, &'de RawValue)>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(4));
        while let Some(Key(key)) = map.next_key()? {
            members.push((key, map.next_value()?));
        }
        Ok(members)
    }
}

/// A member name, borrowed from the text unless it has escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> serde::de::Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }

            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Borrowed(v)))
            }

            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// The visitor of [`RawJson::members`].
struct Members<'n, 'a, const N: usize> {
    names: [&'n str; N],
    found: [Option<&'a RawValue>; N],
}

impl<'de, const N: usize> serde::de::Visitor<'de> for &mut Members<'_, 'de, N> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match self.names.iter().position(|name| *name == key) {
                Some(i) => self.found[i] = Some(map.next_value()?),
                None => drop(map.next_value::<serde::de::IgnoredAny>()?),
            }
        }
        Ok(())
    }
}

impl From<Box<RawValue>> for RawJson {
    fn from(raw: Box<RawValue>) -> Self {
        Self(SharedStr::from(String::from(Box::<str>::from(raw))))
    }
}

impl Serialize for RawJson {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let raw: &RawValue = serde_json::from_str(self.get()).map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

impl fmt::Display for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_in_order_are_read_as_written_and_a_repeated_one_is_refused() {
        let text = r#"{"b": [1, {"x": 2}], "a\u0041": "s", "_meta": {"k": 1.50}}"#;
        let members = members_in_order(text).unwrap();
        let read: Vec<(&str, &str)> = members.iter().map(|(k, v)| (k.as_ref(), v.get())).collect();
        assert_eq!(read, [("b", r#"[1, {"x": 2}]"#), ("aA", r#""s""#), ("_meta", r#"{"k": 1.50}"#)]);
        assert!(matches!(members[0].0, Cow::Borrowed(_)));
        assert!(members_in_order(r#"{"a": 1, "a": 2}"#).is_none());
        assert!(members_in_order("[1]").is_none());
        assert!(members_in_order(r#"{"a": 1} x"#).is_none());
        assert_eq!(members_in_order("{}").unwrap().len(), 0);
    }

    /// The scanner's pass ([`super::super::scan::each_member`]) and serde_json's visitor
    /// read the same members, or both refuse, on texts and every one-byte mutation of them.
    #[test]
    fn the_scanned_members_are_serde_json_s_on_every_mutation() {
        fn by_serde(text: &str) -> Option<Vec<(String, String)>> {
            let mut de = serde_json::Deserializer::from_str(text);
            let members = serde::Deserializer::deserialize_map(&mut de, InOrder).ok()?;
            de.end().ok()?;
            Some(members.iter().map(|(k, v)| (k.to_string(), v.get().to_owned())).collect())
        }
        fn by_scan(text: &str) -> Option<Vec<(String, String)>> {
            let mut members = Vec::new();
            super::super::scan::each_member(text, |k, v| members.push((k.to_owned(), v.get().to_owned())))?;
            Some(members)
        }
        let texts = [
            r#"{"name":"fx__t","arguments":{"a":[1,-2.5e3,true,null,"x\"y"]},"_meta":{"progressToken":7}}"#,
            r#" { "a" : { } , "b" : [ ] , "c" : "\u00e9" } "#,
            "{}",
            r#"{"a":0}"#,
        ];
        for text in texts {
            assert_eq!(by_scan(text), by_serde(text), "{text}");
            for at in 0..text.len() {
                for byte in [b'"', b'{', b'}', b'[', b']', b',', b':', b'\\', b'1', b' ', b'x', 0x01] {
                    let mut mutated = text.as_bytes().to_vec();
                    mutated[at] = byte;
                    let Ok(mutated) = String::from_utf8(mutated) else { continue };
                    if let Some(scanned) = by_scan(&mutated) {
                        assert_eq!(Some(scanned), by_serde(&mutated), "{mutated}");
                    }
                }
                let mut cut = text.to_owned();
                cut.remove(at);
                if let Some(scanned) = by_scan(&cut) {
                    assert_eq!(Some(scanned), by_serde(&cut), "{cut}");
                }
            }
        }
    }

    #[test]
    fn slices_share_the_buffer() {
        let whole = SharedStr::from(String::from("{\"a\":[1,2]}"));
        let part = whole.slice_ref(&whole.as_str()[5..10]);
        assert_eq!(part, "[1,2]");
        assert_eq!(part.into_bytes().as_ptr(), unsafe { whole.as_ptr().add(5) });
    }

    #[test]
    fn raw_json_checks_its_text() {
        assert!(RawJson::from_text("{\"a\":1}").is_ok());
        assert!(RawJson::from_text("{\"a\":").is_err());
        assert!(RawJson::from_text("1 2").is_err());
    }

    #[test]
    fn raw_json_serialises_verbatim() {
        let raw = RawJson::from_text("{\"b\": 2, \"a\":1}").unwrap();
        assert_eq!(serde_json::to_string(&raw).unwrap(), "{\"b\": 2, \"a\":1}");
    }

    #[test]
    fn members_are_read_as_slices_and_the_last_of_a_repeat_wins() {
        let raw = RawJson::from_text(r#"{"a":{"x":[1]},"b\u0062":2,"c":"s","a":[3]}"#).unwrap();
        let [a, bb, c, d] = raw.members(["a", "bb", "c", "d"]).unwrap();
        assert_eq!(a.map(RawValue::get), Some("[3]"));
        assert_eq!(bb.map(RawValue::get), Some("2"));
        assert_eq!(c.map(RawValue::get), Some("\"s\""));
        assert!(d.is_none());
        assert!(RawJson::from_text("[1]").unwrap().members(["a"]).is_none());
    }

    #[test]
    fn invalid_utf8_is_refused() {
        assert!(SharedStr::from_utf8(Bytes::from_static(b"\xff\xfe")).is_err());
    }
}
