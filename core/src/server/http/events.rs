//! Where the events of resumable SSE streams are kept, so a client that lost a stream can
//! come back with `Last-Event-ID` and get what it missed (legacy Streamable HTTP).
//!
//! A trait, because one process is not always enough: replicas behind a load balancer need
//! a shared store. [`MemoryEventStore`] is the default: bounded per stream and in the
//! number of streams, dropping the oldest first, so a client that never comes back costs
//! a fixed amount of memory. Events are numbered per stream from 1; a stream's events
//! are forgotten when its session ends.

use std::collections::VecDeque;
use std::sync::Mutex;

use bytes::Bytes;
use indexmap::IndexMap;

use tokio::sync::mpsc;

use crate::peer::BoxFuture;
use crate::wire::RequestId;

/// Stored events: `(sequence number, JSON-RPC message text)`, oldest first.
pub type Replay = Vec<(u64, Bytes)>;

/// What a reader of a stream written by another replica receives.
#[derive(Debug)]
pub enum Followed {
    /// Event `seq` of the stream.
    Event(u64, Bytes),
    /// The replica writing the stream is gone before its end; the request it answers
    /// (if it is a request's stream) will never be answered there.
    WriterGone(Option<RequestId>),
}

pub trait EventStore: Send + Sync + 'static {
    /// Keeps event `seq` of `stream`.
    fn append(&self, stream: u64, seq: u64, data: Bytes) -> BoxFuture<()>;

    /// The events of `stream` after `seq`; `None` when some of them are no longer kept
    /// (or the stream is unknown), since a partial replay would silently lose messages.
    fn after(&self, stream: u64, seq: u64) -> BoxFuture<Option<Replay>>;

    /// Drops everything kept for `stream`.
    fn forget(&self, stream: u64) -> BoxFuture<()>;

    /// A store other processes share; then a stream can be resumed on a replica other than
    /// the one writing it ([`EventStore::follow`]). Not by default.
    fn shared(&self) -> bool {
        false
    }

    /// This process writes the streams whose ids have `writer` in their high 32 bits: a
    /// shared store makes that known to the other replicas for as long as it lives.
    fn register_writer(&self, writer: u32) {
        let _ = writer;
    }

    /// `stream` was opened, to answer `request` (none: a session's standalone stream).
    fn open(&self, stream: u64, request: Option<&RequestId>) -> BoxFuture<()> {
        let _ = (stream, request);
        Box::pin(std::future::ready(()))
    }

    /// For a shared store, on a replica that does not write `stream`: its events after
    /// `seq`, stored then live, until it ends (a request's stream ends with the answer) or
    /// its writer is gone. `None` when the stream is unknown, the events after `seq` are no
    /// longer all kept, or the store is not shared.
    fn follow(&self, stream: u64, seq: u64) -> BoxFuture<Option<mpsc::Receiver<Followed>>> {
        let _ = (stream, seq);
        Box::pin(std::future::ready(None))
    }

    /// The id a client is told for event `seq` of `stream` (0: the priming event before
    /// the first); `None`, by default: core's own `stream/seq`. A store that names the
    /// events it keeps ([`NamedEventStore`]) answers with its names.
    fn name(&self, stream: u64, seq: u64) -> Option<String> {
        let _ = (stream, seq);
        None
    }

    /// The priming event of a stream that has no event yet: a store that names events
    /// keeps it and returns its name (the id a client resumes from); `None`, by default:
    /// core's own `stream/0`.
    fn priming(&self, stream: u64) -> BoxFuture<Option<String>> {
        let _ = stream;
        Box::pin(std::future::ready(None))
    }

    /// The stream and sequence number of the event a `Last-Event-ID` names; by default
    /// core's own `stream/seq` ids.
    fn locate(&self, event_id: &str) -> Option<(u64, u64)> {
        super::stream::parse_event_id(event_id)
    }
}

/// An event store of the official SDKs' shape (Python's `EventStore`, TypeScript's
/// `EventStore`): it names each event it keeps, and replays by the name of the last event
/// a client saw. Bindings implement it over the application's store; [`NamedEventStore`]
/// makes it core's [`EventStore`].
pub trait NamingEventStore: Send + Sync + 'static {
    /// Keeps `message` (none: a priming event) of the stream named `stream`; its name.
    fn store_event(&self, stream: String, message: Option<Bytes>) -> BoxFuture<Result<String, String>>;

    /// The events after the one named `event_id`, oldest first, with the name of their
    /// stream; `None` when the store does not know that event.
    fn replay_events_after(&self, event_id: String) -> BoxFuture<Result<Option<NamedReplay>, String>>;
}

/// What a [`NamingEventStore`] replays: its stream's name and `(event name, message)`s.
pub type NamedReplay = (String, Vec<(String, Bytes)>);

/// An application's [`NamingEventStore`] as core's [`EventStore`]: every event of a
/// resumable stream is kept there (the stream named by its number) and goes to the client
/// under the name the store gave it; a client resuming from a name gets what the store
/// replays after it. Core keeps only the index from names to `(stream, seq)` (dropped
/// with the stream), so it can attach the resumed stream's live events; the messages are
/// the store's. A store that fails to keep an event is logged, and the event goes out
/// under core's own id (a client cannot resume from it).
pub struct NamedEventStore {
    store: std::sync::Arc<dyn NamingEventStore>,
    index: std::sync::Arc<Mutex<Index>>,
}

#[derive(Default)]
struct Index {
    names: std::collections::HashMap<(u64, u64), String>,
    places: std::collections::HashMap<String, (u64, u64)>,
}

impl NamedEventStore {
    pub fn new(store: std::sync::Arc<dyn NamingEventStore>) -> Self {
        Self { store, index: std::sync::Arc::default() }
    }
}

