//! Notifications the server sends on its own: list changes and resource updates, to legacy
//! sessions (plain) and to 2026-07-28 `subscriptions/listen` streams (filtered, and tagged
//! with the subscription id).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use super::context::Context;
use super::outbound::Outbound;
use super::tasks::{self, TaskEntry};
use super::{Server, ServerShared};
use crate::protocol::meta;
use crate::wire::ErrorObject;

/// One open `subscriptions/listen` stream.
pub(crate) struct Listener {
    outbound: Arc<dyn Outbound>,
    subscription_id: Value,
    filter: Map<String, Value>,
    /// The listen request's cancellation: once fired, nothing more goes out on it, even
    /// before its task has noticed and unregistered.
    cancel: CancellationToken,
    /// Held while the acknowledgement is queued, so no notification can precede it.
    gate: Arc<tokio::sync::Mutex<()>>,
}

impl Listener {
    fn wants(&self, kind: &str) -> bool {
        self.filter.get(kind) == Some(&Value::Bool(true))
    }

    fn watches(&self, uri: &str) -> bool {
        let uris = self.filter.get("resourceSubscriptions").and_then(Value::as_array);
        uris.is_some_and(|uris| uris.iter().any(|u| u == uri))
    }

    fn follows_task(&self, id: &str) -> bool {
        let ids = self.filter.get("taskIds").and_then(Value::as_array);
        ids.is_some_and(|ids| ids.iter().any(|i| i == id))
    }

    fn tagged(&self, mut params: Value) -> Value {
        params["_meta"] = json!({ meta::SUBSCRIPTION_ID: self.subscription_id });
        params
    }
}

/// Removes a listener when its request ends (cancelled, or the connection closed).
struct Registration<'a> {
    server: &'a ServerShared,
    key: u64,
}

impl Drop for Registration<'_> {
    fn drop(&mut self) {
        self.server.listeners.lock().unwrap().remove(&self.key);
    }
}

const LIST_KINDS: [&str; 3] = ["toolsListChanged", "promptsListChanged", "resourcesListChanged"];

/// Serves `subscriptions/listen`: acknowledges the honoured filter first, then stays open
/// until the client cancels it.
pub(crate) async fn listen(
    server: &Arc<ServerShared>,
    params: Map<String, Value>,
    cx: Context,
) -> Result<Value, ErrorObject> {
    let requested = params.get("notifications").and_then(Value::as_object);
    let requested = requested
        .ok_or_else(|| ErrorObject::invalid_params("Invalid params: subscriptions/listen needs \"notifications\""))?;
    let mut honoured = Map::new();
    for kind in LIST_KINDS {
        if requested.get(kind) == Some(&Value::Bool(true)) {
            honoured.insert(kind.into(), Value::Bool(true));
        }
    }
    if let Some(uris) = requested.get("resourceSubscriptions").and_then(Value::as_array) {
        let uris: Vec<Value> = uris.iter().filter(|u| u.is_string()).cloned().collect();
        honoured.insert("resourceSubscriptions".into(), Value::Array(uris));
    }
    if let Some(ids) = requested.get("taskIds").and_then(Value::as_array) {
        if !tasks::accepted(&cx) {
            return Err(tasks::extension_required());
        }
        let known = ids.iter().filter(|id| id.as_str().is_some_and(|id| server.tasks.get(id).is_some()));
        honoured.insert("taskIds".into(), Value::Array(known.cloned().collect()));
    }
    if let Some(cap) = *server.max_listen_streams.lock().unwrap()
        && server.listeners.lock().unwrap().len() >= cap
    {
        return Err(ErrorObject::internal("Subscription limit reached"));
    }
    let subscription_id = serde_json::to_value(cx.request_id()).expect("ids serialise");
    let closing = server.listen_closing.lock().unwrap().clone();
    let gate = Arc::new(tokio::sync::Mutex::new(()));
    let acknowledging = gate.clone().lock_owned().await;
    let outbound = cx.inner.outbound.clone();
    let cancel = cx.cancellation().clone();
    let ended = json!({"_meta": {meta::SUBSCRIPTION_ID: subscription_id.clone()}});
    let listener = Listener { outbound: outbound.clone(), subscription_id, filter: honoured.clone(), cancel, gate };
    let ack = listener.tagged(json!({"notifications": honoured}));
    // Registered before the acknowledgement is queued (a change the client makes once it
    // has seen the ack must reach this stream), and gated so nothing overtakes the ack.
    let key = server.next_id.fetch_add(1, Ordering::Relaxed);
    server.listeners.lock().unwrap().insert(key, listener);
    let _registration = Registration { server, key };
    outbound
        .notify("notifications/subscriptions/acknowledged", ack)
        .await
        .map_err(|e| ErrorObject::internal(e.to_string()))?;
    drop(acknowledging);
    tokio::select! {
        // A graceful end ([`Server::close_listen_streams`]): the result, tagged, is the
        // stream's last frame.
        () = closing.cancelled() => Ok(ended),
        () = cx.cancellation().cancelled() => std::future::pending().await,
    }
}

