//! The official TypeScript reference server, `@modelcontextprotocol/server-everything`: a
//! legacy-era server, so the client's modern probe must fall back to `initialize` over
//! Streamable HTTP, and to the HTTP+SSE transport when the server only speaks that. Its
//! progress, requests to the client and unasked log messages travel on SSE streams.

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ferrymcp_core::client::http::HttpClientOptions;
use ferrymcp_core::client::{Client, ClientCallbacks, ClientError, ClientOptions};
use ferrymcp_core::peer::{CloseReason, PeerConfig, PeerError, Progress, RequestOptions};
use ferrymcp_core::protocol::ErrorCode;
use serde_json::{Value, json};

use ferrymcp_tests::listening::{Server, installed};

const EVERYTHING: &str = "interop/node_modules/@modelcontextprotocol/server-everything/dist/index.js";

async fn reference(mode: &str) -> Option<Server> {
    let script = installed(EVERYTHING)?;
    let mut command = Command::new("node");
    command.arg(script).arg(mode);
    Some(
        Server::start(command, |command, port| {
            command.env("PORT", port.to_string());
        })
        .await,
    )
}

fn callbacks() -> ClientCallbacks {
    ClientCallbacks {
        elicitation: Some(Arc::new(|_params| {
            Box::pin(async { Ok(json!({"action": "accept", "content": {"name": "Ada Lovelace"}})) })
        })),
        ..ClientCallbacks::default()
    }
}

fn text(result: &Value) -> String {
    result["content"].as_array().into_iter().flatten().filter_map(|c| c["text"].as_str()).collect::<Vec<_>>().join("\n")
}

/// Tools, resources and prompts, each through a POST answered with SSE.
async fn exercise(client: &Client) {
    let tools = serde_json::to_value(client.list_tools().await.unwrap()).unwrap();
    let names: Vec<&str> = tools.as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
    assert!(names.contains(&"echo") && names.contains(&"get-sum"), "{names:?}");
    let echo = serde_json::to_value(
        client.call_tool("echo", json!({"message": "über HTTP"}), RequestOptions::default()).await.unwrap(),
    )
    .unwrap();
    assert!(text(&echo).contains("über HTTP"), "{echo}");
    let sum = serde_json::to_value(
        client.call_tool("get-sum", json!({"a": 2, "b": 40}), RequestOptions::default()).await.unwrap(),
    )
    .unwrap();
    assert!(text(&sum).contains("42"), "{sum}");

    let resources = serde_json::to_value(client.list_resources().await.unwrap()).unwrap();
    let uri = resources[0]["uri"].as_str().expect("a resource").to_owned();
    let read = serde_json::to_value(client.read_resource(&uri).await.unwrap()).unwrap();
    assert_eq!(read["contents"][0]["uri"], uri.as_str());
    let prompts = serde_json::to_value(client.list_prompts().await.unwrap()).unwrap();
    assert!(!prompts.as_array().unwrap().is_empty());
}

#[tokio::test]
async fn streamable_http_falls_back_to_a_legacy_session() {
    let Some(server) = reference("streamableHttp").await else { return };
    let client =
        Client::connect_http(HttpClientOptions::new(server.url("/mcp")), ClientOptions::default(), callbacks())
            .await
            .expect("connect");
    assert!(!client.server().modern, "the reference server is legacy: the probe must fall back");
    assert_eq!(client.server().protocol_version, "2025-11-25");
    exercise(&client).await;

    // Progress notifications travel on the call's SSE stream before its answer.
    let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let sink = seen.clone();
    let options = RequestOptions::default().on_progress(Arc::new(move |p: Progress| sink.lock().unwrap().push(p)));
    let done = client
        .call_tool("trigger-long-running-operation", json!({"duration": 0.3, "steps": 3}), options)
        .await
        .unwrap();
    assert!(text(&serde_json::to_value(done).unwrap()).contains("completed"));
    let progress: Vec<f64> = seen.lock().unwrap().iter().map(|p| p.progress).collect();
    assert_eq!(progress, vec![1.0, 2.0, 3.0]);

    // The server asks us (elicitation/create on the call's stream); our answer goes back
    // in a POST of its own and the call completes with it.
    let elicited = client.call_tool("trigger-elicitation-request", json!({}), RequestOptions::default()).await.unwrap();
    let elicited = text(&serde_json::to_value(elicited).unwrap());
    assert!(elicited.contains("Ada Lovelace"), "{elicited}");
    client.close().await;
}

