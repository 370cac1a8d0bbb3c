//! Change notifications on the client: `subscriptions/listen` (2026-07-28) and the
//! list-changed auto-refresh (both eras).
//!
//! [`Client::listen`] opens a `subscriptions/listen` request and resolves once the server's
//! `notifications/subscriptions/acknowledged` arrives, with the filter the server honoured.
//! The notifications delivered on the stream reach the same notification callbacks a legacy
//! server's unsolicited notifications reach, so a host's handlers serve both eras (the
//! official TypeScript client's model). The subscription id is the listen request's id,
//! which the engine mints when it sends; opens are therefore taken one at a time, so the
//! next acknowledgement belongs to the one open in flight.
//!
//! [`ListChangedHandlers`] is the official TypeScript client's `listChanged` option: on a
//! list change (a legacy server's notification, or one on a listen stream the client opens
//! itself at connect on a modern server) the list is fetched again after a debounce and
//! handed to `on_changed`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::{oneshot, watch};
use tokio_util::sync::CancellationToken;

use super::{Client, ClientError};
use crate::peer::{PeerError, RequestOptions};
use crate::protocol::{ProtocolVersion, meta};

pub(crate) const ACKNOWLEDGED: &str = "notifications/subscriptions/acknowledged";

/// How long a listen request may stay open: as long as the connection (the timeout is the
/// acknowledgement's, applied separately).
const OPEN_FOREVER: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// Receives a list after a change: the refreshed items (`Ok(Some)`), `Ok(None)` when
/// `auto_refresh` is off, or the error the refresh met.
pub type ListChangedCallback = Arc<dyn Fn(Result<Option<Vec<Value>>, ClientError>) + Send + Sync>;

/// One list's handler (the official TypeScript client's `ListChangedOptions`).
#[derive(Clone)]
pub struct ListChangedHandler {
    pub on_changed: ListChangedCallback,
    /// Fetch the list again and pass it to `on_changed` (default true).
    pub auto_refresh: bool,
    /// Changes within this time make one refresh (default 300 ms; zero refreshes at once).
    pub debounce: Duration,
}

impl ListChangedHandler {
    pub fn new(on_changed: ListChangedCallback) -> Self {
        Self { on_changed, auto_refresh: true, debounce: Duration::from_millis(300) }
    }
}

/// The `listChanged` option: a handler per list. A handler whose list the server does not
/// declare `listChanged` for is skipped, as in the official client.
#[derive(Clone, Default)]
pub struct ListChangedHandlers {
    pub tools: Option<ListChangedHandler>,
    pub prompts: Option<ListChangedHandler>,
    pub resources: Option<ListChangedHandler>,
}

impl ListChangedHandlers {
    pub fn is_empty(&self) -> bool {
        self.tools.is_none() && self.prompts.is_none() && self.resources.is_none()
    }
}

/// How a subscription ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubscriptionEnd {
    /// [`Subscription::close`] (or the client closed).
    Local,
    /// The server answered the listen request (its deliberate end).
    Graceful,
    /// The stream ended without an answer: the connection dropped.
    Remote,
}

impl SubscriptionEnd {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Local => "local",
            Self::Graceful => "graceful",
            Self::Remote => "remote",
        }
    }
}

/// An open `subscriptions/listen` stream. Cheap to clone; closing any clone closes it.
#[derive(Clone)]
pub struct Subscription {
    honored: Value,
    id: Value,
    cancel: CancellationToken,
    ended: watch::Receiver<Option<SubscriptionEnd>>,
}

impl Subscription {
    /// The subscription id (the listen request's id), in `_meta` of every notification
    /// the stream carries.
    pub fn id(&self) -> &Value {
        &self.id
    }

    /// The part of the requested filter the server honours (its acknowledgement).
    pub fn honored_filter(&self) -> &Value {
        &self.honored
    }

    /// Ends the subscription (the listen request is cancelled: `notifications/cancelled`
    /// goes out, and over HTTP its stream is closed). Idempotent.
    pub async fn close(&self) {
        self.cancel.cancel();
        self.closed().await;
    }

