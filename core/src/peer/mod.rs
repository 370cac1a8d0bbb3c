//! The RPC engine both sides of a connection share.
//!
//! A [`Peer`] runs two tasks over a transport: a reader that parses and dispatches every
//! incoming frame, and a writer that coalesces outgoing frames into few writes. Incoming
//! requests run concurrently (a handler that finishes at once is answered inline; one that
//! waits becomes its own task), so a slow handler never delays another request, a ping or a
//! cancellation. Outgoing requests are correlated through a pending table; a sweeper task
//! enforces their timeouts, which progress may extend.

mod batch;
mod config;
mod context;
mod deadlines;
mod dispatch;
mod error;
mod handler;
mod inline;
mod outbox;
mod outgoing;
mod pending;
mod progress;
mod writer;

pub use config::{PeerConfig, RequestOptions};
pub use context::{NotificationContext, RequestContext};
pub use error::{CloseReason, PeerError};
pub use handler::{BoxFuture, ENGINE_NOTIFICATIONS, Handler, HandlerResult, MethodNotFound};
pub use inline::continue_here;
pub use progress::{Progress, ProgressCallback, ProgressReporter, ProgressToken};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};

use outbox::Outbox;

use dashmap::DashMap;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::framing::{FrameSink, FrameSource};
use crate::wire::RequestId;

/// A handle to one connection. Cheap to clone; every clone drives the same connection.
///
/// The connection lives until the other side closes it or [`Peer::close`] is called.
#[derive(Clone)]
pub struct Peer {
    shared: Arc<Shared>,
}

pub(crate) struct Shared {
    out: Outbox,
    /// Set once the connection is gone (the fast check; `closed` holds the reason).
    is_closed: AtomicBool,
    next_id: AtomicI64,
    pending: pending::PendingTable,
    deadlines: deadlines::Deadlines,
    /// Incoming requests whose handlers are still running, for cancellation.
    running: DashMap<RequestId, CancellationToken>,
    in_flight: AtomicUsize,
    handler: Arc<dyn Handler>,
    config: PeerConfig,
    batches: AtomicBool,
    /// Asks the reader and the writer to stop.
    shutdown: CancellationToken,
    closed: watch::Sender<Option<CloseReason>>,
    writer_done: watch::Sender<bool>,
}

/// A handle that does not keep the connection alive (for state the connection's own
/// handler holds).
#[derive(Clone)]
pub struct WeakPeer {
    shared: std::sync::Weak<Shared>,
}

impl WeakPeer {
    pub fn upgrade(&self) -> Option<Peer> {
        self.shared.upgrade().map(|shared| Peer { shared })
    }
}

impl Peer {
    pub fn downgrade(&self) -> WeakPeer {
        WeakPeer { shared: Arc::downgrade(&self.shared) }
    }

    /// Starts the engine over a transport. Must be called inside a tokio runtime.
    ///
    /// The handler answers the other side's requests and notifications. It should not hold
    /// a `Peer` of its own (that would keep the connection alive): every call receives one
    /// in its context.
    pub fn spawn<S: FrameSource, K: FrameSink>(
        source: S,
        sink: K,
        handler: Arc<dyn Handler>,
        config: PeerConfig,
    ) -> Peer {
        let shared = Arc::new(Shared {
            out: Outbox::with_direct(config.max_queued_bytes, sink.direct()),
            is_closed: AtomicBool::new(false),
            next_id: AtomicI64::new(1),
            pending: pending::PendingTable::default(),
            deadlines: deadlines::Deadlines::default(),
            running: DashMap::new(),
            in_flight: AtomicUsize::new(0),
            handler,
            batches: AtomicBool::new(config.batches),
            config,
            shutdown: CancellationToken::new(),
            closed: watch::Sender::new(None),
            writer_done: watch::Sender::new(false),
        });
        tokio::spawn(writer::run(shared.clone(), sink));
        tokio::spawn(dispatch::run(shared.clone(), source));
        tokio::spawn(deadlines::run(shared.clone()));
        Peer { shared }
    }

    /// Accepts or refuses JSON-RPC batches from now on (only MCP 2025-03-26 has them).
    pub fn set_batches_allowed(&self, allowed: bool) {
        self.shared.batches.store(allowed, Ordering::Relaxed);
    }

    pub fn is_closed(&self) -> bool {
        self.shared.is_closed.load(Ordering::Acquire)
    }

    /// Why the connection closed, once it has.
    pub fn close_reason(&self) -> Option<CloseReason> {
        self.shared.closed.borrow().clone()
    }

    /// Closes the connection: stops reading, fails pending requests, cancels running
    /// handlers, writes what is queued and closes the sink. Returns when that is done.
    pub async fn close(&self) {
        self.shared.shutdown.cancel();
        self.closed().await;
    }

    /// Waits until the connection has closed (either side) and the writer has finished.
    pub async fn closed(&self) -> CloseReason {
        let mut done = self.shared.writer_done.subscribe();
        let _ = done.wait_for(|done| *done).await;
        let mut closed = self.shared.closed.subscribe();
        let reason = closed.wait_for(Option::is_some).await.map(|r| r.clone());
        reason.ok().flatten().unwrap_or(CloseReason::Local)
    }

    /// Number of our requests still waiting for an answer.
    pub fn requests_pending(&self) -> usize {
        self.shared.pending.len()
    }

    /// Number of incoming requests whose handlers are still running.
    pub fn requests_in_flight(&self) -> usize {
        self.shared.in_flight.load(Ordering::Relaxed)
    }
}

impl Shared {
    /// Marks the connection closed (first reason wins) and releases everything that waits
    /// on it: pending requests fail, running handlers are cancelled, the writer drains.
    fn finish(&self, reason: CloseReason) {
        self.closed.send_if_modified(|slot| {
            if slot.is_some() {
                return false;
            }
            *slot = Some(reason.clone());
            true
        });
        let reason = self.closed.borrow().clone().unwrap_or(reason);
        self.is_closed.store(true, Ordering::Release);
        self.shutdown.cancel();
        self.out.close();
        self.pending.fail_all(&reason);
        for entry in self.running.iter() {
            entry.value().cancel();
        }
    }

    fn close_reason(&self) -> Option<CloseReason> {
        if !self.is_closed.load(Ordering::Acquire) {
            return None;
        }
        self.closed.borrow().clone()
    }
}
