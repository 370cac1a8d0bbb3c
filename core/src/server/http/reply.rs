//! The HTTP answers the endpoint gives: JSON bodies, JSON-RPC errors with the status the
//! specification names for them, and the headers of an SSE response.
//!
//! Transport-level refusals (bad Accept, unknown session, ...) carry a JSON-RPC error
//! without an id, as the specification allows, so a client can tell an MCP server's
//! refusal from a proxy's. Their codes are the official SDKs': -32000
//! ([`ErrorCode::CONNECTION_CLOSED`], their generic server error) and, for an unknown
//! session, the dialect's (`Dialect::unknown_session`: the
//! TypeScript server's -32001, or the Python server's -32600 with `"id": null`).

use std::convert::Infallible;

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode, header};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Empty, Full};

use crate::wire::{ErrorCode, ErrorObject, RequestId, encode};

/// The body of every response: a whole JSON text, nothing, or an event stream.
pub type ResponseBody = BoxBody<Bytes, Infallible>;

pub(crate) fn empty(status: StatusCode) -> Response<ResponseBody> {
    let mut response = Response::new(Empty::new().boxed());
    *response.status_mut() = status;
    response
}

pub(crate) fn json(status: StatusCode, body: Bytes) -> Response<ResponseBody> {
    let mut response = Response::new(Full::new(body).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// A bare text body without a `Content-Type` (the official Python SDK's refusals).
pub(crate) fn plain_text(status: StatusCode, text: &'static str) -> Response<ResponseBody> {
    let mut response = Response::new(Full::new(Bytes::from_static(text.as_bytes())).boxed());
    *response.status_mut() = status;
    response
}

/// A JSON-RPC error response (`id` left out when there is none to answer) with `status`.
pub(crate) fn rpc_error(status: StatusCode, id: Option<&RequestId>, error: &ErrorObject) -> Response<ResponseBody> {
    let mut buf = Vec::with_capacity(128);
    encode::error(&mut buf, id, error);
    json(status, Bytes::from(buf))
}

/// A refusal with `"id": null` in its body (the official servers' refusals; ferrymcp's
/// own leave the id out, see the module's doc).
pub(crate) fn refuse_with_null_id(status: StatusCode, error: &ErrorObject) -> Response<ResponseBody> {
    let mut buf = Vec::with_capacity(128);
    buf.extend_from_slice(br#"{"jsonrpc":"2.0","id":null,"error":"#);
    serde_json::to_writer(&mut buf, error).expect("an error object always serialises");
    buf.push(b'}');
    json(status, Bytes::from(buf))
}

/// A refusal before any message was read.
pub(crate) fn refuse(status: StatusCode, code: i64, message: impl Into<String>) -> Response<ResponseBody> {
    rpc_error(status, None, &ErrorObject::new(code, message))
}

pub(crate) fn method_not_allowed(allow: &'static str) -> Response<ResponseBody> {
    let mut response = refuse(
        StatusCode::METHOD_NOT_ALLOWED,
        ErrorCode::CONNECTION_CLOSED,
        format!("Method not allowed (allowed: {allow})"),
    );
    response.headers_mut().insert(header::ALLOW, HeaderValue::from_static(allow));
    response
}

/// An event-stream response around `body`, with the headers that keep proxies from
/// buffering or caching it.
pub(crate) fn event_stream(body: ResponseBody) -> Response<ResponseBody> {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache, no-transform"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}