    pub(crate) fn cancel_now(&self) {
        self.cancel.cancel();
    }

    /// Waits for the end of the subscription, and says how it ended.
    pub async fn closed(&self) -> SubscriptionEnd {
        let mut ended = self.ended.clone();
        match ended.wait_for(Option::is_some).await {
            Ok(end) => end.expect("waited for Some"),
            Err(_) => SubscriptionEnd::Remote,
        }
    }

    /// How it ended, if it has.
    pub fn end(&self) -> Option<SubscriptionEnd> {
        *self.ended.borrow()
    }
}

/// Starts one (debounced) refresh of a list.
type Refresh = Arc<dyn Fn() + Send + Sync>;

/// What the client's router does for the notifications the client itself consumes.
#[derive(Default)]
pub(crate) struct Hooks {
    /// The acknowledgement the open in flight waits for.
    ack: Mutex<Option<oneshot::Sender<Value>>>,
    /// One open at a time (see the module documentation).
    opening: tokio::sync::Mutex<()>,
    /// What a list change runs, by notification method (set after the handshake).
    list_changed: Mutex<Vec<(&'static str, Refresh)>>,
}

impl Hooks {
    /// Takes a notification the client consumes (the acknowledgement a `listen()` waits
    /// for); runs the list-changed refreshes. Returns whether the host's callbacks should
    /// still see it.
    pub(crate) fn notified(&self, method: &str, params: &Value) -> bool {
        if method == ACKNOWLEDGED {
            // The acknowledgement of this client's own `listen()`; one of a listen request
            // the host sent itself goes to the host's callbacks.
            if let Some(tx) = self.ack.lock().unwrap().take() {
                let _ = tx.send(params.clone());
                return false;
            }
            return true;
        }
        let hooks: Vec<_> =
            self.list_changed.lock().unwrap().iter().filter(|(m, _)| *m == method).map(|(_, h)| h.clone()).collect();
        for hook in hooks {
            hook();
        }
        true
    }

    /// Drops the refresh hooks (they hold the client: this breaks the cycle at close).
    pub(crate) fn clear(&self) {
        self.list_changed.lock().unwrap().clear();
    }
}

impl Client {
    /// Opens a `subscriptions/listen` stream (2026-07-28 only) with `filter` (the wire
    /// `SubscriptionFilter`: `toolsListChanged`, `promptsListChanged`,
    /// `resourcesListChanged`, `resourceSubscriptions`, `taskIds`) and waits for the
    /// server's acknowledgement (within the request timeout). The notifications it carries
    /// reach the notification callbacks.
    pub async fn listen(&self, filter: Value, timeout: Option<Duration>) -> Result<Subscription, ClientError> {
        if !self.details.modern {
            return Err(ClientError::Usage(format!(
                "subscriptions/listen is not available at protocol version {}; it requires {}. On earlier \
                 versions the server sends list changes and resource updates unasked (subscribe_resource for \
                 updates)",
                self.details.protocol_version,
                ProtocolVersion::LATEST
            )));
        }
        if !filter.is_object() {
            return Err(ClientError::Usage("the listen filter must be a JSON object".into()));
        }
        let hooks = self.router.hooks.clone();
        let _one_at_a_time = hooks.opening.lock().await;
        let (ack_tx, ack_rx) = oneshot::channel();
        *hooks.ack.lock().unwrap() = Some(ack_tx);
        let cancel = CancellationToken::new();
        let (ended_tx, ended) = watch::channel(None);
        let (failed_tx, failed_rx) = oneshot::channel::<ClientError>();
        let client = self.clone();
        let token = cancel.clone();
        let acked = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let was_acked = acked.clone();
        tokio::spawn(async move {
            let options = RequestOptions { timeout: Some(OPEN_FOREVER), cancel: Some(token), ..Default::default() };
            let outcome = client.request("subscriptions/listen", json!({"notifications": filter}), options).await;
            let end = match outcome {
                Ok(_) => SubscriptionEnd::Graceful,
                Err(ClientError::Peer(PeerError::Cancelled)) => SubscriptionEnd::Local,
                Err(e) => {
                    if !was_acked.load(Ordering::Acquire) {
                        let _ = failed_tx.send(e);
                    }
                    SubscriptionEnd::Remote
                }
            };
            let _ = ended_tx.send(Some(end));
        });
        let wait = self.options.peer.request_timeout;
        let wait = timeout.unwrap_or(wait);
        let outcome = tokio::time::timeout(wait, async {
            tokio::select! {
                honored = ack_rx => honored.map_err(|_| ClientError::Protocol("subscriptions/listen ended before it was acknowledged".into())),
                failed = failed_rx => Err(failed.unwrap_or_else(|_| ClientError::Protocol("subscriptions/listen ended before it was acknowledged".into()))),
            }
        })
        .await;
        hooks.ack.lock().unwrap().take();
        match outcome {
            Ok(Ok(ack)) => {
                acked.store(true, Ordering::Release);
                let honored = ack.get("notifications").cloned().unwrap_or_else(|| json!({}));
                let id = ack.pointer(&format!("/_meta/{}", meta::SUBSCRIPTION_ID.replace('/', "~1"))).cloned();
                Ok(Subscription { honored, id: id.unwrap_or(Value::Null), cancel, ended })
            }
            Ok(Err(e)) => {
                cancel.cancel();
                Err(e)
            }
            Err(_) => {
                cancel.cancel();
                Err(ClientError::Peer(PeerError::Timeout(wait)))
            }
        }
    }

