//! A resumable SSE stream of a legacy session: a request's stream or the session's
//! standalone (GET) stream.
//!
//! Every message gets an event id `stream/seq` and is kept in the [`EventStore`] before it
//! is handed to the connection currently reading the stream, if any. A client that lost
//! the connection comes back with `Last-Event-ID`; under the stream's lock the missed
//! events are replayed and the new connection attached, so no event is lost or doubled
//! between the two.

use std::sync::Arc;

use bytes::Bytes;
use tokio::sync::{Mutex, mpsc};

use super::events::EventStore;
use crate::framing::sse;

/// Events queued for a reader before the stream's writer waits.
const QUEUE: usize = 64;

pub(crate) struct SseStream {
    pub id: u64,
    store: Arc<dyn EventStore>,
    inner: Mutex<Inner>,
}

struct Inner {
    last_seq: u64,
    live: Option<mpsc::Sender<Bytes>>,
    /// The writer is done: a reader gets what is stored and then the end.
    finished: bool,
}

impl SseStream {
    pub fn new(id: u64, store: Arc<dyn EventStore>) -> Self {
        Self { id, store, inner: Mutex::new(Inner { last_seq: 0, live: None, finished: false }) }
    }

    /// Stores a message and hands it to the reader; returns whether a reader took it.
    pub async fn emit(&self, data: Bytes) -> bool {
        let mut inner = self.inner.lock().await;
        inner.last_seq += 1;
        let seq = inner.last_seq;
        self.store.append(self.id, seq, data.clone()).await;
        let event = sse::event(Some(&self.name(seq)), &data);
        deliver(&mut inner, event).await
    }

    /// No more messages: the reader's stream ends after what it has.
    pub async fn finish(&self) {
        let mut inner = self.inner.lock().await;
        inner.finished = true;
        inner.live = None;
    }

    /// Ends the current reader's connection; the stream goes on for the next one.
    pub async fn detach(&self) {
        self.inner.lock().await.live = None;
    }

    /// Whether a reader is attached.
    pub async fn is_read(&self) -> bool {
        self.inner.lock().await.live.as_ref().is_some_and(|live| !live.is_closed())
    }

    /// A new reader: the priming event (with `retry_ms`, if given), then every event after
    /// `after` (a sequence number from `Last-Event-ID`), then what comes. `None` when the
    /// store no longer has all the events after `after`.
    pub async fn attach(&self, after: Option<u64>, prime: Option<u64>) -> Option<mpsc::Receiver<Bytes>> {
        let mut inner = self.inner.lock().await;
        let replay = match after {
            Some(seq) if seq < inner.last_seq => self.store.after(self.id, seq).await?,
            _ => Vec::new(),
        };
        let (tx, rx) = mpsc::channel(QUEUE.max(replay.len() + 1));
        if let Some(retry) = prime {
            let at = after.unwrap_or(inner.last_seq);
            let name = match self.store.name(self.id, at) {
                Some(name) => name,
                None if at == 0 => self.store.priming(self.id).await.unwrap_or_else(|| event_id(self.id, 0)),
                None => event_id(self.id, at),
            };
            let _ = tx.try_send(sse::priming(&name, retry));
        }
        for (seq, data) in replay {
            let _ = tx.try_send(sse::event(Some(&self.name(seq)), &data));
        }
        if !inner.finished {
            inner.live = Some(tx);
        }
        Some(rx)
    }
}

impl SseStream {
    /// Event `seq`'s id: the store's name for it, or core's `stream/seq`.
    fn name(&self, seq: u64) -> String {
        self.store.name(self.id, seq).unwrap_or_else(|| event_id(self.id, seq))
    }
}

async fn deliver(inner: &mut Inner, event: Bytes) -> bool {
    let Some(live) = &inner.live else { return false };
    if live.send(event).await.is_ok() {
        return true;
    }
    inner.live = None;
    false
}

pub(crate) fn event_id(stream: u64, seq: u64) -> String {
    format!("{stream}/{seq}")
}

/// `(stream, seq)` from a `Last-Event-ID`.
pub(crate) fn parse_event_id(id: &str) -> Option<(u64, u64)> {
    let (stream, seq) = id.trim().split_once('/')?;
    Some((stream.parse().ok()?, seq.parse().ok()?))
}
