//! The legacy era (2025-11-25) over HTTP: sessions, SSE with event ids and priming,
//! server-to-client requests, the standalone stream, resumption, cancellation, DELETE,
//! expiry and the session limit.

use std::time::Duration;

use ferrymcp_core::server::http::HttpOptions;
use ferrymcp_tests::schema;
use http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{HANG_GUARD, Harness, LEGACY};

fn call(id: i64, name: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments, "_meta": {"progressToken": format!("p{id}")}}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_answers_json_or_a_primed_event_stream() {
    let harness = Harness::start().await;
    let session = harness.initialize().await;
    assert_eq!(session.len(), 64, "32 random bytes, hex");
    let s = [("mcp-session-id", session.as_str()), ("mcp-protocol-version", LEGACY)];

    let list = harness.post(&s, &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})).await;
    assert_eq!(list.status, StatusCode::OK);
    let list = list.json(LEGACY).await;
    schema::assert_valid(LEGACY, "ListToolsResult", &list["result"]);

    let mut stream = harness.post(&s, &call(2, "progress", json!({"steps": 3}))).await;
    assert!(stream.is_sse(), "a request that sends notifications is answered with SSE");
    assert_eq!(stream.header("x-accel-buffering"), Some("no"));
    let priming = stream.event().await.unwrap();
    assert!(priming.id.is_some() && priming.data.is_empty() && priming.retry.is_some(), "{priming:?}");
    let mut ids = vec![priming.id.unwrap()];
    for step in 1..=3 {
        let (id, message) = stream.message(LEGACY).await.unwrap();
        schema::assert_valid(LEGACY, "ProgressNotification", &message);
        assert_eq!(message["params"]["progress"].as_f64(), Some(f64::from(step)));
        ids.push(id.expect("every event has an id"));
    }
    let (id, response) = stream.message(LEGACY).await.unwrap();
    ids.push(id.unwrap());
    assert_eq!(response["id"], 2);
    schema::assert_valid(LEGACY, "CallToolResult", &response["result"]);
    assert!(stream.event().await.is_none(), "the response ends the stream");
    let unique: std::collections::HashSet<_> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "event ids are unique: {ids:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_asks_the_client_on_the_request_stream() {
    let harness = Harness::start().await;
    let session = harness.initialize().await;
    let s = [("mcp-session-id", session.as_str())];
    let mut stream = harness.post(&s, &call(3, "elicit", json!({}))).await;
    let (_, request) = stream.message(LEGACY).await.unwrap();
    schema::assert_valid(LEGACY, "ElicitRequest", &request);
    assert_eq!(request["method"], "elicitation/create");
    let answer =
        json!({"jsonrpc": "2.0", "id": request["id"], "result": {"action": "accept", "content": {"name": "Ada"}}});
    assert_eq!(harness.post(&s, &answer).await.status, StatusCode::ACCEPTED);
    let (_, response) = stream.message(LEGACY).await.unwrap();
    assert_eq!(response["id"], 3);
    assert_eq!(response["result"]["content"][0]["text"], "Ada");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_stream_resumes_from_last_event_id_without_loss() {
    let harness = Harness::start().await;
    let session = harness.initialize().await;
    let s = [("mcp-session-id", session.as_str())];
    // The answer starts (as SSE) with the first notification, so let the first step run.
    harness.gate.add_permits(1);
    let mut stream = harness.post(&s, &call(4, "gated", json!({"steps": 4}))).await;
    let (last_seen, first) = stream.message(LEGACY).await.unwrap();
    assert_eq!(first["params"]["progress"].as_f64(), Some(1.0));
    drop(stream);
    // Two steps happen while nobody reads (kept in the event store), two after resuming.
    harness.gate.add_permits(2);
    let last_seen = last_seen.unwrap();
    let resume =
        [("mcp-session-id", session.as_str()), ("last-event-id", last_seen.as_str()), ("accept", "text/event-stream")];
    let mut resumed = harness.send(Method::GET, &resume, "").await;
    assert_eq!(resumed.status, StatusCode::OK);
    harness.gate.add_permits(2);
    let mut progress = Vec::new();
    let response = loop {
        let (_, message) = resumed.message(LEGACY).await.expect("the stream carries on to the response");
        if message.get("id").is_some() {
            break message;
        }
        progress.push(message["params"]["progress"].as_f64().unwrap());
    };
    assert_eq!(progress, vec![2.0, 3.0, 4.0], "every missed event, once, in order");
    assert_eq!(response["id"], 4);
    schema::assert_valid(LEGACY, "CallToolResult", &response["result"]);

    let forged = [("mcp-session-id", session.as_str()), ("last-event-id", "999999/1"), ("accept", "text/event-stream")];
    assert_eq!(harness.send(Method::GET, &forged, "").await.status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_handler_can_close_the_stream_for_the_client_to_poll() {
    let harness = Harness::start().await;
    let session = harness.initialize().await;
    let mut stream = harness.post(&[("mcp-session-id", &session)], &call(7, "poll", json!({}))).await;
    assert!(stream.is_sse());
    let priming = stream.event().await.unwrap();
    assert!(priming.data.is_empty() && priming.retry.is_some());
    assert!(stream.event().await.is_none(), "the server closed the stream (SEP-1699)");
    let last = priming.id.unwrap();
    let resume =
        [("mcp-session-id", session.as_str()), ("last-event-id", last.as_str()), ("accept", "text/event-stream")];
    let mut resumed = harness.send(Method::GET, &resume, "").await;
    harness.gate.add_permits(1);
    let (_, response) = resumed.message(LEGACY).await.unwrap();
    assert_eq!(response["id"], 7);
    assert_eq!(response["result"]["content"][0]["text"], "done");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_standalone_stream_carries_session_notifications_and_delete_ends_it() {
    let harness = Harness::start().await;
    let session = harness.initialize().await;
    let get = [("mcp-session-id", session.as_str()), ("accept", "text/event-stream")];
    let mut standalone = harness.send(Method::GET, &get, "").await;
    assert_eq!(standalone.status, StatusCode::OK);
    assert!(standalone.is_sse());
    assert_eq!(
        harness.send(Method::GET, &get, "").await.status,
        StatusCode::CONFLICT,
        "one standalone stream per session"
    );
    harness.server.notify_tools_changed().await;
    let (id, message) = standalone.message(LEGACY).await.unwrap();
    assert!(id.is_some());
    schema::assert_valid(LEGACY, "ToolListChangedNotification", &message);

    let s = [("mcp-session-id", session.as_str())];
    assert_eq!(harness.send(Method::DELETE, &s, "").await.status, StatusCode::OK);
    assert!(standalone.message(LEGACY).await.is_none(), "the session's streams end with it");
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    assert_eq!(harness.post(&s, &ping).await.status, StatusCode::NOT_FOUND, "an ended session is unknown");
    assert_eq!(harness.send(Method::DELETE, &s, "").await.status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notifications_cancelled_stops_the_request() {
    let harness = Harness::start().await;
    let session = harness.initialize().await;
    let s = [("mcp-session-id", session.as_str())];
    let mut stream = harness.post(&s, &call(6, "wait_cancel", json!({"tag": "legacy"}))).await;
    stream.message(LEGACY).await.unwrap();
    let cancel =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 6, "reason": "test"}});
    schema::assert_valid(LEGACY, "CancelledNotification", &cancel);
    assert_eq!(harness.post(&s, &cancel).await.status, StatusCode::ACCEPTED);
    let tag = tokio::time::timeout(HANG_GUARD, harness.cancelled.lock().await.recv()).await.unwrap();
    assert_eq!(tag.as_deref(), Some("legacy"));
    assert!(stream.message(LEGACY).await.is_none(), "no response after cancellation");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_sessions_expire() {
    let options = HttpOptions { session_idle: Duration::from_millis(200), ..HttpOptions::default() };
    let harness = Harness::with(options).await;
    let session = harness.initialize().await;
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let expired = async {
        loop {
            tokio::time::sleep(Duration::from_millis(300)).await;
            if harness.post(&[("mcp-session-id", &session)], &ping).await.status == StatusCode::NOT_FOUND {
                return;
            }
        }
    };
    tokio::time::timeout(HANG_GUARD, expired).await.expect("the idle session ends");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_session_limit_initialize_gets_503() {
    let options = HttpOptions { max_sessions: 2, ..HttpOptions::default() };
    let harness = Harness::with(options).await;
    let first = harness.initialize().await;
    harness.initialize().await;
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let refused = harness.post(&[], &init).await;
    assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(refused.header("retry-after").is_some());
    assert_eq!(harness.send(Method::DELETE, &[("mcp-session-id", &first)], "").await.status, StatusCode::OK);
    harness.initialize().await;
}
