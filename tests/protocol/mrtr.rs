//! Multi-round-trip requests (SEP-2322): `input_required`, retries with `inputResponses`
//! and the sealed `requestState`, on `tools/call` and `prompts/get`.

use ferrymcp_tests::raw::RawChild;
use serde_json::{Value, json};

use crate::*;

fn call(tool: &str) -> Value {
    modern(json!({"name": tool, "arguments": {}}), all_caps())
}

/// `params` of a retry: the same request with these answers and state.
fn retry(mut params: Value, responses: Value, state: Option<&Value>) -> Value {
    params["inputResponses"] = responses;
    if let Some(state) = state {
        params["requestState"] = state.clone();
    }
    params
}

/// Round one: an `input_required` result; returns it.
async fn round(child: &mut RawChild, id: impl Into<Value>, method: &str, params: Value) -> Value {
    ask(child, id, method, params).await.input_required().clone()
}

fn elicit_string(message: &str, field: &str) -> Value {
    json!({"method": "elicitation/create", "params": {"message": message,
        "requestedSchema": {"type": "object", "properties": {field: {"type": "string"}}, "required": [field]}}})
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

fn sampled(text: &str) -> Value {
    json!({"role": "assistant", "content": {"type": "text", "text": text}, "model": "test-model", "stopReason": "endTurn"})
}

#[tokio::test]
async fn elicitation_sampling_and_roots_each_take_one_round() {
    let mut child = spawn(MODERN);
    let cases = [
        (
            "test_input_required_result_elicitation",
            json!({"user_name": elicit_string("What is your name?", "name")}),
            json!({"user_name": accept(json!({"name": "Alice"}))}),
            "Hello, Alice!",
        ),
        (
            "test_input_required_result_sampling",
            json!({"sample_request": {"method": "sampling/createMessage", "params": {"messages": [{"role": "user",
                "content": {"type": "text", "text": "What is the capital of France?"}}], "maxTokens": 100}}}),
            json!({"sample_request": sampled("The capital of France is Paris.")}),
            "Sampling result: The capital of France is Paris.",
        ),
        (
            "test_input_required_result_list_roots",
            json!({"roots_request": {"method": "roots/list", "params": {}}}),
            json!({"roots_request": {"roots": [{"uri": "file:///test/root", "name": "Test Root"}]}}),
            "Found 1 root(s)",
        ),
    ];
    for (n, (tool, requests, responses, expected)) in cases.into_iter().enumerate() {
        let first = round(&mut child, format!("r1-{n}"), "tools/call", call(tool)).await;
        assert_eq!(first["inputRequests"], requests, "{tool}");
        let state = &first["requestState"];
        assert!(state.is_string(), "{first}");
        // The retry has a new id, the answers and the state echoed unchanged.
        let done =
            ask(&mut child, format!("r2-{n}"), "tools/call", retry(call(tool), responses.clone(), Some(state))).await;
        assert_eq!(text(done.complete("CallToolResult")), expected, "{tool}");
        // A client may retry without the state: the answers alone complete it.
        let done = ask(&mut child, format!("r3-{n}"), "tools/call", retry(call(tool), responses, None)).await;
        assert_eq!(text(done.complete("CallToolResult")), expected, "{tool}");
    }
    finish(child).await;
}

#[tokio::test]
async fn request_state_is_carried_and_checked() {
    let mut child = spawn(MODERN);
    let tool = "test_input_required_result_request_state";
    let first = round(&mut child, 1, "tools/call", call(tool)).await;
    let confirm = json!({"method": "elicitation/create", "params": {"message": "Please confirm",
        "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}}});
    assert_eq!(first["inputRequests"], json!({"confirm": confirm}));
    let state = first["requestState"].clone();
    let ok = ask(
        &mut child,
        2,
        "tools/call",
        retry(call(tool), json!({"confirm": accept(json!({"ok": true}))}), Some(&state)),
    )
    .await;
    assert_eq!(text(ok.complete("CallToolResult")), "state-ok: requestState validated");
    let no = ask(
        &mut child,
        3,
        "tools/call",
        retry(call(tool), json!({"confirm": accept(json!({"ok": false}))}), Some(&state)),
    )
    .await;
    assert_eq!(no.complete("CallToolResult")["isError"], true);
    finish(child).await;
}

#[tokio::test]
async fn several_inputs_are_asked_in_one_round() {
    let mut child = spawn(MODERN);
    let tool = "test_input_required_result_multiple_inputs";
    let first = round(&mut child, 1, "tools/call", call(tool)).await;
    let requests = first["inputRequests"].as_object().unwrap();
    let mut keys: Vec<&str> = requests.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["client_roots", "greeting", "user_name"]);
    assert_eq!(requests["user_name"], elicit_string("What is your name?", "name"));
    assert_eq!(requests["greeting"]["method"], "sampling/createMessage");
    assert_eq!(requests["greeting"]["params"]["maxTokens"], 50);
    assert_eq!(requests["client_roots"], json!({"method": "roots/list", "params": {}}));
    let responses = json!({
        "user_name": accept(json!({"name": "Alice"})),
        "greeting": sampled("Hi there"),
        "client_roots": {"roots": [{"uri": "file:///a"}, {"uri": "file:///b"}, {"uri": "file:///c"}]},
    });
    let state = first["requestState"].clone();
    // Only some of the answers: the rest is asked again.
    let partial = json!({"user_name": responses["user_name"].clone()});
    let again = round(&mut child, 2, "tools/call", retry(call(tool), partial, Some(&state))).await;
    let mut keys: Vec<&str> = again["inputRequests"].as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["client_roots", "greeting"]);
    let done = ask(&mut child, 3, "tools/call", retry(call(tool), responses, Some(&state))).await;
    assert_eq!(text(done.complete("CallToolResult")), "Name: Alice; Greeting: Hi there; Roots: 3");
    finish(child).await;
}

#[tokio::test]
async fn multi_round_gives_a_new_state_each_round() {
    let mut child = spawn(MODERN);
    let tool = "test_input_required_result_multi_round";
    let first = round(&mut child, 1, "tools/call", call(tool)).await;
    assert_eq!(first["inputRequests"], json!({"step1": elicit_string("Step 1: What is your name?", "name")}));
    let state1 = first["requestState"].clone();
    let second = round(
        &mut child,
        2,
        "tools/call",
        retry(call(tool), json!({"step1": accept(json!({"name": "Alice"}))}), Some(&state1)),
    )
    .await;
    assert_eq!(
        second["inputRequests"],
        json!({"step2": elicit_string("Step 2: What is your favorite color?", "color")})
    );
    let state2 = second["requestState"].clone();
    assert!(state2.is_string());
    assert_ne!(state1, state2, "round two must carry a new requestState");
    // Round three answers only step2: step1 comes back from the sealed state.
    let done = ask(
        &mut child,
        3,
        "tools/call",
        retry(call(tool), json!({"step2": accept(json!({"color": "blue"}))}), Some(&state2)),
    )
    .await;
    assert_eq!(text(done.complete("CallToolResult")), "Multi-round complete for Alice who likes blue");
    finish(child).await;
}

#[tokio::test]
async fn a_tampered_or_foreign_state_is_a_json_rpc_error() {
    let mut child = spawn(MODERN);
    let tool = "test_input_required_result_tampered_state";
    let first = round(&mut child, 1, "tools/call", call(tool)).await;
    let state = first["requestState"].as_str().unwrap().to_owned();
    let confirm = json!({"confirm": accept(json!({"ok": true}))});

    let mut flipped = state.clone().into_bytes();
    flipped[3] = if flipped[3] == b'A' { b'B' } else { b'A' };
    let (body, tag) = state.split_once('.').unwrap_or((&state, ""));
    let tampered = [
        format!("{state}-TAMPERED"),
        String::from_utf8(flipped).unwrap(),
        format!("{tag}.{body}"),
        String::new(),
        "{\"kind\":\"tamper-test\"}".to_owned(),
    ];
    for (n, bad) in tampered.iter().enumerate() {
        let answer =
            ask(&mut child, 10 + n as i64, "tools/call", retry(call(tool), confirm.clone(), Some(&json!(bad)))).await;
        assert!(answer.response.get("result").is_none(), "tampered state {bad:?} was accepted: {}", answer.response);
        answer.error(-32602);
    }
    // A genuine state sealed for another tool is refused too.
    let other = round(&mut child, 20, "tools/call", call("test_input_required_result_request_state")).await;
    let foreign =
        ask(&mut child, 21, "tools/call", retry(call(tool), confirm.clone(), Some(&other["requestState"]))).await;
    foreign.error(-32602);
    // And the genuine one still works.
    let done = ask(&mut child, 22, "tools/call", retry(call(tool), confirm, Some(&json!(state)))).await;
    assert_eq!(text(done.complete("CallToolResult")), "integrity-ok: state verified");
    finish(child).await;
}

#[tokio::test]
async fn malformed_or_missing_input_responses_never_complete() {
    let mut child = spawn(MODERN);
    let tool = "test_input_required_result_elicitation";
    for (n, responses) in [json!({"user_name": 12345}), json!({"user_name": {"content": {}}}), Value::Null, json!([1])]
        .into_iter()
        .enumerate()
    {
        let answer = ask(&mut child, n as i64, "tools/call", retry(call(tool), responses.clone(), None)).await;
        assert!(answer.response.get("result").is_none(), "{responses} completed: {}", answer.response);
        answer.error(-32602);
    }
    let bad_state = ask(&mut child, 9, "tools/call", retry(call(tool), json!({}), Some(&json!(5)))).await;
    bad_state.error(-32602);
    // An answer under the wrong key: asked again. Extra keys beside the right one: ignored.
    let wrong = round(
        &mut child,
        10,
        "tools/call",
        retry(call(tool), json!({"wrong_key": accept(json!({"name": "X"}))}), None),
    )
    .await;
    assert_eq!(wrong["inputRequests"], json!({"user_name": elicit_string("What is your name?", "name")}));
    let extra = json!({"user_name": accept(json!({"name": "Alice"})), "unknown_key": {"x": 1}});
    let done = ask(&mut child, 11, "tools/call", retry(call(tool), extra, None)).await;
    assert_eq!(text(done.complete("CallToolResult")), "Hello, Alice!");
    finish(child).await;
}

#[tokio::test]
async fn input_requests_follow_the_declared_capabilities() {
    let mut child = spawn(MODERN);
    let tool = "test_input_required_result_capabilities";
    let with = |caps: Value| modern(json!({"name": tool}), caps);
    let sampling_only = round(&mut child, 1, "tools/call", with(json!({"sampling": {}}))).await;
    let requests = sampling_only["inputRequests"].as_object().unwrap();
    assert_eq!(requests.keys().collect::<Vec<_>>(), ["sample_input"]);
    assert!(requests.values().all(|r| r["method"] != "elicitation/create"));

    let both = round(&mut child, 2, "tools/call", with(all_caps())).await;
    let mut keys: Vec<&str> = both["inputRequests"].as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["elicit_input", "sample_input"]);

    let none = ask(&mut child, 3, "tools/call", with(json!({}))).await;
    assert_eq!(text(none.complete("CallToolResult")), "No supported capabilities declared");

    let state = sampling_only["requestState"].clone();
    let answered = retry(with(json!({"sampling": {}})), json!({"sample_input": sampled("ok")}), Some(&state));
    let done = ask(&mut child, 4, "tools/call", answered).await;
    assert_eq!(text(done.complete("CallToolResult")), "capabilities-ok: received sample_input");
    finish(child).await;
}

#[tokio::test]
async fn a_prompt_can_require_input_too() {
    let mut child = spawn(MODERN);
    let get = modern(json!({"name": "test_input_required_result_prompt"}), all_caps());
    let first = round(&mut child, 1, "prompts/get", get.clone()).await;
    assert_eq!(
        first["inputRequests"],
        json!({"user_context": elicit_string("What context should the prompt use?", "context")})
    );
    let responses = json!({"user_context": accept(json!({"context": "release notes"}))});
    let done = ask(&mut child, 2, "prompts/get", retry(get, responses, Some(&first["requestState"]))).await;
    let messages = &done.complete("GetPromptResult")["messages"];
    assert_eq!(
        messages,
        &json!([{"role": "user", "content": {"type": "text", "text": "Prompt with context: release notes"}}])
    );
    // A state sealed for tools/call does not open prompts/get.
    let tool_state = round(&mut child, 3, "tools/call", call("test_input_required_result_elicitation")).await;
    let get = modern(json!({"name": "test_input_required_result_prompt"}), all_caps());
    let responses = json!({"user_context": accept(json!({"context": "x"}))});
    ask(&mut child, 4, "prompts/get", retry(get, responses, Some(&tool_state["requestState"]))).await.error(-32602);
    finish(child).await;
}

#[tokio::test]
async fn list_methods_never_require_input() {
    let mut child = spawn(MODERN);
    for (method, definition) in [("tools/list", "ListToolsResult"), ("prompts/list", "ListPromptsResult")] {
        let answer = ask(&mut child, method, method, modern(Value::Null, all_caps())).await;
        assert_eq!(answer.complete(definition)["resultType"], "complete");
    }
    finish(child).await;
}
