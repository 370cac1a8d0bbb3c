//! Many upstreams behind one front server, each named: tools and prompts are offered as
//! `NAME__tool` (the server's name, [`SEPARATOR`], the upstream's name), resource URIs are
//! left as they are and routed to the upstream that listed them.
//!
//! Lists are gathered when asked, every page of every connected upstream at once, so
//! they are never stale; calls go to the upstream their prefix names. Each upstream is
//! kept by a supervisor task: connected with a timeout, and when it fails or its
//! connection ends, connected again after a backoff (1 s doubling to 30 s, started over
//! once a connection held longer than that), the front's
//! clients told that the lists changed each time it comes or goes. A list change an
//! upstream announces is passed on as the front's. An upstream that is down is simply
//! left out; it is never fatal to the others.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use futures_util::future::join_all;
use serde_json::{Map, Value, json};

use super::bridge::{SESSION_METHODS, forward_plain};
use super::{Connector, Relay, forward_members, forward_raw};
use crate::client::Client;
use crate::peer::BoxFuture;
use crate::protocol::ServerCapabilities;
use crate::server::{
    Answer, Context, HandlerError, Inbound, Middleware, Next, Params, Server, ServerOptions, UriTemplate,
};
use crate::wire::{RawResult, members_in_order};

/// Between an upstream's name and the name of one of its tools or prompts.
pub const SEPARATOR: &str = "__";

/// One upstream: its name (the prefix) and how to connect to it.
pub struct UpstreamSpec {
    pub name: String,
    pub connect: Connector,
}

/// What happened to an upstream, for the host to report.
#[derive(Debug)]
pub enum UpstreamEvent {
    /// Connected; `pid` is the process it started, if it started one.
    Connected { pid: Option<u32> },
    /// An attempt failed (or timed out); retried after `retry_in`.
    Failed { error: String, retry_in: Duration },
    /// The connection ended; reconnected after `retry_in`.
    Lost { retry_in: Duration },
}

/// Receives each upstream's events: its name and the event.
pub type EventCallback = Arc<dyn Fn(&str, UpstreamEvent) + Send + Sync>;

#[derive(Clone)]
pub struct GatewayOptions {
    /// How long one connection attempt may take.
    pub connect_timeout: Duration,
    /// The first wait before trying again; it doubles up to `max_backoff`.
    pub min_backoff: Duration,
    pub max_backoff: Duration,
    /// The front's `serverInfo`.
    pub info: Value,
}

impl Default for GatewayOptions {
    fn default() -> Self {
        Self {
            connect_timeout: Duration::from_secs(30),
            min_backoff: Duration::from_secs(1),
            max_backoff: Duration::from_secs(30),
            info: json!({"name": "ferrymcp-gateway", "version": env!("CARGO_PKG_VERSION")}),
        }
    }
}

/// One upstream as the gateway (and core's client group, [`crate::host::group`]) keeps it.
pub(crate) struct Slot {
    pub(crate) name: String,
    pub(crate) relay: Arc<Relay>,
    client: RwLock<Option<Client>>,
    /// Woken each time the supervisor has a new connection in `client`.
    pub(crate) connected: tokio::sync::Notify,
}

impl Slot {
    pub(crate) fn new(name: String, relay: Arc<Relay>) -> Self {
        Self { name, relay, client: RwLock::new(None), connected: tokio::sync::Notify::new() }
    }

    pub(crate) fn client(&self) -> Option<Client> {
        self.client.read().unwrap().clone()
    }

    fn offers(client: &Client, capability: &str) -> bool {
        client.server().capabilities.get(capability).is_some()
    }
}

/// The upstreams, and which one listed each resource URI and template.
struct Upstreams {
    slots: Vec<Arc<Slot>>,
    resources: Mutex<HashMap<String, usize>>,
    templates: Mutex<HashMap<String, usize>>,
}

/// The front server of a gateway (serve it on any transport) and its upstreams.
pub struct Gateway {
    pub server: Server,
    upstreams: Arc<Upstreams>,
    supervisors: Vec<tokio::task::JoinHandle<()>>,
}

