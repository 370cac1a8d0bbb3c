//! The legacy era (2024-11-05 to 2025-11-25): an `initialize` session over stdio.

use ferrymcp_tests::schema;
use serde_json::{Value, json};

use crate::*;

const V: &str = "2025-11-25";

#[tokio::test]
async fn initialize_echoes_every_legacy_version() {
    for version in LEGACY {
        let mut child = spawn(version);
        let result = initialize(&mut child, version, json!({})).await;
        assert_eq!(result["protocolVersion"], version);
        assert_eq!(result["serverInfo"], json!({"name": "mcp-conformance-test-server", "version": "1.0.0"}));
        let caps = &result["capabilities"];
        // The official Python server declares no list changes to a legacy client (core's
        // `Dialect::PythonSdk`), though it sends them when the application does; every
        // fixture serves subscriptions (the Python one with handlers, as the official
        // everything server registers them).
        let changes = !python_dialect();
        assert_eq!(caps["tools"], json!({"listChanged": changes}));
        assert_eq!(caps["resources"], json!({"subscribe": true, "listChanged": changes}));
        assert_eq!(caps["prompts"], json!({"listChanged": changes}));
        assert_eq!(caps["logging"], json!({}));
        assert_eq!(caps["completions"], json!({}));
        // The session serves features at that revision, with no 2026 stamping.
        let list = ask(&mut child, 1, "tools/list", Value::Null).await;
        let list = list.result("ListToolsResult");
        assert!(list.get("ttlMs").is_none() && list.get("_meta").is_none(), "{list}");
        let call = ask(&mut child, 2, "tools/call", json!({"name": "test_simple_text"})).await;
        assert_eq!(text(call.result("CallToolResult")), "This is a simple text response for testing.");
        finish(child).await;
    }
}

#[tokio::test]
async fn an_unknown_version_is_answered_with_the_newest() {
    for requested in ["1999-01-01", "2026-07-28", "v999.0.0"] {
        let mut child = spawn(V);
        let result = initialize(&mut child, requested, json!({})).await;
        assert_eq!(result["protocolVersion"], "2025-11-25", "for {requested}");
        assert_eq!(ask(&mut child, 1, "ping", Value::Null).await.result("EmptyResult"), &json!({}));
    }
}

#[tokio::test]
async fn duplicate_initialize_is_refused_and_the_session_carries_on() {
    let mut child = legacy_session("2025-06-18", json!({})).await;
    let params =
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}});
    let again = ask(&mut child, "again", "initialize", params).await;
    again.error(-32600);
    // Still the first session: 2025-06-18, where batches are refused.
    let list = ask(&mut child, 1, "tools/list", Value::Null).await;
    assert_eq!(list.result("ListToolsResult")["tools"].as_array().unwrap().len(), TOOLS.len());
    finish(child).await;
}

#[tokio::test]
async fn only_ping_is_served_before_initialize() {
    let mut child = spawn(V);
    let ping = ask(&mut child, 1, "ping", Value::Null).await;
    assert_eq!(ping.result("EmptyResult"), &json!({}));
    for (id, method, params) in [
        (2, "tools/list", Value::Null),
        (3, "tools/call", json!({"name": "test_simple_text"})),
        (4, "resources/read", json!({"uri": "test://static-text"})),
        (5, "logging/setLevel", json!({"level": "info"})),
    ] {
        let refused = ask(&mut child, id, method, params).await;
        let message = refused.error(-32600)["message"].as_str().unwrap();
        assert!(message.contains("initialize"), "unclear: {message}");
    }
    let result = initialize(&mut child, V, json!({})).await;
    assert_eq!(result["protocolVersion"], V);
    let list = ask(&mut child, 6, "tools/list", Value::Null).await;
    list.result("ListToolsResult");
    finish(child).await;
}

#[tokio::test]
async fn ping_and_set_level_return_exactly_an_empty_object() {
    for version in LEGACY {
        let mut child = legacy_session(version, json!({})).await;
        assert_eq!(ask(&mut child, 1, "ping", Value::Null).await.result("EmptyResult"), &json!({}));
        let set = ask(&mut child, 2, "logging/setLevel", json!({"level": "info"})).await;
        assert_eq!(set.result("EmptyResult"), &json!({}));
        ask(&mut child, 3, "logging/setLevel", json!({"level": "loud"})).await.error(-32602);
        finish(child).await;
    }
}

