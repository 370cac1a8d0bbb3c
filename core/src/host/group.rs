//! A client group: one client per server, connected at once, their tools offered under
//! one set of names and each call routed to its server.
//!
//! Each server is kept by the gateway's supervisor ([`crate::proxy::gateway`]): connected
//! with a timeout, a failed attempt reported and retried after a backoff (1 s doubling to
//! 30 s by default), a lost connection reconnected. [`ClientGroup::connect`] returns once
//! every server has connected or failed its first attempt; one failing server is reported
//! in [`ClientGroup::servers`], never fatal to the others.
//!
//! Names: a tool keeps its own name when no other connected server offers one of the same
//! name; when two do, each is named `SERVER__tool` (the gateway's [`SEPARATOR`]). A
//! `SERVER__tool` name always reaches that server's `tool`, so a caller holding a prefixed
//! name keeps working when the collision goes away.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::join_all;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::config::{ConfigError, McpConfig};
use crate::client::{Client, ClientCallbacks, ClientError, ClientOptions};
use crate::peer::RequestOptions;
use crate::proxy::gateway::{
    Changed, EventCallback, GatewayOptions, SEPARATOR, Slot, Supervisor, UpstreamEvent, UpstreamSpec, prefixed,
};
use crate::proxy::{Connector, Relay};
use crate::wire::ErrorCode;

/// How the group connects and reconnects.
#[derive(Clone, Debug)]
pub struct GroupOptions {
    /// How long one connection attempt may take.
    pub connect_timeout: Duration,
    /// The first wait before trying again; it doubles up to `max_backoff`.
    pub min_backoff: Duration,
    pub max_backoff: Duration,
}

impl Default for GroupOptions {
    fn default() -> Self {
        let gateway = GatewayOptions::default();
        Self {
            connect_timeout: gateway.connect_timeout,
            min_backoff: gateway.min_backoff,
            max_backoff: gateway.max_backoff,
        }
    }
}

/// Why a group call failed.
#[derive(Debug, thiserror::Error)]
pub enum GroupError {
    #[error("unknown tool {0:?}")]
    UnknownTool(String),
    #[error("tool {name:?} is offered by more than one server: call it as {}", candidates.join(" or "))]
    Ambiguous { name: String, candidates: Vec<String> },
    #[error("the server {server:?} is not connected ({reason})")]
    NotConnected { server: String, reason: String },
    #[error("server {server:?}: {error}")]
    Client { server: String, error: ClientError },
    #[error(transparent)]
    Config(#[from] ConfigError),
}

impl GroupError {
    /// The JSON-RPC code a binding gives the error.
    pub fn code(&self) -> i64 {
        match self {
            Self::UnknownTool(_) | Self::Ambiguous { .. } | Self::Config(_) => ErrorCode::INVALID_PARAMS,
            Self::NotConnected { .. } => ErrorCode::CONNECTION_CLOSED,
            Self::Client { error, .. } => error.code(),
        }
    }
}

/// Where one server stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerState {
    /// Not connected yet, or reconnecting after a lost connection.
    Connecting,
    Connected,
    /// The last attempt failed (it is retried).
    Failed(String),
}

/// One server of the group and where it stands.
#[derive(Clone, Debug)]
pub struct ServerStatus {
    pub name: String,
    pub state: ServerState,
    /// How many times it has connected (more than one: it was reconnected).
    pub connections: u32,
    /// The process it started, while connected over stdio.
    pub pid: Option<u32>,
}

impl ServerStatus {
    /// As JSON, for the bindings: `{"name", "state": "connecting"|"connected"|"failed",
    /// "error"?, "connections", "pid"?}`.
    pub fn to_json(&self) -> Value {
        let mut value = json!({"name": self.name, "connections": self.connections});
        let (state, error) = match &self.state {
            ServerState::Connecting => ("connecting", None),
            ServerState::Connected => ("connected", None),
            ServerState::Failed(error) => ("failed", Some(error)),
        };
        value["state"] = json!(state);
        if let Some(error) = error {
            value["error"] = json!(error);
        }
        if let Some(pid) = self.pid {
            value["pid"] = json!(pid);
        }
        value
    }
}

