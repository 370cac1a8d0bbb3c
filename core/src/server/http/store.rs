//! Where legacy sessions live when one process is not enough.
//!
//! A legacy (2025-era) session is opened by `initialize` on one replica, and behind a load
//! balancer without sticky sessions its next request may land on any other. With a
//! [`SessionStore`] set, the replica that opened it writes what the session is made of (a
//! [`SessionRecord`]: the negotiated revision, what the client declared, its log level and
//! resource subscriptions) and every replica that is handed a session id it does not hold
//! reads it back and serves the session as its own. Every request of a session reads the
//! record again, which also keeps it from expiring: so a `logging/setLevel` answered by one
//! replica holds on the next, and a DELETE on one ends the session on all of them.
//!
//! Without a store (the default) a session lives in the memory of the process that opened
//! it, as before. Implementations: `ferrymcp-redis`.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;

use crate::peer::BoxFuture;

/// What a replica needs to serve a legacy session another one opened.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionRecord {
    /// The revision `initialize` negotiated.
    pub protocol_version: String,
    pub client_capabilities: Value,
    pub client_info: Value,
    /// The level of the client's last `logging/setLevel` (none: everything is sent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_level: Option<String>,
    /// The resources the client subscribed to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subscriptions: Vec<String>,
}

/// The store could not be reached or answered nonsense; the endpoint answers 503.
#[derive(Clone, Debug, thiserror::Error)]
#[error("the session store is unavailable: {0}")]
pub struct StoreError(pub String);

pub trait SessionStore: Send + Sync + 'static {
    /// Keeps (or replaces) session `id` for `ttl` from now.
    fn save(&self, id: &str, record: &SessionRecord, ttl: Duration) -> BoxFuture<Result<(), StoreError>>;

    /// Session `id`, its lifetime extended to `ttl` from now; `None` when there is none (it
    /// never existed, expired, or was deleted).
    fn load(&self, id: &str, ttl: Duration) -> BoxFuture<Result<Option<SessionRecord>, StoreError>>;

    /// Ends session `id`; `false` when there was none.
    fn remove(&self, id: &str) -> BoxFuture<Result<bool, StoreError>>;
}
