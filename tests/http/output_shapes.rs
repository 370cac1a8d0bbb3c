//! SEP-2106: a tool's `outputSchema` may have any JSON Schema root from 2026-07-28 on, and
//! its `structuredContent` any JSON value. A 2025-era client, whose revision allows only an
//! object there, is listed the schema wrapped as `{"result": ...}` and gets each value so
//! wrapped (as the official TypeScript SDK projects them); results are checked against the
//! natural schema, and a value that is not an object gets a text rendering when the tool
//! wrote none. Every message is checked against the schema of its revision.

use ferrymcp_core::server::Context;
use ferrymcp_tests::schema;
use http::StatusCode;
use serde_json::{Map, Value, json};

use crate::support::{Harness, LEGACY, MODERN, Reply};

/// The one message of a reply, JSON body or event stream.
async fn answer(mut reply: Reply, revision: &str) -> Value {
    assert_eq!(reply.status, StatusCode::OK);
    if reply.is_sse() { reply.message(revision).await.expect("an answer").1 } else { reply.json(revision).await }
}

/// A harness with `primes` (an array root; returns the first `n` primes, or a string when
/// asked to break its schema) and `maybe` (a typeless `anyOf` root; returns `null`).
async fn harness() -> Harness {
    let harness = Harness::start().await;
    let primes = json!({"name": "primes", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}, "wrong": {"type": "boolean"}}},
        "outputSchema": {"type": "array", "items": {"$ref": "#/$defs/prime"}, "$defs": {"prime": {"type": "integer", "minimum": 2}}}});
    harness
        .server
        .add_tool(primes, |args: Map<String, Value>, _cx: Context| async move {
            let n = args.get("n").and_then(Value::as_u64).unwrap_or(0) as usize;
            let value = match args.get("wrong") {
                Some(Value::Bool(true)) => json!("not a list"),
                _ => json!([2, 3, 5, 7, 11][..n]),
            };
            Ok(json!({"content": [], "structuredContent": value}))
        })
        .unwrap();
    let maybe = json!({"name": "maybe", "inputSchema": {"type": "object"}, "outputSchema": {"anyOf": [{"type": "null"}, {"type": "string"}]}});
    harness
        .server
        .add_tool(maybe, |_: Map<String, Value>, _cx: Context| async move {
            Ok(json!({"content": [{"type": "image", "data": "AA==", "mimeType": "image/png"}], "structuredContent": null}))
        })
        .unwrap();
    harness
}

fn listed<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["result"]["tools"].as_array().unwrap().iter().find(|t| t["name"] == name).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_non_object_output_schema_is_listed_as_it_is_to_2026_clients_and_wrapped_for_2025_ones() {
    let harness = harness().await;
    let modern = answer(harness.modern(1, "tools/list", json!({})).await, MODERN).await;
    schema::assert_valid(MODERN, "ListToolsResult", &modern["result"]);
    assert_eq!(listed(&modern, "primes")["outputSchema"]["type"], "array");
    assert_eq!(listed(&modern, "primes")["outputSchema"]["items"]["$ref"], "#/$defs/prime");
    assert_eq!(listed(&modern, "maybe")["outputSchema"], json!({"anyOf": [{"type": "null"}, {"type": "string"}]}));

    let session = harness.initialize().await;
    let headers = [("mcp-session-id", session.as_str()), ("mcp-protocol-version", LEGACY)];
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let legacy = answer(harness.post(&headers, &list).await, LEGACY).await;
    schema::assert_valid(LEGACY, "ListToolsResult", &legacy["result"]);
    assert_eq!(
        listed(&legacy, "primes")["outputSchema"],
        json!({"type": "object", "required": ["result"], "properties": {"result": {"type": "array",
            "items": {"$ref": "#/properties/result/$defs/prime"}, "$defs": {"prime": {"type": "integer", "minimum": 2}}}}}),
        "wrapped, its same-document pointer following it"
    );
    assert_eq!(listed(&legacy, "echo"), listed(&modern, "echo"), "other tools are listed alike");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_non_object_structured_result_is_checked_rendered_as_text_and_wrapped_for_2025_clients() {
    let harness = harness().await;
    let call = |id: i64, name: &str, arguments: Value| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}});
    let modern =
        answer(harness.modern(1, "tools/call", json!({"name": "primes", "arguments": {"n": 3}})).await, MODERN).await;
    schema::assert_valid(MODERN, "CallToolResult", &modern["result"]);
    assert_eq!(modern["result"]["structuredContent"], json!([2, 3, 5]));
    assert_eq!(modern["result"]["content"], json!([{"type": "text", "text": "[2,3,5]"}]));

    let maybe = answer(harness.modern(2, "tools/call", json!({"name": "maybe", "arguments": {}})).await, MODERN).await;
    assert_eq!(maybe["result"]["structuredContent"], Value::Null, "null is a value, present");
    assert_eq!(
        maybe["result"]["content"],
        json!([{"type": "image", "data": "AA==", "mimeType": "image/png"}, {"type": "text", "text": "null"}]),
        "a text rendering appended where the tool wrote no text block"
    );

    let wrong =
        answer(harness.modern(3, "tools/call", json!({"name": "primes", "arguments": {"wrong": true}})).await, MODERN)
            .await;
    assert_eq!(wrong["result"]["isError"], true, "checked against the natural schema");
    assert!(wrong["result"]["content"][0]["text"].as_str().unwrap().contains("does not match its schema"));

    let session = harness.initialize().await;
    let headers = [("mcp-session-id", session.as_str()), ("mcp-protocol-version", LEGACY)];
    let legacy = answer(harness.post(&headers, &call(4, "primes", json!({"n": 2}))).await, LEGACY).await;
    schema::assert_valid(LEGACY, "CallToolResult", &legacy["result"]);
    assert_eq!(legacy["result"]["structuredContent"], json!({"result": [2, 3]}));
    assert_eq!(legacy["result"]["content"], json!([{"type": "text", "text": "[2,3]"}]));
    let legacy = answer(harness.post(&headers, &call(5, "maybe", json!({}))).await, LEGACY).await;
    schema::assert_valid(LEGACY, "CallToolResult", &legacy["result"]);
    assert_eq!(legacy["result"]["structuredContent"], json!({"result": null}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_output_schema_that_is_not_a_schema_object_is_refused_at_registration() {
    let server = ferrymcp_core::server::Server::new("t", "1");
    let error = server
        .add_tool(json!({"name": "bad", "outputSchema": true}), |_: Map<String, Value>, _cx: Context| async move {
            Ok(json!({"content": []}))
        })
        .unwrap_err();
    assert!(error.to_string().contains("outputSchema must be a JSON Schema object"), "{error}");
}
