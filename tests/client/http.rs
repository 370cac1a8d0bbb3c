//! ferrymcp's client against ferrymcp's server over Streamable HTTP: `ferrymcp-everything
//! --transport http` in its own process, in both eras, with the same checks as over
//! stdio. Legacy input travels as server-to-client requests on SSE, modern input as MRTR
//! rounds; progress arrives on the call's stream in both.

use ferrymcp_core::client::http::HttpClientOptions;
use ferrymcp_core::client::{Client, ClientOptions, EraPreference};
use ferrymcp_core::peer::RequestOptions;
use ferrymcp_tests::listening::Server;
use serde_json::json;

use crate::fixture::{EVERYTHING, callbacks, exercise};

async fn everything_over_http() -> Server {
    Server::start(std::process::Command::new(EVERYTHING), |command, port| {
        command.args(["--transport", "http", "--port", &port.to_string()]);
    })
    .await
}

async fn connect(server: &Server, era: EraPreference) -> Client {
    let options = ClientOptions { era, ..ClientOptions::default() };
    Client::connect_http(HttpClientOptions::new(server.url("/mcp")), options, callbacks()).await.expect("connect")
}

#[tokio::test]
async fn modern_over_http() {
    let server = everything_over_http().await;
    let client = connect(&server, EraPreference::Auto).await;
    assert!(client.server().modern, "the probe finds 2026-07-28");
    exercise(&client).await;
    let result =
        client.call_tool("test_input_required_result_elicitation", json!({}), RequestOptions::default()).await.unwrap();
    assert_eq!(serde_json::to_value(result).unwrap()["content"][0]["text"], "Hello, Ada!");
    client.close().await;
}

#[tokio::test]
async fn legacy_session_over_http() {
    let server = everything_over_http().await;
    let client = connect(&server, EraPreference::Legacy).await;
    assert!(!client.server().modern);
    assert_eq!(client.server().protocol_version, "2025-11-25");
    client.set_logging_level("debug").await.unwrap();
    client.subscribe_resource("test://watched-resource").await.unwrap();
    exercise(&client).await;
    client.close().await;
}
