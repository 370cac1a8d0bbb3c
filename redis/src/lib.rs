//! Redis behind ferrymcp's Streamable HTTP server, so that N replicas behind a plain
//! round-robin load balancer serve one set of legacy sessions: [`RedisStore`] is both the
//! [`SessionStore`] (a session opened on one replica is served by every other) and the
//! [`EventStore`] (a client that lost an SSE stream resumes it with `Last-Event-ID` on any
//! replica).
//!
//! # Keys
//! Every key starts with the store's prefix (`ferrymcp` unless told otherwise), so several
//! servers can share one Redis:
//! - `{prefix}:session:{id}`: a session's [`SessionRecord`] as JSON, expiring after the
//!   endpoint's idle time; every request of the session reads it with `GETEX`, which also
//!   extends it, and DELETE removes it.
//! - `{prefix}:events:{stream}`: the events of one SSE stream, a Redis Stream whose entry
//!   ids are the events' sequence numbers (`{seq}-0`). Bounded by count (`MAXLEN`, exact:
//!   streams are short, and a bound that holds is worth the trimming) and by age (the key
//!   expires that long after its last event). A replay that would miss an
//!   event trimmed away is refused, as by the in-memory store: never a partial replay.
//! - `{prefix}:stream:{stream}`: the request a stream answers (`null` for a session's
//!   standalone stream), written when the stream opens; a stream unknown here cannot be
//!   resumed.
//! - `{prefix}:writer:{n}`: present while the replica whose stream ids start with `n`
//!   lives (refreshed every second, expiring after three). A replica resuming a stream
//!   another one writes reads its stored events, then waits for new ones (`XREAD BLOCK`
//!   on a connection of its own); if the writer's key expires first, the writer is gone
//!   and the client is told so in place of the answer.
//!
//! - `{prefix}:bus`: the Pub/Sub channel of the replicas' [`Bus`] (server-wide
//!   notifications, messages for a session whose stream another replica holds, answers to
//!   server-to-client requests). Each replica listens on a connection of its own and
//!   subscribes again when it loses it.
//!
//! # Failure
//! Commands time out (a second by default) instead of waiting on a Redis that is gone; the
//! connection is re-established in the background with backoff, so service resumes by
//! itself when Redis returns. A session that cannot be read or written makes the endpoint
//! answer 503 with a JSON-RPC error saying so; an event that cannot be stored is still
//! delivered to the client reading the stream (it only cannot be replayed) and is logged.
//!
//! # Why redis-rs
//! The two maintained async Redis clients for Rust were compared (November 2026):
//! - **redis-rs** (`redis` 1.8): maintained under the redis-rs organisation with Redis
//!   Inc.'s engineers, the most used by far (it is what most of the ecosystem depends on);
//!   tokio through `tokio-comp`; a multiplexed connection that pipelines concurrent
//!   commands, and `ConnectionManager`, which reconnects with backoff and can start
//!   lazily (a server may boot while Redis is still down); cluster (`cluster-async`) and
//!   sentinel; TLS with rustls and the platform's trust store (`rediss://`); URLs with
//!   user and password.
//! - **fred** (10.1): as complete on paper (cluster, sentinel, TLS, automatic pipelining,
//!   reconnection policies) and fast, but essentially one maintainer's project, tokio-only,
//!   and a larger build.
//!
//! redis-rs covers every need here with the broader base of maintainers and users, so a
//! bug that bites us has likely bitten someone before. Cluster support is a feature flag
//! away (`cluster-async`) when a deployment needs it.

use std::sync::{Arc, Weak};
use std::time::Duration;

use bytes::Bytes;
use ferrymcp_core::peer::BoxFuture;
use ferrymcp_core::server::http::{
    Bus, EventStore, Followed, HttpSettings, Replay, SessionRecord, SessionStore, StoreError,
};
use ferrymcp_core::wire::RequestId;
use futures_util::StreamExt;
use redis::AsyncCommands;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::streams::{StreamMaxlen, StreamRangeReply, StreamReadOptions, StreamReadReply};
use tokio::sync::mpsc;

/// How often a replica says it lives, and how long the other replicas believe it.
const HEARTBEAT: Duration = Duration::from_secs(1);
const WRITER_TTL_SECS: u64 = 3;
/// How long one `XREAD` of a follower waits before it checks on the writer.
const FOLLOW_BLOCK: Duration = Duration::from_secs(1);

/// How a [`RedisStore`] keeps things; `Default` is what the fixtures and bindings use.
#[derive(Clone, Debug)]
pub struct RedisOptions {
    /// The first part of every key.
    pub prefix: String,
    /// Events kept per stream.
    pub events_per_stream: usize,
    /// A stream's events are dropped this long after its last one.
    pub events_age: Duration,
    /// A command not answered in this time fails (and the request with it).
    pub command_timeout: Duration,
}

