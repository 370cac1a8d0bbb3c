//! The modern era (2026-07-28): stateless requests, each carrying its own `_meta`.

use ferrymcp_tests::schema;
use serde_json::{Value, json};

use crate::*;

#[tokio::test]
async fn server_discover_describes_the_server() {
    let mut child = spawn(MODERN);
    let answer = ask(&mut child, "discover-1", "server/discover", modern(Value::Null, json!({}))).await;
    let result = answer.complete("DiscoverResult");
    assert_eq!(result["supportedVersions"], json!(["2026-07-28"]));
    assert_eq!(result["capabilities"]["tools"], json!({"listChanged": true}));
    assert_eq!(result["capabilities"]["prompts"], json!({"listChanged": true}));
    assert_eq!(result["capabilities"]["completions"], json!({}));
    // Each method has its own hint; the fixtures give server/discover none.
    assert_eq!((&result["ttlMs"], &result["cacheScope"]), (&json!(0), &json!("private")));
    // clientInfo is optional.
    let mut bare = modern(Value::Null, json!({}));
    bare["_meta"].as_object_mut().unwrap().remove("io.modelcontextprotocol/clientInfo");
    ask(&mut child, 2, "server/discover", bare).await.complete("DiscoverResult");
    finish(child).await;
}

#[tokio::test]
async fn missing_meta_keys_are_invalid_params() {
    let mut child = spawn(MODERN);
    // A valid request first: a stream whose era its first request decides (the Python
    // dialect's) is then a 2026-07-28 one.
    ask(&mut child, 100, "server/discover", modern(Value::Null, json!({}))).await.complete("DiscoverResult");
    let version_only = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}});
    let caps_only = json!({"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}});
    let caps_not_object = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": "all"}});
    let cases = [
        (101, "server/discover", json!({})),
        (102, "server/discover", caps_only.clone()),
        (103, "server/discover", Value::Null),
        (104, "server/discover", version_only.clone()),
        (105, "tools/list", version_only.clone()),
        (106, "tools/call", caps_only),
        (107, "server/discover", caps_not_object),
        (108, "subscriptions/listen", json!({"notifications": {"toolsListChanged": true}})),
    ];
    for (id, method, params) in cases {
        let answer = ask(&mut child, id, method, params.clone()).await;
        assert_eq!(answer.response["id"], id);
        let message = answer.error(-32602)["message"].as_str().unwrap();
        assert!(message.contains("_meta"), "{method} {params}: {message}");
    }
    finish(child).await;
}

#[tokio::test]
async fn an_unsupported_version_names_the_supported_ones() {
    let mut child = spawn(MODERN);
    for (id, method) in [(301, "server/discover"), (302, "tools/list"), (303, "tools/call")] {
        let mut params = modern(json!({"name": "test_simple_text"}), json!({}));
        params["_meta"]["io.modelcontextprotocol/protocolVersion"] = json!("v999.0.0");
        let answer = ask(&mut child, id, method, params).await;
        assert_eq!(answer.response["id"], id);
        assert_eq!(answer.error(-32022)["data"], json!({"supported": ["2026-07-28"], "requested": "v999.0.0"}));
    }
    finish(child).await;
}

#[tokio::test]
async fn removed_and_unknown_methods_are_not_found() {
    let mut child = spawn(MODERN);
    let params = [
        (
            "initialize",
            json!({"protocolVersion": MODERN, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}),
        ),
        ("ping", json!({})),
        ("logging/setLevel", json!({"level": "info"})),
        ("resources/subscribe", json!({"uri": "test://watched-resource"})),
        ("resources/unsubscribe", json!({"uri": "test://watched-resource"})),
        ("unknown/method", json!({})),
    ];
    ask(&mut child, 100, "server/discover", modern(Value::Null, json!({}))).await.complete("DiscoverResult");
    for (n, (method, params)) in params.into_iter().enumerate() {
        let answer = ask(&mut child, n as i64, method, modern(params, json!({}))).await;
        // The official Python SDK's stdio loop refuses `initialize` on a 2026-07-28 stream
        // with -32022 (core's `locks_stream_era`).
        answer.error(if python_dialect() && method == "initialize" { -32022 } else { -32601 });
    }
    // None of that opened a legacy session: a legacy request is still refused (in the
    // Python dialect by the envelope rung, as on any 2026-07-28 stream).
    ask(&mut child, "legacy", "tools/list", Value::Null).await.error(if python_dialect() { -32602 } else { -32600 });
    finish(child).await;
}

#[tokio::test]
async fn results_carry_result_type_server_info_and_cache_hints() {
    let mut child = spawn(MODERN);
    // Every fixture gives each list method a hint of its own.
    let lists = [
        ("tools/list", "ListToolsResult", "tools", TOOLS.len(), (300_000, "public")),
        ("prompts/list", "ListPromptsResult", "prompts", PROMPTS.len(), (60_000, "public")),
        ("resources/list", "ListResourcesResult", "resources", RESOURCES.len(), (120_000, "private")),
        ("resources/templates/list", "ListResourceTemplatesResult", "resourceTemplates", 1, (240_000, "public")),
    ];
    for (method, definition, key, count, (ttl, scope)) in lists {
        let answer = ask(&mut child, method, method, modern(Value::Null, json!({}))).await;
        let result = answer.complete(definition);
        assert_eq!((&result["ttlMs"], &result["cacheScope"]), (&json!(ttl), &json!(scope)), "{method}");
        assert_eq!(result[key].as_array().unwrap().len(), count, "{method}");
    }
    let list = ask(&mut child, 1, "tools/list", modern(Value::Null, json!({}))).await;
    let names: Vec<&str> = list.complete("ListToolsResult")["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, TOOLS);

    for (id, uri) in [
        (2, "test://static-text"),
        (3, "test://static-binary"),
        (4, "test://template/9/data"),
        (5, "test://stateless-static-text"),
    ] {
        let answer = ask(&mut child, id, "resources/read", modern(json!({"uri": uri}), json!({}))).await;
        let result = answer.complete("ReadResourceResult");
        assert_eq!((&result["ttlMs"], &result["cacheScope"]), (&json!(300000), &json!("private")), "{uri}");
        assert_eq!(result["contents"][0]["uri"], uri);
    }

    let call = ask(&mut child, 6, "tools/call", modern(json!({"name": "test_audio_content"}), json!({}))).await;
    let result = call.complete("CallToolResult");
    assert_eq!(result["content"], json!([{"type": "audio", "data": TEST_AUDIO_BASE64, "mimeType": "audio/wav"}]));
    assert!(result.get("ttlMs").is_none(), "a tool result is not cacheable: {result}");
    let call = ask(&mut child, 7, "tools/call", modern(json!({"name": "test_error_handling"}), json!({}))).await;
    assert_eq!(call.complete("CallToolResult")["isError"], true);

    let prompt =
        json!({"name": "test_prompt_with_arguments", "arguments": {"arg1": "testValue1", "arg2": "testValue2"}});
    let answer = ask(&mut child, 8, "prompts/get", modern(prompt, json!({}))).await;
    let text = answer.complete("GetPromptResult")["messages"][0]["content"]["text"].as_str().unwrap();
    assert!(text.contains("testValue1") && text.contains("testValue2"));

    let params = json!({"ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"}, "argument": {"name": "arg1", "value": "test"}});
    let answer = ask(&mut child, 9, "completion/complete", modern(params, json!({}))).await;
    assert_eq!(answer.complete("CompleteResult")["completion"], json!({"values": [], "total": 0, "hasMore": false}));

    ask(&mut child, 10, "tools/list", modern(json!({"cursor": "garbage"}), json!({}))).await.error(-32602);
    let unknown = ask(&mut child, 11, "tools/call", modern(json!({"name": "no_such_tool"}), json!({}))).await;
    if python_dialect() {
        // The official Python SDK's answer (see `python_dialect`).
        let result = unknown.complete("CallToolResult");
        assert_eq!((&result["isError"], crate::text(result)), (&json!(true), "Unknown tool: no_such_tool"), "{result}");
    } else {
        unknown.error(-32602);
    }
    finish(child).await;
}

#[tokio::test]
async fn a_missing_resource_is_invalid_params_with_its_uri() {
    let mut child = spawn(MODERN);
    let uri = "test://nonexistent-resource-for-conformance-testing";
    let answer = ask(&mut child, 1, "resources/read", modern(json!({"uri": uri}), json!({}))).await;
    assert_eq!(answer.error(-32602)["data"], json!({"uri": uri}));
    finish(child).await;
}

#[tokio::test]
async fn a_missing_client_capability_is_refused_with_32021() {
    let mut child = spawn(MODERN);
    let call = modern(json!({"name": "test_missing_capability", "arguments": {}}), json!({}));
    let answer = ask(&mut child, 401, "tools/call", call).await;
    assert_eq!(answer.response["id"], 401);
    assert_eq!(answer.error(-32021)["data"], json!({"requiredCapabilities": {"sampling": {}}}));

    let call = modern(json!({"name": "test_missing_capability", "arguments": {}}), json!({"sampling": {}}));
    let answer = ask(&mut child, 402, "tools/call", call).await;
    assert_eq!(text(answer.complete("CallToolResult")), "Success");

    // MRTR never asks for what the client did not declare.
    let call = modern(json!({"name": "test_input_required_result_elicitation"}), json!({"sampling": {}}));
    let answer = ask(&mut child, 403, "tools/call", call).await;
    assert_eq!(answer.error(-32021)["data"], json!({"requiredCapabilities": {"elicitation": {}}}));
    finish(child).await;
}

/// `params` with `_meta` carrying a log level (and optionally a progress token).
fn with_meta(params: Value, extra: Value) -> Value {
    let mut params = modern(params, json!({}));
    params["_meta"].as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    params
}

#[tokio::test]
async fn log_messages_only_under_the_request_log_level() {
    let mut child = spawn(MODERN);
    let plain = ask(&mut child, 1, "tools/call", modern(json!({"name": "test_logging_tool"}), json!({}))).await;
    assert_eq!(text(plain.complete("CallToolResult")), "Logging evaluated");

    let level = json!({"io.modelcontextprotocol/logLevel": "info"});
    let logged =
        exchange(&mut child, request(2, "tools/call", with_meta(json!({"name": "test_logging_tool"}), level))).await;
    assert_eq!(logged.before.len(), 1, "{:?}", logged.before);
    schema::assert_valid(MODERN, "LoggingMessageNotification", &logged.before[0]);
    assert_eq!(logged.before[0]["params"]["data"], "Diagnostic trace logging activated");
    logged.complete("CallToolResult");

    let high = json!({"io.modelcontextprotocol/logLevel": "error"});
    let quiet = ask(&mut child, 3, "tools/call", with_meta(json!({"name": "test_tool_with_logging"}), high)).await;
    quiet.complete("CallToolResult");

    let debug = json!({"io.modelcontextprotocol/logLevel": "debug"});
    let three =
        exchange(&mut child, request(4, "tools/call", with_meta(json!({"name": "test_tool_with_logging"}), debug)))
            .await;
    assert_eq!(three.sent("notifications/message").len(), 3, "{:?}", three.before);
    assert_eq!(three.before.len(), 3);
    three.complete("CallToolResult");

    // The level of one request does not leak into the next.
    let after = ask(&mut child, 5, "tools/call", modern(json!({"name": "test_tool_with_logging"}), json!({}))).await;
    after.complete("CallToolResult");

    let bad = json!({"io.modelcontextprotocol/logLevel": "loud"});
    ask(&mut child, 6, "tools/call", with_meta(json!({"name": "test_logging_tool"}), bad)).await.error(-32602);
    finish(child).await;
}

#[tokio::test]
async fn progress_only_under_a_token() {
    let mut child = spawn(MODERN);
    let token = json!({"progressToken": "progress-test-1"});
    let call = with_meta(json!({"name": "test_tool_with_progress", "arguments": {}}), token);
    let answer = exchange(&mut child, request(1, "tools/call", call)).await;
    let values: Vec<f64> = answer
        .before
        .iter()
        .map(|p| {
            schema::assert_valid(MODERN, "ProgressNotification", p);
            assert_eq!(p["params"]["progressToken"], "progress-test-1");
            p["params"]["progress"].as_f64().unwrap()
        })
        .collect();
    assert_eq!(values, [0.0, 50.0, 100.0]);
    assert_eq!(text(answer.complete("CallToolResult")), "progress-test-1");

    let none = ask(&mut child, 2, "tools/call", modern(json!({"name": "test_tool_with_progress"}), json!({}))).await;
    none.complete("CallToolResult");
    let streaming = json!({"name": "test_streaming_elicitation"});
    ask(&mut child, 3, "tools/call", modern(streaming.clone(), json!({"elicitation": {}})))
        .await
        .complete("CallToolResult");
    let answer =
        exchange(&mut child, request(4, "tools/call", with_meta(streaming, json!({"progressToken": 9})))).await;
    assert_eq!(answer.sent("notifications/progress").len(), 1);
    assert_eq!(answer.before.len(), 1);
    assert_eq!(text(answer.complete("CallToolResult")), "Streaming complete");
    finish(child).await;
}

/// A modern-only server over stdio (core's `reject_legacy`, the official `serveStdio`'s
/// `legacy: 'reject'`): `initialize` and any request without the envelope are answered with
/// -32022 naming the supported revisions (and the one `initialize` asked for), a
/// notification without it is dropped, and the connection goes on serving 2026-07-28
/// requests. The Rust fixture's `--reject-legacy`; the Node binding's `serveStdio` option
/// has its own test there.
#[tokio::test]
async fn a_modern_only_server_refuses_2025_requests_and_keeps_serving() {
    let mut child = crate::spawn_command(&[crate::EVERYTHING.to_owned(), "--reject-legacy".to_owned()], MODERN);
    let params =
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
    let refused = ask(&mut child, 1, "initialize", params).await;
    let error = refused.error(-32022);
    assert_eq!(error["message"], "Unsupported protocol version: 2025-11-25");
    assert_eq!(error["data"], json!({"supported": [MODERN], "requested": "2025-11-25"}));
    child.send(&crate::notification("notifications/initialized", Value::Null)).await;
    // Not checked against the schema, which requires `requested`: the official SDK leaves
    // it out rather than make one up when the request named no version, and so does core.
    let refused = ask(&mut child, 2, "tools/list", Value::Null).await;
    let error = &refused.response["error"];
    assert_eq!(error["code"], -32022);
    assert_eq!(error["data"], json!({"supported": [MODERN]}), "nothing requested is made up");
    let listed = ask(&mut child, 3, "tools/list", modern(json!({}), json!({}))).await;
    assert!(!listed.complete("ListToolsResult")["tools"].as_array().unwrap().is_empty());
    finish(child).await;
}
