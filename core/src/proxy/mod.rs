//! Proxying: a front [`Server`] whose answers come from upstream MCP servers reached
//! through core [`Client`]s. The `ferrymcp bridge` command (one upstream, seen as it is,
//! on another transport) and `ferrymcp gateway` (many upstreams behind one endpoint, their
//! names prefixed) are built on it, and so can the bindings be.
//!
//! The proxy is a thin forwarder and speaks no JSON-RPC of its own: the front is core's
//! server (both eras, every transport), each upstream core's client, and what passes
//! between them are the params and results as values.
//! - Requests: MCP's feature methods are answered by feature handlers
//!   ([`Server::set_feature_handler`]) that call the upstream with [`forward`], so each
//!   runs with its front [`Context`]: the upstream's progress is reported on the front
//!   request, the front's cancellation cancels the upstream request, and the upstream's
//!   requests to the client (sampling, elicitation, roots) are asked through the front
//!   request that is waiting on it ([`Relay`]). The session methods (`logging/setLevel`,
//!   `resources/subscribe`/`unsubscribe`) are forwarded by a middleware that then lets the
//!   front session record them too (so the front's per-session level and subscriptions
//!   filter what is relayed), and the application's own methods, which the front cannot
//!   know in advance, are forwarded by the same middleware.
//! - Notifications: the upstream's (list changes, resource updates, log messages, custom
//!   ones) reach the front's clients through [`Relay`]; the front clients' own
//!   (`notifications/roots/list_changed`, custom ones) are forwarded upstream.
//!
//! One upstream connection serves every front client. An upstream's request to the client
//! carries no trace of the call that caused it (over stdio nothing links them), so it is
//! asked of the client whose forwarded request started last and is still waiting; with no
//! request waiting, of the newest legacy session. A 2026-07-28 front client answers input
//! by retrying its request (MRTR): the front answers `input_required`, the forwarded
//! request is abandoned, and the retry forwards it again, the upstream's question then
//! answered from the retry's `inputResponses`. So the upstream runs such a call once per
//! round, as MRTR runs any handler again on each retry.
//!
//! Not forwarded: the tasks extension (a task lives on the server that runs it, and the
//! front's `tasks/*` are its own engine's), and `ping`, which each hop answers itself.

mod bridge;
pub mod gateway;

pub use bridge::bridge;

use std::borrow::Cow;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::value::RawValue;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::client::{Client, ClientCallbacks, ClientError, InputCallback, NotificationCallback};
use crate::peer::{BoxFuture, Progress, RequestOptions};
use crate::protocol::meta;
use crate::server::{Context, HandlerError, Params, Server};
use crate::wire::{ErrorObject, RawJson, RawResult, members_in_order};

/// Connects to an upstream with the callbacks that relay its requests and notifications.
pub type Connector = Arc<dyn Fn(ClientCallbacks) -> BoxFuture<Result<Client, ClientError>> + Send + Sync>;

/// The upstream's way to the front's clients: its requests to the client and its
/// notifications, relayed through the front request waiting on it or the front's sessions.
#[derive(Default)]
pub struct Relay {
    front: OnceLock<Server>,
    /// The front requests forwarded to this upstream and not yet answered, oldest first.
    waiting: Mutex<Vec<Waiter>>,
    next: AtomicU64,
}

impl Relay {
    pub fn new() -> Arc<Self> {
        Arc::default()
    }

    /// Names the front server; until then notifications are dropped and requests refused.
    pub fn attach(&self, front: &Server) {
        let _ = self.front.set(front.clone());
    }