impl Default for RedisOptions {
    fn default() -> Self {
        Self {
            prefix: "ferrymcp".into(),
            events_per_stream: 1024,
            events_age: Duration::from_secs(60 * 60),
            command_timeout: Duration::from_secs(1),
        }
    }
}

/// A URL Redis cannot be reached with.
#[derive(Debug, thiserror::Error)]
#[error("invalid Redis URL {url:?}: {source}")]
pub struct UrlError {
    url: String,
    source: redis::RedisError,
}

/// Sessions and events on one Redis server (`redis://[user:password@]host[:port][/db]`,
/// `rediss://` for TLS).
#[derive(Clone)]
pub struct RedisStore {
    inner: Arc<Inner>,
}

struct Inner {
    /// The URL, its password masked.
    url: String,
    client: redis::Client,
    connection: ConnectionManager,
    options: RedisOptions,
}

impl RedisStore {
    /// A store on the Redis at `url`. Nothing is sent yet: the connection is made on first
    /// use and remade whenever it is lost, so a server can start before its Redis does.
    /// Must be called inside a tokio runtime.
    pub fn new(url: &str, options: RedisOptions) -> Result<Self, UrlError> {
        let bad = |source| UrlError { url: redacted(url), source };
        let client = redis::Client::open(url).map_err(bad)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(options.command_timeout))
            .set_response_timeout(Some(options.command_timeout))
            .set_max_delay(Duration::from_secs(2));
        let connection = ConnectionManager::new_lazy_with_config(client.clone(), config).map_err(bad)?;
        Ok(Self { inner: Arc::new(Inner { url: redacted(url), client, connection, options }) })
    }

    /// The Redis URL, its password masked (for messages and `repr`).
    pub fn url(&self) -> &str {
        &self.inner.url
    }

    /// Makes an endpoint one of several replicas on this store: its resumable events here,
    /// and (unless it is stateless, when there are no sessions) its legacy sessions and the
    /// bus between replicas.
    pub fn configure(&self, settings: &mut HttpSettings) {
        let store = Arc::new(self.clone());
        settings.event_store = Some(store.clone());
        if !settings.stateless {
            settings.session_store = Some(store.clone());
            settings.bus = Some(store);
        }
    }

    fn key(&self, kind: &str, name: impl std::fmt::Display) -> String {
        self.inner.key(kind, name)
    }

    /// A connection handle (cheap: every clone shares one multiplexed connection).
    fn redis(&self) -> ConnectionManager {
        self.inner.connection.clone()
    }
}

impl Inner {
    fn key(&self, kind: &str, name: impl std::fmt::Display) -> String {
        format!("{}:{kind}:{name}", self.options.prefix)
    }
}

/// `url` without its password, for messages.
fn redacted(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => format!("{}://***@{}", &url[..scheme], &url[at + 1..]),
        _ => url.to_owned(),
    }
}

fn unavailable(error: redis::RedisError) -> StoreError {
    StoreError(format!("Redis: {error}"))
}

impl SessionStore for RedisStore {
    fn save(&self, id: &str, record: &SessionRecord, ttl: Duration) -> BoxFuture<Result<(), StoreError>> {
        let key = self.key("session", id);
        let text = serde_json::to_string(record).expect("a record serialises");
        let mut redis = self.redis();
        Box::pin(async move { redis.set_ex::<_, _, ()>(key, text, ttl.as_secs().max(1)).await.map_err(unavailable) })
    }

    fn load(&self, id: &str, ttl: Duration) -> BoxFuture<Result<Option<SessionRecord>, StoreError>> {
        let key = self.key("session", id);
        let mut redis = self.redis();
        Box::pin(async move {
            let expiry = redis::Expiry::EX(ttl.as_secs().max(1));
            let text: Option<String> = redis.get_ex(key, expiry).await.map_err(unavailable)?;
            let Some(text) = text else { return Ok(None) };
            serde_json::from_str(&text).map(Some).map_err(|e| StoreError(format!("a session record is corrupt: {e}")))
        })
    }

    fn remove(&self, id: &str) -> BoxFuture<Result<bool, StoreError>> {
        let key = self.key("session", id);
        let mut redis = self.redis();
        Box::pin(async move {
            let removed: u64 = redis.del(key).await.map_err(unavailable)?;
            Ok(removed > 0)
        })
    }
}

