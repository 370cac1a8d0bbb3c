//! The bus between replicas: what one replica must tell the others so that a client's
//! messages reach it whichever replica holds its stream.
//!
//! With a [`Bus`] set (and a shared session store), three things cross it:
//! - server-wide notifications (list changes, resource updates, log messages) raised on
//!   one replica reach every replica's clients: legacy sessions whose standalone (GET)
//!   stream it holds, filtered by their subscriptions and log level as read from the
//!   session store, and its 2026-07-28 `subscriptions/listen` streams;
//! - a notification or request the server sends one session outside any request goes to
//!   the replica holding that session's standalone stream;
//! - the client's answer to a server-to-client request, which may be POSTed to any
//!   replica, reaches the one waiting for it.
//!
//! A bus delivers to every replica, the sender included (which skips its own messages).
//! Delivery is at most once: a replica that is not listening when a message passes misses
//! it, as a client that holds no stream misses a notification on one process.

use std::sync::{Arc, OnceLock, Weak};

use bytes::Bytes;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::mpsc;

use super::HttpState;
use super::exchange::notification;
use super::store::StoreError;
use crate::peer::BoxFuture;
use crate::server::Fanout;
use crate::server::notify;
use crate::wire::{ErrorObject, RequestId};

pub trait Bus: Send + Sync + 'static {
    /// Sends `message` to every replica listening.
    fn publish(&self, message: Bytes) -> BoxFuture<Result<(), StoreError>>;

    /// What every replica publishes from now on, this one's included, for as long as the
    /// receiver is kept (a bus that loses its connection re-subscribes by itself).
    fn subscribe(&self) -> mpsc::Receiver<Bytes>;
}

/// What crosses the bus.
#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
enum Envelope {
    /// A server-wide notification raised on replica `from`.
    Broadcast { from: u32, method: String, params: Value },
    /// A message (notification or request) for session `session`, outside any request.
    Session { from: u32, session: String, message: String },
    /// The client's answer to the server-to-client request `id` of session `session`.
    Answer {
        from: u32,
        session: String,
        id: i64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        result: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<ErrorObject>,
    },
}

/// This replica's end of the bus.
pub(crate) struct Link {
    bus: Arc<dyn Bus>,
    /// Tells this replica's messages from the others'.
    me: u32,
    /// Messages go out in the order they were sent, from one task (started on first use).
    outbox: OnceLock<mpsc::UnboundedSender<Bytes>>,
}

impl Link {
    pub fn new(bus: Arc<dyn Bus>, me: u32) -> Arc<Self> {
        Arc::new(Self { bus, me, outbox: OnceLock::new() })
    }

    fn send(&self, envelope: &Envelope) {
        let message = Bytes::from(serde_json::to_vec(envelope).expect("an envelope serialises"));
        let outbox = self.outbox.get_or_init(|| {
            let (tx, rx) = mpsc::unbounded_channel();
            tokio::spawn(publish_in_order(self.bus.clone(), rx));
            tx
        });
        let _ = outbox.send(message);
    }

    /// A message for `session`, whose standalone stream another replica may hold.
    pub fn to_session(&self, session: &str, message: &[u8]) {
        let message = String::from_utf8_lossy(message).into_owned();
        self.send(&Envelope::Session { from: self.me, session: session.to_owned(), message });
    }

    /// The client's answer to request `id` of `session`, which no request here waits for.
    pub fn answer(&self, session: &str, id: &RequestId, outcome: Result<Value, ErrorObject>) {
        let RequestId::Number(id) = id else { return };
        let (result, error) = match outcome {
            Ok(result) => (Some(result), None),
            Err(error) => (None, Some(error)),
        };
        self.send(&Envelope::Answer { from: self.me, session: session.to_owned(), id: *id, result, error });
    }
}

impl Fanout for Link {
    fn publish(&self, method: &str, params: &Value) {
        self.send(&Envelope::Broadcast { from: self.me, method: method.to_owned(), params: params.clone() });
    }
}

/// Publishes what `outbox` receives, one message after the other (so in order, whatever
/// the bus does with concurrent commands; messages on the bus are rare: notifications).
async fn publish_in_order(bus: Arc<dyn Bus>, mut outbox: mpsc::UnboundedReceiver<Bytes>) {
    while let Some(message) = outbox.recv().await {
        if let Err(e) = bus.publish(message).await {
            tracing::warn!("a message for the other replicas was lost: {e}");
        }
    }
}

/// Delivers what the other replicas publish, until the endpoint is gone.
pub(crate) async fn receive(state: Weak<HttpState>, mut messages: mpsc::Receiver<Bytes>, me: u32) {
    while let Some(message) = messages.recv().await {
        let Some(state) = state.upgrade() else { return };
        let envelope = match serde_json::from_slice::<Envelope>(&message) {
            Ok(envelope) => envelope,
            Err(e) => {
                tracing::warn!("an unreadable message on the bus was dropped: {e}");
                continue;
            }
        };
        match envelope {
            Envelope::Broadcast { from, method, params } if from != me => broadcast(&state, &method, params).await,
            Envelope::Session { from, session, message } if from != me => {
                if let Some(session) = state.sessions.get(&session)
                    && session.standalone.is_read().await
                {
                    session.standalone.emit(Bytes::from(message)).await;
                }
            }
            Envelope::Answer { from, session, id, result, error } if from != me => {
                if let Some(session) = state.sessions.get(&session) {
                    let outcome = match error {
                        Some(error) => Err(error),
                        None => Ok(result.unwrap_or(Value::Null)),
                    };
                    session.answer(&RequestId::Number(id), outcome);
                }
            }
            _ => {}
        }
    }
}

/// A notification raised on another replica, to this one's clients: the legacy sessions
/// whose standalone stream is read here (their subscriptions and log level read afresh
/// from the session store) and the `subscriptions/listen` streams.
async fn broadcast(state: &Arc<HttpState>, method: &str, params: Value) {
    for session in state.sessions.all() {
        if !session.standalone.is_read().await {
            continue;
        }
        let fresh = if notify::depends_on_session(method) {
            match state.sessions.find(&session.id, || state.server.connection()).await {
                Ok(Some(fresh)) => fresh,
                _ => continue,
            }
        } else {
            session
        };
        let wanted = notify::session_wants(&fresh.connection.session.lock().unwrap(), method, &params);
        if wanted {
            fresh.standalone.emit(notification(method, &params)).await;
        }
    }
    if !state.server.shared.listen_carried.load(std::sync::atomic::Ordering::Relaxed) {
        notify::to_listeners(&state.server.shared, method, params).await;
    }
}