#[tokio::test]
async fn tools_list_is_complete_and_in_a_stable_order() {
    let mut child = legacy_session(V, json!({})).await;
    let first = ask(&mut child, 1, "tools/list", Value::Null).await.result("ListToolsResult").clone();
    let names: Vec<&str> = first["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, TOOLS);
    assert!(first.get("nextCursor").is_none());
    for tool in first["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        assert!(name.len() <= 64 && name.chars().all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c)));
        assert!(tool["description"].as_str().is_some_and(|d| !d.is_empty()), "{tool}");
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
    }
    let sampling = first["tools"].as_array().unwrap().iter().find(|t| t["name"] == "test_sampling").unwrap();
    assert_eq!(sampling["inputSchema"]["required"], json!(["prompt"]));
    // The 2020-12 schema comes back verbatim.
    let raw = first["tools"].as_array().unwrap().iter().find(|t| t["name"] == "json_schema_2020_12_tool").unwrap();
    let schema = &raw["inputSchema"];
    assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert_eq!(schema["$defs"]["address"]["$anchor"], "addressDef");
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(schema["if"]["properties"]["contactMethod"]["const"], "phone");
    assert_eq!(schema["allOf"][0]["anyOf"][1], json!({"required": ["email"]}));
    let second = ask(&mut child, 2, "tools/list", json!({})).await.result("ListToolsResult").clone();
    assert_eq!(first, second);
    finish(child).await;
}

/// The expected result of each content tool (the research notes, section 1.2).
fn content_results() -> Vec<(&'static str, Value)> {
    let image = json!({"type": "image", "data": TEST_IMAGE_BASE64, "mimeType": "image/png"});
    vec![
        ("test_simple_text", json!([{"type": "text", "text": "This is a simple text response for testing."}])),
        ("test_image_content", json!([image])),
        ("test_audio_content", json!([{"type": "audio", "data": TEST_AUDIO_BASE64, "mimeType": "audio/wav"}])),
        (
            "test_embedded_resource",
            json!([{"type": "resource", "resource": {"uri": "test://embedded-resource", "mimeType": "text/plain",
                "text": "This is an embedded resource content."}}]),
        ),
        (
            "test_multiple_content_types",
            json!([
                {"type": "text", "text": "Multiple content types test:"},
                image,
                {"type": "resource", "resource": {"uri": "test://mixed-content-resource",
                    "mimeType": "application/json", "text": "{\"test\":\"data\",\"value\":123}"}},
            ]),
        ),
    ]
}

#[tokio::test]
async fn every_fixture_tool_answers_with_its_content() {
    let mut child = legacy_session(V, json!({})).await;
    for (n, (name, content)) in content_results().into_iter().enumerate() {
        // The suite calls these without "arguments".
        let call = ask(&mut child, n as i64, "tools/call", json!({"name": name})).await;
        let mut expected = json!({"content": content});
        if python_dialect() {
            expected["isError"] = json!(false);
        }
        assert_eq!(call.result("CallToolResult"), &expected, "{name}");
    }
    let error = ask(&mut child, "e", "tools/call", json!({"name": "test_error_handling", "arguments": {}})).await;
    let error = error.result("CallToolResult");
    assert_eq!(error["isError"], true);
    // The Python fixture words it as the official Python SDK 2.3 does: the tool's
    // `RuntimeError` is a crash, whose text stays on the server; the Rust and Node fixtures
    // give the message as it is.
    let said = text(error);
    if python_dialect() {
        assert_eq!(said, "Error executing tool test_error_handling");
    } else {
        assert!(said.ends_with("This tool intentionally returns an error for testing"), "{said}");
    }

    let expected = [
        ("test_reconnection", json!({}), "Reconnection test completed successfully."),
        (
            "json_schema_2020_12_tool",
            json!({"name": "Ann", "email": "a@b.c"}),
            "JSON Schema 2020-12 tool called with: {",
        ),
        ("test_streaming_elicitation", json!({}), "Streaming complete"),
    ];
    for (name, arguments, start) in expected {
        let call = ask(&mut child, name, "tools/call", json!({"name": name, "arguments": arguments})).await;
        let result = call.result("CallToolResult");
        assert_succeeded(result);
        assert!(text(result).starts_with(start), "{name}: {result}");
    }
    // A legacy session hears log messages until it sets a level.
    let call = request("log", "tools/call", json!({"name": "test_logging_tool", "arguments": {}}));
    let logged = exchange(&mut child, call).await;
    assert_eq!(logged.sent("notifications/message").len(), 1, "{:?}", logged.before);
    schema::assert_valid(V, "LoggingMessageNotification", &logged.before[0]);
    assert_eq!(text(logged.result("CallToolResult")), "Logging evaluated");
    finish(child).await;
}

#[tokio::test]
async fn resources_list_read_and_template() {
    let mut child = legacy_session(V, json!({})).await;
    let list = ask(&mut child, 1, "resources/list", Value::Null).await;
    let list = list.result("ListResourcesResult");
    let uris: Vec<&str> = list["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    assert_eq!(uris, RESOURCES);
    assert_eq!(list["resources"][0]["title"], "Static Text Resource");
    assert!(list["resources"].as_array().unwrap().iter().all(|r| r["name"].is_string() && r["mimeType"].is_string()));

    let read = ask(&mut child, 2, "resources/read", json!({"uri": "test://static-text"})).await;
    let expected = json!({"contents": [{"uri": "test://static-text", "mimeType": "text/plain",
        "text": "This is the content of the static text resource."}]});
    assert_eq!(read.result("ReadResourceResult"), &expected);
    let read = ask(&mut child, 3, "resources/read", json!({"uri": "test://static-binary"})).await;
    let expected =
        json!({"contents": [{"uri": "test://static-binary", "mimeType": "image/png", "blob": TEST_IMAGE_BASE64}]});
    assert_eq!(read.result("ReadResourceResult"), &expected);

    let templates = ask(&mut child, 4, "resources/templates/list", Value::Null).await;
    let expected = json!({"resourceTemplates": [{"uriTemplate": "test://template/{id}/data", "name": "template",
        "title": "Resource Template", "description": "A resource template with parameter substitution",
        "mimeType": "application/json"}]});
    assert_eq!(templates.result("ListResourceTemplatesResult"), &expected);
    let read = ask(&mut child, 5, "resources/read", json!({"uri": "test://template/123/data"})).await;
    let contents = &read.result("ReadResourceResult")["contents"][0];
    assert_eq!(contents["uri"], "test://template/123/data");
    assert_eq!(contents["mimeType"], "application/json");
    let data: Value = serde_json::from_str(contents["text"].as_str().unwrap()).unwrap();
    assert_eq!(data, json!({"id": "123", "templateTest": true, "data": "Data for ID: 123"}));

    for (id, uri) in [(6, "test://nonexistent-resource-for-conformance-testing"), (7, "test://template/123/other")] {
        let missing = ask(&mut child, id, "resources/read", json!({"uri": uri})).await;
        // The official Python SDK answers -32602 `Unknown resource: URI` in every era.
        if python_dialect() {
            assert_eq!(
                missing.error(-32602),
                &json!({"code": -32602, "message": format!("Unknown resource: {uri}"), "data": {"uri": uri}})
            );
        } else {
            assert_eq!(missing.error(-32002)["data"], json!({"uri": uri}));
        }
    }
    finish(child).await;
}

#[tokio::test]
async fn prompts_list_and_get() {
    let mut child = legacy_session(V, json!({})).await;
    let list = ask(&mut child, 1, "prompts/list", Value::Null).await;
    let list = list.result("ListPromptsResult");
    let names: Vec<&str> = list["prompts"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, PROMPTS);
    assert!(list["prompts"].as_array().unwrap().iter().all(|p| p["description"].is_string()));
    assert_eq!(
        list["prompts"][1]["arguments"][0],
        json!({"name": "arg1", "description": "First test argument", "required": true})
    );

    let simple = ask(&mut child, 2, "prompts/get", json!({"name": "test_simple_prompt"})).await;
    // The prompt's description comes with it (core adds the registered one).
    let expected = json!({"description": "A simple prompt without arguments",
        "messages": [{"role": "user", "content": {"type": "text", "text": "This is a simple prompt for testing."}}]});
    assert_eq!(simple.result("GetPromptResult"), &expected);

    let args = json!({"name": "test_prompt_with_arguments", "arguments": {"arg1": "testValue1", "arg2": "testValue2"}});
    let with_args = ask(&mut child, 3, "prompts/get", args).await;
    let text = with_args.result("GetPromptResult")["messages"][0]["content"]["text"].as_str().unwrap().to_owned();
    assert_eq!(text, "Prompt with arguments: arg1='testValue1', arg2='testValue2'");
    let missing = json!({"name": "test_prompt_with_arguments", "arguments": {"arg1": "testValue1"}});
    let missing = ask(&mut child, 4, "prompts/get", missing).await;
    // The official Python SDK's dialect answers a legacy session's failed prompt, an
    // argument missing or an unknown prompt included, with code 0 and the failure's text
    // (core's `Dialect::PythonSdk`).
    if python_dialect() {
        assert_eq!(missing.error(0)["message"], "Missing required arguments: {'arg2'}");
    } else {
        assert!(missing.error(-32602)["message"].as_str().unwrap().contains("arg2"));
    }

    let embedded =
        json!({"name": "test_prompt_with_embedded_resource", "arguments": {"resourceUri": "test://example-resource"}});
    let embedded = ask(&mut child, 5, "prompts/get", embedded).await;
    let messages = &embedded.result("GetPromptResult")["messages"];
    assert_eq!(messages[0]["content"]["type"], "resource");
    assert_eq!(messages[0]["content"]["resource"]["uri"], "test://example-resource");
    assert_eq!(messages[1]["content"]["text"], "Please process the embedded resource above.");

    let image = ask(&mut child, 6, "prompts/get", json!({"name": "test_prompt_with_image"})).await;
    let messages = &image.result("GetPromptResult")["messages"];
    assert_eq!(messages[0]["content"], json!({"type": "image", "data": TEST_IMAGE_BASE64, "mimeType": "image/png"}));

    let unknown = ask(&mut child, 7, "prompts/get", json!({"name": "no_such_prompt"})).await;
    unknown.error(if python_dialect() { 0 } else { -32602 });
    finish(child).await;
}

/// Every fixture's handler returns nothing for prompts (core fills `total` and `hasMore`)
/// and 150 ids for the template, which core cuts to its cap of 100: the same answer from
/// the Rust, Python and Node fixtures.
#[tokio::test]
async fn completion_answers_are_filled_in_and_held_to_the_cap() {
    let mut child = legacy_session(V, json!({})).await;
    let params = json!({"ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"}, "argument": {"name": "arg1", "value": "test"}});
    let answer = ask(&mut child, 1, "completion/complete", params).await;
    assert_eq!(answer.result("CompleteResult"), &json!({"completion": {"values": [], "total": 0, "hasMore": false}}));
    let params = json!({"ref": {"type": "ref/resource", "uri": "test://template/{id}/data"}, "argument": {"name": "id", "value": "1"}});
    let answer = ask(&mut child, 2, "completion/complete", params).await;
    let completion = &answer.result("CompleteResult")["completion"];
    let ids: Vec<String> = (0..100).map(|n| format!("1{n}")).collect();
    assert_eq!(completion, &json!({"values": ids, "total": 150, "hasMore": true}));
    ask(&mut child, 3, "completion/complete", json!({"argument": {"name": "a", "value": "b"}})).await.error(-32602);
    finish(child).await;
}

#[tokio::test]
async fn progress_is_sent_only_under_a_token_and_always_increases() {
    let mut child = legacy_session(V, json!({})).await;
    for token in [json!("progress-test-1"), json!(42)] {
        let call = json!({"name": "test_tool_with_progress", "arguments": {}, "_meta": {"progressToken": token}});
        let answer = exchange(&mut child, request("p", "tools/call", call)).await;
        assert_eq!(answer.before.len(), 3, "{:?}", answer.before);
        let mut last = f64::MIN;
        for progress in &answer.before {
            schema::assert_valid(V, "ProgressNotification", progress);
            assert_eq!(progress["params"]["progressToken"], token);
            assert_eq!(progress["params"]["total"], 100.0);
            let value = progress["params"]["progress"].as_f64().unwrap();
            assert!(value > last, "progress did not increase: {:?}", answer.before);
            last = value;
        }
        assert_eq!(last, 100.0);
        let expected = token.as_str().map_or_else(|| token.to_string(), str::to_owned);
        assert_eq!(text(answer.result("CallToolResult")), expected);
    }
    // No token, no progress: the answer is the very next message.
    let answer = ask(&mut child, "q", "tools/call", json!({"name": "test_tool_with_progress", "arguments": {}})).await;
    answer.result("CallToolResult");
    finish(child).await;
}

#[tokio::test]
async fn log_messages_follow_set_level() {
    let mut child = legacy_session(V, json!({})).await;
    let call = || request("log", "tools/call", json!({"name": "test_tool_with_logging", "arguments": {}}));
    ask(&mut child, 1, "logging/setLevel", json!({"level": "warning"})).await.result("EmptyResult");
    let quiet = exchange(&mut child, call()).await;
    assert!(quiet.before.is_empty(), "info messages above a warning threshold: {:?}", quiet.before);
    assert_eq!(text(quiet.result("CallToolResult")), "Tool with logging executed successfully");

    ask(&mut child, 2, "logging/setLevel", json!({"level": "debug"})).await.result("EmptyResult");
    let loud = exchange(&mut child, call()).await;
    let data: Vec<&Value> = loud.before.iter().map(|m| &m["params"]["data"]).collect();
    assert_eq!(
        data,
        [&json!("Tool execution started"), &json!("Tool processing data"), &json!("Tool execution completed")]
    );
    for message in &loud.before {
        schema::assert_valid(V, "LoggingMessageNotification", message);
        assert_eq!(message["params"]["level"], "info");
    }
    loud.result("CallToolResult");
    finish(child).await;
}

/// Reads the next message, which must be a server-to-client request for `method`.
async fn server_request(child: &mut ferrymcp_tests::raw::RawChild, method: &str, definition: &str) -> Value {
    let message = child.recv().await;
    assert_eq!(message["method"], method, "expected a {method} request: {message}");
    assert!(message["id"].is_string() || message["id"].is_i64(), "{message}");
    schema::assert_valid(child.revision, definition, &message);
    message
}

async fn answer(child: &mut ferrymcp_tests::raw::RawChild, to: &Value, result: Value) {
    child.send(&json!({"jsonrpc": "2.0", "id": to["id"], "result": result})).await;
}

fn sampled() -> Value {
    json!({"role": "assistant", "content": {"type": "text", "text": "This is a test response from the client"},
        "model": "test-model", "stopReason": "endTurn"})
}

#[tokio::test]
async fn sampling_and_elicitation_are_real_requests_to_the_client() {
    let mut child = legacy_session(V, all_caps()).await;

    child.send(&request(1, "tools/call", json!({"name": "test_sampling", "arguments": {"prompt": "Say hi"}}))).await;
    let asked = server_request(&mut child, "sampling/createMessage", "CreateMessageRequest").await;
    assert_eq!(
        asked["params"],
        json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Say hi"}}], "maxTokens": 100})
    );
    answer(&mut child, &asked, sampled()).await;
    let done = until_response(&mut child, &json!(1)).await;
    assert_eq!(text(done.result("CallToolResult")), "LLM response: This is a test response from the client");

    child.send(&request(2, "tools/call", json!({"name": "test_elicitation", "arguments": {"message": "Who?"}}))).await;
    let asked = server_request(&mut child, "elicitation/create", "ElicitRequest").await;
    assert_eq!(asked["params"]["message"], "Who?");
    assert_eq!(asked["params"]["requestedSchema"]["required"], json!(["response"]));
    answer(
        &mut child,
        &asked,
        json!({"action": "accept", "content": {"username": "testuser", "email": "test@example.com"}}),
    )
    .await;
    let done = until_response(&mut child, &json!(2)).await;
    let reply = text(done.result("CallToolResult"));
    assert!(reply.starts_with("User response: action=accept, content={"), "{reply}");
    assert!(reply.contains("testuser"), "{reply}");

    // A client error comes back as the tool's text, and the session carries on.
    child
        .send(&request(3, "tools/call", json!({"name": "test_elicitation", "arguments": {"message": "Again?"}})))
        .await;
    let asked = server_request(&mut child, "elicitation/create", "ElicitRequest").await;
    child.send(&json!({"jsonrpc": "2.0", "id": asked["id"], "error": {"code": -1, "message": "user went away"}})).await;
    let done = until_response(&mut child, &json!(3)).await;
    let reply = text(done.result("CallToolResult"));
    assert!(reply.starts_with("Elicitation not supported or error:") && reply.contains("user went away"), "{reply}");
    finish(child).await;
}

#[tokio::test]
async fn elicitation_schemas_of_sep_1034_and_sep_1330() {
    let mut child = legacy_session(V, all_caps()).await;

    child.send(&request(1, "tools/call", json!({"name": "test_elicitation_sep1034_defaults", "arguments": {}}))).await;
    let asked = server_request(&mut child, "elicitation/create", "ElicitRequest").await;
    let properties = &asked["params"]["requestedSchema"]["properties"];
    assert_eq!(properties["name"]["default"], "John Doe");
    assert_eq!((&properties["age"]["type"], &properties["age"]["default"]), (&json!("integer"), &json!(30)));
    assert_eq!((&properties["score"]["type"], &properties["score"]["default"]), (&json!("number"), &json!(95.5)));
    assert_eq!(properties["status"]["enum"], json!(["active", "inactive", "pending"]));
    assert_eq!(properties["status"]["default"], "active");
    assert_eq!(
        (&properties["verified"]["type"], &properties["verified"]["default"]),
        (&json!("boolean"), &json!(true))
    );
    answer(&mut child, &asked, json!({"action": "accept", "content": {"name": "Jane"}})).await;
    let done = until_response(&mut child, &json!(1)).await;
    assert_eq!(
        text(done.result("CallToolResult")),
        "Elicitation completed: action=accept, content={\"name\":\"Jane\"}"
    );

    child.send(&request(2, "tools/call", json!({"name": "test_elicitation_sep1330_enums", "arguments": {}}))).await;
    let asked = server_request(&mut child, "elicitation/create", "ElicitRequest").await;
    let p = &asked["params"]["requestedSchema"]["properties"];
    assert!(p["untitledSingle"]["enum"].is_array() && p["untitledSingle"].get("oneOf").is_none());
    assert!(p["titledSingle"]["oneOf"][2] == json!({"const": "value3", "title": "Third Option"}));
    assert!(p["titledSingle"].get("enum").is_none());
    assert_eq!(
        p["legacyEnum"]["enumNames"].as_array().unwrap().len(),
        p["legacyEnum"]["enum"].as_array().unwrap().len()
    );
    assert_eq!(p["untitledMulti"]["items"], json!({"type": "string", "enum": ["option1", "option2", "option3"]}));
    assert!(p["titledMulti"]["items"]["anyOf"].is_array() && p["titledMulti"]["items"].get("enum").is_none());
    answer(&mut child, &asked, json!({"action": "decline"})).await;
    let done = until_response(&mut child, &json!(2)).await;
    assert_eq!(text(done.result("CallToolResult")), "Elicitation completed: action=decline, content={}");
    finish(child).await;
}

#[tokio::test]
async fn mrtr_tools_and_prompt_use_real_requests_on_a_legacy_session() {
    let mut child = legacy_session(V, all_caps()).await;

    child.send(&request(1, "tools/call", json!({"name": "test_input_required_result_list_roots"}))).await;
    let asked = server_request(&mut child, "roots/list", "ListRootsRequest").await;
    answer(&mut child, &asked, json!({"roots": [{"uri": "file:///test/root", "name": "Test Root"}]})).await;
    assert_eq!(text(until_response(&mut child, &json!(1)).await.result("CallToolResult")), "Found 1 root(s)");

    // Three inputs asked at once: three requests in flight, answered in reverse order.
    child.send(&request(2, "tools/call", json!({"name": "test_input_required_result_multiple_inputs"}))).await;
    let mut asked = Vec::new();
    for _ in 0..3 {
        let message = child.recv().await;
        schema::assert_valid(V, "JSONRPCRequest", &message);
        asked.push(message);
    }
    let mut methods: Vec<&str> = asked.iter().map(|m| m["method"].as_str().unwrap()).collect();
    methods.sort_unstable();
    assert_eq!(methods, ["elicitation/create", "roots/list", "sampling/createMessage"]);
    for message in asked.iter().rev() {
        let result = match message["method"].as_str().unwrap() {
            "elicitation/create" => json!({"action": "accept", "content": {"name": "Alice"}}),
            "roots/list" => json!({"roots": [{"uri": "file:///a"}, {"uri": "file:///b"}]}),
            _ => json!({"role": "assistant", "content": {"type": "text", "text": "Howdy"}, "model": "m"}),
        };
        answer(&mut child, message, result).await;
    }
    let done = until_response(&mut child, &json!(2)).await;
    assert_eq!(text(done.result("CallToolResult")), "Name: Alice; Greeting: Howdy; Roots: 2");

    child.send(&request(3, "tools/call", json!({"name": "test_input_required_result_multi_round"}))).await;
    let first = server_request(&mut child, "elicitation/create", "ElicitRequest").await;
    assert_eq!(first["params"]["message"], "Step 1: What is your name?");
    answer(&mut child, &first, json!({"action": "accept", "content": {"name": "Bo"}})).await;
    let second = server_request(&mut child, "elicitation/create", "ElicitRequest").await;
    assert_eq!(second["params"]["message"], "Step 2: What is your favorite color?");
    answer(&mut child, &second, json!({"action": "accept", "content": {"color": "teal"}})).await;
    let done = until_response(&mut child, &json!(3)).await;
    assert_eq!(text(done.result("CallToolResult")), "Multi-round complete for Bo who likes teal");

    child.send(&request(4, "prompts/get", json!({"name": "test_input_required_result_prompt"}))).await;
    let asked = server_request(&mut child, "elicitation/create", "ElicitRequest").await;
    answer(&mut child, &asked, json!({"action": "accept", "content": {"context": "tests"}})).await;
    let done = until_response(&mut child, &json!(4)).await;
    assert_eq!(done.result("GetPromptResult")["messages"][0]["content"]["text"], "Prompt with context: tests");
    finish(child).await;
}

#[tokio::test]
async fn without_the_capability_nothing_is_asked() {
    let mut child = legacy_session(V, json!({})).await;
    let call = json!({"name": "test_sampling", "arguments": {"prompt": "hi"}});
    let reply = if python_dialect() {
        // The official Python server's session request goes out whatever the client
        // declared, and the client answers what it cannot do (its default callback).
        child.send(&request(1, "tools/call", call)).await;
        let asked = server_request(&mut child, "sampling/createMessage", "CreateMessageRequest").await;
        let refusal = json!({"code": -32600, "message": "Sampling not supported"});
        child.send(&json!({"jsonrpc": "2.0", "id": asked["id"], "error": refusal})).await;
        let done = until_response(&mut child, &json!(1)).await;
        text(done.result("CallToolResult")).to_owned()
    } else {
        text(ask(&mut child, 1, "tools/call", call).await.result("CallToolResult")).to_owned()
    };
    assert!(reply.starts_with("Sampling not supported or error:") && reply.contains("ampling"), "{reply}");
    let missing = ask(&mut child, 2, "tools/call", json!({"name": "test_missing_capability"})).await;
    assert_eq!(missing.result("CallToolResult")["isError"], true);
    let caps = ask(&mut child, 3, "tools/call", json!({"name": "test_input_required_result_capabilities"})).await;
    assert_eq!(text(caps.result("CallToolResult")), "No supported capabilities declared");
    finish(child).await;
}

#[tokio::test]
async fn list_changed_reaches_the_legacy_session() {
    let mut child = legacy_session(V, json!({})).await;
    for (id, tool, method) in [
        (1, "test_trigger_tool_change", "notifications/tools/list_changed"),
        (2, "test_trigger_prompt_change", "notifications/prompts/list_changed"),
    ] {
        let answer = exchange(&mut child, request(id, "tools/call", json!({"name": tool}))).await;
        assert_eq!(answer.before.len(), 1, "{:?}", answer.before);
        assert_eq!(answer.before[0]["method"], method);
        let definition = if id == 1 { "ToolListChangedNotification" } else { "PromptListChangedNotification" };
        schema::assert_valid(V, definition, &answer.before[0]);
        assert!(answer.before[0]["params"].get("_meta").is_none(), "a legacy notification is tagged");
        assert_eq!(text(answer.result("CallToolResult")), "Mutation triggered");
    }
    finish(child).await;
}

#[tokio::test]
async fn subscribe_then_unsubscribe() {
    let mut child = legacy_session(V, json!({})).await;
    let uri = json!({"uri": "test://watched-resource"});
    assert_eq!(ask(&mut child, 1, "resources/subscribe", uri.clone()).await.result("EmptyResult"), &json!({}));
    assert_eq!(ask(&mut child, 2, "resources/unsubscribe", uri).await.result("EmptyResult"), &json!({}));
    ask(&mut child, 3, "resources/subscribe", json!({})).await.error(-32602);
    ask(&mut child, 4, "resources/unsubscribe", json!({"uri": 7})).await.error(-32602);
    finish(child).await;
}

#[tokio::test]
async fn bad_requests_get_the_named_error_and_the_session_carries_on() {
    let mut child = legacy_session(V, json!({})).await;
    let cases = [
        ("tools/call", json!({"name": 5}), -32602),
        ("tools/call", json!({}), -32602),
        ("tools/call", json!({"name": "test_simple_text", "arguments": "x"}), -32602),
        ("tools/call", json!({"name": "test_simple_text", "arguments": [1]}), -32602),
        ("resources/read", json!({"uri": 5}), -32602),
        ("prompts/get", json!({"name": "test_simple_prompt", "arguments": []}), -32602),
        ("tools/list", json!({"cursor": "garbage"}), -32602),
        ("tools/list", json!({"cursor": 5}), -32602),
        ("prompts/list", json!({"cursor": "bm9wZQ"}), -32602),
        ("resources/list", json!({"cursor": "b2Zmc2V0Ojk5"}), -32602),
        ("no/such/method", json!({}), -32601),
    ];
    for (n, (method, params, code)) in cases.into_iter().enumerate() {
        ask(&mut child, n as i64, method, params.clone()).await.error(code);
        let ping = ask(&mut child, format!("ping-{n}"), "ping", Value::Null).await;
        assert_eq!(ping.result("EmptyResult"), &json!({}), "after {method} {params}");
    }
    // An unknown tool: -32602, or in the Python dialect the official Python SDK's isError
    // result naming it.
    let unknown = ask(&mut child, "unknown", "tools/call", json!({"name": "no_such_tool"})).await;
    if python_dialect() {
        let result = unknown.result("CallToolResult");
        assert_eq!(result["isError"], true, "{result}");
        assert_eq!(text(result), "Unknown tool: no_such_tool", "{result}");
    } else {
        unknown.error(-32602);
    }
    // Arguments that break the input schema are the model's to see: isError results.
    for arguments in [json!({"prompt": 5}), json!({})] {
        let call =
            ask(&mut child, "bad-args", "tools/call", json!({"name": "test_sampling", "arguments": arguments})).await;
        let result = call.result("CallToolResult");
        assert_eq!(result["isError"], true, "{result}");
        assert!(text(result).contains("test_sampling"), "{result}");
    }
    for arguments in
        [json!({"contactMethod": "phone", "email": "a@b.c"}), json!({"name": "x", "phone": "1", "extra": 1})]
    {
        let call = json!({"name": "json_schema_2020_12_tool", "arguments": arguments});
        let result = ask(&mut child, "schema", "tools/call", call).await;
        assert_eq!(result.result("CallToolResult")["isError"], true, "{arguments}");
    }
    let call = json!({"name": "json_schema_2020_12_tool", "arguments": {"contactMethod": "phone", "phone": "1"}});
    let ok = ask(&mut child, "schema-ok", "tools/call", call).await;
    assert_succeeded(ok.result("CallToolResult"));
    finish(child).await;
}

#[tokio::test]
async fn batches_are_served_only_on_2025_03_26() {
    let batch = json!([
        {"jsonrpc": "2.0", "id": "a", "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "none", "progress": 1}},
        {"jsonrpc": "2.0", "id": "b", "method": "tools/call", "params": {"name": "test_simple_text"}},
        {"jsonrpc": "2.0", "id": "c", "method": "no/such/method"},
    ]);
    let mut child = legacy_session("2025-03-26", json!({})).await;
    child.send(&batch).await;
    let answers = child.recv().await;
    schema::assert_valid("2025-03-26", "JSONRPCBatchResponse", &answers);
    let answers = answers.as_array().expect("one array answers the batch");
    assert_eq!(answers.len(), 3, "{answers:?}");
    let by_id = |id: &str| answers.iter().find(|a| a["id"] == id).unwrap_or_else(|| panic!("no answer for {id}"));
    assert_eq!(by_id("a")["result"], json!({}));
    assert_eq!(text(&by_id("b")["result"]), "This is a simple text response for testing.");
    assert_eq!(by_id("c")["error"]["code"], -32601);
    ask(&mut child, 1, "ping", Value::Null).await.result("EmptyResult");
    finish(child).await;

    for version in ["2024-11-05", "2025-06-18", "2025-11-25"] {
        let mut child = legacy_session(version, json!({})).await;
        child.send(&batch).await;
        // The refusal cannot name one id, so it has none; only 2025-11-25 and later let an
        // error omit its id (the older schemas require one), so it is checked against that.
        child.revision = "2025-11-25";
        let refused = child.recv().await;
        child.revision = version;
        assert_eq!(refused["error"]["code"], -32600, "{version}: {refused}");
        assert!(refused.get("result").is_none() && refused.get("id").is_none(), "{refused}");
        // Nothing of the batch ran: the next answer is to the next request.
        ask(&mut child, 1, "ping", Value::Null).await.result("EmptyResult");
        finish(child).await;
    }
}

/// Small answers may go out at once on the handler's thread while large ones queue for the
/// writer: every answer must still arrive whole, once, with its own content (a small
/// answer written into the middle of a large one would break both lines). Sent in rounds
/// small enough that neither side's pipe fills while the other is not reading.
#[tokio::test]
async fn large_and_small_answers_interleaved_arrive_whole() {
    let mut child = legacy_session(V, json!({})).await;
    let big = "x".repeat(24 * 1024);
    for round in 0..20 {
        let mut batch = String::new();
        for n in round * 6..round * 6 + 6 {
            let name = if n % 3 == 0 { big.as_str() } else { "Ann" };
            let call = json!({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                "params": {"name": "greet", "arguments": {"name": name}}});
            batch.push_str(&format!("{call}\n"));
            let ping = json!({"jsonrpc": "2.0", "id": format!("ping-{n}"), "method": "ping"});
            batch.push_str(&format!("{ping}\n"));
        }
        child.send_raw(batch.as_bytes()).await;
        let mut seen = std::collections::HashSet::new();
        while seen.len() < 12 {
            let answer = child.recv().await;
            let id = answer["id"].clone();
            assert!(seen.insert(id.to_string()), "answered twice: {id}");
            if let Some(n) = id.as_i64() {
                let expected = if n % 3 == 0 { format!("Hello, {big}!") } else { "Hello, Ann!".to_owned() };
                assert!(text(&answer["result"]) == expected, "answer {n} differs");
            } else {
                assert_eq!(answer["result"], json!({}), "{answer}");
            }
        }
    }
    finish(child).await;
}

/// A successful tool result: no `isError`, or in the Python dialect `isError: false` (the
/// official Python server states it on every successful call).
fn assert_succeeded(result: &Value) {
    let expected = crate::python_dialect().then_some(&Value::Bool(false));
    assert_eq!(result.get("isError"), expected, "{result}");
}