impl Gateway {
    /// Builds the front and connects every upstream at once, returning once each has
    /// connected or failed its first attempt (the failed ones keep being retried). Fails
    /// only when the front cannot be built: a `FERRYMCP_STATE_KEY` shorter than the
    /// request-state key floor ([`Server::try_with_info`]).
    pub async fn start(
        specs: Vec<UpstreamSpec>,
        options: GatewayOptions,
        events: EventCallback,
    ) -> Result<Gateway, String> {
        let server = Server::try_with_info(options.info.clone(), None, ServerOptions::default())?;
        let slots: Vec<Arc<Slot>> = specs
            .iter()
            .map(|spec| {
                let relay = Relay::new();
                relay.attach(&server);
                Arc::new(Slot::new(spec.name.clone(), relay))
            })
            .collect();
        let upstreams =
            Arc::new(Upstreams { slots: slots.clone(), resources: Default::default(), templates: Default::default() });
        declare(&server, &upstreams);
        let front = server.clone();
        let changed: Changed = Arc::new(move || {
            let server = front.clone();
            Box::pin(async move {
                server.notify_tools_changed().await;
                server.notify_prompts_changed().await;
                server.notify_resources_changed().await;
            })
        });
        let (first, supervisors): (Vec<_>, Vec<_>) = specs
            .into_iter()
            .zip(slots)
            .map(|(spec, slot)| {
                let supervisor = Supervisor {
                    slot,
                    connect: spec.connect,
                    changed: changed.clone(),
                    options: options.clone(),
                    stop: tokio_util::sync::CancellationToken::new(),
                };
                supervisor.spawn(events.clone())
            })
            .unzip();
        join_all(first).await;
        Ok(Gateway { server, upstreams, supervisors })
    }

    /// Stops for good: no more reconnecting, and every upstream connection closed, the
    /// processes it started ended (asked to stop by closing their stdin, killed if they
    /// do not; one still starting is killed as its supervisor is dropped).
    pub async fn shutdown(self) {
        for supervisor in &self.supervisors {
            supervisor.abort();
        }
        for supervisor in self.supervisors {
            let _ = supervisor.await;
        }
        let clients: Vec<Client> =
            self.upstreams.slots.iter().filter_map(|slot| slot.client.write().unwrap().take()).collect();
        join_all(clients.iter().map(Client::close)).await;
    }
}

/// Told each time an upstream comes or goes.
pub(crate) type Changed = Arc<dyn Fn() -> BoxFuture<()> + Send + Sync>;

/// Keeps one upstream connected until `stop`.
pub(crate) struct Supervisor {
    pub(crate) slot: Arc<Slot>,
    pub(crate) connect: Connector,
    pub(crate) changed: Changed,
    pub(crate) options: GatewayOptions,
    pub(crate) stop: tokio_util::sync::CancellationToken,
}

impl Supervisor {
    /// Starts supervising; the receiver fires once the first attempt connected or failed.
    /// The task ends when `stop` is cancelled (or when aborted).
    pub(crate) fn spawn(
        self,
        events: EventCallback,
    ) -> (tokio::sync::oneshot::Receiver<()>, tokio::task::JoinHandle<()>) {
        let (ready, first) = tokio::sync::oneshot::channel();
        let stop = self.stop.clone();
        let task = tokio::spawn(async move {
            tokio::select! {
                () = self.run(ready, events) => {}
                () = stop.cancelled() => {}
            }
        });
        (first, task)
    }

    async fn run(&self, ready: tokio::sync::oneshot::Sender<()>, events: EventCallback) {
        let mut ready = Some(ready);
        let mut backoff = self.options.min_backoff;
        loop {
            let attempt =
                tokio::time::timeout(self.options.connect_timeout, (self.connect)(self.slot.relay.callbacks()));
            let outcome = match attempt.await {
                Ok(Ok(client)) => Ok(client),
                Ok(Err(e)) => Err(e.to_string()),
                Err(_) => Err(format!("no answer within {:?}", self.options.connect_timeout)),
            };
            match outcome {
                Ok(client) => {
                    let since = tokio::time::Instant::now();
                    events(&self.slot.name, UpstreamEvent::Connected { pid: client.child().map(|c| c.id()) });
                    *self.slot.client.write().unwrap() = Some(client.clone());
                    self.slot.connected.notify_waiters();
                    ready.take().map(|r| r.send(()));
                    let listening = super::listen_for_changes(&client);
                    (self.changed)().await;
                    let stopped = tokio::select! {
                        _ = client.peer().closed() => false,
                        () = self.stop.cancelled() => true,
                    };
                    if let Some(listening) = listening {
                        listening.abort();
                    }
                    if stopped {
                        self.slot.client.write().unwrap().take();
                        client.close().await;
                        return;
                    }
                    self.slot.client.write().unwrap().take();
                    client.close().await;
                    (self.changed)().await;
                    // A connection that held a while starts the backoff over; one that
                    // keeps dying at once waits longer each time.
                    if since.elapsed() > self.options.max_backoff {
                        backoff = self.options.min_backoff;
                    }
                    events(&self.slot.name, UpstreamEvent::Lost { retry_in: backoff });
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(self.options.max_backoff);
                }
                Err(error) => {
                    ready.take().map(|r| r.send(()));
                    events(&self.slot.name, UpstreamEvent::Failed { error, retry_in: backoff });
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(self.options.max_backoff);
                }
            }
        }
    }
}

