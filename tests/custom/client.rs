//! core's client against the fixture, over stdio and Streamable HTTP, in both eras: custom
//! requests and notifications each way, all reaching their handlers through the client's
//! router and the server's custom table.

use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::client::child::{ChildCommand, StderrMode};
use ferrymcp_core::client::http::HttpClientOptions;
use ferrymcp_core::client::{Client, ClientCallbacks, ClientOptions, EraPreference};
use ferrymcp_core::peer::RequestOptions;
use ferrymcp_tests::listening;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::FIXTURE;

/// A guard against a hang, not a timing assertion.
const HANG_GUARD: Duration = Duration::from_secs(30);

type Seen = mpsc::UnboundedReceiver<(String, Value)>;

/// Callbacks answering sampling, roots and the custom `example/clientEcho`, and passing the
/// fixture's notifications to the returned channel.
fn callbacks() -> (ClientCallbacks, Seen) {
    let (tx, seen) = mpsc::unbounded_channel();
    let mut callbacks = ClientCallbacks {
        sampling: Some(Arc::new(|_params| {
            Box::pin(async {
                Ok(json!({"role": "assistant", "content": {"type": "text", "text": "hello"}, "model": "m"}))
            })
        })),
        elicitation: Some(Arc::new(|_params| Box::pin(async { Ok(json!({"action": "decline"})) }))),
        roots: Some(Arc::new(|_| Box::pin(async { Ok(json!({"roots": [{"uri": "file:///tmp/a", "name": "a"}]})) }))),
        ..ClientCallbacks::default()
    };
    let echo = Arc::new(|params: Value| Box::pin(async move { Ok(json!({"echoed": params})) }) as _);
    callbacks.set_request_handler("example/clientEcho", echo).unwrap();
    for method in ["example/poked", "example/roots", "example/sampled", "notifications/elicitation/complete"] {
        let tx = tx.clone();
        let forward = Arc::new(move |method: &str, params: Value| drop(tx.send((method.to_owned(), params))));
        callbacks.set_notification_handler(method, forward).unwrap();
    }
    (callbacks, seen)
}

async fn next(seen: &mut Seen) -> (String, Value) {
    tokio::time::timeout(HANG_GUARD, seen.recv()).await.expect("no notification within the hang guard").unwrap()
}

async fn request(client: &Client, method: &str, params: Value) -> Value {
    client.request(method, params, RequestOptions::default()).await.unwrap_or_else(|e| panic!("{method}: {e}"))
}

async fn over_stdio(era: EraPreference) -> (Client, Seen) {
    let (callbacks, seen) = callbacks();
    let command = ChildCommand::new(FIXTURE).stderr(StderrMode::Discard);
    let client = Client::spawn(command, ClientOptions { era, ..ClientOptions::default() }, callbacks).await.unwrap();
    (client, seen)
}

async fn over_http(era: EraPreference) -> (Client, Seen, listening::Server) {
    let server = listening::Server::start(Command::new(FIXTURE), |command, port| {
        command.args(["--port", &port.to_string()]);
    })
    .await;
    let (callbacks, seen) = callbacks();
    let options = ClientOptions { era, ..ClientOptions::default() };
    let client = Client::connect_http(HttpClientOptions::new(server.url("/mcp")), options, callbacks).await.unwrap();
    (client, seen, server)
}

/// Everything a legacy session offers: custom requests each way, client notifications
/// reaching server handlers, and the session handle used outside any handler.
async fn legacy(client: &Client, seen: &mut Seen) {
    assert!(!client.server().modern);
    assert_eq!(request(client, "example/echo", json!({"text": "hi"})).await, json!({"echo": {"text": "hi"}}));
    let asked = request(client, "example/ask", json!({"q": 1})).await;
    assert_eq!(asked, json!({"client": {"echoed": {"q": 1}}}));
    let unknown = client.request("example/nothing", json!({}), RequestOptions::default()).await.unwrap_err();
    assert_eq!(unknown.rpc().map(|e| e.code), Some(-32601), "{unknown}");

    client.notify("example/poke", json!({"n": 1})).await.unwrap();
    assert_eq!(next(seen).await, ("example/poked".into(), json!({"n": 1})));
    client.send_roots_list_changed().await.unwrap();
    let roots = json!({"roots": [{"uri": "file:///tmp/a", "name": "a"}]});
    assert_eq!(next(seen).await, ("example/roots".into(), roots));

    let remembered = request(client, "example/remember", json!({})).await;
    assert_eq!(remembered["protocolVersion"], client.server().protocol_version.as_str());
    assert_eq!(remembered["clientInfo"]["name"], "ferrymcp-client");
    assert!(remembered["clientCapabilities"]["sampling"].is_object(), "{remembered}");

    let params = json!({"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 10});
    client.notify("example/sample", params).await.unwrap();
    let complete = next(seen).await;
    assert_eq!(complete, ("notifications/elicitation/complete".into(), json!({"elicitationId": "elicitation-1"})));
    let (method, report) = next(seen).await;
    assert_eq!(method, "example/sampled");
    let sampled = json!({"role": "assistant", "content": {"type": "text", "text": "hello"}, "model": "m"});
    assert_eq!(report, json!({"result": sampled, "sameSession": true, "completeError": null}));
}

/// A 2026-07-28 connection: custom requests (the server's question to the client as an
/// MRTR round), and notifications reaching the server without a session.
async fn modern(client: &Client) {
    assert!(client.server().modern);
    let echoed = request(client, "example/echo", json!({"text": "hi"})).await;
    assert_eq!((echoed["echo"]["text"].clone(), echoed["resultType"].clone()), (json!("hi"), json!("complete")));
    let asked = request(client, "example/ask", json!({"q": 1})).await;
    assert_eq!(asked["client"]["echoed"]["q"], 1, "{asked}");
    let unknown = client.request("example/nothing", json!({}), RequestOptions::default()).await.unwrap_err();
    assert_eq!(unknown.rpc().map(|e| e.code), Some(-32601), "{unknown}");
    assert_eq!(request(client, "example/remember", json!({})).await["session"], Value::Null);

    client.notify("example/poke", json!({"n": 1})).await.unwrap();
    assert_eq!(request(client, "example/pokes", json!({"atLeast": 1})).await["pokes"], 1);
}

#[tokio::test]
async fn legacy_over_stdio() {
    let (client, mut seen) = over_stdio(EraPreference::Legacy).await;
    legacy(&client, &mut seen).await;
    client.close().await;
}

#[tokio::test]
async fn legacy_over_http() {
    let (client, mut seen, _server) = over_http(EraPreference::Legacy).await;
    legacy(&client, &mut seen).await;
    client.close().await;
}

#[tokio::test]
async fn modern_over_stdio() {
    let (client, _seen) = over_stdio(EraPreference::Modern).await;
    modern(&client).await;
    client.close().await;
}

#[tokio::test]
async fn modern_over_http() {
    let (client, _seen, _server) = over_http(EraPreference::Modern).await;
    modern(&client).await;
    client.close().await;
}

#[test]
fn custom_client_handlers_cannot_shadow_mcp() {
    let mut callbacks = ClientCallbacks::default();
    let answer = Arc::new(|_: Value| Box::pin(async { Ok(json!({})) }) as _);
    let error = callbacks.set_request_handler("sampling/createMessage", answer).unwrap_err();
    assert!(error.to_string().contains("sampling/createMessage"), "{error}");
    let error = callbacks.set_notification_handler("notifications/cancelled", Arc::new(|_: &str, _| {})).unwrap_err();
    assert!(error.to_string().contains("notifications/cancelled"), "{error}");
}
