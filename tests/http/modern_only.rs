//! A server that serves 2026-07-28 clients only (`reject_legacy`, the official TypeScript
//! SDK's `legacy: 'reject'`), over HTTP: a 2025-era request is `400` with -32022 naming the
//! supported revisions and the one it asked for, a 2025-era notification `202` and
//! dropped, a posted response `400`, a GET or DELETE `405`; 2026-07-28 requests are served.

use http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Harness, LEGACY, MODERN};

const HEADERS: [(&str, &str); 2] =
    [("content-type", "application/json"), ("accept", "application/json, text/event-stream")];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_traffic_is_refused_as_the_official_modern_only_endpoint_does() {
    let harness = Harness::start().await;
    harness.server.set_reject_legacy(true);

    let initialize = json!({"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let reply = harness.post(&[], &initialize).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert!(reply.header("mcp-session-id").is_none());
    let error = reply.json(MODERN).await;
    assert_eq!(error["id"], 7);
    assert_eq!(error["error"]["code"], -32022);
    assert_eq!(error["error"]["message"], format!("Unsupported protocol version: {LEGACY}"));
    assert_eq!(error["error"]["data"], json!({"supported": [MODERN], "requested": LEGACY}));

    let list = json!({"jsonrpc": "2.0", "id": "a", "method": "tools/list"});
    let error = harness.post(&[], &list).await.json(MODERN).await;
    assert_eq!(error["id"], "a");
    assert_eq!(error["error"]["code"], -32022);
    assert_eq!(error["error"]["message"], "Unsupported protocol version: the request did not name a protocol version");
    assert_eq!(error["error"]["data"], json!({"supported": [MODERN]}), "nothing requested is made up");
    let reply = harness.post(&[("mcp-protocol-version", "2025-06-18")], &list).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.json(MODERN).await["error"]["data"]["requested"], "2025-06-18", "the version header's");

    let notification = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let reply = harness.post(&[], &notification).await;
    assert_eq!(reply.status, StatusCode::ACCEPTED);
    assert!(reply.bytes().await.is_empty());

    let response = json!({"jsonrpc": "2.0", "id": 1, "result": {}});
    let error = harness.post(&[], &response).await;
    assert_eq!(error.status, StatusCode::BAD_REQUEST);
    assert_eq!(error.json(MODERN).await["error"]["code"], -32600);

    for method in [Method::GET, Method::DELETE] {
        let reply = harness.send(method, &[("accept", "text/event-stream"), ("mcp-session-id", "abc")], "").await;
        assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(reply.header("allow"), Some("POST"));
        let error: Value = serde_json::from_slice(&reply.bytes().await).unwrap();
        assert_eq!(error["error"], json!({"code": -32000, "message": "Method not allowed."}));
    }

    let modern = harness.modern(9, "tools/call", json!({"name": "echo", "arguments": {"text": "still here"}})).await;
    assert_eq!(modern.status, StatusCode::OK);
    assert_eq!(modern.json(MODERN).await["result"]["content"][0]["text"], "still here");

    harness.server.set_reject_legacy(false);
    let reply = harness.send(Method::POST, &HEADERS, initialize.to_string()).await;
    assert_eq!(reply.status, StatusCode::OK, "both eras again once switched back");
}