/// The front's handlers and capabilities: every list feature, with list changes.
fn declare(server: &Server, upstreams: &Arc<Upstreams>) {
    type Route = fn(Arc<Upstreams>, Map<String, Value>, Context) -> BoxFuture<Result<Value, HandlerError>>;
    let lists: [(&str, Route); 4] = [
        ("tools/list", |u, p, _| Box::pin(async move { u.merged("tools/list", "tools", "tools", &p, true).await })),
        ("prompts/list", |u, p, _| {
            Box::pin(async move { u.merged("prompts/list", "prompts", "prompts", &p, true).await })
        }),
        ("resources/list", |u, p, _| {
            Box::pin(async move { u.merged("resources/list", "resources", "resources", &p, false).await })
        }),
        ("resources/templates/list", |u, p, _| {
            Box::pin(
                async move { u.merged("resources/templates/list", "resourceTemplates", "resources", &p, false).await },
            )
        }),
    ];
    for (method, route) in lists {
        let upstreams = upstreams.clone();
        let handler = move |params, cx| route(upstreams.clone(), params, cx);
        server.set_feature_handler(method, handler).expect("MCP's feature methods");
    }
    // The forwarded calls pass the upstream's result on as its JSON text.
    type Forward = fn(Arc<Upstreams>, Params, Context) -> BoxFuture<Result<RawResult, HandlerError>>;
    let forwards: [(&str, Forward); 4] = [
        ("tools/call", |u, p, cx| Box::pin(async move { u.by_name("tools/call", p, cx).await })),
        ("prompts/get", |u, p, cx| Box::pin(async move { u.by_name("prompts/get", p, cx).await })),
        ("resources/read", |u, p, cx| {
            Box::pin(async move { u.by_uri("resources/read", p.into_map().map_err(HandlerError::Rpc)?, cx).await })
        }),
        ("completion/complete", |u, p, cx| {
            Box::pin(async move { u.complete(p.into_map().map_err(HandlerError::Rpc)?, cx).await })
        }),
    ];
    for (method, route) in forwards {
        let upstreams = upstreams.clone();
        let handler = move |params, cx| route(upstreams.clone(), params, cx);
        server.set_raw_feature_handler(method, handler).expect("MCP's feature methods");
    }
    let changes = json!({"listChanged": true});
    let capabilities = json!({
        "tools": changes, "prompts": changes,
        "resources": {"listChanged": true, "subscribe": true}, "completions": {}, "logging": {},
    });
    let capabilities: ServerCapabilities = serde_json::from_value(capabilities).expect("capabilities");
    server.register_capabilities(&capabilities).expect("capabilities");
    server.set_middleware(Some(Arc::new(SessionForwarder { upstreams: upstreams.clone() })));
}

impl Upstreams {
    fn connected(&self) -> Vec<(usize, Arc<Slot>, Client)> {
        let slots = self.slots.iter().enumerate();
        slots.filter_map(|(i, slot)| slot.client().map(|client| (i, slot.clone(), client))).collect()
    }

    /// Every page of `method` from every connected upstream that offers `capability`,
    /// in one page: names prefixed (`prefixed`), or URIs remembered with their upstream.
    async fn merged(
        &self,
        method: &str,
        key: &str,
        capability: &str,
        params: &Map<String, Value>,
        prefixed: bool,
    ) -> Result<Value, HandlerError> {
        if params.get("cursor").is_some() {
            return Err(HandlerError::Rpc(crate::wire::ErrorObject::invalid_params("Invalid cursor")));
        }
        let connected: Vec<_> = self.connected().into_iter().filter(|(_, _, c)| Slot::offers(c, capability)).collect();
        let lists = join_all(connected.iter().map(|(_, _, client)| client.list_all(method, key))).await;
        let mut merged = Vec::new();
        for ((index, slot, _), list) in connected.into_iter().zip(lists) {
            let items = match list {
                Ok(items) => items,
                Err(e) => {
                    tracing::warn!("{method} from upstream {}: {e}", slot.name);
                    continue;
                }
            };
            for mut item in items {
                if prefixed {
                    let name = item.get("name").and_then(Value::as_str).unwrap_or_default();
                    item["name"] = json!(format!("{}{SEPARATOR}{name}", slot.name));
                } else {
                    self.remember(&item, index);
                }
                merged.push(item);
            }
        }
        Ok(json!({ key: merged }))
    }

