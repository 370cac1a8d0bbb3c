//! Request ids: a string or an integer, never null (JSON-RPC 2.0 as MCP restricts it).

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::text::SharedStr;

/// An owned request id. String ids share the frame they were read from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RequestId {
    Number(i64),
    String(SharedStr),
}

impl RequestId {
    pub fn as_number(&self) -> Option<i64> {
        match self {
            Self::Number(n) => Some(*n),
            Self::String(_) => None,
        }
    }
}

impl From<i64> for RequestId {
    fn from(n: i64) -> Self {
        Self::Number(n)
    }
}

impl From<&str> for RequestId {
    fn from(s: &str) -> Self {
        Self::String(SharedStr::from(s))
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(n) => write!(f, "{n}"),
            Self::String(s) => write!(f, "{s:?}"),
        }
    }
}

impl Serialize for RequestId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Number(n) => serializer.serialize_i64(*n),
            Self::String(s) => serializer.serialize_str(s),
        }
    }
}

impl<'de> Deserialize<'de> for RequestId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IdVisitor;
        impl Visitor<'_> for IdVisitor {
            type Value = RequestId;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or an integer")
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<RequestId, E> {
                Ok(RequestId::Number(n))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<RequestId, E> {
                i64::try_from(n).map(RequestId::Number).map_err(|_| E::custom("integer id out of range"))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<RequestId, E> {
                Ok(RequestId::from(s))
            }
        }
        deserializer.deserialize_any(IdVisitor)
    }
}