    /// Installs the `listChanged` handlers after the handshake: on a legacy connection the
    /// server's notifications trigger them; on a modern one the client opens a listen
    /// stream for the declared lists (a refusal is logged, not fatal, as in the official
    /// client).
    pub(crate) async fn install_list_changed(&mut self, handlers: &ListChangedHandlers) {
        if handlers.is_empty() {
            return;
        }
        let caps = self.details.capabilities.clone();
        let declared = |kind: &str| caps.get(kind).and_then(|c| c.get("listChanged")) == Some(&Value::Bool(true));
        let lists = [
            ("tools", "notifications/tools/list_changed", "toolsListChanged", &handlers.tools),
            ("prompts", "notifications/prompts/list_changed", "promptsListChanged", &handlers.prompts),
            ("resources", "notifications/resources/list_changed", "resourcesListChanged", &handlers.resources),
        ];
        let mut filter = serde_json::Map::new();
        for (kind, method, key, handler) in lists {
            let Some(handler) = handler.clone() else { continue };
            if !declared(kind) {
                continue;
            }
            filter.insert(key.into(), Value::Bool(true));
            let hook = self.refresher(kind, handler);
            self.router.hooks.list_changed.lock().unwrap().push((method, hook));
        }
        if self.details.modern && !filter.is_empty() {
            match self.listen(Value::Object(filter), None).await {
                Ok(subscription) => self.auto_subscription = Some(subscription),
                Err(e) => tracing::warn!("listChanged: subscriptions/listen failed: {e}"),
            }
        }
    }

    fn refresher(&self, kind: &'static str, handler: ListChangedHandler) -> Refresh {
        let generation = Arc::new(AtomicU64::new(0));
        let client = self.clone();
        Arc::new(move || {
            let mine = generation.fetch_add(1, Ordering::AcqRel) + 1;
            let generation = generation.clone();
            let client = client.clone();
            let handler = handler.clone();
            tokio::spawn(async move {
                if !handler.debounce.is_zero() {
                    tokio::time::sleep(handler.debounce).await;
                    if generation.load(Ordering::Acquire) != mine {
                        return;
                    }
                }
                if !handler.auto_refresh {
                    (handler.on_changed)(Ok(None));
                    return;
                }
                let items = match kind {
                    "tools" => client.list_all("tools/list", "tools").await,
                    "prompts" => client.list_all("prompts/list", "prompts").await,
                    _ => client.list_all("resources/list", "resources").await,
                };
                (handler.on_changed)(items.map(Some));
            });
        })
    }
}
