//! Owned messages: the borrowed envelope turned into views of the frame's shared buffer.

use std::borrow::Cow;

use super::envelope::{Envelope, Id};
use super::error_object::ErrorObject;
use super::id::RequestId;
use super::text::{RawJson, SharedStr};

#[derive(Clone, Debug)]
pub struct Request {
    pub id: RequestId,
    pub method: SharedStr,
    pub params: Option<RawJson>,
}

#[derive(Clone, Debug)]
pub struct Notification {
    pub method: SharedStr,
    pub params: Option<RawJson>,
}

#[derive(Clone, Debug)]
pub struct Response {
    /// `None` for an error answering a message whose id could not be read.
    pub id: Option<RequestId>,
    pub outcome: Result<RawJson, ErrorObject>,
}

#[derive(Clone, Debug)]
pub enum Message {
    Request(Request),
    Notification(Notification),
    Response(Response),
}

/// Turns an envelope parsed from `frame` into an owned message without copying its parts.
pub fn to_message(frame: &SharedStr, envelope: Envelope<'_>) -> Message {
    let text = |s: Cow<'_, str>| match s {
        Cow::Borrowed(s) => frame.slice_ref(s),
        Cow::Owned(s) => SharedStr::from(s),
    };
    let id = |id: Id<'_>| id.to_owned_in(frame);
    let raw = |raw: &serde_json::value::RawValue| RawJson::trusted(frame.slice_ref(raw.get()));
    match envelope {
        Envelope::Request { id: i, method, params } => {
            Message::Request(Request { id: id(i), method: text(method), params: params.map(raw) })
        }
        Envelope::Notification { method, params } => {
            Message::Notification(Notification { method: text(method), params: params.map(raw) })
        }
        Envelope::Result { id: i, result } => Message::Response(Response { id: Some(id(i)), outcome: Ok(raw(result)) }),
        Envelope::Error { id: i, error } => Message::Response(Response { id: i.map(id), outcome: Err(error) }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{Parsed, parse};

    #[test]
    fn parts_are_views_of_the_frame() {
        let frame =
            SharedStr::from(String::from(r#"{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{"a":[1]}}"#));
        let Parsed::Single(envelope) = parse(frame.as_str()).unwrap() else { panic!() };
        let Message::Request(request) = to_message(&frame, envelope) else { panic!() };
        assert_eq!(request.id, RequestId::from("r1"));
        assert_eq!(request.method, "tools/call");
        let params = request.params.unwrap();
        assert_eq!(params.get(), r#"{"a":[1]}"#);
        let base = frame.as_ptr() as usize;
        let at = params.get().as_ptr() as usize;
        assert!(at > base && at < base + frame.len(), "params were copied");
    }
}