    /// The callbacks to connect the upstream client with: sampling, elicitation and roots
    /// are asked of a front client, every notification relayed.
    pub fn callbacks(self: &Arc<Self>) -> ClientCallbacks {
        let ask = |method: &'static str| -> InputCallback {
            let relay = self.clone();
            Arc::new(move |params| relay.clone().ask(method, params))
        };
        let relay = self.clone();
        let notification: NotificationCallback = Arc::new(move |method, params| {
            let (relay, method) = (relay.clone(), method.to_owned());
            tokio::spawn(async move { relay.notify(&method, params).await });
        });
        ClientCallbacks {
            sampling: Some(ask("sampling/createMessage")),
            elicitation: Some(ask("elicitation/create")),
            roots: Some(ask("roots/list")),
            notification: Some(notification),
            ..ClientCallbacks::default()
        }
    }

    fn newest_waiting(&self) -> Option<Context> {
        self.waiting.lock().unwrap().last().map(|w| w.cx.clone())
    }

    fn ask(self: Arc<Self>, method: &'static str, params: Value) -> BoxFuture<Result<Value, ErrorObject>> {
        Box::pin(async move {
            let newest = self.waiting.lock().unwrap().last().map(|w| (w.cx.clone(), w.gone.clone()));
            let answer = match (newest, self.front.get()) {
                // A 2026-07-28 request answers by a retry, which runs the forwarding
                // again: this round's question then ends with the request.
                (Some((cx, gone)), _) => tokio::select! {
                    answer = cx.input(None, method, params) => answer,
                    () = gone.cancelled() => Err(HandlerError::Failed("the client's request ended".into())),
                },
                (None, Some(front)) => match front.legacy_sessions().into_iter().max_by_key(|s| s.id()) {
                    Some(session) => session.request(method, params).await,
                    None => Err(HandlerError::Failed(format!("no client to send {method} to"))),
                },
                (None, None) => Err(HandlerError::Failed(format!("no client to send {method} to"))),
            };
            answer.map_err(|e| match e {
                HandlerError::Rpc(error) => error,
                other => ErrorObject::internal(other.to_string()),
            })
        })
    }

    /// Relays one upstream notification to the front's clients.
    async fn notify(&self, method: &str, params: Value) {
        let Some(front) = self.front.get() else { return };
        match method {
            "notifications/tools/list_changed" => front.notify_tools_changed().await,
            "notifications/prompts/list_changed" => front.notify_prompts_changed().await,
            "notifications/resources/list_changed" => front.notify_resources_changed().await,
            "notifications/resources/updated" => {
                if let Some(uri) = params.get("uri").and_then(Value::as_str) {
                    front.notify_resource_updated(uri).await;
                }
            }
            "notifications/message" => {
                let level = params.get("level").and_then(Value::as_str).unwrap_or("info");
                let data = params.get("data").cloned().unwrap_or(Value::Null);
                let logger = params.get("logger").and_then(Value::as_str);
                match self.newest_waiting() {
                    Some(cx) => drop(cx.log(level, data, logger).await),
                    None => front.notify_log(level, data, logger).await,
                }
            }
            _ => match self.newest_waiting() {
                Some(cx) => drop(cx.notify(method, params).await),
                None => {
                    for session in front.legacy_sessions() {
                        let _ = session.notify(method, params.clone()).await;
                    }
                }
            },
        }
    }

    /// Counts `cx` as waiting on the upstream until the guard is dropped.
    fn wait(&self, cx: &Context) -> Waiting<'_> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.waiting.lock().unwrap().push(Waiter { id, cx: cx.clone(), gone: CancellationToken::new() });
        Waiting { relay: self, id }
    }
}

/// A front request waiting on the upstream; `gone` fires when it stops waiting.
struct Waiter {
    id: u64,
    cx: Context,
    gone: CancellationToken,
}

struct Waiting<'a> {
    relay: &'a Relay,
    id: u64,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        let mut waiting = self.relay.waiting.lock().unwrap();
        if let Some(index) = waiting.iter().position(|w| w.id == self.id) {
            waiting.remove(index).gone.cancel();
        }
    }
}

/// Keeps a `subscriptions/listen` stream open on a 2026-07-28 upstream, for its list
/// changes (a modern server sends them only on such a stream; a legacy one sends them on
/// its session unasked); they arrive as notifications, which the [`Relay`] passes on like
/// a legacy upstream's. The task ends with the connection. `None` for a legacy upstream.
pub fn listen_for_changes(client: &Client) -> Option<tokio::task::JoinHandle<()>> {
    if !client.server().modern {
        return None;
    }
    let client = client.clone();
    Some(tokio::spawn(async move {
        let filter = serde_json::json!({"notifications": {
            "toolsListChanged": true, "promptsListChanged": true, "resourcesListChanged": true,
        }});
        // The stream lasts as long as the connection: no timeout worth the name.
        let options = RequestOptions::default().timeout(std::time::Duration::from_secs(365 * 24 * 3600));
        if let Err(e) = client.request("subscriptions/listen", filter, options).await {
            tracing::debug!("subscriptions/listen on the upstream ended: {e}");
        }
    }))
}

/// The `_meta` keys that belong to the front hop (the upstream client sets its own).
const HOP_META: [&str; 5] =
    [meta::PROTOCOL_VERSION, meta::CLIENT_CAPABILITIES, meta::CLIENT_INFO, meta::LOG_LEVEL, meta::PROGRESS_TOKEN];

/// Sends front request `method` upstream and returns the upstream's result as it is: the
/// upstream's progress goes to the front request, the front's cancellation cancels it, and
/// the upstream's requests to the client meanwhile are asked through `cx` (see [`Relay`]).
/// A JSON-RPC error from the upstream is answered as that error.
pub async fn forward(
    client: &Client,
    relay: &Relay,
    method: &str,
    params: Map<String, Value>,
    cx: &Context,
) -> Result<Value, HandlerError> {
    let raw = forward_raw(client, relay, method, params, cx).await?;
    raw.text()
        .parse_owned()
        .map_err(|e| HandlerError::Failed(format!("upstream server: {method} result is not JSON: {e}")))
}

/// [`forward`], returning the upstream's result as the JSON text it sent, with the members
/// the client read of it ([`Client::request_raw`]): what the proxies' feature handlers
/// answer with ([`Server::set_raw_feature_handler`]), so a result crosses without a parse
/// and the front does not scan it again.
pub async fn forward_raw(
    client: &Client,
    relay: &Relay,
    method: &str,
    mut params: Map<String, Value>,
    cx: &Context,
) -> Result<RawResult, HandlerError> {
    if let Some(Value::Object(fields)) = params.get_mut("_meta") {
        fields.retain(|key, _| !HOP_META.contains(&key.as_str()));
        if fields.is_empty() {
            params.shift_remove("_meta");
        }
    }
    forwarding(relay, cx, |options| client.request_raw(method, params, options)).await
}

