//! A new legacy session when the server has forgotten ours.
//!
//! A 404 to a request that carried `Mcp-Session-Id` means the session ended on the server
//! (expired, deleted, the server restarted); the specification then requires a new
//! `initialize` without the id. The transport replays the handshake it saw the client
//! make (its `initialize` and `notifications/initialized`, read and answered here, never
//! shown to the peer), reopens the standalone stream and lets the failed request go
//! again, once. Server-side state of the old session (subscriptions, log level) is gone,
//! as it would be for any new session.

use std::sync::Arc;

use bytes::Bytes;
use reqwest::header::{HeaderMap, HeaderValue};

use super::connection::Connection;
use super::headers::SESSION_ID;
use super::standalone;

/// The messages that opened the session, as sent.
#[derive(Clone, Default)]
pub(crate) struct Handshake {
    pub initialize: Option<(Bytes, HeaderMap)>,
    pub initialized: Option<(Bytes, HeaderMap)>,
}

/// Replaces the session `stale` (unless another request already did).
pub(crate) async fn renew(conn: &Arc<Connection>, stale: &HeaderValue) -> Result<(), String> {
    let _one_at_a_time = conn.renewing.lock().await;
    let handshake = {
        let mut state = conn.state.lock().unwrap();
        if state.session.as_ref() != Some(stale) {
            return Ok(());
        }
        state.session = None;
        state.handshake.clone()
    };
    let (initialize, headers) = handshake.initialize.ok_or("no initialize to repeat")?;
    let response = conn.send(conn.post(conn.url.clone(), initialize, headers)).await.map_err(|e| e.to_string())?;
    if !response.status().is_success() {
        return Err(format!("a new initialize was refused: HTTP {}", response.status()));
    }
    let session = response.headers().get(SESSION_ID).cloned();
    response.bytes().await.map_err(|e| format!("reading the new initialize answer failed: {e}"))?;
    conn.state.lock().unwrap().session = session;
    if let Some((initialized, headers)) = handshake.initialized {
        conn.send(conn.post(conn.url.clone(), initialized, headers)).await.map_err(|e| e.to_string())?;
    }
    standalone::start(conn).await;
    Ok(())
}