#[tokio::test]
async fn messages_the_server_sends_unasked_arrive_on_the_standalone_stream() {
    let Some(server) = reference("streamableHttp").await else { return };
    let (tx, logged) = tokio::sync::oneshot::channel::<Value>();
    let tx = Mutex::new(Some(tx));
    let callbacks = ClientCallbacks {
        notification: Some(Arc::new(move |method: &str, params: Value| {
            if method == "notifications/message"
                && let Some(tx) = tx.lock().unwrap().take()
            {
                let _ = tx.send(params);
            }
        })),
        ..callbacks()
    };
    let client = Client::connect_http(HttpClientOptions::new(server.url("/mcp")), ClientOptions::default(), callbacks)
        .await
        .expect("connect");
    // A legacy session: the level is asked for explicitly (`log_level` is a 2026 option).
    client.set_logging_level("debug").await.unwrap();
    // The tool answers at once; the log message it starts is sent with no request to
    // ride on, so only the GET stream can carry it.
    client.call_tool("toggle-simulated-logging", json!({}), RequestOptions::default()).await.unwrap();
    // (A guard against hanging, not a measure: the server sends one at once.)
    let message = tokio::time::timeout(Duration::from_secs(60), logged).await.expect("no log message came").unwrap();
    assert!(message["level"].is_string() && !message["data"].is_null(), "{message}");
    client.close().await;
}

#[tokio::test]
async fn falls_back_to_the_deprecated_http_sse_transport() {
    let Some(server) = reference("sse").await else { return };
    let client =
        Client::connect_http(HttpClientOptions::new(server.url("/sse")), ClientOptions::default(), callbacks())
            .await
            .expect("connect");
    assert!(!client.server().modern);
    exercise(&client).await;
    client.close().await;
}

#[tokio::test]
async fn a_server_that_dies_fails_the_pending_call_at_once_and_the_client_survives() {
    let Some(mut server) = reference("streamableHttp").await else { return };
    // No timeout can be what ends the call below.
    let options = ClientOptions {
        peer: PeerConfig { request_timeout: Duration::from_secs(3600), ..PeerConfig::default() },
        ..ClientOptions::default()
    };
    let client =
        Client::connect_http(HttpClientOptions::new(server.url("/mcp")), options, callbacks()).await.expect("connect");
    let (started_tx, started) = tokio::sync::oneshot::channel();
    let started_tx = Mutex::new(Some(started_tx));
    let on_progress = RequestOptions::default().on_progress(Arc::new(move |_| {
        if let Some(tx) = started_tx.lock().unwrap().take() {
            let _ = tx.send(());
        }
    }));
    let call = tokio::spawn({
        let client = client.clone();
        async move {
            client
                .call_tool("trigger-long-running-operation", json!({"duration": 600, "steps": 600}), on_progress)
                .await
        }
    });
    started.await.expect("the call is running on the server");
    server.kill();
    let error = call.await.unwrap().expect_err("the server died before answering");
    assert!(!matches!(error, ClientError::Peer(PeerError::Timeout(_))), "{error}");
    assert_eq!(error.code(), ErrorCode::CONNECTION_CLOSED, "{error}");
    // Whichever stream noticed first (the call's, or the standalone GET), the server no
    // longer answers, so the connection ends saying it is gone.
    let message = error.to_string();
    assert!(message.contains("is gone"), "{message}");
    assert!(
        matches!(client.peer().close_reason(), Some(CloseReason::Transport(_))),
        "{:?}",
        client.peer().close_reason()
    );

    // Later calls fail the same way instead of hanging.
    let again = client
        .call_tool("echo", json!({"message": "anyone?"}), RequestOptions::default())
        .await
        .expect_err("no server");
    assert_eq!(again.code(), ErrorCode::CONNECTION_CLOSED, "{again}");
    client.close().await;
}
