//! Typed messages: a request, notification or response whose method fixes the type of its
//! params or result.
//!
//! The engine reads and writes JSON-RPC through [`crate::wire`], borrowed and untyped. These
//! types are for the layers above it, and they also describe the schema's typed messages
//! (`CallToolRequest`, `ListToolsResultResponse`...). `jsonrpc` and `id` are optional so
//! that the same types also carry the bare `{method, params}` objects the 2026-07-28
//! revision nests inside `inputRequests`. Their names (`TypedRequest`, `TypedNotification`,
//! `TypedResponse`) differ from the engine's untyped [`crate::wire::Request`] and friends,
//! so a file may import both.

use std::fmt;

use serde::de::{self, DeserializeOwned};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::wire::{ErrorObject, RequestId};

use super::tags::JsonRpc2;

/// A request method: its name, and the types of its params and result.
pub trait RequestMethod: 'static {
    /// The `method` string, e.g. `"tools/call"`.
    const METHOD: &'static str;
    /// The params object.
    type Params: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// The result object.
    type Result: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
}

/// A notification method: its name and the type of its params.
pub trait NotificationMethod: 'static {
    /// The `method` string, e.g. `"notifications/progress"`.
    const METHOD: &'static str;
    /// The params object.
    type Params: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
}

/// A request of method `M`. `params` is optional for every method here; whether a method
/// requires it is for the receiver to check.
#[derive(Clone, Debug, PartialEq)]
pub struct TypedRequest<M: RequestMethod> {
    /// `"2.0"` on a JSON-RPC message; absent on a nested input request.
    pub jsonrpc: Option<JsonRpc2>,
    /// The request id; absent on a nested input request.
    pub id: Option<RequestId>,
    /// The params.
    pub params: Option<M::Params>,
}

impl<M: RequestMethod> TypedRequest<M> {
    /// A complete JSON-RPC request.
    pub fn new(id: impl Into<RequestId>, params: M::Params) -> Self {
        Self { jsonrpc: Some(JsonRpc2), id: Some(id.into()), params: Some(params) }
    }

    /// A bare `{method, params}` object, as nested in a 2026 `inputRequests` map.
    pub fn bare(params: M::Params) -> Self {
        Self { jsonrpc: None, id: None, params: Some(params) }
    }

    /// The method name.
    pub fn method(&self) -> &'static str {
        M::METHOD
    }
}

/// A notification of method `M`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypedNotification<N: NotificationMethod> {
    /// `"2.0"` on a JSON-RPC message.
    pub jsonrpc: Option<JsonRpc2>,
    /// The params.
    pub params: Option<N::Params>,
}

impl<N: NotificationMethod> TypedNotification<N> {
    /// A complete JSON-RPC notification.
    pub fn new(params: N::Params) -> Self {
        Self { jsonrpc: Some(JsonRpc2), params: Some(params) }
    }

    /// The method name.
    pub fn method(&self) -> &'static str {
        N::METHOD
    }
}

/// A successful response carrying a result of type `R`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TypedResponse<R> {
    /// `"2.0"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jsonrpc: Option<JsonRpc2>,
    /// The id of the request this answers.
    pub id: RequestId,
    /// The result.
    pub result: R,
}

impl<R> TypedResponse<R> {
    /// A complete JSON-RPC response.
    pub fn new(id: RequestId, result: R) -> Self {
        Self { jsonrpc: Some(JsonRpc2), id, result }
    }
}

/// An error response. `id` may be absent when the request's id could not be read (from
/// 2025-11-25; older revisions write `null`, which this type reads as absent).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorResponse {
    /// `"2.0"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jsonrpc: Option<JsonRpc2>,
    /// The id of the request this answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The error.
    pub error: ErrorObject,
}

impl ErrorResponse {
    /// A complete JSON-RPC error response.
    pub fn new(id: Option<RequestId>, error: ErrorObject) -> Self {
        Self { jsonrpc: Some(JsonRpc2), id, error }
    }
}

/// The members of a request or notification as they are read, before `method` is checked.
#[derive(Deserialize)]
struct Fields<P> {
    jsonrpc: Option<JsonRpc2>,
    id: Option<RequestId>,
    method: String,
    params: Option<P>,
}

fn check_method<E: de::Error>(found: &str, expected: &'static str) -> Result<(), E> {
    if found == expected { Ok(()) } else { Err(E::invalid_value(de::Unexpected::Str(found), &expected)) }
}

fn serialize_message<S: Serializer, P: Serialize>(
    serializer: S,
    jsonrpc: Option<JsonRpc2>,
    id: Option<&RequestId>,
    method: &'static str,
    params: Option<&P>,
) -> Result<S::Ok, S::Error> {
    let mut out = serializer.serialize_struct("Message", 4)?;
    match jsonrpc {
        Some(v) => out.serialize_field("jsonrpc", &v)?,
        None => out.skip_field("jsonrpc")?,
    }
    match id {
        Some(id) => out.serialize_field("id", id)?,
        None => out.skip_field("id")?,
    }
    out.serialize_field("method", method)?;
    match params {
        Some(params) => out.serialize_field("params", params)?,
        None => out.skip_field("params")?,
    }
    out.end()
}

impl<M: RequestMethod> Serialize for TypedRequest<M> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_message(serializer, self.jsonrpc, self.id.as_ref(), M::METHOD, self.params.as_ref())
    }
}

impl<'de, M: RequestMethod> Deserialize<'de> for TypedRequest<M> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let fields = Fields::<M::Params>::deserialize(deserializer)?;
        check_method(&fields.method, M::METHOD)?;
        Ok(Self { jsonrpc: fields.jsonrpc, id: fields.id, params: fields.params })
    }
}

impl<N: NotificationMethod> Serialize for TypedNotification<N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_message(serializer, self.jsonrpc, None, N::METHOD, self.params.as_ref())
    }
}

impl<'de, N: NotificationMethod> Deserialize<'de> for TypedNotification<N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let fields = Fields::<N::Params>::deserialize(deserializer)?;
        check_method(&fields.method, N::METHOD)?;
        if fields.id.is_some() {
            return Err(de::Error::custom("a notification has no id"));
        }
        Ok(Self { jsonrpc: fields.jsonrpc, params: fields.params })
    }
}
