//! The table of our requests still waiting for an answer.
//!
//! Our ids are integers from one counter; the table is sharded (dashmap), so concurrent
//! senders and the reader seldom meet on a lock.

use std::sync::Arc;

use dashmap::DashMap;
use tokio::sync::oneshot;

use super::error::{CloseReason, PeerError};
use super::progress::{Progress, ProgressState};
use crate::wire::RawJson;

pub(crate) type Outcome = Result<RawJson, PeerError>;

pub(crate) struct Entry {
    pub tx: oneshot::Sender<Outcome>,
    pub progress: Option<Arc<ProgressState>>,
}

#[derive(Default)]
pub(crate) struct PendingTable {
    entries: DashMap<i64, Entry>,
}

impl PendingTable {
    pub fn insert(&self, id: i64, entry: Entry) {
        self.entries.insert(id, entry);
    }

    pub fn remove(&self, id: i64) -> bool {
        self.entries.remove(&id).is_some()
    }

    /// Delivers an answer; `false` when no request waits for `id`.
    pub fn complete(&self, id: i64, outcome: Outcome) -> bool {
        match self.entries.remove(&id) {
            Some((_, entry)) => {
                let _ = entry.tx.send(outcome);
                true
            }
            None => false,
        }
    }

    /// Routes a progress notification to its request; `false` when none matches.
    pub fn progress(&self, id: i64, progress: Progress) -> bool {
        let state = self.entries.get(&id).and_then(|entry| entry.progress.clone());
        match state {
            Some(state) => {
                state.deliver(progress);
                true
            }
            None => false,
        }
    }

    pub fn fail_all(&self, reason: &CloseReason) {
        let ids: Vec<i64> = self.entries.iter().map(|entry| *entry.key()).collect();
        for id in ids {
            self.complete(id, Err(PeerError::Closed(reason.clone())));
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }
}
