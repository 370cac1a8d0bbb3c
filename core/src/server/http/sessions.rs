//! Legacy Streamable HTTP sessions (2025-03-26 .. 2025-11-25): the table of sessions that
//! `initialize` opened, keyed by an unguessable `Mcp-Session-Id`.
//!
//! A session owns the server's [`Connection`] for that client, the streams it may resume,
//! the requests it may still cancel, and the server-to-client requests waiting for the
//! client's answer (which arrives in a POST of its own). The table is bounded (past the
//! limit `initialize` gets 503) and sessions idle longer than the configured time are
//! ended by a sweeper task, so abandoned clients cost nothing for long.
//!
//! With a [`SessionStore`] the table is this replica's cache of the sessions it serves:
//! a session id it does not hold is looked up in the store, every request reads the
//! session's record again (which keeps it alive there), a request that changed the
//! session writes it back before its answer goes out, and DELETE removes it from the
//! store. Expiry is then the store's: a replica only forgets its copy.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use bytes::Bytes;
use serde_json::Value;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::bus::Link;
use super::events::EventStore;
use super::exchange::{closed, notification};
use super::store::{SessionStore, StoreError};
use super::stream::SseStream;
use crate::peer::{BoxFuture, PeerError, RequestOptions};
use crate::protocol::ProtocolVersion;
use crate::server::Connection;
use crate::server::outbound::Outbound;
use crate::wire::{ErrorObject, RequestId, encode};

type Answer = oneshot::Receiver<Result<Value, PeerError>>;

/// Finished request streams a session keeps resumable.
const KEEP_FINISHED: usize = 64;

pub(crate) struct HttpSession {
    pub id: String,
    pub connection: Arc<Connection>,
    /// Fires when the session ends (DELETE, expiry, shutdown).
    pub ended: CancellationToken,
    pub standalone: Arc<SseStream>,
    streams: Mutex<HashMap<u64, Arc<SseStream>>>,
    finished: Mutex<VecDeque<u64>>,
    running: Mutex<HashMap<RequestId, CancellationToken>>,
    waiting: Mutex<HashMap<i64, oneshot::Sender<Result<Value, PeerError>>>>,
    next_request_id: AtomicI64,
    last_active: Mutex<Instant>,
    busy: AtomicUsize,
    store: Arc<dyn EventStore>,
    /// The generation of the connection's session last written to the session store.
    saved: AtomicU64,
    /// The way to the replica holding the standalone stream when this one does not.
    bus: Option<Arc<Link>>,
}

/// Marks a session busy (not to be expired) while held.
pub(crate) struct Busy(Arc<HttpSession>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.touch();
        self.0.busy.fetch_sub(1, Ordering::Relaxed);
    }
}

impl HttpSession {
    pub fn busy(self: &Arc<Self>) -> Busy {
        self.busy.fetch_add(1, Ordering::Relaxed);
        self.touch();
        Busy(self.clone())
    }

    /// The priming event and `retry` (and so closing a stream for the client to resume)
    /// came with 2025-11-25; older clients are not sent them.
    pub fn primes(&self) -> bool {
        self.connection.negotiated_version().is_some_and(ProtocolVersion::has_sse_priming)
    }

    fn touch(&self) {
        *self.last_active.lock().unwrap() = Instant::now();
    }

    /// A new resumable stream of this session, answering `request`.
    pub async fn open_stream(&self, id: u64, request: &RequestId) -> Arc<SseStream> {
        self.store.open(id, Some(request)).await;
        let stream = Arc::new(SseStream::new(id, self.store.clone()));
        self.streams.lock().unwrap().insert(id, stream.clone());
        stream
    }

    pub fn stream(&self, id: u64) -> Option<Arc<SseStream>> {
        self.streams.lock().unwrap().get(&id).cloned()
    }

    /// A request's stream has its response. It stays resumable (the client may not have
    /// read the end yet) among the session's most recent [`KEEP_FINISHED`] finished
    /// streams; older ones are forgotten.
    pub async fn finished(&self, id: u64) {
        let evicted = {
            let mut finished = self.finished.lock().unwrap();
            finished.push_back(id);
            if finished.len() > KEEP_FINISHED { finished.pop_front() } else { None }
        };
        if let Some(old) = evicted {
            self.streams.lock().unwrap().remove(&old);
            self.store.forget(old).await;
        }
    }

