//! Progress in both directions: reporting it for a request we serve, and routing what the
//! other side reports to the request we sent.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use super::{Peer, PeerError};
use crate::wire::RequestId;

/// A progress token is a string or an integer, like a request id.
pub type ProgressToken = RequestId;

/// One `notifications/progress` payload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    #[serde(rename = "progressToken")]
    pub token: ProgressToken,
    pub progress: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

pub type ProgressCallback = Arc<dyn Fn(Progress) + Send + Sync>;

/// Sends progress for one incoming request, keeping the value strictly increasing and
/// sending nothing once the request is cancelled.
pub struct ProgressReporter {
    peer: Peer,
    token: ProgressToken,
    cancel: CancellationToken,
    last: Option<f64>,
}

impl ProgressReporter {
    pub(crate) fn new(peer: Peer, token: ProgressToken, cancel: CancellationToken) -> Self {
        Self { peer, token, cancel, last: None }
    }

    /// Sends one notification; returns `false` (and sends nothing) when `progress` does not
    /// exceed the last value sent or the request was cancelled.
    pub async fn report(
        &mut self,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> Result<bool, PeerError> {
        if self.cancel.is_cancelled() || self.last.is_some_and(|last| progress <= last) {
            return Ok(false);
        }
        self.last = Some(progress);
        let body = Progress { token: self.token.clone(), progress, total, message };
        self.peer.notify("notifications/progress", Some(&body)).await?;
        Ok(true)
    }
}

/// Progress state of one outgoing request.
pub(crate) struct ProgressState {
    callback: ProgressCallback,
    last_seen: Mutex<Option<Instant>>,
}

impl ProgressState {
    pub fn new(callback: ProgressCallback) -> Self {
        Self { callback, last_seen: Mutex::new(None) }
    }

    pub fn deliver(&self, progress: Progress) {
        *self.last_seen.lock().unwrap() = Some(Instant::now());
        (self.callback)(progress);
    }

    pub fn last_seen(&self) -> Option<Instant> {
        *self.last_seen.lock().unwrap()
    }
}
