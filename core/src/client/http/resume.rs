//! Following one POST's SSE stream to its answer, across reconnections.
//!
//! A server may end a response stream before the answer (2025-11-25 lets it poll: a
//! priming event with an id and a `retry`, then close). The client then reconnects with
//! GET and `Last-Event-ID` after `retry`, and the server replays what followed, so no
//! event is lost. A stream with no event id cannot be resumed, and a server that cannot
//! be reached again is gone: in both cases the request fails at once, saying why, and the
//! connection checks whether the server is still there at all.

use reqwest::Response;

use super::connection::Connection;
use super::failure::HttpFailure;
use super::sse::{self, Cursor, Drained};

/// Reconnections one request may take before it is given up.
const MAX_RESUMES: usize = 8;

pub(crate) async fn follow(conn: &Connection, response: Response, id: i64) {
    let mut cursor = Cursor::default();
    let mut outcome = sse::drain(conn, response, Some(id), &mut cursor).await;
    for _ in 0..MAX_RESUMES {
        let (why, broke) = match outcome {
            Drained::Answered | Drained::Stopped => return,
            Drained::Ended => ("the server closed the response stream before answering".to_owned(), false),
            Drained::Broken(e) => (format!("the response stream broke before the answer: {e}"), true),
        };
        if cursor.last_event_id.is_none() {
            // A stream the server ended properly says it is there; a broken one may not.
            return if broke { conn.lost(id, why).await } else { conn.fail(id, why).await };
        }
        if !sse::pause(conn, cursor.retry()).await {
            return;
        }
        outcome = match sse::open_get(conn, &cursor).await {
            Ok(response) if response.status().is_success() && sse::is_event_stream(&response) => {
                sse::drain(conn, response, Some(id), &mut cursor).await
            }
            Ok(response) => {
                let failure = HttpFailure::of(&response);
                let why = format!("{why}; resuming it was refused (HTTP {})", response.status());
                return conn.fail_http(id, why, &failure).await;
            }
            Err(e) => return conn.lost(id, format!("{why}; the server could not be reached again: {e}")).await,
        };
    }
    conn.fail(id, format!("the response stream was resumed {MAX_RESUMES} times without an answer")).await;
}