    /// Registers a request, so `notifications/cancelled` can reach it; the token also
    /// fires when the session ends.
    pub fn register(&self, id: &RequestId) -> CancellationToken {
        let token = self.ended.child_token();
        self.running.lock().unwrap().insert(id.clone(), token.clone());
        token
    }

    pub fn unregister(&self, id: &RequestId) {
        self.running.lock().unwrap().remove(id);
    }

    /// `notifications/cancelled` from the client.
    pub fn cancel(&self, id: &RequestId) {
        if let Some(token) = self.running.lock().unwrap().remove(id) {
            token.cancel();
        }
    }

    /// A server-to-client request: its id, its text, and where its answer will arrive.
    pub fn outgoing_request(&self, method: &str, params: &Value) -> (i64, Bytes, Answer) {
        let id = self.next_request_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.waiting.lock().unwrap().insert(id, tx);
        let mut buf = Vec::with_capacity(128);
        encode::begin_request(&mut buf, &RequestId::Number(id), method);
        encode::params(&mut buf, params).expect("a JSON value serialises");
        encode::end(&mut buf);
        (id, Bytes::from(buf), rx)
    }

    /// Stops waiting for the answer to our request `id` (its wait expired).
    pub(crate) fn forget_request(&self, id: i64) {
        self.waiting.lock().unwrap().remove(&id);
    }

    /// The client's answer to one of our requests; `false` when none waits for it.
    pub fn answer(&self, id: &RequestId, outcome: Result<Value, ErrorObject>) -> bool {
        let RequestId::Number(id) = id else { return false };
        let Some(tx) = self.waiting.lock().unwrap().remove(id) else { return false };
        let _ = tx.send(outcome.map_err(PeerError::Rpc));
        true
    }

    /// Ends this copy of the session; `discard` also drops its streams' stored events
    /// (not when only a replica's copy ends and the session goes on elsewhere).
    async fn end(&self, discard: bool) {
        self.ended.cancel();
        self.waiting.lock().unwrap().clear();
        let streams: Vec<u64> = self.streams.lock().unwrap().drain().map(|(id, _)| id).collect();
        if discard {
            for id in streams {
                self.store.forget(id).await;
            }
            if let Some(id) = self.connection.transport_id() {
                self.connection.server().spec_tasks.session_ended(&id);
            }
        }
    }
}

/// Session-wide messages (list changes, resource updates) go to the standalone stream.
struct StandaloneOutbound(Weak<HttpSession>);

impl HttpSession {
    /// A message outside any request: on the standalone stream if this replica holds its
    /// reader, else to the replica that does.
    async fn send_standalone(&self, data: Bytes) {
        if let Some(bus) = &self.bus
            && !self.standalone.is_read().await
        {
            bus.to_session(&self.id, &data);
            return;
        }
        self.standalone.emit(data).await;
    }
}

impl Outbound for StandaloneOutbound {
    fn notify(&self, method: &str, params: Value) -> BoxFuture<Result<(), PeerError>> {
        let session = self.0.upgrade();
        let data = notification(method, &params);
        Box::pin(async move {
            let session = session.ok_or_else(closed)?;
            session.send_standalone(data).await;
            Ok(())
        })
    }

    /// With replicas, a server-wide notification reaches a session from the replica that
    /// holds its stream (each raises it there from the bus): not routed from here too.
    fn notify_server_wide(&self, method: &str, params: Value) -> BoxFuture<Result<(), PeerError>> {
        let session = self.0.upgrade();
        let data = notification(method, &params);
        Box::pin(async move {
            let session = session.ok_or_else(closed)?;
            if session.bus.is_none() || session.standalone.is_read().await {
                session.standalone.emit(data).await;
            }
            Ok(())
        })
    }

