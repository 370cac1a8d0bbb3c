//! Many clients at once: a thousand concurrent sessions, and a client that stops reading
//! its stream without holding anyone else up.

use std::sync::Arc;

use http::StatusCode;
use serde_json::json;

use crate::support::{Harness, LEGACY};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_concurrent_sessions() {
    let harness = Arc::new(Harness::start().await);
    let clients: Vec<_> = (0..1000)
        .map(|n| {
            let harness = harness.clone();
            tokio::spawn(async move {
                let session = harness.initialize().await;
                let call = json!({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": format!("client {n}")}}});
                let reply = harness.post(&[("mcp-session-id", &session)], &call).await;
                assert_eq!(reply.status, StatusCode::OK);
                let response = reply.json(LEGACY).await;
                assert_eq!(response["id"], n);
                assert_eq!(response["result"]["content"][0]["text"], format!("client {n}"), "each session gets its own answer");
                session
            })
        })
        .collect();
    let mut sessions = std::collections::HashSet::new();
    for client in clients {
        sessions.insert(client.await.unwrap());
    }
    assert_eq!(sessions.len(), 1000, "every session id is distinct");
    assert_eq!(harness.handler.session_count(), 1000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_stalls_no_one_else() {
    let harness = Harness::start().await;
    let slow_session = harness.initialize().await;
    // Thousands of notifications of ~300 bytes: far more than the socket buffers hold.
    let flood = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "progress", "arguments": {"steps": 5000}, "_meta": {"progressToken": "flood"}}});
    let mut slow = harness.post(&[("mcp-session-id", &slow_session)], &flood).await;
    assert!(slow.is_sse());
    let others = harness.initialize().await;
    for n in 0..50 {
        let call = json!({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "quick"}}});
        let reply = harness.post(&[("mcp-session-id", &others)], &call).await;
        assert_eq!(reply.json(LEGACY).await["result"]["content"][0]["text"], "quick");
    }
    let mut notifications = 0;
    loop {
        let (_, message) = slow.message(LEGACY).await.expect("the slow stream still ends with its response");
        if message.get("id").is_some() {
            break;
        }
        notifications += 1;
    }
    assert_eq!(notifications, 5000, "nothing was dropped while the client was not reading");
}
