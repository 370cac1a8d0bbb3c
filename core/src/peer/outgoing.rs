//! Sending: requests that wait for their answer, and notifications.
//!
//! A request is encoded once into its frame, registered in the pending table, queued for
//! the writer and awaited. If the caller stops waiting (timeout, cancel, or the future is
//! dropped) a guard removes the entry and tells the other side with
//! `notifications/cancelled`, as MCP asks.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;
use tokio::sync::oneshot;

use super::pending::{Entry, Outcome};
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
        let frame = encode_request(id, method, params, options.on_progress.is_some())?;
        let progress = options.on_progress.clone().map(|cb| Arc::new(ProgressState::new(cb)));
        let (tx, rx) = oneshot::channel();
        shared.pending.insert(id, Entry { tx, progress: progress.clone() });
        let mut guard = PendingGuard { shared, id, sent: false, answered: false, reason: "cancelled" };
        if let Some(reason) = shared.close_reason() {
            return Err(PeerError::Closed(reason));
        }
        shared.out.push(&frame).await.map_err(|_| self.closed_error())?;
        guard.sent = true;

        let waited = tokio::select! {
            outcome = wait(rx, &options, progress.as_deref(), shared.config.request_timeout) => outcome,
            _ = cancelled(&options) => Err(PeerError::Cancelled),
        };
        match &waited {
            Err(PeerError::Timeout(_)) => guard.reason = "timed out",
            Err(PeerError::Cancelled) => {}
            // The answer (or the close) already removed the entry.
            _ => guard.answered = true,
        }
        waited
    }

    /// Sends a notification (queued in order with everything else this side sends).
    pub async fn notify<P: Serialize + ?Sized>(
        &self,
        method: &str,
        params: Option<&P>,
    ) -> Result<(), PeerError> {
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
    id: i64,
    method: &str,
    params: Option<&P>,
    with_progress: bool,
) -> Result<Vec<u8>, PeerError> {
    let bad = |e: serde_json::Error| PeerError::Params(e.to_string());
    let mut frame = Vec::with_capacity(192 + method.len());
    encode::begin_request(&mut frame, &RequestId::Number(id), method);
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
        encode::params(&mut frame, &value).map_err(bad)?;
    } else if let Some(params) = params {
        encode::params(&mut frame, params).map_err(bad)?;
    }
    encode::end(&mut frame);
    Ok(frame)
}

async fn cancelled(options: &RequestOptions) {
    match &options.cancel {
        Some(token) => token.cancelled().await,
        None => std::future::pending().await,
    }
}

/// Waits for the answer; progress may push the deadline out (up to the total cap).
async fn wait(
    mut rx: oneshot::Receiver<Outcome>,
    options: &RequestOptions,
    progress: Option<&ProgressState>,
    default_timeout: Duration,
) -> Outcome {
    let timeout = options.timeout.unwrap_or(default_timeout);
    let start = Instant::now();
    let cap = options.max_total_timeout.map(|max| start + max);
    let mut deadline = start + timeout;
    loop {
        match tokio::time::timeout_at(deadline.into(), &mut rx).await {
            Ok(Ok(outcome)) => return outcome,
            Ok(Err(_)) => return Err(PeerError::Closed(super::CloseReason::Local)),
            Err(_) => {
                let extended = options
                    .reset_timeout_on_progress
                    .then(|| progress.and_then(ProgressState::last_seen))
                    .flatten()
                    .map(|seen| seen + timeout)
                    .map(|next| cap.map_or(next, |cap| next.min(cap)))
                    .filter(|next| *next > deadline);
                match extended {
                    Some(next) => deadline = next,
                    None => return Err(PeerError::Timeout(start.elapsed())),
                }
            }
        }
    }
}

/// Removes a pending entry however the wait ends, and tells the other side when we stop
/// waiting for a request it has already received.
struct PendingGuard<'a> {
    shared: &'a Arc<Shared>,
    id: i64,
    sent: bool,
    answered: bool,
    reason: &'static str,
}

impl Drop for PendingGuard<'_> {
    fn drop(&mut self) {
        if self.answered {
            return;
        }
        let still_pending = self.shared.pending.remove(self.id);
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