    fn request(&self, method: &str, params: Value, options: RequestOptions) -> BoxFuture<Result<Value, PeerError>> {
        let session = self.0.upgrade();
        let method = method.to_owned();
        Box::pin(async move {
            let session = session.ok_or_else(closed)?;
            let (id, data, answer) = session.outgoing_request(&method, &params);
            session.send_standalone(data).await;
            // The answer comes only if the client reads the standalone stream (a GET); one
            // that never opens it must not leave the caller waiting forever.
            let limit = options.timeout.unwrap_or(session.connection.server().options.peer.request_timeout);
            match tokio::time::timeout(limit, answer).await {
                Ok(answer) => answer.unwrap_or_else(|_| Err(closed())),
                Err(_) => {
                    session.forget_request(id);
                    Err(PeerError::Timeout(limit))
                }
            }
        })
    }
}

/// Why a session could not be opened or found.
pub(crate) enum Refused {
    /// This replica holds its limit of sessions.
    Full,
    /// The session store failed.
    Store(StoreError),
}

pub(crate) struct SessionTable {
    sessions: Mutex<HashMap<String, Arc<HttpSession>>>,
    limit: usize,
    idle: Duration,
    next_stream: AtomicU64,
    store: Arc<dyn EventStore>,
    shared: Option<Arc<dyn SessionStore>>,
    /// The high 32 bits of this table's stream ids, which tell replicas apart.
    writer: u32,
    bus: std::sync::OnceLock<Arc<Link>>,
    sweeping: std::sync::Once,
}

impl SessionTable {
    pub fn new(
        limit: usize,
        idle: Duration,
        store: Arc<dyn EventStore>,
        shared: Option<Arc<dyn SessionStore>>,
    ) -> Self {
        // Stream ids start at a random multiple of 2^32, so replicas sharing an event store
        // do not mix up their streams.
        let mut nonce = [0u8; 4];
        getrandom::fill(&mut nonce).expect("the OS has a random source");
        let writer = u32::from_le_bytes(nonce) >> 1;
        store.register_writer(writer);
        let first = (u64::from(writer) << 32) | 1;
        Self {
            sessions: Mutex::default(),
            limit,
            idle,
            next_stream: AtomicU64::new(first),
            store,
            shared,
            writer,
            bus: std::sync::OnceLock::new(),
            sweeping: std::sync::Once::new(),
        }
    }

    /// What tells this replica from the others.
    pub fn writer(&self) -> u32 {
        self.writer
    }

    /// Sessions opened from now on reach other replicas through `link`.
    pub fn set_bus(&self, link: Arc<Link>) {
        let _ = self.bus.set(link);
    }

    /// Every session this replica holds.
    pub fn all(&self) -> Vec<Arc<HttpSession>> {
        self.sessions.lock().unwrap().values().cloned().collect()
    }

    /// A stream id unique in this table (and so in its event store).
    pub fn stream_id(&self) -> u64 {
        self.next_stream.fetch_add(1, Ordering::Relaxed)
    }

    /// Opens a session around `connection`, unless the table is full.
    pub fn create(self: &Arc<Self>, connection: Arc<Connection>) -> Result<Arc<HttpSession>, Refused> {
        self.insert(session_id(), connection)
    }

    /// Writes the session to the session store if a request changed it since it was last
    /// written (or read); nothing without a store.
    pub async fn persist(&self, session: &HttpSession) -> Result<(), StoreError> {
        let Some(shared) = &self.shared else { return Ok(()) };
        let (generation, record) = session.connection.record();
        if session.saved.load(Ordering::Acquire) == generation {
            return Ok(());
        }
        shared.save(&session.id, &record, self.idle).await?;
        session.saved.fetch_max(generation, Ordering::AcqRel);
        Ok(())
    }

    /// Session `id`: this replica's copy, brought up to date from the session store when
    /// there is one (and made from it when this replica has none). `None`: no such session.
    pub async fn find(
        self: &Arc<Self>,
        id: &str,
        connection: impl FnOnce() -> Arc<Connection>,
    ) -> Result<Option<Arc<HttpSession>>, Refused> {
        let local = self.get(id);
        let Some(shared) = &self.shared else { return Ok(local) };
        let Some(record) = shared.load(id, self.idle).await.map_err(Refused::Store)? else {
            if local.is_some() {
                self.forget(id, true).await;
            }
            return Ok(None);
        };
        let session = match local {
            Some(session) => session,
            None => self.insert(id.to_owned(), connection())?,
        };
        if session.connection.record().1 != record {
            let generation = session.connection.restore(&record);
            session.saved.store(generation, Ordering::Release);
        }
        Ok(Some(session))
    }

