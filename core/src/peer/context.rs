//! What a handler gets besides its message: who asked, whether it was cancelled, and a
//! handle to talk back.

use tokio_util::sync::CancellationToken;

use super::Peer;
use super::progress::{ProgressReporter, ProgressToken};
use crate::wire::RequestId;

/// The context of one incoming request.
#[derive(Clone)]
pub struct RequestContext {
    pub(crate) id: RequestId,
    pub(crate) cancel: CancellationToken,
    pub(crate) peer: Peer,
}

impl RequestContext {
    pub fn id(&self) -> &RequestId {
        &self.id
    }

    /// The connection, to send notifications or requests back to the other side.
    pub fn peer(&self) -> &Peer {
        &self.peer
    }

    /// Fires when the other side cancels the request or the connection closes; the
    /// engine then drops the handler's future and sends no response.
    pub fn cancellation(&self) -> &CancellationToken {
        &self.cancel
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// Reports progress under `token` (the request's `_meta.progressToken`).
    pub fn progress_reporter(&self, token: ProgressToken) -> ProgressReporter {
        ProgressReporter::new(self.peer.clone(), token, self.cancel.clone())
    }
}

/// The context of one incoming notification.
#[derive(Clone)]
pub struct NotificationContext {
    pub(crate) peer: Peer,
}

impl NotificationContext {
    pub fn peer(&self) -> &Peer {
        &self.peer
    }
}