    fn remember(&self, item: &Value, index: usize) {
        if let Some(uri) = item.get("uri").and_then(Value::as_str) {
            self.resources.lock().unwrap().insert(uri.to_owned(), index);
        }
        if let Some(template) = item.get("uriTemplate").and_then(Value::as_str) {
            self.templates.lock().unwrap().insert(template.to_owned(), index);
        }
    }

    /// The upstream whose prefix `name` carries, and the name without it.
    fn named(&self, name: &str) -> Result<(Arc<Slot>, String), HandlerError> {
        prefixed(&self.slots, name).ok_or_else(|| {
            HandlerError::Rpc(crate::wire::ErrorObject::invalid_params(format!(
                "Unknown name {name:?} (names are SERVER{SEPARATOR}NAME)"
            )))
        })
    }

    /// Sends a request about a prefixed `name` to the upstream the prefix names, with the
    /// upstream's own name. Params kept as text stay text ([`forward_text`]).
    async fn by_name(&self, method: &str, params: Params, cx: Context) -> Result<RawResult, HandlerError> {
        let mut params = match params {
            Params::Map(params) => params,
            Params::Text(text) => match members_in_order(text.get()) {
                Some(members) => {
                    let name = members.iter().find(|(key, _)| key == "name");
                    let name = name.and_then(|(_, name)| serde_json::from_str::<String>(name.get()).ok());
                    let (slot, name) = self.named(&name.unwrap_or_default())?;
                    let client = slot.client().ok_or_else(|| down(&slot))?;
                    return forward_members(&client, &slot.relay, method, &text, Some(members), Some(&name), &cx).await;
                }
                None => Params::Text(text).into_map().map_err(HandlerError::Rpc)?,
            },
        };
        let name = params.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
        let (slot, name) = self.named(&name)?;
        params.insert("name".into(), json!(name));
        let client = slot.client().ok_or_else(|| down(&slot))?;
        forward_raw(&client, &slot.relay, method, params, &cx).await
    }

    /// The upstream that listed `uri`, or one of whose templates matches it.
    fn owner(&self, uri: &str) -> Option<Arc<Slot>> {
        let index = self.resources.lock().unwrap().get(uri).copied().or_else(|| {
            let templates = self.templates.lock().unwrap();
            templates.iter().find(|(t, _)| UriTemplate::parse(t).is_ok_and(|t| t.matches(uri).is_some())).map(|x| *x.1)
        });
        index.map(|i| self.slots[i].clone())
    }

    /// Sends a request about `params.uri` to the upstream that listed it; a URI no list
    /// has shown yet is tried on each upstream offering resources, in order, and
    /// remembered with the first that answers.
    async fn by_uri(&self, method: &str, params: Map<String, Value>, cx: Context) -> Result<RawResult, HandlerError> {
        let uri = params.get("uri").and_then(Value::as_str).unwrap_or_default().to_owned();
        if let Some(slot) = self.owner(&uri) {
            let client = slot.client().ok_or_else(|| down(&slot))?;
            return forward_raw(&client, &slot.relay, method, params, &cx).await;
        }
        for (index, slot, client) in self.connected() {
            if !Slot::offers(&client, "resources") {
                continue;
            }
            if let Ok(result) = forward_raw(&client, &slot.relay, method, params.clone(), &cx).await {
                self.resources.lock().unwrap().insert(uri, index);
                return Ok(result);
            }
        }
        Err(HandlerError::ResourceNotFound(uri))
    }

