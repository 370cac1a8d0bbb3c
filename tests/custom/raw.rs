//! The fixture over stdio, line by line: what crosses the pipe is exactly what MCP's
//! schema of the revision says, custom methods included (as plain JSON-RPC).

use ferrymcp_tests::raw::RawChild;
use ferrymcp_tests::schema::assert_valid;
use serde_json::{Value, json};

use super::FIXTURE;

const LEGACY: &str = "2025-11-25";
const MODERN: &str = "2026-07-28";

/// A legacy session with `capabilities`.
async fn initialized(capabilities: Value) -> RawChild {
    let mut child = RawChild::spawn(FIXTURE, &[]);
    let params = json!({"protocolVersion": LEGACY, "capabilities": capabilities, "clientInfo": {"name": "raw", "version": "1.0.0"}});
    child.send(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params})).await;
    let answer = child.recv().await;
    assert_eq!(answer["result"]["protocolVersion"], LEGACY, "{answer}");
    child.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    child
}

/// Sends an MCP-defined message, checked first against its own definition.
async fn send_checked(child: &mut RawChild, definition: &str, message: Value) {
    assert_valid(child.revision, definition, &message);
    child.send(&message).await;
}

async fn recv_checked(child: &mut RawChild, definition: &str) -> Value {
    let message = child.recv().await;
    assert_valid(child.revision, definition, &message);
    message
}

#[tokio::test]
async fn custom_requests_each_way_on_a_legacy_session() {
    let mut child = initialized(json!({})).await;
    child.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "example/echo", "params": {"text": "hi"}})).await;
    let answer = recv_checked(&mut child, "JSONRPCResultResponse").await;
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": 1, "result": {"echo": {"text": "hi"}}}));

    child.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "example/nothing"})).await;
    let error = recv_checked(&mut child, "JSONRPCErrorResponse").await;
    assert_eq!((error["id"].clone(), error["error"]["code"].clone()), (json!(2), json!(-32601)), "{error}");

    // The handler asks the client with a custom request of its own, and waits for it.
    child.send(&json!({"jsonrpc": "2.0", "id": 3, "method": "example/ask", "params": {"q": 1}})).await;
    let asked = recv_checked(&mut child, "JSONRPCRequest").await;
    assert_eq!((asked["method"].clone(), asked["params"].clone()), (json!("example/clientEcho"), json!({"q": 1})));
    child.send(&json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"a": 2}})).await;
    let answer = recv_checked(&mut child, "JSONRPCResultResponse").await;
    assert_eq!(answer, json!({"jsonrpc": "2.0", "id": 3, "result": {"client": {"a": 2}}}));
}

#[tokio::test]
async fn custom_requests_in_the_modern_era() {
    let mut child = RawChild::spawn(FIXTURE, &[]);
    child.revision = MODERN;
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1.0.0"},
    });
    let params = json!({"text": "hi", "_meta": meta});
    child.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "example/echo", "params": params})).await;
    let answer = recv_checked(&mut child, "JSONRPCResultResponse").await;
    assert_eq!(answer["result"]["echo"]["text"], "hi", "{answer}");
    assert_eq!(answer["result"]["resultType"], "complete", "{answer}");

    child.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "example/nothing", "params": {"_meta": meta}})).await;
    let error = recv_checked(&mut child, "JSONRPCErrorResponse").await;
    assert_eq!(error["error"]["code"], -32601, "{error}");

    // A modern request has no session to remember.
    child.send(&json!({"jsonrpc": "2.0", "id": 3, "method": "example/remember", "params": {"_meta": meta}})).await;
    let answer = recv_checked(&mut child, "JSONRPCResultResponse").await;
    assert_eq!(answer["result"]["session"], Value::Null, "{answer}");
}

#[tokio::test]
async fn client_notifications_reach_server_handlers() {
    let mut child = initialized(json!({"roots": {"listChanged": true}})).await;
    child.send(&json!({"jsonrpc": "2.0", "method": "example/poke", "params": {"n": 1}})).await;
    let poked = recv_checked(&mut child, "JSONRPCNotification").await;
    assert_eq!(poked, json!({"jsonrpc": "2.0", "method": "example/poked", "params": {"n": 1}}));

    // roots/list_changed reaches the handler, which asks for the roots on the session.
    send_checked(
        &mut child,
        "RootsListChangedNotification",
        json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}),
    )
    .await;
    let request = recv_checked(&mut child, "ListRootsRequest").await;
    let roots = json!({"roots": [{"uri": "file:///tmp/a", "name": "a"}]});
    assert_valid(LEGACY, "ListRootsResult", &roots);
    child.send(&json!({"jsonrpc": "2.0", "id": request["id"], "result": roots})).await;
    let reported = recv_checked(&mut child, "JSONRPCNotification").await;
    assert_eq!(reported, json!({"jsonrpc": "2.0", "method": "example/roots", "params": roots}));

    child.send(&json!({"jsonrpc": "2.0", "id": 9, "method": "example/pokes", "params": {"atLeast": 1}})).await;
    assert_eq!(child.recv().await["result"], json!({"pokes": 1}));
}

#[tokio::test]
async fn the_session_handle_samples_and_completes_an_elicitation_outside_any_handler() {
    let capabilities = json!({"sampling": {}, "elicitation": {"form": {}, "url": {}}});
    let mut child = initialized(capabilities.clone()).await;
    // A request handler keeps its session; the handle reports the client.
    child.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "example/remember"})).await;
    let answer = recv_checked(&mut child, "JSONRPCResultResponse").await;
    assert_eq!(answer["result"]["protocolVersion"], LEGACY, "{answer}");
    assert_eq!(answer["result"]["clientInfo"], json!({"name": "raw", "version": "1.0.0"}));
    assert_eq!(answer["result"]["clientCapabilities"], capabilities);

    // Later, from a notification handler, the kept handle sends a sampling request.
    let params = json!({"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 10});
    child.send(&json!({"jsonrpc": "2.0", "method": "example/sample", "params": params})).await;
    let request = recv_checked(&mut child, "CreateMessageRequest").await;
    assert_eq!(request["params"], params);
    let result = json!({"role": "assistant", "content": {"type": "text", "text": "hello"}, "model": "m"});
    assert_valid(LEGACY, "CreateMessageResult", &result);
    child.send(&json!({"jsonrpc": "2.0", "id": request["id"], "result": result})).await;
    let complete = recv_checked(&mut child, "ElicitationCompleteNotification").await;
    assert_eq!(complete["params"], json!({"elicitationId": "elicitation-1"}));
    let sampled = recv_checked(&mut child, "JSONRPCNotification").await;
    assert_eq!(sampled["params"], json!({"result": result, "sameSession": true, "completeError": null}));
}

#[tokio::test]
async fn the_session_handle_refuses_what_the_client_did_not_declare() {
    let mut child = initialized(json!({})).await;
    let params = json!({"messages": [], "maxTokens": 10});
    child.send(&json!({"jsonrpc": "2.0", "method": "example/sample", "params": params})).await;
    // Neither the sampling request nor the completion goes out: the first thing the
    // client sees is the report of both refusals.
    let sampled = recv_checked(&mut child, "JSONRPCNotification").await;
    let error = sampled["params"]["result"]["error"].as_str().unwrap_or_default();
    assert!(error.contains("does not support sampling"), "{sampled}");
    let error = sampled["params"]["completeError"].as_str().unwrap_or_default();
    assert!(error.contains("does not support URL elicitation"), "{sampled}");
}