    fn insert(self: &Arc<Self>, id: String, connection: Arc<Connection>) -> Result<Arc<HttpSession>, Refused> {
        self.sweeping.call_once(|| {
            tokio::spawn(sweep(Arc::downgrade(self)));
        });
        let mut sessions = self.sessions.lock().unwrap();
        if let Some(session) = sessions.get(&id) {
            return Ok(session.clone());
        }
        if sessions.len() >= self.limit {
            return Err(Refused::Full);
        }
        connection.set_transport_id(&id);
        let standalone_id = self.stream_id();
        let session = Arc::new(HttpSession {
            id: id.clone(),
            connection,
            ended: CancellationToken::new(),
            standalone: Arc::new(SseStream::new(standalone_id, self.store.clone())),
            streams: Mutex::default(),
            finished: Mutex::default(),
            running: Mutex::default(),
            waiting: Mutex::default(),
            next_request_id: AtomicI64::new(first_request_id(self.bus.get().is_some())),
            last_active: Mutex::new(Instant::now()),
            busy: AtomicUsize::new(0),
            store: self.store.clone(),
            saved: AtomicU64::new(0),
            bus: self.bus.get().cloned(),
        });
        session.streams.lock().unwrap().insert(standalone_id, session.standalone.clone());
        session.connection.attach_outbound(Arc::new(StandaloneOutbound(Arc::downgrade(&session))));
        sessions.insert(id, session.clone());
        Ok(session)
    }

    pub fn get(&self, id: &str) -> Option<Arc<HttpSession>> {
        self.sessions.lock().unwrap().get(id).cloned()
    }

    pub fn len(&self) -> usize {
        self.sessions.lock().unwrap().len()
    }

    /// Ends a session, on every replica when there is a session store; `false` when there
    /// was none by that id.
    pub async fn remove(&self, id: &str) -> Result<bool, StoreError> {
        let removed = match &self.shared {
            Some(shared) => shared.remove(id).await?,
            None => false,
        };
        Ok(self.forget(id, true).await || removed)
    }

    /// Ends this replica's copy of a session (and its stored events with it when
    /// `discard`); `false` when it had none.
    async fn forget(&self, id: &str, discard: bool) -> bool {
        let session = self.sessions.lock().unwrap().remove(id);
        match session {
            Some(session) => {
                session.end(discard).await;
                true
            }
            None => false,
        }
    }

    /// Ends every session this replica holds (server shutdown); those in a session store
    /// go on being served by the other replicas.
    pub async fn clear(&self) {
        let sessions: Vec<_> = self.sessions.lock().unwrap().drain().map(|(_, s)| s).collect();
        for session in sessions {
            session.end(self.shared.is_none()).await;
        }
    }

    fn expired(&self) -> Vec<String> {
        let now = Instant::now();
        let sessions = self.sessions.lock().unwrap();
        sessions
            .values()
            .filter(|s| {
                s.busy.load(Ordering::Relaxed) == 0 && now.duration_since(*s.last_active.lock().unwrap()) >= self.idle
            })
            .map(|s| s.id.clone())
            .collect()
    }
}

/// Ends idle sessions, checking a few times per idle period, until the table is gone.
async fn sweep(table: Weak<SessionTable>) {
    let period = match table.upgrade() {
        Some(table) => (table.idle / 4).max(Duration::from_millis(10)),
        None => return,
    };
    loop {
        tokio::time::sleep(period).await;
        let Some(table) = table.upgrade() else { return };
        for id in table.expired() {
            table.forget(&id, table.shared.is_none()).await;
        }
    }
}

/// The id of a session's first server-to-client request: 1, or with replicas, which all
/// send requests in the session, a random start (below 2^53, which JavaScript clients
/// hold exactly) so their ids do not collide.
fn first_request_id(replicated: bool) -> i64 {
    if !replicated {
        return 1;
    }
    let mut bytes = [0u8; 4];
    getrandom::fill(&mut bytes).expect("the OS has a random source");
    (i64::from(u32::from_le_bytes(bytes) >> 12) << 32) + 1
}

/// 32 bytes from the OS CSPRNG, hex-encoded (visible ASCII, as the specification asks).
fn session_id() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the OS has a random source");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
