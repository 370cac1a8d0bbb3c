//! An HTTP answer that failed an exchange, kept as data for the bindings.
//!
//! A request the server refused at the HTTP level fails with a JSON-RPC error (the peer
//! only knows those), whose message says what happened in words. The official SDKs
//! instead throw HTTP errors that programs inspect (`StreamableHTTPError.code` in the
//! TypeScript v1 SDK, `SdkHttpError.status` in v2, `httpx.HTTPStatusError` in Python),
//! so the status, its reason phrase, the body and the content type travel as the error's
//! `data` (`{"http": {...}}`, as `{"oauth": {...}}` does for failed authorizations): a
//! binding builds its language's error from them without reading the message. A 2xx
//! status means the answer was successful but of a content type that carries no response.

use hyper::ext::ReasonPhrase;
use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, HeaderMap};
use serde_json::{Map, Value, json};

/// The key of the error's `data` that holds the failure.
pub const DATA_KEY: &str = "http";

/// What the server answered, as far as the failure needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpFailure {
    pub status: u16,
    /// The status's reason phrase (`Not Found`), empty for a status without one.
    pub status_text: String,
    /// The whole body of the answer, when it was read.
    pub body: Option<String>,
    pub content_type: Option<String>,
    /// The GET of the deprecated HTTP+SSE transport, tried after the server refused an
    /// `initialize` POST, when the server refused it too.
    pub sse: Option<Box<HttpFailure>>,
}

impl HttpFailure {
    /// The failure `response` makes (its body not yet read).
    pub(crate) fn of(response: &reqwest::Response) -> Self {
        Self::from_head(response.status(), response.headers(), response.extensions().get::<ReasonPhrase>())
    }

    /// The reason phrase is the server's, else the status's own.
    fn from_head(status: StatusCode, headers: &HeaderMap, reason: Option<&ReasonPhrase>) -> Self {
        let status_text = match reason.map(|reason| String::from_utf8_lossy(reason.as_bytes())) {
            Some(reason) => reason.into_owned(),
            None => status.canonical_reason().unwrap_or_default().to_owned(),
        };
        Self {
            status: status.as_u16(),
            status_text,
            body: None,
            content_type: headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_owned),
            sse: None,
        }
    }

    pub(crate) fn with_body(mut self, body: String) -> Self {
        self.body = Some(body);
        self
    }

    /// The error `data` that carries it: `{"http": {"status", "statusText", "body"?,
    /// "contentType"?, "sse"?}}` (`sse` without its own `sse`).
    pub fn data(&self) -> Value {
        json!({ DATA_KEY: self.fields() })
    }

    fn fields(&self) -> Map<String, Value> {
        let mut http = Map::new();
        http.insert("status".into(), self.status.into());
        http.insert("statusText".into(), self.status_text.clone().into());
        if let Some(body) = &self.body {
            http.insert("body".into(), body.clone().into());
        }
        if let Some(content_type) = &self.content_type {
            http.insert("contentType".into(), content_type.clone().into());
        }
        if let Some(sse) = &self.sse {
            http.insert("sse".into(), sse.fields().into());
        }
        http
    }

    /// The failure an error's `data` carries, if it carries one.
    pub fn from_data(data: &Value) -> Option<Self> {
        Self::from_fields(data.get(DATA_KEY)?)
    }

    fn from_fields(http: &Value) -> Option<Self> {
        let text = |key: &str| http.get(key).and_then(Value::as_str).map(str::to_owned);
        Some(Self {
            status: u16::try_from(http.get("status")?.as_u64()?).ok()?,
            status_text: text("statusText").unwrap_or_default(),
            body: text("body"),
            content_type: text("contentType"),
            sse: http.get("sse").and_then(Self::from_fields).map(Box::new),
        })
    }
}

/// A session's DELETE that failed: why, and the server's answer when there was one.
#[derive(Clone, Debug)]
pub struct TerminateError {
    pub message: String,
    pub failure: Option<HttpFailure>,
}

impl std::fmt::Display for TerminateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TerminateError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_reads_back_as_the_failure() {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, "text/plain".parse().unwrap());
        let failure =
            HttpFailure::from_head(StatusCode::NOT_FOUND, &headers, None).with_body("no such endpoint".into());
        let data = failure.data();
        assert_eq!(
            data,
            json!({"http": {"status": 404, "statusText": "Not Found", "body": "no such endpoint", "contentType": "text/plain"}})
        );
        assert_eq!(HttpFailure::from_data(&data), Some(failure.clone()));
        let refused = HttpFailure {
            sse: Some(Box::new(HttpFailure::from_head(StatusCode::UNAUTHORIZED, &HeaderMap::new(), None))),
            ..failure
        };
        let data = refused.data();
        assert_eq!(data["http"]["sse"], json!({"status": 401, "statusText": "Unauthorized"}));
        assert_eq!(HttpFailure::from_data(&data), Some(refused));
        assert_eq!(HttpFailure::from_data(&json!({"oauth": {}})), None);
    }
}
