//! Hostile and broken input: each gets the status (and JSON-RPC error) the specification
//! names, and the endpoint keeps serving afterwards.

use ferrymcp_core::server::Dialect;
use ferrymcp_core::server::http::HttpOptions;
use http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Harness, LEGACY, MODERN};

const JSON: (&str, &str) = ("content-type", "application/json");
const ACCEPT: (&str, &str) = ("accept", "application/json, text/event-stream");

/// The refusal's JSON-RPC error code (the body is an error response without id).
async fn code(reply: crate::support::Reply, revision: &str) -> i64 {
    let message = reply.json(revision).await;
    message["error"]["code"].as_i64().unwrap_or_else(|| panic!("no error code in {message}"))
}

/// The endpoint still answers a well-formed session request.
async fn still_serves(harness: &Harness, session: &str) {
    let list = json!({"jsonrpc": "2.0", "id": 99, "method": "tools/list"});
    let reply = harness.post(&[("mcp-session-id", session)], &list).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.json(LEGACY).await["result"]["tools"].is_array());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_bodies_and_headers_get_the_named_status() {
    let harness = Harness::start().await;
    let session = harness.initialize().await;
    let with_session = ("mcp-session-id", session.as_str());

    let reply = harness.send(Method::POST, &[JSON, ACCEPT, with_session], "{not json").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(code(reply, LEGACY).await, -32700);

    let reply =
        harness.send(Method::POST, &[JSON, ACCEPT, with_session], r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(code(reply, LEGACY).await, -32600);

    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}).to_string();
    let reply = harness.send(Method::POST, &[("content-type", "text/plain"), ACCEPT, with_session], ping.clone()).await;
    assert_eq!(reply.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);

    let reply = harness.send(Method::POST, &[JSON, with_session], ping.clone()).await;
    assert_eq!(reply.status, StatusCode::NOT_ACCEPTABLE, "no Accept");
    let reply = harness.send(Method::POST, &[JSON, ("accept", "application/json"), with_session], ping.clone()).await;
    assert_eq!(reply.status, StatusCode::NOT_ACCEPTABLE, "Accept without text/event-stream");

    let reply = harness.send(Method::POST, &[JSON, ACCEPT], ping.clone()).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "no session id");
    let forged = "00".repeat(32);
    let reply = harness.send(Method::POST, &[JSON, ACCEPT, ("mcp-session-id", &forged)], ping.clone()).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "forged session id");
    assert_eq!(code(reply, LEGACY).await, -32001);

    let reply = harness
        .send(Method::POST, &[JSON, ACCEPT, with_session, ("origin", "http://evil.example.com")], ping.clone())
        .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "bad Origin");
    let reply =
        harness.send(Method::POST, &[JSON, ACCEPT, with_session, ("host", "evil.example.com")], ping.clone()).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "rebound Host");
    let reply = harness
        .send(Method::POST, &[JSON, ACCEPT, with_session, ("origin", "http://localhost:5173")], ping.clone())
        .await;
    assert_eq!(reply.status, StatusCode::OK, "a loopback Origin is fine");

    let reply = harness
        .send(Method::POST, &[JSON, ACCEPT, with_session, ("mcp-protocol-version", "1999-01-01")], ping.clone())
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "unknown legacy protocol version header");

    let reply = harness.send(Method::PUT, &[JSON, ACCEPT, with_session], ping.clone()).await;
    assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);

    still_serves(&harness, &session).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversize_body_is_413_and_the_server_carries_on() {
    let options = HttpOptions { max_body: 1024, ..HttpOptions::default() };
    let harness = Harness::with(options).await;
    let session = harness.initialize().await;
    let big = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "x".repeat(4096)}}});
    let reply = harness.post(&[("mcp-session-id", &session)], &big).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    let message = reply.json(LEGACY).await;
    assert_eq!(message["error"]["code"], -32000);
    assert_eq!(message["error"]["message"], "Payload Too Large: Request body must not exceed 1024 bytes");
    assert_eq!(message["id"], Value::Null);
    still_serves(&harness, &session).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_over_the_cap_gets_the_official_refusal() {
    let harness = Harness::start().await;
    let session = harness.initialize().await;
    let batch =
        |n: i64| Value::Array((1..=n).map(|id| json!({"jsonrpc": "2.0", "id": id, "method": "ping"})).collect());
    for with_session in [true, false] {
        let headers: &[(&str, &str)] = if with_session { &[("mcp-session-id", session.as_str())] } else { &[] };
        // Over the cap: 400, -32600, the official TypeScript SDK's words, whatever else.
        let reply = harness.post(headers, &batch(101)).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST);
        let message = reply.json(LEGACY).await;
        assert_eq!(message["error"]["code"], -32600, "{message}");
        assert_eq!(message["error"]["message"], "Invalid Request: Batch must not exceed 100 messages");
        assert_eq!(message["id"], Value::Null);
        // Within it: still refused, as every batch over Streamable HTTP (not the cap's words).
        let reply = harness.post(headers, &batch(100)).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST);
        let message = reply.json(LEGACY).await;
        assert_eq!(message["error"]["code"], -32600, "{message}");
        assert_eq!(
            message["error"]["message"],
            "Invalid request: JSON-RPC batches are not accepted over Streamable HTTP"
        );
    }
    still_serves(&harness, &session).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_headers_must_match_the_body() {
    let harness = Harness::start().await;
    let meta =
        json!({"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}});
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}, "_meta": meta}});
    let good: [(&str, &str); 3] =
        [("mcp-protocol-version", MODERN), ("mcp-method", "tools/call"), ("mcp-name", "echo")];
    let reply = harness.post(&good, &call).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.json(MODERN).await["result"]["content"][0]["text"], "hi");

    let cases: [(&str, &[(&str, &str)]); 5] = [
        (
            "Mcp-Name names another tool",
            &[("mcp-protocol-version", MODERN), ("mcp-method", "tools/call"), ("mcp-name", "other")],
        ),
        (
            "Mcp-Method names another method",
            &[("mcp-protocol-version", MODERN), ("mcp-method", "tools/list"), ("mcp-name", "echo")],
        ),
        ("no Mcp-Name", &[("mcp-protocol-version", MODERN), ("mcp-method", "tools/call")]),
        ("no Mcp-Method", &[("mcp-protocol-version", MODERN), ("mcp-name", "echo")]),
        ("no MCP-Protocol-Version", &[("mcp-method", "tools/call"), ("mcp-name", "echo")]),
    ];
    for (case, headers) in cases {
        let reply = harness.post(headers, &call).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{case}");
        let message = reply.json(MODERN).await;
        assert_eq!(message["error"]["code"], -32020, "{case}: {message}");
        assert_eq!(message["id"], 7, "{case}: the error answers the request");
    }

    let unknown = json!({"jsonrpc": "2.0", "id": 8, "method": "nope/nothing", "params": {"_meta": meta}});
    let reply = harness.post(&[("mcp-protocol-version", MODERN), ("mcp-method", "nope/nothing")], &unknown).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
    assert_eq!(reply.json(MODERN).await["error"]["code"], -32601);

    let future = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2099-01-01", "io.modelcontextprotocol/clientCapabilities": {}}}});
    let reply = harness.post(&[("mcp-protocol-version", "2099-01-01"), ("mcp-method", "tools/list")], &future).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    let message = reply.json(MODERN).await;
    assert_eq!(message["error"]["code"], -32022);
    assert_eq!(message["error"]["data"]["supported"], json!([MODERN]));

    for method in [Method::GET, Method::DELETE] {
        let reply = harness.send(method, &[("mcp-protocol-version", MODERN), ACCEPT], "").await;
        assert_eq!(reply.status, StatusCode::METHOD_NOT_ALLOWED);
    }
    let reply = harness.post(&good, &call).await;
    assert_eq!(reply.json(MODERN).await["result"]["content"][0]["text"], Value::from("hi"), "still serving");
}

