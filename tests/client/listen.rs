//! Change notifications on ferrymcp's client against `ferrymcp-everything` in its own
//! process: `listen()` (`subscriptions/listen`, 2026-07-28) over stdio and Streamable HTTP,
//! and the `listChanged` auto-refresh in both eras (a listen stream the client opens on a
//! modern server, the server's unsolicited notification on a legacy one). The change is
//! real: the server's `test_trigger_tool_change` tool sends it.

use std::time::Duration;

use ferrymcp_core::client::child::{ChildCommand, StderrMode};
use ferrymcp_core::client::http::HttpClientOptions;
use ferrymcp_core::client::{
    Client, ClientCallbacks, ClientOptions, EraPreference, ListChangedHandler, ListChangedHandlers, SubscriptionEnd,
};
use ferrymcp_core::peer::RequestOptions;
use ferrymcp_tests::listening::Server;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::fixture::{EVERYTHING, callbacks};

type Changes = mpsc::UnboundedReceiver<Result<Option<Vec<Value>>, String>>;

fn tools_handler(auto_refresh: bool) -> (ListChangedHandlers, Changes) {
    let (tx, rx) = mpsc::unbounded_channel();
    let mut handler = ListChangedHandler::new(std::sync::Arc::new(move |outcome| {
        let _ = tx.send(outcome.map_err(|e| e.to_string()));
    }));
    handler.auto_refresh = auto_refresh;
    handler.debounce = Duration::from_millis(50);
    (ListChangedHandlers { tools: Some(handler), ..Default::default() }, rx)
}

/// Callbacks that also pass every notification on to a channel.
fn watching() -> (ClientCallbacks, mpsc::UnboundedReceiver<(String, Value)>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let mut callbacks = callbacks();
    callbacks.notification = Some(std::sync::Arc::new(move |method: &str, params: Value| {
        let _ = tx.send((method.to_owned(), params));
    }));
    (callbacks, rx)
}

async fn spawn(era: EraPreference, list_changed: ListChangedHandlers, callbacks: ClientCallbacks) -> Client {
    let command = ChildCommand::new(EVERYTHING).args(["--transport", "stdio"]).stderr(StderrMode::Discard);
    let options = ClientOptions { era, list_changed, ..ClientOptions::default() };
    Client::spawn(command, options, callbacks).await.expect("connect")
}

async fn trigger(client: &Client) {
    client.call_tool("test_trigger_tool_change", json!({}), RequestOptions::default()).await.unwrap();
}

async fn refreshed(changes: &mut Changes) -> Vec<Value> {
    let outcome = tokio::time::timeout(Duration::from_secs(20), changes.recv()).await.expect("a refresh").unwrap();
    outcome.expect("refreshed").expect("auto refresh lists")
}

fn has_tool(tools: &[Value], name: &str) -> bool {
    tools.iter().any(|t| t["name"] == name)
}

#[tokio::test]
async fn list_changed_auto_refresh_opens_a_listen_stream_on_a_modern_server() {
    let (handlers, mut changes) = tools_handler(true);
    let client = spawn(EraPreference::Modern, handlers, callbacks()).await;
    assert!(client.server().modern);
    trigger(&client).await;
    let tools = refreshed(&mut changes).await;
    assert!(has_tool(&tools, "test_simple_text"), "{tools:?}");
    // A second change is a second refresh.
    trigger(&client).await;
    assert!(has_tool(&refreshed(&mut changes).await, "test_trigger_tool_change"));
    client.close().await;
}

#[tokio::test]
async fn list_changed_auto_refresh_on_a_legacy_server() {
    let (handlers, mut changes) = tools_handler(true);
    let client = spawn(EraPreference::Legacy, handlers, callbacks()).await;
    assert!(!client.server().modern);
    trigger(&client).await;
    assert!(has_tool(&refreshed(&mut changes).await, "test_simple_text"));
    client.close().await;
}

#[tokio::test]
async fn list_changed_without_auto_refresh_says_so_with_none_and_changes_are_debounced() {
    let (handlers, mut changes) = tools_handler(false);
    let client = spawn(EraPreference::Modern, handlers, callbacks()).await;
    // Three changes within the debounce make one call.
    tokio::join!(trigger(&client), trigger(&client), trigger(&client));
    let first = tokio::time::timeout(Duration::from_secs(20), changes.recv()).await.unwrap().unwrap();
    assert_eq!(first, Ok(None));
    // Nothing more comes (an absence: waited for six debounces).
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(changes.try_recv().is_err(), "one refresh for one burst");
    client.close().await;
}

async fn explicit_listen(client: &Client, notifications: &mut mpsc::UnboundedReceiver<(String, Value)>) {
    let subscription =
        client.listen(json!({"toolsListChanged": true, "promptsListChanged": true}), None).await.unwrap();
    assert_eq!(subscription.honored_filter(), &json!({"toolsListChanged": true, "promptsListChanged": true}));
    assert_eq!(subscription.end(), None);
    assert!(subscription.id().is_number(), "the listen request's id: {:?}", subscription.id());
    trigger(client).await;
    let (method, params) =
        tokio::time::timeout(Duration::from_secs(20), notifications.recv()).await.expect("a notification").unwrap();
    assert_eq!(method, "notifications/tools/list_changed");
    assert_eq!(&params["_meta"]["io.modelcontextprotocol/subscriptionId"], subscription.id(), "{params}");
    subscription.close().await;
    assert_eq!(subscription.end(), Some(SubscriptionEnd::Local));
    // Closed: a change no longer arrives; the next call's own traffic is all there is.
    trigger(client).await;
    client.call_tool("test_simple_text", json!({}), RequestOptions::default()).await.unwrap();
    assert!(notifications.try_recv().is_err(), "nothing after close");
}

#[tokio::test]
async fn listen_over_stdio_delivers_to_the_notification_callback_until_closed() {
    let (callbacks, mut notifications) = watching();
    let client = spawn(EraPreference::Modern, ListChangedHandlers::default(), callbacks).await;
    explicit_listen(&client, &mut notifications).await;
    client.close().await;
}

#[tokio::test]
async fn listen_over_http() {
    let server = Server::start(std::process::Command::new(EVERYTHING), |command, port| {
        command.args(["--transport", "http", "--port", &port.to_string()]);
    })
    .await;
    let (callbacks, mut notifications) = watching();
    let options = ClientOptions { era: EraPreference::Modern, ..ClientOptions::default() };
    let client = Client::connect_http(HttpClientOptions::new(server.url("/mcp")), options, callbacks).await.unwrap();
    explicit_listen(&client, &mut notifications).await;
    // And the auto-refresh over HTTP.
    let (handlers, mut changes) = tools_handler(true);
    let options = ClientOptions { era: EraPreference::Modern, list_changed: handlers, ..ClientOptions::default() };
    let refreshing =
        Client::connect_http(HttpClientOptions::new(server.url("/mcp")), options, crate::fixture::callbacks())
            .await
            .unwrap();
    trigger(&refreshing).await;
    assert!(has_tool(&refreshed(&mut changes).await, "test_simple_text"));
    refreshing.close().await;
    client.close().await;
}

#[tokio::test]
async fn listen_on_a_legacy_connection_is_refused_naming_the_revision() {
    let client = spawn(EraPreference::Legacy, ListChangedHandlers::default(), callbacks()).await;
    let error = client.listen(json!({"toolsListChanged": true}), None).await.err().expect("refused");
    assert!(error.to_string().contains("2026-07-28"), "{error}");
    assert!(error.to_string().contains("2025-11-25"), "{error}");
    client.close().await;
}
