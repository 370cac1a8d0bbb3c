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

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::super::pending::Deadline;
    use super::super::progress::ProgressState;
    use super::*;
    use crate::framing::{NdjsonSink, NdjsonSource};
    use crate::peer::{BoxFuture, Handler, HandlerResult, MethodNotFound, Peer, PeerConfig, PeerError};
    use crate::peer::{Progress, RequestContext, RequestOptions};
    use crate::wire::{Request, RequestId};

    /// Two ends of a pipe, framed as over stdio (the peer layer knows no transport).
    fn pair()
    -> [(
        NdjsonSource<impl tokio::io::AsyncRead + Unpin + Send>,
        NdjsonSink<impl tokio::io::AsyncWrite + Unpin + Send>,
    ); 2] {
        let (a, b) = tokio::io::duplex(64 * 1024);
        [a, b].map(|end| {
            let (read, write) = tokio::io::split(end);
            (NdjsonSource::new(read), NdjsonSink::new(write))
        })
    }

    /// Never answers; notes the methods whose handlers were dropped (cancelled).
    struct Silent(Arc<Mutex<Vec<String>>>);

    struct NoteDrop(Arc<Mutex<Vec<String>>>, String);

    impl Drop for NoteDrop {
        fn drop(&mut self) {
            self.0.lock().unwrap().push(std::mem::take(&mut self.1));
        }
    }

    impl Handler for Silent {
        fn handle_request(&self, request: Request, _: RequestContext) -> BoxFuture<HandlerResult> {
            let note = NoteDrop(self.0.clone(), request.method.to_string());
            Box::pin(async move {
                let _note = note;
                std::future::pending().await
            })
        }
    }

    async fn eventually(what: &str, done: impl Fn() -> bool) {
        let wait = async {
            while !done() {
                tokio::task::yield_now().await;
            }
        };
        tokio::time::timeout(Duration::from_secs(30), wait).await.unwrap_or_else(|_| panic!("{what}"));
    }

    #[tokio::test]
    async fn an_earlier_deadline_wakes_the_sweeper_and_the_other_side_hears_of_it() {
        let [(a_source, a_sink), (b_source, b_sink)] = pair();
        let dropped = Arc::new(Mutex::new(Vec::new()));
        let server = Peer::spawn(b_source, b_sink, Arc::new(Silent(dropped.clone())), PeerConfig::default());
        let client = Peer::spawn(a_source, a_sink, Arc::new(MethodNotFound), PeerConfig::default());
        let hour = RequestOptions::default().timeout(Duration::from_secs(3600));
        let long = tokio::spawn({
            let client = client.clone();
            async move { client.request::<()>("slow", None, hour).await }
        });
        eventually("the first request never reached the server", || server.requests_in_flight() == 1).await;
        let short = client.request::<()>("fast", None, RequestOptions::default().timeout(Duration::from_millis(20)));
        // Were the sweeper still asleep until the first deadline, this would wait an hour.
        let outcome = tokio::time::timeout(Duration::from_secs(30), short).await.expect("the sweeper never woke");
        assert!(matches!(outcome, Err(PeerError::Timeout(_))), "{outcome:?}");
        assert_eq!(client.requests_pending(), 1);
        // The notice cancels the server's handler of the short request, not the long one.
        eventually("the server never heard of the timeout", || !dropped.lock().unwrap().is_empty()).await;
        assert_eq!(*dropped.lock().unwrap(), ["fast"]);
        assert!(!long.is_finished());
        long.abort();
    }

    #[test]
    fn progress_extends_a_deadline_up_to_its_cap() {
        let start = Instant::now();
        let progress = ProgressState::new(Arc::new(|_| {}));
        let mut deadline = Deadline::new(start, Duration::from_secs(1), true, Some(Duration::from_secs(5)));
        assert!(!deadline.extend(start + Duration::from_secs(2), Some(&progress)), "no progress seen yet");
        progress.deliver(Progress { token: RequestId::Number(1), progress: 1.0, total: None, message: None });
        let seen = progress.last_seen().unwrap();
        assert!(deadline.extend(seen, Some(&progress)));
        assert_eq!(deadline.at, seen + Duration::from_secs(1));
        assert!(!deadline.extend(start + Duration::from_secs(6), Some(&progress)), "past the cap");
    }
}