/// A refusal case: what it is, the headers, the body, ferrymcp's words, the official Python SDK's.
type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a Value, &'a str, &'a str);

/// A 2026-07-28 POST's refusal: status, code and the error.
async fn refusal(harness: &Harness, headers: &[(&str, &str)], body: &Value) -> (StatusCode, Value) {
    let reply = harness.post(headers, body).await;
    let status = reply.status;
    (status, reply.json(MODERN).await["error"].clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_refusals_run_the_official_ladder_in_the_dialects_words() {
    let meta =
        json!({"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}});
    let call = |name: &str, arguments: Value| json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": name, "arguments": arguments, "_meta": meta}});
    let echo = call("echo", json!({"text": "hi"}));
    let routed = call("routed", json!({"region": "eu", "n": 42}));
    let standard =
        |name: &'static str| [("mcp-protocol-version", MODERN), ("mcp-method", "tools/call"), ("mcp-name", name)];
    let no_meta = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}}});
    let invalid_params = call("no-such-tool", json!({}));
    let mut twice = standard("echo").to_vec();
    twice.push(("mcp-method", "tools/call"));

    // (case, headers, body, ferrymcp's words, the official Python SDK's words)
    let name_other = [standard("echo")[0], standard("echo")[1], ("mcp-name", "other")];
    let no_version = &standard("echo")[1..];
    let mut param_off = standard("routed").to_vec();
    param_off.extend([("mcp-param-region", "us"), ("mcp-param-n", "42")]);
    let mut param_missing = standard("routed").to_vec();
    param_missing.push(("mcp-param-n", "42.0"));
    let cases: [Case; 5] = [
        (
            "Mcp-Name names another tool",
            &name_other,
            &echo,
            "Bad Request: the request headers and body disagree: the body carries params.name=\"echo\" but the Mcp-Name header names \"other\"",
            "mcp-name header does not match the request body's 'name' parameter",
        ),
        (
            "no MCP-Protocol-Version",
            no_version,
            &echo,
            "Bad Request: the request headers and body disagree: the body envelope names protocol version 2026-07-28 but the required MCP-Protocol-Version header is absent",
            "mcp-protocol-version header does not match the request envelope's protocol version",
        ),
        (
            "Mcp-Method twice",
            &twice,
            &echo,
            "Bad Request: the request headers and body disagree: the mcp-method header appears more than once",
            "mcp-method header appears more than once",
        ),
        (
            "Mcp-Param-Region disagrees",
            &param_off,
            &routed,
            "Bad Request: the request headers and body disagree: the Mcp-Param-Region header decodes to \"us\" but the body carries region=\"eu\"",
            "Mcp-Param-Region header does not match the request body's 'region' argument",
        ),
        (
            "Mcp-Param-Region missing",
            &param_missing,
            &routed,
            "Bad Request: the request headers and body disagree: the body carries region=\"eu\" but the Mcp-Param-Region header is absent",
            "Mcp-Param-Region header is missing but the request body's 'region' argument is present",
        ),
    ];
    let ferrymcp = Harness::start().await;
    let python = Harness::in_dialect(Dialect::PythonSdk).await;
    for (case, headers, body, ours, official) in cases {
        let (status, error) = refusal(&ferrymcp, headers, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{case}");
        assert_eq!((error["code"].as_i64(), error["message"].as_str()), (Some(-32020), Some(ours)), "{case}");
        assert_eq!(
            error["data"]["mismatch"]["body"].as_str(),
            ours.strip_prefix("Bad Request: the request headers and body disagree: "),
            "{case}"
        );
        let (status, error) = refusal(&python, headers, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{case}");
        assert_eq!(error, json!({"code": -32020, "message": official}), "{case}");
    }
    let mut param_good = standard("routed").to_vec();
    param_good.extend([("mcp-param-region", "eu"), ("mcp-param-n", "42.0")]);
    for harness in [&ferrymcp, &python] {
        let reply = harness.post(&param_good, &routed).await;
        assert_eq!(reply.status, StatusCode::OK);
        assert!(reply.json(MODERN).await["result"]["content"][0]["text"].as_str().unwrap().contains("\"eu\""));
    }

    // The envelope rung comes before the headers (none are sent here): -32602, 400.
    let (status, error) = refusal(&ferrymcp, &[], &no_meta).await;
    assert_eq!((status, error["code"].as_i64()), (StatusCode::BAD_REQUEST, Some(-32602)));
    assert_eq!(error["message"], "Invalid params: _meta must carry \"io.modelcontextprotocol/clientCapabilities\"");
    let (status, error) = refusal(&python, &[], &no_meta).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        error,
        json!({"code": -32602, "message": "params._meta is missing the required envelope key(s): io.modelcontextprotocol/clientCapabilities"})
    );
    let mut future_meta = meta.clone();
    future_meta["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let future = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {"_meta": future_meta}});
    let (status, error) =
        refusal(&python, &[("mcp-protocol-version", "2099-01-01"), ("mcp-method", "tools/list")], &future).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        error,
        json!({"code": -32022, "message": "Unsupported protocol version", "data": {"supported": [MODERN], "requested": "2099-01-01"}})
    );

    // A dispatched request's -32602: 400 by the official Python table, 200 by the
    // TypeScript SDK's (a handler's error stays in-band).
    let (status, error) = refusal(&python, &standard("no-such-tool"), &invalid_params).await;
    assert_eq!((status, error["code"].as_i64()), (StatusCode::BAD_REQUEST, Some(-32602)));
    let (status, error) = refusal(&ferrymcp, &standard("no-such-tool"), &invalid_params).await;
    assert_eq!((status, error["code"].as_i64()), (StatusCode::OK, Some(-32602)));
}