/// Sends a task's new state (`notifications/tasks`, the `DetailedTask`) to the listen
/// streams following it. Sent in the background: the change happens under no lock the
/// sending could wait on.
pub(crate) fn task_changed(server: &ServerShared, task: &TaskEntry) {
    let params = Value::Object(task.detailed());
    let listeners = listeners(server, |l| l.follows_task(&task.id), &params);
    if !listeners.is_empty() {
        tokio::spawn(send_all("notifications/tasks", Vec::new(), Value::Null, listeners));
    }
}

/// Carries a server-wide notification to the other replicas of this server (an HTTP
/// endpoint with a bus registers one).
pub(crate) trait Fanout: Send + Sync + 'static {
    fn publish(&self, method: &str, params: &Value);
}

const TOOLS_CHANGED: &str = "notifications/tools/list_changed";
const PROMPTS_CHANGED: &str = "notifications/prompts/list_changed";
const RESOURCES_CHANGED: &str = "notifications/resources/list_changed";
const RESOURCE_UPDATED: &str = "notifications/resources/updated";
const LOG_MESSAGE: &str = "notifications/message";

/// The `subscriptions/listen` filter key of a list change.
fn list_kind(method: &str) -> Option<&'static str> {
    match method {
        TOOLS_CHANGED => Some("toolsListChanged"),
        PROMPTS_CHANGED => Some("promptsListChanged"),
        RESOURCES_CHANGED => Some("resourcesListChanged"),
        _ => None,
    }
}

/// Whether a legacy session receives server-wide notification `method`: list changes go
/// to every one, a resource update to those subscribed to its URI, a log message to those
/// whose `logging/setLevel` lets its level through.
pub(crate) fn session_wants(session: &super::session::Session, method: &str, params: &Value) -> bool {
    if !session.initialized {
        return false;
    }
    match method {
        RESOURCE_UPDATED => params["uri"].as_str().is_some_and(|uri| session.subscriptions.contains(uri)),
        LOG_MESSAGE => {
            params["level"].as_str().and_then(super::context::level_rank).is_some_and(|rank| rank >= session.log_level)
        }
        _ => true,
    }
}

/// Whether [`session_wants`] reads what a session changes over time (so a copy of the
/// session must be fresh to decide).
pub(crate) fn depends_on_session(method: &str) -> bool {
    matches!(method, RESOURCE_UPDATED | LOG_MESSAGE)
}

/// A server-wide notification to the `subscriptions/listen` streams that asked for it.
pub(crate) async fn to_listeners(server: &ServerShared, method: &str, params: Value) {
    let listeners = match (list_kind(method), params["uri"].as_str()) {
        (Some(kind), _) => listeners(server, |l| l.wants(kind), &json!({})),
        (None, Some(uri)) if method == RESOURCE_UPDATED => listeners(server, |l| l.watches(uri), &params),
        _ => Vec::new(),
    };
    send_all(method, Vec::new(), Value::Null, listeners).await;
}

impl Server {
    pub async fn notify_tools_changed(&self) {
        self.server_wide(TOOLS_CHANGED, Value::Null).await;
    }

    pub async fn notify_prompts_changed(&self) {
        self.server_wide(PROMPTS_CHANGED, Value::Null).await;
    }

    pub async fn notify_resources_changed(&self) {
        self.server_wide(RESOURCES_CHANGED, Value::Null).await;
    }

    /// Tells the sessions subscribed to `uri`, and the listen streams watching it.
    pub async fn notify_resource_updated(&self, uri: &str) {
        self.server_wide(RESOURCE_UPDATED, json!({"uri": uri})).await;
    }

