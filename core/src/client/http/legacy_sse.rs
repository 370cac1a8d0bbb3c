//! The deprecated HTTP+SSE transport of 2024-11-05, for servers that predate Streamable
//! HTTP.
//!
//! A GET on the server URL opens an SSE stream whose first `endpoint` event names the URL
//! to POST messages to; every answer then comes on that one stream. The client falls back
//! to it when the Streamable `initialize` POST is refused (400, 404, 405). When the
//! stream ends, nothing can be answered any more, so the connection ends with it. A GET
//! the server refuses is kept with the refused POST's failure (its `sse` part), for the
//! bindings' `SSEClientTransport`, whose official errors name the GET's status.

use std::sync::Arc;
use std::time::Duration;

use eventsource_stream::Eventsource;
use futures_util::StreamExt;
use reqwest::Method;
use reqwest::header::ACCEPT;

use super::connection::{Connection, EVENT_STREAM, Mode};
use super::failure::HttpFailure;
use crate::wire::SharedStr;

/// How long the server may take to name its endpoint.
const ENDPOINT_WAIT: Duration = Duration::from_secs(10);

/// Why the stream could not be opened; `failure` when the server refused the GET.
pub(crate) struct Refused {
    pub why: String,
    pub failure: Option<HttpFailure>,
}

impl From<String> for Refused {
    fn from(why: String) -> Self {
        Self { why, failure: None }
    }
}

/// Opens the stream and switches the connection to POST to the endpoint it names.
pub(crate) async fn open(conn: &Arc<Connection>) -> Result<(), Refused> {
    let url = &conn.url;
    let response = conn
        .send(conn.request(Method::GET, url.clone()).header(ACCEPT, EVENT_STREAM))
        .await
        .map_err(|e| format!("GET {url} failed: {e}"))?;
    let status = response.status();
    if !status.is_success() {
        let failure = Some(HttpFailure::of(&response));
        return Err(Refused { why: format!("GET {url} answered HTTP {status}"), failure });
    }
    let mut events = response.bytes_stream().eventsource();
    let endpoint = tokio::time::timeout(ENDPOINT_WAIT, async {
        while let Some(event) = events.next().await {
            match event {
                Ok(event) if event.event == "endpoint" => return Ok(event.data),
                Ok(_) => continue,
                Err(e) => return Err(format!("the SSE stream at {url} broke: {e}")),
            }
        }
        Err(format!("the SSE stream at {url} ended without an endpoint event"))
    })
    .await
    .map_err(|_| format!("the SSE stream at {url} named no endpoint in {ENDPOINT_WAIT:?}"))??;
    let endpoint = url.join(endpoint.trim()).map_err(|e| format!("bad endpoint {endpoint:?}: {e}"))?;
    conn.state.lock().unwrap().mode = Mode::LegacySse(endpoint);

    let conn = conn.clone();
    tokio::spawn(async move {
        let why = loop {
            let event = tokio::select! {
                event = events.next() => event,
                () = conn.stop.cancelled() => return,
            };
            match event {
                None => break "the server closed the HTTP+SSE stream".to_owned(),
                Some(Err(e)) => break format!("the HTTP+SSE stream broke: {e}"),
                Some(Ok(event))
                    if (event.event.is_empty() || event.event == "message") && !event.data.trim().is_empty() =>
                {
                    conn.deliver(SharedStr::from(event.data)).await;
                }
                Some(Ok(_)) => {}
            }
        };
        conn.broken(why).await;
    });
    Ok(())
}
