//! Timeouts of our outgoing requests: one sweeper task per connection, not a timer each.
//!
//! A tokio timer per request is registered in and removed from the runtime's timer wheel
//! under a lock, and it makes every request's future much larger. Instead each pending
//! entry carries its deadline, and one task sleeps until the earliest one, fails what has
//! expired (after giving progress the chance to extend it) and sleeps again. A request only
//! compares its deadline with the sweeper's next wake-up, and wakes the sweeper early in the
//! rare case its deadline comes first.
//!
//! After a sweep the next one is at least [`SLACK`] away, so that many requests expiring in
//! a row cost a sweep per slack period rather than one each; a timeout can therefore fire
//! up to that much late.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use super::Shared;

const SLACK: Duration = Duration::from_millis(5);

/// The sweeper's schedule, shared with the senders.
pub(crate) struct Deadlines {
    /// Times are nanoseconds since `epoch` (`u64::MAX`: nothing to wait for).
    epoch: Instant,
    next_sweep: AtomicU64,
    earlier: Notify,
}

impl Default for Deadlines {
    fn default() -> Self {
        Self { epoch: Instant::now(), next_sweep: AtomicU64::new(u64::MAX), earlier: Notify::new() }
    }
}

impl Deadlines {
    fn ticks(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.epoch).as_nanos()).unwrap_or(u64::MAX - 1)
    }

    /// Makes sure the sweeper wakes by `at` (call after the entry is in the pending table).
    pub fn watch(&self, at: Instant) {
        let at = self.ticks(at);
        if at < self.next_sweep.load(Ordering::SeqCst) {
            self.next_sweep.fetch_min(at, Ordering::SeqCst);
            self.earlier.notify_one();
        }
    }
}

/// The sweeper task; it ends when the connection shuts down.
pub(crate) async fn run(shared: Arc<Shared>) {
    let deadlines = &shared.deadlines;
    let mut shutdown = std::pin::pin!(shared.shutdown.cancelled());
    loop {
        let target = deadlines.next_sweep.load(Ordering::SeqCst);
        let sleep = async {
            match target {
                u64::MAX => std::future::pending().await,
                ticks => tokio::time::sleep_until((deadlines.epoch + Duration::from_nanos(ticks)).into()).await,
            }
        };
        tokio::select! {
            biased;
            _ = &mut shutdown => return,
            _ = deadlines.earlier.notified() => continue,
            _ = sleep => {}
        }
        // A sender that registers an earlier deadline from here on also notifies, and its
        // entry is either seen by this sweep or wakes the next one.
        deadlines.next_sweep.store(u64::MAX, Ordering::SeqCst);
        let now = Instant::now();
        if let Some(next) = shared.pending.expire(now) {
            deadlines.next_sweep.fetch_min(deadlines.ticks(next.max(now + SLACK)), Ordering::SeqCst);
        }
    }
}
