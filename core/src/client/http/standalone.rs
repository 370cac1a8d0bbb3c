//! The standalone GET stream of a legacy session, for what the server sends unasked
//! (its requests, list changes, log messages).
//!
//! Opened once the session is initialized; a server without one answers 405, which is
//! fine. When the stream ends it is reopened after the server's `retry`, with
//! `Last-Event-ID` so nothing is missed; after a few failed attempts in a row the client
//! stops trying (requests still work; only unasked messages would be missed). A server
//! that accepts no connections any more is gone, which ends the connection.

use std::sync::Arc;

use reqwest::{Response, StatusCode};

use super::connection::Connection;
use super::sse::{self, Cursor, Drained};

/// Failed openings in a row before the stream is given up.
const MAX_FAILURES: usize = 5;

/// Opens the stream, and returns once the server has answered the GET, so what it sends
/// unasked from then on (say, a request made while serving our next call) has somewhere
/// to go; reading and reopening go on in a task of their own.
pub(crate) async fn start(conn: &Arc<Connection>) {
    let fresh = Cursor::default();
    let opened = tokio::select! {
        opened = sse::open_get(conn, &fresh) => opened,
        () = conn.stop.cancelled() => return,
    };
    tokio::spawn(run(conn.clone(), opened));
}

async fn run(conn: Arc<Connection>, mut opened: Result<Response, super::SendError>) {
    let mut cursor = Cursor::default();
    let mut failures = 0;
    loop {
        match opened {
            Ok(response) if response.status() == StatusCode::METHOD_NOT_ALLOWED => return,
            Ok(response) if response.status().is_success() && sse::is_event_stream(&response) => {
                failures = 0;
                match sse::drain(&conn, response, None, &mut cursor).await {
                    Drained::Stopped => return,
                    Drained::Ended | Drained::Broken(_) | Drained::Answered => {}
                }
            }
            Ok(response) => {
                tracing::debug!("the standalone SSE stream was refused: HTTP {}", response.status());
                failures += 1;
            }
            Err(e) => {
                tracing::debug!("the standalone SSE stream could not be opened: {e}");
                if !conn.alive(&format!("GET {} failed: {}", conn.url, super::chain(&e))).await {
                    return;
                }
                failures += 1;
            }
        }
        if failures >= MAX_FAILURES || !sse::pause(&conn, cursor.retry()).await {
            return;
        }
        opened = tokio::select! {
            opened = sse::open_get(&conn, &cursor) => opened,
            () = conn.stop.cancelled() => return,
        };
    }
}