/// A tool as the group offers it: its group name, its server, and the server's own
/// definition (with the server's name for it).
#[derive(Clone, Debug)]
pub struct GroupTool {
    pub name: String,
    pub server: String,
    pub tool: Value,
}

impl GroupTool {
    /// The definition under the group's name.
    pub fn definition(&self) -> Value {
        let mut tool = self.tool.clone();
        tool["name"] = json!(self.name);
        tool
    }
}

/// Many servers, one set of tool names. Cheap to clone; [`ClientGroup::close`] ends it.
#[derive(Clone)]
pub struct ClientGroup {
    inner: Arc<Inner>,
}

struct Inner {
    slots: Vec<Arc<Slot>>,
    status: Mutex<BTreeMap<String, ServerStatus>>,
    /// The tools as last gathered.
    catalog: Mutex<Vec<GroupTool>>,
    options: GroupOptions,
    stop: CancellationToken,
}

impl ClientGroup {
    /// Connects to every server at once; returns when each has connected or failed its
    /// first attempt. `events` (optional) hears each server's events as they happen.
    /// Refuses two servers of one name, or a name containing [`SEPARATOR`].
    pub async fn connect(
        specs: Vec<UpstreamSpec>,
        options: GroupOptions,
        events: Option<EventCallback>,
    ) -> Result<Self, GroupError> {
        let mut status = BTreeMap::new();
        for spec in &specs {
            if spec.name.is_empty() || spec.name.contains(SEPARATOR) {
                return Err(ConfigError(format!(
                    "server name {:?} is empty or contains the separator {SEPARATOR:?}",
                    spec.name
                ))
                .into());
            }
            let fresh =
                ServerStatus { name: spec.name.clone(), state: ServerState::Connecting, connections: 0, pid: None };
            if status.insert(spec.name.clone(), fresh).is_some() {
                return Err(ConfigError(format!("two servers are named {:?}", spec.name)).into());
            }
        }
        let slots: Vec<Arc<Slot>> = specs.iter().map(|s| Arc::new(Slot::new(s.name.clone(), Relay::new()))).collect();
        let inner = Arc::new(Inner {
            slots: slots.clone(),
            status: Mutex::new(status),
            catalog: Mutex::default(),
            options: options.clone(),
            stop: CancellationToken::new(),
        });
        let weak = Arc::downgrade(&inner);
        let record: EventCallback = Arc::new(move |name, event| {
            if let Some(inner) = weak.upgrade() {
                inner.record(name, &event);
            }
            if let Some(events) = &events {
                events(name, event);
            }
        });
        let gateway = GatewayOptions {
            connect_timeout: options.connect_timeout,
            min_backoff: options.min_backoff,
            max_backoff: options.max_backoff,
            ..GatewayOptions::default()
        };
        let changed: Changed = Arc::new(|| Box::pin(async {}));
        let first = specs.into_iter().zip(slots).map(|(spec, slot)| {
            let supervisor = Supervisor {
                slot,
                connect: spec.connect,
                changed: changed.clone(),
                options: gateway.clone(),
                stop: inner.stop.clone(),
            };
            supervisor.spawn(record.clone()).0
        });
        join_all(first).await;
        Ok(Self { inner })
    }

