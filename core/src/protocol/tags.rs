//! Constant strings that must appear in one member of an object (`"jsonrpc": "2.0"`,
//! `"mode": "url"`, `"resultType": "input_required"`, `"type": "object"`, ...).
//!
//! Each is a unit type that serialises to its string and refuses any other value when
//! parsed, so an untagged union can tell its members apart by that member alone.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Checks that the next value is the string `expected`, without allocating.
fn expect_str<'de, D: Deserializer<'de>>(deserializer: D, expected: &'static str) -> Result<(), D::Error> {
    struct Expect(&'static str);
    impl Visitor<'_> for Expect {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "the string {:?}", self.0)
        }
        fn visit_str<E: de::Error>(self, value: &str) -> Result<(), E> {
            if value == self.0 { Ok(()) } else { Err(E::invalid_value(de::Unexpected::Str(value), &self)) }
        }
    }
    deserializer.deserialize_str(Expect(expected))
}

macro_rules! string_tag {
    ($($(#[$doc:meta])* $name:ident = $value:literal;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl $name {
            /// The string this tag stands for.
            pub const VALUE: &'static str = $value;
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str($value)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                expect_str(deserializer, $value).map(|()| $name)
            }
        }
    )*};
}

string_tag! {
    /// `"jsonrpc": "2.0"`.
    JsonRpc2 = "2.0";
    /// `"resultType": "input_required"` of an [`InputRequiredResult`](super::InputRequiredResult).
    InputRequiredTag = "input_required";
    /// `"mode": "form"` of form elicitation.
    FormMode = "form";
    /// `"mode": "url"` of URL elicitation.
    UrlMode = "url";
    /// `"type": "object"` of a JSON Schema.
    ObjectType = "object";
    /// `"type": "string"` of a JSON Schema.
    StringType = "string";
    /// `"type": "array"` of a JSON Schema.
    ArrayType = "array";
    /// `"type": "boolean"` of a JSON Schema.
    BooleanType = "boolean";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_accept_only_their_string() {
        assert_eq!(serde_json::to_string(&UrlMode).unwrap(), "\"url\"");
        assert!(serde_json::from_str::<UrlMode>("\"url\"").is_ok());
        assert!(serde_json::from_str::<UrlMode>("\"form\"").is_err());
        assert!(serde_json::from_value::<JsonRpc2>(serde_json::json!("2.0")).is_ok());
    }
}
