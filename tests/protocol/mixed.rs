//! Both eras on one process: a legacy session and stateless 2026-07-28 requests
//! interleaved on the same pipes, each answered by the rules of its own era.

use ferrymcp_tests::schema;
use serde_json::{Value, json};

use crate::*;

const V: &str = "2025-11-25";

#[tokio::test]
async fn a_legacy_session_and_modern_requests_interleave() {
    let mut child = legacy_session(V, all_caps()).await;

    child.revision = MODERN;
    if python_dialect() {
        // The official Python SDK's stdio loop keeps the era the first request opened: a
        // handshake stream refuses the 2026-07-28 envelope (core's `locks_stream_era`).
        ask(&mut child, "m1", "tools/list", modern(Value::Null, json!({}))).await.error(-32600);
        return finish(child).await;
    }
    // The same list, stamped for the modern request only.
    let modern_list = ask(&mut child, "m1", "tools/list", modern(Value::Null, json!({}))).await;
    let modern_list = modern_list.complete("ListToolsResult").clone();
    child.revision = V;
    let legacy_list = ask(&mut child, "l1", "tools/list", Value::Null).await;
    let legacy_list = legacy_list.result("ListToolsResult").clone();
    assert_eq!(modern_list["tools"], legacy_list["tools"]);
    assert!(legacy_list.get("ttlMs").is_none() && legacy_list.get("_meta").is_none());

    // ping: the session's, while the modern one is gone.
    assert_eq!(ask(&mut child, "l2", "ping", Value::Null).await.result("EmptyResult"), &json!({}));
    child.revision = MODERN;
    ask(&mut child, "m2", "ping", modern(Value::Null, json!({}))).await.error(-32601);
    ask(&mut child, "m3", "server/discover", modern(Value::Null, json!({}))).await.complete("DiscoverResult");

    // Resource not found: -32002 for the session, -32602 for the modern request.
    let uri = json!({"uri": "test://missing"});
    child.revision = V;
    // (The official Python SDK's dialect: -32602 in both.)
    ask(&mut child, "l3", "resources/read", uri.clone()).await.error(if python_dialect() { -32602 } else { -32002 });
    child.revision = MODERN;
    ask(&mut child, "m4", "resources/read", modern(uri, json!({}))).await.error(-32602);

    // A legacy elicitation waits on the client while modern MRTR rounds are served.
    child.revision = V;
    child
        .send(&request("l4", "tools/call", json!({"name": "test_elicitation", "arguments": {"message": "Hold on"}})))
        .await;
    let asked = child.recv().await;
    schema::assert_valid(V, "ElicitRequest", &asked);
    assert_eq!(asked["params"]["message"], "Hold on");

    child.revision = MODERN;
    let mrtr = modern(json!({"name": "test_input_required_result_elicitation"}), all_caps());
    let first = ask(&mut child, "m5", "tools/call", mrtr.clone()).await;
    let first = first.input_required().clone();
    let mut again = mrtr;
    again["inputResponses"] = json!({"user_name": {"action": "accept", "content": {"name": "Zoe"}}});
    again["requestState"] = first["requestState"].clone();
    let done = ask(&mut child, "m6", "tools/call", again).await;
    assert_eq!(text(done.complete("CallToolResult")), "Hello, Zoe!");

    child.revision = V;
    child.send(&json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "accept", "content": {"response": "ok"}}})).await;
    let done = until_response(&mut child, &json!("l4")).await;
    assert_eq!(text(done.result("CallToolResult")), "User response: action=accept, content={\"response\":\"ok\"}");

    // The same MRTR tool on the session: a real request, not input_required.
    child.send(&request("l5", "tools/call", json!({"name": "test_input_required_result_elicitation"}))).await;
    let asked = child.recv().await;
    schema::assert_valid(V, "ElicitRequest", &asked);
    child
        .send(&json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "accept", "content": {"name": "Lee"}}}))
        .await;
    let done = until_response(&mut child, &json!("l5")).await;
    assert_eq!(text(done.result("CallToolResult")), "Hello, Lee!");

    // A modern listener and the legacy session both hear a change, each its own way.
    child.revision = MODERN;
    let listen =
        request("sub", "subscriptions/listen", modern(json!({"notifications": {"toolsListChanged": true}}), json!({})));
    child.send(&listen).await;
    let ack = child.recv().await;
    schema::assert_valid(MODERN, "SubscriptionsAcknowledgedNotification", &ack);
    child.revision = V;
    let change = exchange(&mut child, request("l6", "tools/call", json!({"name": "test_trigger_tool_change"}))).await;
    let changes = change.sent("notifications/tools/list_changed");
    assert_eq!(changes.len(), 2, "{:?}", change.before);
    let tags: Vec<&Value> =
        changes.iter().map(|c| &c["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"]).collect();
    assert!(tags.contains(&&json!("sub")) && tags.contains(&&Value::Null), "one tagged, one plain: {changes:?}");
    for c in changes {
        schema::assert_valid(MODERN, "ToolListChangedNotification", c);
    }
    assert_eq!(text(change.result("CallToolResult")), "Mutation triggered");

    // Logging: the session's level applies to session calls, never to modern ones.
    ask(&mut child, "l7", "logging/setLevel", json!({"level": "debug"})).await.result("EmptyResult");
    child.revision = MODERN;
    let quiet = ask(&mut child, "m7", "tools/call", modern(json!({"name": "test_logging_tool"}), json!({}))).await;
    quiet.complete("CallToolResult");
    child.revision = V;
    let loud = exchange(&mut child, request("l8", "tools/call", json!({"name": "test_logging_tool"}))).await;
    assert_eq!(loud.sent("notifications/message").len(), 1);
    loud.result("CallToolResult");
    finish(child).await;
}

#[tokio::test]
async fn modern_requests_before_and_after_initialize() {
    let mut child = spawn(MODERN);
    ask(&mut child, 1, "tools/call", modern(json!({"name": "test_simple_text"}), json!({})))
        .await
        .complete("CallToolResult");
    child.revision = "2025-03-26";
    if python_dialect() {
        // A stream the first request opened at 2026-07-28 refuses the handshake, as the
        // official Python SDK's stdio loop does (core's `locks_stream_era`).
        let params =
            json!({"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}});
        let refused = ask(&mut child, "init", "initialize", params).await;
        assert_eq!(refused.error(-32022)["data"]["requested"], "2025-03-26");
        return finish(child).await;
    }
    let result = initialize(&mut child, "2025-03-26", json!({})).await;
    assert_eq!(result["protocolVersion"], "2025-03-26");
    // The session's batches and the modern path coexist.
    child.send(&json!([{"jsonrpc": "2.0", "id": "b1", "method": "ping"}])).await;
    let batch = child.recv().await;
    assert_eq!(batch, json!([{"jsonrpc": "2.0", "id": "b1", "result": {}}]));
    child.revision = MODERN;
    let read = ask(&mut child, 2, "resources/read", modern(json!({"uri": "test://static-text"}), json!({}))).await;
    assert_eq!(read.complete("ReadResourceResult")["cacheScope"], "private");
    finish(child).await;
}