impl EventStore for RedisStore {
    fn append(&self, stream: u64, seq: u64, data: Bytes) -> BoxFuture<()> {
        let key = self.key("events", stream);
        let (count, age) = (self.inner.options.events_per_stream, self.inner.options.events_age);
        let mut redis = self.redis();
        Box::pin(async move {
            let mut pipe = redis::pipe();
            pipe.xadd_maxlen(&key, StreamMaxlen::Equals(count), format!("{seq}-0"), &[("d", data.as_ref())])
                .ignore()
                .expire(&key, age.as_secs().max(1) as i64)
                .ignore();
            if let Err(e) = pipe.query_async::<()>(&mut redis).await {
                tracing::warn!("event {seq} of stream {stream} was not stored (it cannot be replayed): {e}");
            }
        })
    }

    fn after(&self, stream: u64, seq: u64) -> BoxFuture<Option<Replay>> {
        let key = self.key("events", stream);
        let mut redis = self.redis();
        Box::pin(async move {
            let mut pipe = redis::pipe();
            pipe.xrange_count(&key, "-", "+", 1).xrange(&key, format!("({seq}-0"), "+");
            let (first, rest): (StreamRangeReply, StreamRangeReply) = match pipe.query_async(&mut redis).await {
                Ok(replies) => replies,
                Err(e) => {
                    tracing::warn!("the events of stream {stream} could not be read: {e}");
                    return None;
                }
            };
            // Unknown stream, or the next event the client needs was trimmed away.
            let oldest = sequence(&first.ids.first()?.id)?;
            if oldest > seq + 1 {
                return None;
            }
            let mut replay = Vec::with_capacity(rest.ids.len());
            for entry in rest.ids {
                let data: Vec<u8> = entry.get("d")?;
                replay.push((sequence(&entry.id)?, Bytes::from(data)));
            }
            Some(replay)
        })
    }

    fn forget(&self, stream: u64) -> BoxFuture<()> {
        let keys = [self.key("events", stream), self.key("stream", stream)];
        let mut redis = self.redis();
        Box::pin(async move {
            if let Err(e) = redis.del::<_, ()>(&keys).await {
                tracing::warn!("the events of stream {stream} were not dropped (they expire on their own): {e}");
            }
        })
    }

    fn shared(&self) -> bool {
        true
    }

    fn register_writer(&self, writer: u32) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            tracing::warn!("no tokio runtime: replica {writer} cannot tell the others it lives");
            return;
        };
        runtime.spawn(heartbeat(Arc::downgrade(&self.inner), writer));
    }

    fn open(&self, stream: u64, request: Option<&RequestId>) -> BoxFuture<()> {
        let key = self.key("stream", stream);
        let request = serde_json::to_string(&request).expect("a request id serialises");
        let age = self.inner.options.events_age.as_secs().max(1);
        let mut redis = self.redis();
        Box::pin(async move {
            if let Err(e) = redis.set_ex::<_, _, ()>(key, request, age).await {
                tracing::warn!("stream {stream} was not recorded (it cannot be resumed on another replica): {e}");
            }
        })
    }

    fn follow(&self, stream: u64, seq: u64) -> BoxFuture<Option<mpsc::Receiver<Followed>>> {
        let inner = self.inner.clone();
        Box::pin(async move {
            let request: Option<String> = inner.connection.clone().get(inner.key("stream", stream)).await.ok()?;
            let request: Option<RequestId> = serde_json::from_str(&request?).ok()?;
            let replay = match EventStore::after(&RedisStore { inner: inner.clone() }, stream, seq).await {
                Some(replay) => replay,
                // A stream with nothing in it yet, resumed from its priming event.
                None if seq == 0 => {
                    let stored: u64 = inner.connection.clone().xlen(inner.key("events", stream)).await.ok()?;
                    (stored == 0).then(Vec::new)?
                }
                None => return None,
            };
            let (tx, rx) = mpsc::channel(64);
            tokio::spawn(async move {
                let mut last = seq;
                for (seq, data) in replay {
                    last = seq;
                    if tx.send(Followed::Event(seq, data)).await.is_err() {
                        return;
                    }
                }
                if let Err(e) = tail(&inner, stream, last, request, &tx).await {
                    tracing::warn!("following stream {stream} failed: {e}");
                    let _ = tx.send(Followed::WriterGone(None)).await;
                }
            });
            Some(rx)
        })
    }
}

impl Bus for RedisStore {
    fn publish(&self, message: Bytes) -> BoxFuture<Result<(), StoreError>> {
        let channel = self.key("bus", "all");
        let mut redis = self.redis();
        Box::pin(async move { redis.publish::<_, _, ()>(channel, message.as_ref()).await.map_err(unavailable) })
    }

