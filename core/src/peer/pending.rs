//! The table of our requests still waiting for an answer.
//!
//! Our ids come from one counter, so the table is sharded by id and hashed with a cheap
//! multiplicative hash (no SipHash on the hot path): concurrent senders and the reader
//! seldom meet on the same lock. Each entry carries its deadline, which the connection's
//! sweeper ([`super::deadlines`]) enforces.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::error::{CloseReason, PeerError};
use super::progress::{Progress, ProgressState};
use crate::wire::RawJson;

pub(crate) type Outcome = Result<RawJson, PeerError>;

pub(crate) struct Entry {
    pub tx: oneshot::Sender<Outcome>,
    pub progress: Option<Arc<ProgressState>>,
    pub deadline: Deadline,
}

/// When a request times out, and whether progress may push that out.
pub(crate) struct Deadline {
    pub start: Instant,
    pub at: Instant,
    pub timeout: Duration,
    /// Each progress notification restarts the timeout, up to `cap` when there is one.
    pub reset_on_progress: bool,
    pub cap: Option<Instant>,
}

impl Deadline {
    pub fn new(start: Instant, timeout: Duration, reset_on_progress: bool, max_total: Option<Duration>) -> Self {
        Self { start, at: start + timeout, timeout, reset_on_progress, cap: max_total.map(|max| start + max) }
    }

    /// Moves the deadline past `now` if progress was seen since; `false` when it expired.
    pub(super) fn extend(&mut self, now: Instant, progress: Option<&ProgressState>) -> bool {
        let extended = progress
            .filter(|_| self.reset_on_progress)
            .and_then(ProgressState::last_seen)
            .map(|seen| seen + self.timeout)
            .map(|next| self.cap.map_or(next, |cap| next.min(cap)))
            .filter(|next| *next > now);
        match extended {
            Some(next) => {
                self.at = next;
                true
            }
            None => false,
        }
    }
}

const SHARDS: usize = 16;

/// Fibonacci hashing of an integer id.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_i64(&mut self, id: i64) {
        self.0 = (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type Shard = Mutex<HashMap<i64, Entry, BuildHasherDefault<IdHasher>>>;

pub(crate) struct PendingTable {
    shards: [Shard; SHARDS],
}

impl Default for PendingTable {
    fn default() -> Self {
        Self { shards: std::array::from_fn(|_| Mutex::default()) }
    }
}

impl PendingTable {
    fn shard(&self, id: i64) -> &Shard {
        &self.shards[(id as usize) % SHARDS]
    }

    pub fn insert(&self, id: i64, entry: Entry) {
        self.shard(id).lock().unwrap().insert(id, entry);
    }

    pub fn remove(&self, id: i64) -> bool {
        self.shard(id).lock().unwrap().remove(&id).is_some()
    }

    /// Delivers an answer; hands it back when no request waits for `id`.
    pub fn complete(&self, id: i64, outcome: Outcome) -> Result<(), Outcome> {
        let entry = self.shard(id).lock().unwrap().remove(&id);
        match entry {
            Some(entry) => {
                let _ = entry.tx.send(outcome);
                Ok(())
            }
            None => Err(outcome),
        }
    }

    /// Routes a progress notification to its request; `false` when none matches.
    pub fn progress(&self, id: i64, progress: Progress) -> bool {
        let state = self.shard(id).lock().unwrap().get(&id).and_then(|entry| entry.progress.clone());
        match state {
            Some(state) => {
                state.deliver(progress);
                true
            }
            None => false,
        }
    }

    /// Fails every request whose deadline has passed (unless progress extends it) and
    /// returns the earliest deadline still pending.
    pub fn expire(&self, now: Instant) -> Option<Instant> {
        let mut next: Option<Instant> = None;
        for shard in &self.shards {
            let expired: Vec<Entry> = {
                let mut map = shard.lock().unwrap();
                let mut ids = Vec::new();
                for (id, entry) in map.iter_mut() {
                    if entry.deadline.at <= now && !entry.deadline.extend(now, entry.progress.as_deref()) {
                        ids.push(*id);
                    } else {
                        next = Some(next.map_or(entry.deadline.at, |next| next.min(entry.deadline.at)));
                    }
                }
                ids.iter().filter_map(|id| map.remove(id)).collect()
            };
            for entry in expired {
                let _ = entry.tx.send(Err(PeerError::Timeout(now - entry.deadline.start)));
            }
        }
        next
    }

    pub fn fail_all(&self, reason: &CloseReason) {
        for shard in &self.shards {
            let entries: Vec<Entry> = shard.lock().unwrap().drain().map(|(_, entry)| entry).collect();
            for entry in entries {
                let _ = entry.tx.send(Err(PeerError::Closed(reason.clone())));
            }
        }
    }

    pub fn len(&self) -> usize {
        self.shards.iter().map(|shard| shard.lock().unwrap().len()).sum()
    }
}
