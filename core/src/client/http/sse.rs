//! Reading one SSE response: each `message` event is a JSON-RPC message for the peer.
//!
//! Event parsing is `eventsource-stream`'s. The reader remembers the last event id and
//! the server's `retry` in a [`Cursor`] that outlives the response, because a stream that
//! ends is resumed from there (GET with `Last-Event-ID`, after `retry`).

use std::time::Duration;

use eventsource_stream::Eventsource;
use futures_util::StreamExt;
use reqwest::header::ACCEPT;
use reqwest::{Method, Response};

use super::connection::{Connection, EVENT_STREAM};
use super::headers::LAST_EVENT_ID;
use crate::wire::SharedStr;

/// How long to wait before reconnecting when the server named no `retry`.
pub(crate) const DEFAULT_RETRY: Duration = Duration::from_secs(1);

#[derive(Default)]
pub(crate) struct Cursor {
    pub last_event_id: Option<String>,
    pub retry: Option<Duration>,
}

impl Cursor {
    pub fn retry(&self) -> Duration {
        self.retry.unwrap_or(DEFAULT_RETRY)
    }
}

/// How reading a stream ended.
pub(crate) enum Drained {
    /// The response to the awaited request arrived.
    Answered,
    /// The server closed the stream.
    Ended,
    /// The stream broke (the message says how).
    Broken(String),
    /// The connection is closing.
    Stopped,
}

pub(crate) fn is_event_stream(response: &Response) -> bool {
    is_event_stream_type(response.headers())
}

/// Whether `headers` name an SSE body.
pub(crate) fn is_event_stream_type(headers: &reqwest::header::HeaderMap) -> bool {
    headers
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with(EVENT_STREAM))
}

/// Delivers the messages of `response` until it ends, or until the response to `awaited`
/// has been delivered.
pub(crate) async fn drain(conn: &Connection, response: Response, awaited: Option<i64>, cursor: &mut Cursor) -> Drained {
    let mut events = response.bytes_stream().eventsource();
    loop {
        let event = tokio::select! {
            event = events.next() => event,
            () = conn.stop.cancelled() => return Drained::Stopped,
        };
        let event = match event {
            None => return Drained::Ended,
            Some(Err(e)) => return Drained::Broken(e.to_string()),
            Some(Ok(event)) => event,
        };
        if !event.id.is_empty() {
            cursor.last_event_id = Some(event.id);
        }
        if let Some(retry) = event.retry {
            cursor.retry = Some(retry);
        }
        let is_message = event.event.is_empty() || event.event == "message";
        if !is_message || event.data.trim().is_empty() {
            continue;
        }
        let id = conn.deliver(SharedStr::from(event.data)).await;
        if awaited.is_some() && id.as_ref().and_then(serde_json::Value::as_i64) == awaited {
            return Drained::Answered;
        }
    }
}

/// Opens a GET stream on the endpoint, resuming after `cursor`'s last event if it has one.
pub(crate) async fn open_get(conn: &Connection, cursor: &Cursor) -> Result<Response, super::SendError> {
    let mut request = conn.request(Method::GET, conn.url.clone()).header(ACCEPT, EVENT_STREAM);
    if let Some(last) = &cursor.last_event_id {
        request = request.header(LAST_EVENT_ID, last.as_str());
    }
    conn.send(request).await
}

/// Sleeps `delay`; `false` when the connection started closing meanwhile.
pub(crate) async fn pause(conn: &Connection, delay: Duration) -> bool {
    tokio::select! {
        () = tokio::time::sleep(delay) => true,
        () = conn.stop.cancelled() => false,
    }
}