impl Index {
    fn record(&mut self, stream: u64, seq: u64, name: String) {
        self.places.insert(name.clone(), (stream, seq));
        self.names.insert((stream, seq), name);
    }
}

impl EventStore for NamedEventStore {
    fn append(&self, stream: u64, seq: u64, data: Bytes) -> BoxFuture<()> {
        let (kept, index) = (self.store.store_event(stream.to_string(), Some(data)), self.index.clone());
        Box::pin(async move {
            match kept.await {
                Ok(name) => index.lock().unwrap().record(stream, seq, name),
                Err(e) => tracing::warn!("the event store did not keep event {seq} of stream {stream}: {e}"),
            }
        })
    }

    fn after(&self, stream: u64, seq: u64) -> BoxFuture<Option<Replay>> {
        let Some(name) = self.name(stream, seq) else { return Box::pin(std::future::ready(None)) };
        let (replayed, index) = (self.store.replay_events_after(name), self.index.clone());
        Box::pin(async move {
            let (_, events) = match replayed.await {
                Ok(found) => found?,
                Err(e) => {
                    tracing::warn!("the event store failed to replay stream {stream}: {e}");
                    return None;
                }
            };
            let index = index.lock().unwrap();
            // Events core never named (another stream's, or kept after a failure) are not
            // this stream's; a priming event (0) carries no message, and what comes after
            // the one resumed from goes in the stream's order, whatever order the store
            // keeps (the official example store sorts by name, which ties within a millisecond).
            let mut replay: Replay = events
                .into_iter()
                .filter_map(|(name, data)| match index.places.get(&name) {
                    Some(&(s, n)) if s == stream && n > seq => Some((n, data)),
                    _ => None,
                })
                .collect();
            replay.sort_by_key(|&(n, _)| n);
            Some(replay)
        })
    }

    fn forget(&self, stream: u64) -> BoxFuture<()> {
        let mut index = self.index.lock().unwrap();
        index.names.retain(|&(s, _), _| s != stream);
        index.places.retain(|_, &mut (s, _)| s != stream);
        Box::pin(std::future::ready(()))
    }

    fn name(&self, stream: u64, seq: u64) -> Option<String> {
        self.index.lock().unwrap().names.get(&(stream, seq)).cloned()
    }

    fn priming(&self, stream: u64) -> BoxFuture<Option<String>> {
        if let Some(name) = self.name(stream, 0) {
            return Box::pin(std::future::ready(Some(name)));
        }
        let (kept, index) = (self.store.store_event(stream.to_string(), None), self.index.clone());
        Box::pin(async move {
            match kept.await {
                Ok(name) => {
                    index.lock().unwrap().record(stream, 0, name.clone());
                    Some(name)
                }
                Err(e) => {
                    tracing::warn!("the event store did not keep the priming event of stream {stream}: {e}");
                    None
                }
            }
        })
    }

    fn locate(&self, event_id: &str) -> Option<(u64, u64)> {
        self.index.lock().unwrap().places.get(event_id).copied()
    }
}

/// An in-memory [`EventStore`] with bounded retention.
pub struct MemoryEventStore {
    per_stream: usize,
    max_streams: usize,
    streams: Mutex<IndexMap<u64, Kept>>,
}

#[derive(Default)]
struct Kept {
    events: VecDeque<(u64, Bytes)>,
    /// The highest sequence number dropped for lack of room (0: none).
    dropped: u64,
}

impl MemoryEventStore {
    /// Keeps at most `per_stream` events of each stream and `max_streams` streams.
    pub fn new(per_stream: usize, max_streams: usize) -> Self {
        Self { per_stream: per_stream.max(1), max_streams: max_streams.max(1), streams: Mutex::default() }
    }
}

impl Default for MemoryEventStore {
    fn default() -> Self {
        Self::new(1024, 10_000)
    }
}

impl EventStore for MemoryEventStore {
    fn append(&self, stream: u64, seq: u64, data: Bytes) -> BoxFuture<()> {
        let mut streams = self.streams.lock().unwrap();
        if !streams.contains_key(&stream) && streams.len() >= self.max_streams {
            streams.shift_remove_index(0);
        }
        let kept = streams.entry(stream).or_default();
        kept.events.push_back((seq, data));
        if kept.events.len() > self.per_stream {
            let (dropped, _) = kept.events.pop_front().expect("not empty");
            kept.dropped = dropped;
        }
        Box::pin(std::future::ready(()))
    }

    fn after(&self, stream: u64, seq: u64) -> BoxFuture<Option<Replay>> {
        let streams = self.streams.lock().unwrap();
        let replay = match streams.get(&stream) {
            Some(kept) if seq >= kept.dropped => Some(kept.events.iter().filter(|(s, _)| *s > seq).cloned().collect()),
            _ => None,
        };
        Box::pin(std::future::ready(replay))
    }

    fn forget(&self, stream: u64) -> BoxFuture<()> {
        self.streams.lock().unwrap().shift_remove(&stream);
        Box::pin(std::future::ready(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn replays_what_follows_and_refuses_what_was_dropped() {
        let store = MemoryEventStore::new(2, 2);
        for seq in 1..=3 {
            store.append(9, seq, Bytes::from(format!("m{seq}"))).await;
        }
        let replay = store.after(9, 1).await.unwrap();
        assert_eq!(replay, vec![(2, Bytes::from("m2")), (3, Bytes::from("m3"))]);
        assert!(store.after(9, 0).await.is_none(), "event 1 was dropped: no partial replay");
        store.append(10, 1, Bytes::new()).await;
        store.append(11, 1, Bytes::new()).await;
        assert!(store.after(9, 2).await.is_none(), "the oldest stream went first");
        store.forget(11).await;
        assert!(store.after(11, 0).await.is_none());
    }
}