    /// Connects to every server of an `mcp.json` file with `client` options; `callbacks`
    /// gives each server's callbacks by name.
    pub async fn from_config(
        config: &McpConfig,
        options: GroupOptions,
        client: ClientOptions,
        callbacks: Arc<dyn Fn(&str) -> ClientCallbacks + Send + Sync>,
        events: Option<EventCallback>,
    ) -> Result<Self, GroupError> {
        let mut specs = Vec::new();
        for (name, entry) in &config.servers {
            let transport = entry.transport(name)?;
            let (client, callbacks, server) = (client.clone(), callbacks.clone(), name.clone());
            let connect: Connector =
                Arc::new(move |_relay| Box::pin(transport.clone().connect(client.clone(), callbacks(&server))));
            specs.push(UpstreamSpec { name: name.clone(), connect });
        }
        Self::connect(specs, options, events).await
    }

    /// Every server, in the order given, and where it stands.
    pub fn servers(&self) -> Vec<ServerStatus> {
        let status = self.inner.status.lock().unwrap();
        self.inner.slots.iter().filter_map(|slot| status.get(&slot.name).cloned()).collect()
    }

    /// The client of `server` while it is connected.
    pub fn client(&self, server: &str) -> Option<Client> {
        self.inner.slot(server).and_then(|slot| slot.client()).filter(|c| !c.peer().is_closed())
    }

    /// The client of `server`, waiting up to `timeout` for a connection.
    pub async fn wait_connected(&self, server: &str, timeout: Duration) -> Result<Client, GroupError> {
        let slot = self.inner.slot(server).ok_or_else(|| GroupError::NotConnected {
            server: server.to_owned(),
            reason: "no server of this name in the group".into(),
        })?;
        self.inner.wait(&slot, timeout).await
    }

    /// Gathers the tools of every connected server (every page, all at once) and names them
    /// (see the module doc). A server whose list fails is left out, with a warning.
    pub async fn list_tools(&self) -> Vec<GroupTool> {
        let connected: Vec<(String, Client)> = self
            .inner
            .slots
            .iter()
            .filter_map(|slot| slot.client().filter(|c| !c.peer().is_closed()).map(|c| (slot.name.clone(), c)))
            .filter(|(_, client)| client.server().capabilities.get("tools").is_some())
            .collect();
        let lists = join_all(connected.iter().map(|(_, client)| client.list_all("tools/list", "tools"))).await;
        let mut found = Vec::new();
        for ((server, _), list) in connected.into_iter().zip(lists) {
            match list {
                Ok(tools) => found.extend(tools.into_iter().map(|tool| (server.clone(), tool))),
                Err(e) => tracing::warn!("tools/list from {server}: {e}"),
            }
        }
        let catalog = name_tools(found);
        *self.inner.catalog.lock().unwrap() = catalog.clone();
        catalog
    }

    /// The tools as the last [`ClientGroup::list_tools`] gathered them.
    pub fn tools(&self) -> Vec<GroupTool> {
        self.inner.catalog.lock().unwrap().clone()
    }

    /// The server and the server's own name of the tool the group calls `name`: from the
    /// tools last gathered (gathered again when `name` is not among them), or a
    /// `SERVER__tool` name.
    pub async fn route(&self, name: &str) -> Result<(String, String), GroupError> {
        if let Some(found) = self.inner.find(name)? {
            return Ok(found);
        }
        self.list_tools().await;
        if let Some(found) = self.inner.find(name)? {
            return Ok(found);
        }
        match prefixed(&self.inner.slots, name) {
            Some((slot, rest)) => Ok((slot.name.clone(), rest)),
            None => Err(GroupError::UnknownTool(name.to_owned())),
        }
    }

    /// Calls the tool the group calls `name` on its server, returning the result as the
    /// server sent it (a tool that failed is a result with `isError`). A server that is
    /// reconnecting is waited for (up to the connect timeout and the longest backoff); one
    /// whose last attempt failed is an error at once.
    pub async fn call_tool(&self, name: &str, arguments: Value, options: RequestOptions) -> Result<Value, GroupError> {
        let (server, tool) = self.route(name).await?;
        let slot = self.inner.slot(&server).expect("routed to a server of the group");
        let wait = self.inner.options.connect_timeout + self.inner.options.max_backoff;
        let client = self.inner.wait(&slot, wait).await?;
        let arguments = if arguments.is_null() { json!({}) } else { arguments };
        client
            .request("tools/call", json!({"name": tool, "arguments": arguments}), options)
            .await
            .map_err(|error| GroupError::Client { server, error })
    }

