//! Settings of a connection and of one outgoing request.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::progress::ProgressCallback;

#[derive(Clone, Debug)]
pub struct PeerConfig {
    /// How long an outgoing request waits for its answer (default 60 s).
    pub request_timeout: Duration,
    /// Incoming requests allowed to run at once; past it a request is refused with an
    /// error at once, so reading (and the answers to our own requests) never stalls.
    pub max_in_flight: usize,
    /// Outgoing bytes queued before senders wait for the writer (the back-pressure bound).
    pub max_queued_bytes: usize,
    /// Whether JSON-RPC batches are accepted (MCP 2025-03-26 only).
    pub batches: bool,
}

impl Default for PeerConfig {
    fn default() -> Self {
        Self {
            request_timeout: Duration::from_secs(60),
            max_in_flight: 16_384,
            max_queued_bytes: 4 * 1024 * 1024,
            batches: false,
        }
    }
}

/// Options for one outgoing request.
#[derive(Clone, Default)]
pub struct RequestOptions {
    /// Overrides [`PeerConfig::request_timeout`].
    pub timeout: Option<Duration>,
    /// Receives `notifications/progress` for this request; setting it adds
    /// `_meta.progressToken` to the params.
    pub on_progress: Option<ProgressCallback>,
    /// Each progress notification restarts the timeout...
    pub reset_timeout_on_progress: bool,
    /// ...but never beyond this much in total.
    pub max_total_timeout: Option<Duration>,
    /// Cancels the request from outside (the caller's AbortSignal, say).
    pub cancel: Option<CancellationToken>,
}

impl RequestOptions {
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    pub fn on_progress(mut self, callback: ProgressCallback) -> Self {
        self.on_progress = Some(callback);
        self
    }

    pub fn reset_timeout_on_progress(mut self, max_total: Option<Duration>) -> Self {
        self.reset_timeout_on_progress = true;
        self.max_total_timeout = max_total;
        self
    }

    pub fn cancel(mut self, token: CancellationToken) -> Self {
        self.cancel = Some(token);
        self
    }
}