    fn subscribe(&self) -> mpsc::Receiver<Bytes> {
        let (tx, rx) = mpsc::channel(1024);
        tokio::spawn(listen(self.inner.clone(), tx));
        rx
    }
}

/// Forwards the bus's messages to `tx` until it is dropped, subscribing again (with a
/// growing pause, at most two seconds) whenever the connection is lost.
async fn listen(inner: Arc<Inner>, tx: mpsc::Sender<Bytes>) {
    let channel = inner.key("bus", "all");
    let mut pause = Duration::from_millis(50);
    while !tx.is_closed() {
        match inner.client.get_async_pubsub().await {
            Ok(mut pubsub) => match pubsub.subscribe(&channel).await {
                Ok(()) => {
                    pause = Duration::from_millis(50);
                    let mut messages = pubsub.on_message();
                    loop {
                        tokio::select! {
                            message = messages.next() => match message {
                                Some(message) => {
                                    if tx.send(Bytes::copy_from_slice(message.get_payload_bytes())).await.is_err() {
                                        return;
                                    }
                                }
                                None => break,
                            },
                            _ = tx.closed() => return,
                        }
                    }
                    tracing::warn!("the bus connection to Redis was lost; subscribing again");
                }
                Err(e) => tracing::warn!("subscribing to the bus failed: {e}"),
            },
            Err(e) => tracing::debug!("the bus cannot reach Redis: {e}"),
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_secs(2));
    }
}

/// Keeps `{prefix}:writer:{writer}` alive while the store is.
async fn heartbeat(inner: Weak<Inner>, writer: u32) {
    let mut tick = tokio::time::interval(HEARTBEAT);
    loop {
        tick.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        let key = inner.key("writer", writer);
        if let Err(e) = inner.connection.clone().set_ex::<_, _, ()>(key, 1, WRITER_TTL_SECS).await {
            tracing::debug!("heartbeat of replica {writer} failed: {e}");
        }
    }
}

/// New events of `stream` after `last`, until the stream's answer or its writer's end.
async fn tail(
    inner: &Inner,
    stream: u64,
    mut last: u64,
    request: Option<RequestId>,
    tx: &mpsc::Sender<Followed>,
) -> redis::RedisResult<()> {
    // XREAD BLOCK holds its connection: one of its own, not the shared multiplexed one.
    let config = redis::AsyncConnectionConfig::new()
        .set_connection_timeout(Some(inner.options.command_timeout))
        .set_response_timeout(Some(FOLLOW_BLOCK + inner.options.command_timeout));
    let mut own = inner.client.get_multiplexed_async_connection_with_config(&config).await?;
    let (key, writer) = (inner.key("events", stream), inner.key("writer", stream >> 32));
    let options = StreamReadOptions::default().block(FOLLOW_BLOCK.as_millis() as usize).count(64);
    loop {
        let reply: Option<StreamReadReply> = own.xread_options(&[&key], &[format!("{last}-0")], &options).await?;
        let entries = reply.into_iter().flat_map(|r| r.keys).flat_map(|k| k.ids);
        let mut read = false;
        for entry in entries {
            read = true;
            let (Some(seq), Some(data)) = (sequence(&entry.id), entry.get::<Vec<u8>>("d")) else { continue };
            last = seq;
            if tx.send(Followed::Event(seq, Bytes::from(data))).await.is_err() {
                return Ok(());
            }
        }
        if tx.is_closed() {
            return Ok(());
        }
        if !read && !own.exists::<_, bool>(&writer).await? {
            // One last look: what the writer stored before it went.
            let rest: StreamRangeReply = own.xrange(&key, format!("({last}-0"), "+").await?;
            for entry in rest.ids {
                let (Some(seq), Some(data)) = (sequence(&entry.id), entry.get::<Vec<u8>>("d")) else { continue };
                let _ = tx.send(Followed::Event(seq, Bytes::from(data))).await;
            }
            let _ = tx.send(Followed::WriterGone(request)).await;
            return Ok(());
        }
    }
}

/// The sequence number of an entry id `{seq}-0`.
fn sequence(id: &str) -> Option<u64> {
    id.split_once('-')?.0.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_stay_out_of_messages() {
        assert_eq!(redacted("redis://:hunter2@cache:6379/0"), "redis://***@cache:6379/0");
        assert_eq!(redacted("rediss://user:pw@host"), "rediss://***@host");
        assert_eq!(redacted("redis://localhost"), "redis://localhost");
    }

    #[test]
    fn entry_ids_carry_sequence_numbers() {
        assert_eq!(sequence("42-0"), Some(42));
        assert_eq!(sequence("nonsense"), None);
    }
}