    async fn complete(&self, mut params: Map<String, Value>, cx: Context) -> Result<RawResult, HandlerError> {
        let reference = params.get("ref").cloned().unwrap_or(Value::Null);
        let slot = match reference.get("type").and_then(Value::as_str) {
            Some("ref/prompt") => {
                let (slot, name) = self.named(reference["name"].as_str().unwrap_or_default())?;
                params.insert("ref".into(), json!({"type": "ref/prompt", "name": name}));
                slot
            }
            _ => {
                let uri = reference.get("uri").and_then(Value::as_str).unwrap_or_default();
                let index = self.templates.lock().unwrap().get(uri).copied();
                let slot = index.map(|i| self.slots[i].clone()).or_else(|| self.owner(uri));
                slot.ok_or_else(|| HandlerError::Failed(format!("no upstream lists {uri:?}")))?
            }
        };
        let client = slot.client().ok_or_else(|| down(&slot))?;
        forward_raw(&client, &slot.relay, "completion/complete", params, &cx).await
    }
}

/// The slot whose name `name` starts with, followed by [`SEPARATOR`], and the rest.
pub(crate) fn prefixed(slots: &[Arc<Slot>], name: &str) -> Option<(Arc<Slot>, String)> {
    slots.iter().find_map(|slot| {
        let rest = name.strip_prefix(&slot.name).and_then(|r| r.strip_prefix(SEPARATOR))?;
        Some((slot.clone(), rest.to_owned()))
    })
}

fn down(slot: &Slot) -> HandlerError {
    HandlerError::Failed(format!("the upstream server {:?} is not connected", slot.name))
}

/// Forwards the session methods (to every upstream for `logging/setLevel`, to the
/// resource's for subscriptions) and the clients' notifications (to every upstream), then
/// lets the front session record them. Custom requests cannot be routed and are not
/// forwarded.
struct SessionForwarder {
    upstreams: Arc<Upstreams>,
}

impl Middleware for SessionForwarder {
    /// Only the session methods: the rest are the feature handlers' or the front's own.
    fn sees_request(&self, method: &str) -> bool {
        SESSION_METHODS.contains(&method)
    }

    fn handle(&self, inbound: Inbound, next: Next) -> BoxFuture<Answer> {
        let upstreams = self.upstreams.clone();
        Box::pin(async move {
            let Inbound { method, params, request_id, .. } = inbound;
            let params = if params.is_null() { json!({}) } else { params };
            if request_id.is_none() {
                if method != "notifications/initialized" {
                    for (_, _, client) in upstreams.connected() {
                        let _ = client.notify(&method, params.clone()).await;
                    }
                }
                return next().await;
            }
            if !SESSION_METHODS.contains(&method.as_str()) {
                return next().await;
            }
            let targets = match params.get("uri").and_then(Value::as_str) {
                Some(uri) => upstreams.owner(uri).and_then(|s| s.client()).into_iter().collect(),
                None => {
                    let connected = upstreams.connected().into_iter().map(|(_, _, c)| c);
                    connected.filter(|c| Slot::offers(c, "logging")).collect::<Vec<_>>()
                }
            };
            for client in targets {
                forward_plain(&client, &method, params.clone()).await?;
            }
            next().await
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upstreams(names: &[&str]) -> Upstreams {
        let slots = names.iter().map(|name| Arc::new(Slot::new((*name).to_owned(), Relay::new()))).collect();
        Upstreams { slots, resources: Default::default(), templates: Default::default() }
    }

    #[test]
    fn a_name_goes_to_the_upstream_its_whole_prefix_names() {
        let upstreams = upstreams(&["a", "ab", "b"]);
        let route = |name| upstreams.named(name).map(|(slot, rest)| (slot.name.clone(), rest)).ok();
        assert_eq!(route("ab__tool"), Some(("ab".into(), "tool".into())));
        assert_eq!(route("a__b__tool"), Some(("a".into(), "b__tool".into())));
        assert_eq!(route("b__"), Some(("b".into(), String::new())));
        assert_eq!(route("c__tool"), None);
        assert_eq!(route("abtool"), None);
    }

    #[test]
    fn a_uri_goes_to_the_upstream_that_listed_it_or_its_template() {
        let upstreams = upstreams(&["a", "b"]);
        upstreams.remember(&json!({"uri": "file:///x"}), 1);
        upstreams.remember(&json!({"uriTemplate": "docs://{id}"}), 0);
        let owner = |uri| upstreams.owner(uri).map(|slot| slot.name.clone());
        assert_eq!(owner("file:///x").as_deref(), Some("b"));
        assert_eq!(owner("docs://42").as_deref(), Some("a"));
        assert_eq!(owner("file:///y"), None);
    }
}
