//! The official Python SDK (`mcp`, installed into `.venv` by `scripts/test.sh`) serving
//! streamable-http (`official_python_server.py`): the client's probe finds its 2026-07-28
//! side, a legacy client gets a session, and a response stream the server closes halfway
//! is resumed with `Last-Event-ID` without losing an event.

use std::process::Command;
use std::sync::{Arc, Mutex};

use ferrymcp_core::client::{Client, ClientCallbacks, ClientOptions, EraPreference};
use ferrymcp_core::peer::{Progress, RequestOptions};
use ferrymcp_core::transport::http_client::HttpClientOptions;
use serde_json::{Value, json};

use crate::server::{Server, installed};

async fn official_python() -> Option<Server> {
    let python = installed("../.venv/bin/python")?;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/http_client/official_python_server.py");
    let mut command = Command::new(python);
    command.arg(script);
    Some(Server::start(command, |command, port| {
        command.arg(port.to_string());
    }).await)
}

async fn connect(server: &Server, era: EraPreference) -> Client {
    let options = ClientOptions { era, ..ClientOptions::default() };
    Client::connect_http(HttpClientOptions::new(server.url("/mcp")), options, ClientCallbacks::default()).await.expect("connect")
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

async fn echo(client: &Client) {
    let echoed = client.call_tool("echo", json!({"message": "Grüße, 世界"}), RequestOptions::default()).await.unwrap();
    assert_eq!(text(&serde_json::to_value(echoed).unwrap()), "Grüße, 世界");
}

#[tokio::test]
async fn the_probe_finds_the_modern_era() {
    let Some(server) = official_python().await else { return };
    let client = connect(&server, EraPreference::Auto).await;
    assert!(client.server().modern, "{:?}", client.server());
    assert_eq!(client.server().protocol_version, "2026-07-28");
    let tools = client.list_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "interrupted"), "{tools:?}");
    echo(&client).await;
    client.close().await;
}

#[tokio::test]
async fn a_legacy_client_gets_a_session() {
    let Some(server) = official_python().await else { return };
    let client = connect(&server, EraPreference::Legacy).await;
    assert!(!client.server().modern);
    assert_eq!(client.server().protocol_version, "2025-11-25");
    echo(&client).await;
    client.ping().await.unwrap();
    client.close().await;
}

#[tokio::test]
async fn a_closed_response_stream_is_resumed_without_losing_an_event() {
    let Some(server) = official_python().await else { return };
    let client = connect(&server, EraPreference::Legacy).await;
    let seen: Arc<Mutex<Vec<f64>>> = Arc::default();
    let sink = seen.clone();
    let options = RequestOptions::default().on_progress(Arc::new(move |p: Progress| sink.lock().unwrap().push(p.progress)));
    let steps = 6;
    let result = client.call_tool("interrupted", json!({"steps": steps}), options).await.unwrap();
    assert_eq!(text(&serde_json::to_value(result).unwrap()), "done after 6 steps");
    assert_eq!(*seen.lock().unwrap(), (1..=steps).map(f64::from).collect::<Vec<_>>());
    client.close().await;
}