/// [`forward_raw`] of params as a raw feature handler gets them ([`Params`]): params kept
/// as the front client's text are passed on as text ([`forward_text`]).
pub async fn forward_params(
    client: &Client,
    relay: &Relay,
    method: &str,
    params: Params,
    cx: &Context,
) -> Result<RawResult, HandlerError> {
    match params {
        Params::Map(params) => forward_raw(client, relay, method, params, cx).await,
        Params::Text(text) => forward_text(client, relay, method, &text, None, cx).await,
    }
}

/// [`forward_raw`] of params given as the front client's JSON text, with `name` set to
/// `rename` when given (the gateway's upstream name): the members go upstream as the
/// client wrote them, without `_meta` (the front hop's, which the upstream client replaces
/// with its own), so they are never parsed. Params whose `_meta` holds anything besides
/// the front hop's keys are parsed and forwarded by [`forward_raw`], which keeps the rest.
pub async fn forward_text(
    client: &Client,
    relay: &Relay,
    method: &str,
    text: &RawJson,
    rename: Option<&str>,
    cx: &Context,
) -> Result<RawResult, HandlerError> {
    forward_members(client, relay, method, text, members_in_order(text.get()), rename, cx).await
}

/// [`forward_text`] with `text`'s members already read ([`members_in_order`]; `None`
/// when it names one twice).
pub(crate) async fn forward_members<'t>(
    client: &Client,
    relay: &Relay,
    method: &str,
    text: &'t RawJson,
    members: Option<Vec<(Cow<'t, str>, &'t RawValue)>>,
    rename: Option<&str>,
    cx: &Context,
) -> Result<RawResult, HandlerError> {
    let renamed = rename.map(|name| serde_json::value::to_raw_value(name).expect("a string is JSON"));
    let members = members.and_then(|members| {
        let mut members: Vec<(Cow<'_, str>, &RawValue)> = members;
        if let Some(at) = members.iter().position(|(key, _)| key == "_meta") {
            let fields = members_in_order(members[at].1.get())?;
            if !fields.iter().all(|(key, _)| HOP_META.contains(&key.as_ref())) {
                return None;
            }
            members.remove(at);
        }
        if let Some(renamed) = &renamed {
            match members.iter_mut().find(|(key, _)| key == "name") {
                Some(member) => member.1 = &**renamed,
                None => members.push((Cow::Borrowed("name"), &**renamed)),
            }
        }
        Some(members)
    });
    let Some(members) = members else {
        let mut params = Params::Text(text.clone()).into_map().map_err(HandlerError::Rpc)?;
        if let Some(name) = rename {
            params.insert("name".into(), Value::String(name.to_owned()));
        }
        return forward_raw(client, relay, method, params, cx).await;
    };
    forwarding(relay, cx, |options| client.request_raw_members(method, &members, options)).await
}

/// Runs `send` (the upstream request) as a forwarded request of `cx`: the upstream's
/// progress goes to it, its cancellation cancels the upstream request, and the upstream's
/// requests to the client meanwhile are asked through it.
async fn forwarding<F>(
    relay: &Relay,
    cx: &Context,
    send: impl FnOnce(RequestOptions) -> F,
) -> Result<RawResult, HandlerError>
where
    F: Future<Output = Result<RawResult, ClientError>>,
{
    let mut options = RequestOptions { cancel: Some(cx.cancellation().clone()), ..RequestOptions::default() };
    let mut progress = None;
    if cx.progress_token().is_some() {
        // One task per request reports in arrival order, and is drained before the result
        // goes back (the sender is taken back, whoever still holds the callback).
        let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel::<Progress>();
        let sender = Arc::new(Mutex::new(Some(sender)));
        let front = cx.clone();
        let reporter = tokio::spawn(async move {
            while let Some(p) = receiver.recv().await {
                front.report_progress(p.progress, p.total, p.message).await;
            }
        });
        let callback = sender.clone();
        let on_progress = Arc::new(move |p| {
            if let Some(sender) = &*callback.lock().unwrap() {
                let _ = sender.send(p);
            }
        });
        options = options.on_progress(on_progress).reset_timeout_on_progress(None);
        progress = Some((sender, reporter));
    }
    let waiting = relay.wait(cx);
    let result = send(options).await;
    drop(waiting);
    if let Some((sender, reporter)) = progress {
        sender.lock().unwrap().take();
        let _ = reporter.await;
    }
    result.map_err(upstream_error)
}

/// An upstream failure as the front answers it: the upstream's own JSON-RPC error as it
/// is, anything else (a lost connection, a timeout) as a failure naming it.
pub fn upstream_error(error: ClientError) -> HandlerError {
    match error.rpc() {
        Some(rpc) => HandlerError::Rpc(rpc.clone()),
        None => HandlerError::Failed(format!("upstream server: {error}")),
    }
}
