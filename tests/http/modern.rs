//! The 2026-07-28 era over HTTP: stateless POSTs answered with JSON or a request-scoped
//! event stream, `subscriptions/listen` as a long-lived stream with keep-alive comments,
//! and closing a stream as the cancellation.

use std::time::Duration;

use ferrymcp_core::server::http::HttpOptions;
use ferrymcp_tests::schema;
use http::StatusCode;
use serde_json::json;

use crate::support::{HANG_GUARD, Harness, MODERN};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stateless_requests_get_json_or_a_stream() {
    let harness = Harness::start().await;
    let reply = harness.modern(1, "tools/list", json!({})).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.header("mcp-session-id").is_none(), "no sessions in 2026-07-28");
    let list = reply.json(MODERN).await;
    schema::assert_valid(MODERN, "ListToolsResult", &list["result"]);

    let discover = harness.modern(2, "server/discover", json!({})).await.json(MODERN).await;
    schema::assert_valid(MODERN, "DiscoverResult", &discover["result"]);

    let mut stream = harness.modern(3, "tools/call", json!({"name": "progress", "arguments": {"steps": 2}})).await;
    // Without a progress token the tool sends nothing: plain JSON.
    assert!(!stream.is_sse());
    let plain = stream.json(MODERN).await;
    schema::assert_valid(MODERN, "CallToolResult", &plain["result"]);

    stream = harness
        .post(
            &[("mcp-protocol-version", MODERN), ("mcp-method", "tools/call"), ("mcp-name", "progress")],
            &json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "progress", "arguments": {"steps": 2}, "_meta": {
                "progressToken": "t4",
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientCapabilities": {}}}}),
        )
        .await;
    assert!(stream.is_sse());
    assert_eq!(stream.header("x-accel-buffering"), Some("no"));
    for step in 1..=2 {
        let (id, message) = stream.message(MODERN).await.unwrap();
        assert!(id.is_none(), "2026-07-28 streams are not resumable: no event ids");
        schema::assert_valid(MODERN, "ProgressNotification", &message);
        assert_eq!(message["params"]["progress"].as_f64(), Some(f64::from(step)));
    }
    let (_, response) = stream.message(MODERN).await.unwrap();
    assert_eq!(response["id"], 4);
    schema::assert_valid(MODERN, "CallToolResult", &response["result"]);
    assert!(stream.event().await.is_none());

    let notification = json!({"jsonrpc": "2.0", "method": "notifications/whatever"});
    let reply = harness
        .post(&[("mcp-protocol-version", MODERN), ("mcp-method", "notifications/whatever")], &notification)
        .await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    assert!(reply.bytes().await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listen_streams_acknowledge_then_deliver_and_keep_alive() {
    let options = HttpOptions { keep_alive: Duration::from_millis(50), ..HttpOptions::default() };
    let harness = Harness::with(options).await;
    let mut listen =
        harness.modern(1, "subscriptions/listen", json!({"notifications": {"toolsListChanged": true}})).await;
    assert_eq!(listen.status, StatusCode::OK);
    assert!(listen.is_sse());
    let (_, ack) = listen.message(MODERN).await.unwrap();
    schema::assert_valid(MODERN, "SubscriptionsAcknowledgedNotification", &ack);
    harness.server.notify_prompts_changed().await;
    harness.server.notify_tools_changed().await;
    let (_, changed) = listen.message(MODERN).await.unwrap();
    schema::assert_valid(MODERN, "ToolListChangedNotification", &changed);
    assert_eq!(
        changed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 1,
        "only what was asked for, tagged"
    );
    listen.until(b":\n\n").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_response_stream_cancels_the_request() {
    let harness = Harness::start().await;
    let mut stream = harness
        .post(
            &[("mcp-protocol-version", MODERN), ("mcp-method", "tools/call"), ("mcp-name", "wait_cancel")],
            &json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "wait_cancel", "arguments": {"tag": "modern"}, "_meta": {
                "progressToken": 5,
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientCapabilities": {}}}}),
        )
        .await;
    stream.message(MODERN).await.unwrap();
    drop(stream);
    let tag = tokio::time::timeout(HANG_GUARD, harness.cancelled.lock().await.recv())
        .await
        .expect("cancelled, not left running");
    assert_eq!(tag.as_deref(), Some("modern"));
}
