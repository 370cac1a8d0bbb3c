//! Sending: requests that wait for their answer, and notifications.
//!
//! A request is registered in the pending table with its deadline, encoded straight into
//! the outbox and awaited (the connection's sweeper fails it when the
//! deadline passes). If the caller stops waiting (timeout, cancel, or the future is dropped)
//! a guard removes the entry and tells the other side with `notifications/cancelled`, as MCP
//! asks.

use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;
use serde_json::Value;
use tokio::sync::oneshot;

use super::pending::{Deadline, Entry, Outcome};
use super::progress::ProgressState;
use super::{Peer, PeerError, RequestOptions, Shared};
use crate::wire::{RawJson, RequestId, encode};

impl Peer {
    /// Sends a request and waits for its result.
    pub async fn request<P: Serialize + ?Sized>(
        &self,
        method: &str,
        params: Option<&P>,
        options: RequestOptions,
    ) -> Result<RawJson, PeerError> {
        let shared = &self.shared;
        let id = shared.next_id.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let progress = options.on_progress.clone().map(|cb| Arc::new(ProgressState::new(cb)));
        let timeout = options.timeout.unwrap_or(shared.config.request_timeout);
        let deadline =
            Deadline::new(Instant::now(), timeout, options.reset_timeout_on_progress, options.max_total_timeout);
        let at = deadline.at;
        let (tx, rx) = oneshot::channel();
        shared.pending.insert(id, Entry { tx, progress, deadline });
        shared.deadlines.watch(at);
        let mut guard = PendingGuard { shared, id, sent: false, answered: false, expired: false, reason: "cancelled" };
        if let Some(reason) = shared.close_reason() {
            return Err(PeerError::Closed(reason));
        }
        let with_progress = options.on_progress.is_some();
        let encode = |buf: &mut Vec<u8>| encode_request(buf, id, method, params, with_progress);
        shared.out.push_encoded(encode).await.map_err(|_| self.closed_error())??;
        guard.sent = true;

        let waited = match &options.cancel {
            None => answer(rx.await),
            Some(token) => tokio::select! {
                received = rx => answer(received),
                _ = token.cancelled() => Err(PeerError::Cancelled),
            },
        };
        match &waited {
            // The sweeper removed the entry; the other side still has to hear of it.
            Err(PeerError::Timeout(_)) => (guard.expired, guard.reason) = (true, "timed out"),
            Err(PeerError::Cancelled) => {}
            // The answer (or the close) already removed the entry.
            _ => guard.answered = true,
        }
        waited
    }

    /// Sends a notification (queued in order with everything else this side sends).
    pub async fn notify<P: Serialize + ?Sized>(&self, method: &str, params: Option<&P>) -> Result<(), PeerError> {
        let mut frame = Vec::with_capacity(64);
        encode::begin_notification(&mut frame, method);
        if let Some(params) = params {
            encode::params(&mut frame, params).map_err(|e| PeerError::Params(e.to_string()))?;
        }
        encode::end(&mut frame);
        self.send_frame(frame).await
    }

    /// Queues one already encoded frame (without its newline).
    pub async fn send_frame(&self, frame: Vec<u8>) -> Result<(), PeerError> {
        if let Some(reason) = self.shared.close_reason() {
            return Err(PeerError::Closed(reason));
        }
        self.shared.out.push(&frame).await.map_err(|_| self.closed_error())
    }

    fn closed_error(&self) -> PeerError {
        PeerError::Closed(self.shared.close_reason().unwrap_or(super::CloseReason::Local))
    }
}

fn encode_request<P: Serialize + ?Sized>(
    buf: &mut Vec<u8>,
    id: i64,
    method: &str,
    params: Option<&P>,
    with_progress: bool,
) -> Result<(), PeerError> {
    let bad = |e: serde_json::Error| PeerError::Params(e.to_string());
    encode::begin_request(buf, &RequestId::Number(id), method);
    if with_progress {
        let mut value = match params {
            Some(p) => serde_json::to_value(p).map_err(bad)?,
            None => Value::Object(Default::default()),
        };
        let Value::Object(map) = &mut value else {
            return Err(PeerError::Params("params must be an object to carry a progress token".into()));
        };
        let meta = map.entry("_meta").or_insert_with(|| Value::Object(Default::default()));
        let Value::Object(meta) = meta else {
            return Err(PeerError::Params("params._meta must be an object".into()));
        };
        meta.insert("progressToken".into(), Value::from(id));
        encode::params(buf, &value).map_err(bad)?;
    } else if let Some(params) = params {
        encode::params(buf, params).map_err(bad)?;
    }
    encode::end(buf);
    Ok(())
}

fn answer(received: Result<Outcome, oneshot::error::RecvError>) -> Outcome {
    received.unwrap_or(Err(PeerError::Closed(super::CloseReason::Local)))
}

/// Removes a pending entry however the wait ends, and tells the other side when we stop
/// waiting for a request it has already received.
struct PendingGuard<'a> {
    shared: &'a Arc<Shared>,
    id: i64,
    sent: bool,
    answered: bool,
    /// The sweeper already removed the entry (the request timed out).
    expired: bool,
    reason: &'static str,
}

impl Drop for PendingGuard<'_> {
    fn drop(&mut self) {
        if self.answered {
            return;
        }
        let still_pending = self.shared.pending.remove(self.id) || self.expired;
        if !(self.sent && still_pending) || self.shared.close_reason().is_some() {
            return;
        }
        let mut frame = Vec::with_capacity(96);
        encode::begin_notification(&mut frame, "notifications/cancelled");
        let params = serde_json::json!({ "requestId": self.id, "reason": self.reason });
        encode::params(&mut frame, &params).expect("plain JSON serialises");
        encode::end(&mut frame);
        // A destructor cannot wait: the notice goes in past the limit if it must.
        let _ = self.shared.out.try_push_with(|buf| buf.extend_from_slice(&frame), true);
    }
}
