//! The official Python SDK (`mcp`, installed into `.venv` by `scripts/test.sh`) serving
//! streamable-http (`official_python_server.py`): the client's probe finds its 2026-07-28
//! side, a legacy client gets a session, the headers the client sends (custom, bearer,
//! `Mcp-*`, `Mcp-Param-*` from `x-mcp-header`) are the ones the server sees, and a response
//! stream the server closes halfway is resumed with `Last-Event-ID` without losing an event.

use std::process::Command;
use std::sync::{Arc, Mutex};

use ferrymcp_core::client::http::HttpClientOptions;
use ferrymcp_core::client::{Client, ClientCallbacks, ClientOptions, EraPreference};
use ferrymcp_core::peer::{Progress, RequestOptions};
use serde_json::{Value, json};

use ferrymcp_tests::listening::{Server, installed};

async fn official_python() -> Option<Server> {
    let python = installed("../.venv/bin/python")?;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/http_client/official_python_server.py");
    let mut command = Command::new(python);
    command.arg(script);
    Some(
        Server::start(command, |command, port| {
            command.arg(port.to_string());
        })
        .await,
    )
}

async fn connect(server: &Server, era: EraPreference) -> Client {
    let options = ClientOptions { era, ..ClientOptions::default() };
    Client::connect_http(HttpClientOptions::new(server.url("/mcp")), options, ClientCallbacks::default())
        .await
        .expect("connect")
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

/// What the server saw of one `request_headers` call.
async fn seen_headers(client: &Client, region: &str) -> Value {
    let result =
        client.call_tool("request_headers", json!({"region": region}), RequestOptions::default()).await.unwrap();
    let result = serde_json::to_value(result).unwrap();
    result.get("structuredContent").cloned().unwrap_or_else(|| serde_json::from_str(text(&result)).unwrap())
}

#[tokio::test]
async fn custom_headers_bearer_token_and_the_modern_headers_reach_the_server() {
    let Some(server) = official_python().await else { return };
    let http = HttpClientOptions::new(server.url("/mcp")).header("X-Trace", "trace-7").bearer_token("s3cret");
    let client =
        Client::connect_http(http, ClientOptions::default(), ClientCallbacks::default()).await.expect("connect");
    assert!(client.server().modern);
    let tools = client.list_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "request_headers"), "{tools:?}");
    let seen = seen_headers(&client, "Grüße").await;
    assert_eq!(seen["x-trace"], "trace-7", "{seen}");
    assert_eq!(seen["authorization"], "Bearer s3cret", "{seen}");
    assert_eq!(seen["mcp-protocol-version"], "2026-07-28", "{seen}");
    assert_eq!(seen["mcp-method"], "tools/call", "{seen}");
    assert_eq!(seen["mcp-name"], "request_headers", "{seen}");
    assert_eq!(seen["mcp-param-region"], "=?base64?R3LDvMOfZQ==?=", "{seen}");
    assert_eq!(seen_headers(&client, "us-west1").await["mcp-param-region"], "us-west1");
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
    let seen = seen_headers(&client, "eu").await;
    assert!(seen["mcp-session-id"].as_str().is_some_and(|id| !id.is_empty()), "{seen}");
    assert_eq!(seen["mcp-protocol-version"], "2025-11-25", "{seen}");
    client.close().await;
}

/// Ends a session from outside, as an operator or a restart would.
async fn delete_session(server: &Server, session: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", server.port)).await.unwrap();
    let request = format!(
        "DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nMcp-Session-Id: {session}\r\nMCP-Protocol-Version: 2025-11-25\r\nConnection: close\r\n\r\n",
        server.port
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    answer.lines().next().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn a_session_the_server_forgot_is_replaced_and_the_call_goes_through() {
    let Some(server) = official_python().await else { return };
    let client = connect(&server, EraPreference::Legacy).await;
    let first = seen_headers(&client, "eu").await["mcp-session-id"].as_str().unwrap().to_owned();
    let status = delete_session(&server, &first).await;
    assert!(status.contains(" 200 "), "{status}");
    let second = seen_headers(&client, "eu").await["mcp-session-id"].as_str().unwrap().to_owned();
    assert_ne!(first, second, "a new session");
    echo(&client).await;
    client.close().await;
}

#[tokio::test]
async fn a_closed_response_stream_is_resumed_without_losing_an_event() {
    let Some(server) = official_python().await else { return };
    let client = connect(&server, EraPreference::Legacy).await;
    let seen: Arc<Mutex<Vec<f64>>> = Arc::default();
    let sink = seen.clone();
    let options =
        RequestOptions::default().on_progress(Arc::new(move |p: Progress| sink.lock().unwrap().push(p.progress)));
    let steps = 6;
    let result = client.call_tool("interrupted", json!({"steps": steps}), options).await.unwrap();
    assert_eq!(text(&serde_json::to_value(result).unwrap()), "done after 6 steps");
    assert_eq!(*seen.lock().unwrap(), (1..=steps).map(f64::from).collect::<Vec<_>>());
    client.close().await;
}
