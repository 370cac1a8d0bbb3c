//! The Rust fixture (`ferrymcp-everything --transport http`) killed under a call: the call
//! fails with -32000 and the connection ends saying the server is gone, in both eras, as a
//! child process's exit ends a stdio connection; and the legacy session as the host sees
//! it (its id, ending it on purpose).

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ferrymcp_core::client::http::HttpClientOptions;
use ferrymcp_core::client::{Client, ClientCallbacks, ClientOptions, EraPreference, InputCallback};
use ferrymcp_core::peer::{CloseReason, RequestOptions};
use ferrymcp_core::protocol::ErrorCode;
use ferrymcp_tests::listening::Server;
use serde_json::json;

async fn everything() -> Server {
    Server::start(Command::new(env!("CARGO_BIN_EXE_ferrymcp-everything")), |command, port| {
        command.args(["--transport", "http", "--port", &port.to_string()]);
    })
    .await
}

async fn connect(url: String, era: EraPreference, callbacks: ClientCallbacks) -> Client {
    let options = ClientOptions { era, ..ClientOptions::default() };
    Client::connect_http(HttpClientOptions::new(url), options, callbacks).await.expect("connect")
}

#[tokio::test]
async fn a_server_killed_under_a_call_fails_it_and_ends_the_connection() {
    for era in [EraPreference::Legacy, EraPreference::Modern] {
        let server = Arc::new(Mutex::new(everything().await));
        let killer = server.clone();
        let elicitation: InputCallback = Arc::new(move |_| {
            killer.lock().unwrap().kill();
            Box::pin(async { Ok(json!({"action": "accept", "content": {"response": "too late"}})) })
        });
        let callbacks = ClientCallbacks { elicitation: Some(elicitation), ..ClientCallbacks::default() };
        let url = server.lock().unwrap().url("/mcp");
        let client = connect(url, era, callbacks).await;
        let call = client.call_tool("test_elicitation", json!({"message": "Name?"}), RequestOptions::default());
        // (A guard against hanging, not a measure.)
        let failed = tokio::time::timeout(Duration::from_secs(30), call)
            .await
            .expect("the call ends")
            .expect_err("the call fails");
        assert_eq!(failed.code(), ErrorCode::CONNECTION_CLOSED, "{era:?}: {failed}");
        let reason =
            tokio::time::timeout(Duration::from_secs(30), client.peer().closed()).await.expect("the connection ends");
        assert!(matches!(&reason, CloseReason::Transport(why) if why.contains("is gone")), "{era:?}: {reason:?}");
        client.close().await;
    }
}

#[tokio::test]
async fn the_legacy_session_can_be_read_and_ended() {
    let server = everything().await;
    let client = connect(server.url("/mcp"), EraPreference::Legacy, ClientCallbacks::default()).await;
    let session = client.http_session().expect("an HTTP client has a session handle");
    assert!(session.id().is_some_and(|id| !id.is_empty()));
    session.terminate().await.expect("DELETE");
    assert_eq!(session.id(), None);
    client.close().await;

    let modern = connect(server.url("/mcp"), EraPreference::Modern, ClientCallbacks::default()).await;
    assert_eq!(modern.http_session().expect("a handle").id(), None, "2026-07-28 has no sessions");
    modern.call_tool("test_simple_text", json!({}), RequestOptions::default()).await.expect("a modern call");
    modern.close().await;
}
