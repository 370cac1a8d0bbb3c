//! OAuth against a real authorization server this project did not write: the official
//! Python SDK's authorization-server routes (`official_python_oauth.py`, an in-memory
//! provider behind them), driven headlessly through the whole flow of the MCP
//! authorization specification: the 401, discovery, dynamic registration, the
//! authorization code with PKCE and `resource`, then a refresh of short-lived tokens and
//! a step-up on 403 `insufficient_scope`.

use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::client::auth::{OAuth, OAuthOptions};
use ferrymcp_core::client::http::HttpClientOptions;
use ferrymcp_core::client::{Client, ClientCallbacks, ClientError, ClientOptions};
use ferrymcp_core::peer::RequestOptions;
use reqwest::Url;
use serde_json::{Value, json};

use ferrymcp_tests::listening::{Server, installed};
use ferrymcp_tests::oauth::Headless;

async fn official_python_oauth(token_seconds: u64) -> Option<Server> {
    let python = installed("../.venv/bin/python")?;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/http_client/official_python_oauth.py");
    let mut command = Command::new(python);
    command.arg(script);
    Some(
        Server::start(command, |command, port| {
            command.arg(port.to_string()).arg(token_seconds.to_string());
        })
        .await,
    )
}

fn oauth(handler: Arc<Headless>) -> Arc<OAuth> {
    let metadata = json!({
        "client_name": "ferrymcp-test",
        "redirect_uris": ["http://127.0.0.1:1/callback"],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        // What registration allows; an authorization asks for what the server needs.
        "scope": "mcp notes:write",
    });
    OAuth::new(OAuthOptions::new(metadata, handler)).expect("oauth")
}

async fn connect_with(server: &Server, oauth: Arc<OAuth>) -> Result<Client, ClientError> {
    let http = HttpClientOptions { oauth: Some(oauth), ..HttpClientOptions::new(server.url("/mcp")) };
    Client::connect_http(http, ClientOptions::default(), ClientCallbacks::default()).await
}

async fn connect(server: &Server, handler: Arc<Headless>) -> Client {
    connect_with(server, oauth(handler)).await.expect("connect")
}

async fn text(client: &Client, tool: &str, arguments: Value) -> String {
    let result = client.call_tool(tool, arguments, RequestOptions::default()).await.expect(tool);
    serde_json::to_value(result).unwrap()["content"][0]["text"].as_str().unwrap_or_default().to_owned()
}

async fn stats(client: &Client) -> Value {
    serde_json::from_str(&text(client, "stats", json!({})).await).unwrap()
}

#[tokio::test]
async fn the_whole_flow_then_a_step_up_to_more_scope() {
    let Some(server) = official_python_oauth(3600).await else { return };
    let handler = Arc::new(Headless::default());
    let client = connect(&server, handler.clone()).await;
    assert_eq!(text(&client, "whoami", json!({})).await, "mcp");

    let urls = handler.authorizations.lock().unwrap().clone();
    assert_eq!(urls.len(), 1, "{urls:?}");
    let url = Url::parse(&urls[0]).unwrap();
    let query: std::collections::HashMap<_, _> = url.query_pairs().into_owned().collect();
    assert_eq!(query["code_challenge_method"], "S256");
    assert_eq!(query["code_challenge"].len(), 43);
    assert_eq!(query["resource"], server.url("/mcp"));
    assert_eq!(query["scope"], "mcp");
    assert!(handler.client.lock().unwrap().as_ref().is_some_and(|c| !c.client_id.is_empty()), "registered");

    // write_note needs notes:write: 403 insufficient_scope, a new authorization asking for
    // both scopes, and the call sent again.
    assert_eq!(text(&client, "write_note", json!({"text": "hi"})).await, "noted: hi");
    assert_eq!(text(&client, "whoami", json!({})).await, "mcp notes:write");
    let seen = stats(&client).await;
    assert_eq!(seen["registrations"], 1, "{seen}");
    assert_eq!(seen["authorizations"], 2, "{seen}");
    assert_eq!(seen["scopes"], json!([["mcp"], ["mcp", "notes:write"]]), "{seen}");
    client.close().await;
}

#[tokio::test]
async fn short_lived_tokens_are_refreshed_not_reauthorized() {
    let Some(server) = official_python_oauth(2).await else { return };
    let handler = Arc::new(Headless::default());
    let client = connect(&server, handler.clone()).await;
    assert_eq!(text(&client, "whoami", json!({})).await, "mcp");
    let first = handler.tokens.lock().unwrap().clone().unwrap();
    // Token lifetime is the server's clock: wait it out (less the refresh margin).
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let seen = stats(&client).await;
    assert_eq!(seen["authorizations"], 1, "{seen}");
    assert!(seen["refreshes"].as_u64() >= Some(1), "{seen}");
    let second = handler.tokens.lock().unwrap().clone().unwrap();
    assert_ne!(first.access_token, second.access_token);

    // Idle past the new token's expiry: refreshed again before the next call.
    tokio::time::sleep(Duration::from_millis(2200)).await;
    assert_eq!(text(&client, "whoami", json!({})).await, "mcp");
    let seen = stats(&client).await;
    assert_eq!(seen["authorizations"], 1, "{seen}");
    assert!(seen["refreshes"].as_u64() >= Some(2), "{seen}");
    client.close().await;
}

#[tokio::test]
async fn a_host_that_finishes_the_authorization_itself() {
    let Some(server) = official_python_oauth(3600).await else { return };
    let handler = Arc::new(Headless { deferred: true, ..Headless::default() });
    let oauth = oauth(handler.clone());
    let refused = connect_with(&server, oauth.clone()).await.err().expect("no token yet");
    let data = refused.rpc().and_then(|e| e.data.as_ref()).map(|d| d.get().to_owned()).unwrap_or_default();
    assert_eq!(data, r#"{"oauth":{"redirected":true,"kind":"flow"}}"#, "{refused}");

    // The user approves in a browser; the redirect reaches the host, which hands it over.
    let url = handler.authorizations.lock().unwrap()[0].clone();
    let redirect = ferrymcp_tests::oauth::follow_authorization(&url).await.unwrap();
    oauth.finish_auth(&redirect).await.expect("finish_auth");
    let client = connect_with(&server, oauth).await.expect("connect with the token");
    assert_eq!(text(&client, "whoami", json!({})).await, "mcp");
    assert_eq!(handler.authorizations.lock().unwrap().len(), 1);
    client.close().await;
}