    /// Stops supervising and closes every connection (ending the processes started).
    pub async fn close(&self) {
        self.inner.stop.cancel();
        let clients: Vec<Client> = self.inner.slots.iter().filter_map(|slot| slot.client()).collect();
        join_all(clients.iter().map(Client::close)).await;
    }
}

impl Inner {
    fn slot(&self, name: &str) -> Option<Arc<Slot>> {
        self.slots.iter().find(|slot| slot.name == name).cloned()
    }

    fn record(&self, name: &str, event: &UpstreamEvent) {
        let mut status = self.status.lock().unwrap();
        let Some(entry) = status.get_mut(name) else { return };
        match event {
            UpstreamEvent::Connected { pid } => {
                entry.state = ServerState::Connected;
                entry.connections += 1;
                entry.pid = *pid;
            }
            UpstreamEvent::Failed { error, .. } => {
                entry.state = ServerState::Failed(error.clone());
                entry.pid = None;
            }
            UpstreamEvent::Lost { .. } => {
                entry.state = ServerState::Connecting;
                entry.pid = None;
            }
        }
    }

    fn find(&self, name: &str) -> Result<Option<(String, String)>, GroupError> {
        let catalog = self.catalog.lock().unwrap();
        if let Some(tool) = catalog.iter().find(|t| t.name == name) {
            let own = tool.tool.get("name").and_then(Value::as_str).unwrap_or_default();
            return Ok(Some((tool.server.clone(), own.to_owned())));
        }
        let candidates: Vec<String> = catalog
            .iter()
            .filter(|t| t.tool.get("name").and_then(Value::as_str) == Some(name))
            .map(|t| t.name.clone())
            .collect();
        if candidates.len() > 1 {
            return Err(GroupError::Ambiguous { name: name.to_owned(), candidates });
        }
        Ok(None)
    }

    async fn wait(&self, slot: &Slot, timeout: Duration) -> Result<Client, GroupError> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let notified = slot.connected.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Some(client) = slot.client().filter(|c| !c.peer().is_closed()) {
                return Ok(client);
            }
            let state = self.status.lock().unwrap().get(&slot.name).map(|s| s.state.clone());
            if let Some(ServerState::Failed(reason)) = state {
                return Err(GroupError::NotConnected { server: slot.name.clone(), reason });
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                let reason = format!("not reconnected within {timeout:?}");
                return Err(GroupError::NotConnected { server: slot.name.clone(), reason });
            }
        }
    }
}

/// Names each `(server, tool)`: its own name when no other server's tool has it, else
/// `SERVER__tool`.
pub fn name_tools(found: Vec<(String, Value)>) -> Vec<GroupTool> {
    let own = |tool: &Value| tool.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
    let mut counts: HashMap<String, usize> = HashMap::new();
    for (_, tool) in &found {
        *counts.entry(own(tool)).or_default() += 1;
    }
    found
        .into_iter()
        .map(|(server, tool)| {
            let name = own(&tool);
            let name = if counts[&name] > 1 { format!("{server}{SEPARATOR}{name}") } else { name };
            GroupTool { name, server, tool }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_colliding_names_are_prefixed() {
        let tools = name_tools(vec![
            ("a".into(), json!({"name": "echo"})),
            ("a".into(), json!({"name": "add"})),
            ("b".into(), json!({"name": "echo"})),
        ]);
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["a__echo", "add", "b__echo"]);
        assert_eq!(tools[2].definition()["name"], "b__echo");
        assert_eq!(tools[2].tool["name"], "echo");
    }
}