    /// Sends `notifications/message` to every initialized legacy session whose
    /// `logging/setLevel` lets `level` through. This is for messages outside any request;
    /// a handler logs through its [`Context`], which reaches 2026-07-28 clients too.
    pub async fn notify_log(&self, level: &str, data: Value, logger: Option<&str>) {
        if super::context::level_rank(level).is_none()
            || !self.shared.options.dialect.sends_logs(super::capabilities::logging_declared(&self.shared))
        {
            return;
        }
        let mut params = json!({"level": level, "data": data});
        if let Some(logger) = logger {
            params["logger"] = json!(logger);
        }
        self.server_wide(LOG_MESSAGE, params).await;
    }

    /// A notification to every client of this server that wants it, on this replica and
    /// (through each endpoint's bus) on the others.
    async fn server_wide(&self, method: &str, params: Value) {
        let fanout = self.shared.fanout.read().unwrap().clone();
        for replicas in fanout {
            replicas.publish(method, &params);
        }
        let sessions = self.sessions(|session| session_wants(session, method, &params));
        let session_params = if params.is_null() { Value::Null } else { params.clone() };
        for outbound in sessions {
            let _ = outbound.notify_server_wide(method, session_params.clone()).await;
        }
        if !self.shared.listen_carried.load(Ordering::Relaxed) {
            to_listeners(&self.shared, method, params).await;
        }
    }

    /// Hands list changes and resource updates for `subscriptions/listen` streams to the
    /// application, which carries them (through its own bus, say across replicas) and
    /// delivers them back with [`Server::notify_listeners`]: from now on the notifications
    /// this server raises (and those the replica bus brings) reach its legacy sessions and
    /// the other replicas as before, but its listen streams only through that call (the
    /// official Python SDK's `SubscriptionBus`).
    pub fn carry_listen_events(&self) {
        self.shared.listen_carried.store(true, Ordering::Relaxed);
    }

    /// Delivers a list change (`notifications/tools/list_changed`, ...) or a resource
    /// update (`notifications/resources/updated`, `{"uri"}`) to this server's listen
    /// streams that asked for it, each tagged with its subscription id; other methods are
    /// ignored.
    pub async fn notify_listeners(&self, method: &str, params: Value) {
        to_listeners(&self.shared, method, params).await;
    }

    /// Changes the cap on open `subscriptions/listen` streams
    /// ([`ServerOptions::max_listen_streams`](super::ServerOptions::max_listen_streams); `None`: no cap) for the streams opened from
    /// now on (those open stay open). For an application that learns its cap after building
    /// the server (an HTTP handler given a server by a factory).
    pub fn set_max_listen_streams(&self, cap: Option<usize>) {
        *self.shared.max_listen_streams.lock().unwrap() = cap;
    }

    /// Ends every open `subscriptions/listen` stream gracefully: each answers its request
    /// (the result tagged with the subscription id), so clients know the end was meant.
    /// Streams opened later are not affected.
    pub fn close_listen_streams(&self) {
        let closing = std::mem::take(&mut *self.shared.listen_closing.lock().unwrap());
        closing.cancel();
    }

    /// The way back to each initialized legacy session that passes `keep`.
    fn sessions(&self, keep: impl Fn(&super::session::Session) -> bool) -> Vec<Arc<dyn Outbound>> {
        let connections: Vec<_> =
            self.shared.connections.lock().unwrap().values().filter_map(|c| c.upgrade()).collect();
        connections
            .into_iter()
            .filter(|c| {
                let session = c.session.lock().unwrap();
                session.initialized && keep(&session)
            })
            .filter_map(|c| c.outbound())
            .collect()
    }
}

fn listeners(server: &ServerShared, keep: impl Fn(&Listener) -> bool, params: &Value) -> Vec<ListenerSend> {
    let listeners = server.listeners.lock().unwrap();
    listeners
        .values()
        .filter(|l| !l.cancel.is_cancelled() && keep(l))
        .map(|l| (l.outbound.clone(), l.tagged(params.clone()), l.gate.clone(), l.cancel.clone()))
        .collect()
}

type ListenerSend = (Arc<dyn Outbound>, Value, Arc<tokio::sync::Mutex<()>>, CancellationToken);

async fn send_all(method: &str, sessions: Vec<Arc<dyn Outbound>>, params: Value, listeners: Vec<ListenerSend>) {
    for outbound in sessions {
        let _ = outbound.notify(method, params.clone()).await;
    }
    for (outbound, params, gate, cancel) in listeners {
        let _acknowledged = gate.lock().await;
        if !cancel.is_cancelled() {
            let _ = outbound.notify(method, params).await;
        }
    }
}
