//! The client against `ferrymcp-everything`, once per era.

use std::sync::{Arc, Mutex};

use ferrymcp_core::client::child::{ChildCommand, StderrMode};
use ferrymcp_core::client::{Client, ClientCallbacks, ClientOptions, EraPreference};
use ferrymcp_core::peer::{Progress, RequestOptions};
use ferrymcp_core::wire::ErrorObject;
use serde_json::{Value, json};

/// A typed result as JSON, for terse assertions.
fn v<T: serde::Serialize>(typed: T) -> Value {
    serde_json::to_value(typed).unwrap()
}

pub const EVERYTHING: &str = env!("CARGO_BIN_EXE_ferrymcp-everything");

pub fn callbacks() -> ClientCallbacks {
    ClientCallbacks {
        sampling: Some(Arc::new(|_params| {
            Box::pin(async {
                Ok(
                    json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "test-model", "stopReason": "endTurn"}),
                )
            })
        })),
        elicitation: Some(Arc::new(|_params| {
            Box::pin(async {
                Ok::<_, ErrorObject>(
                    json!({"action": "accept", "content": {"response": "yes", "name": "Ada", "ok": true}}),
                )
            })
        })),
        roots: Some(Arc::new(|_| Box::pin(async { Ok(json!({"roots": [{"uri": "file:///tmp", "name": "tmp"}]})) }))),
        ..ClientCallbacks::default()
    }
}

async fn connect(era: EraPreference) -> Client {
    let command = ChildCommand::new(EVERYTHING).args(["--transport", "stdio"]).stderr(StderrMode::Discard);
    let options = ClientOptions { era, ..ClientOptions::default() };
    Client::spawn(command, options, callbacks()).await.expect("connect")
}

fn text_of(result: &Value) -> String {
    result["content"][0]["text"].as_str().unwrap_or_default().to_owned()
}

pub async fn exercise(client: &Client) {
    let tools = v(client.list_tools().await.unwrap());
    assert!(tools.as_array().unwrap().iter().any(|t| t["name"] == "test_simple_text"), "{tools:?}");
    let result = v(client.call_tool("test_simple_text", json!({}), RequestOptions::default()).await.unwrap());
    assert_eq!(text_of(&result), "This is a simple text response for testing.");

    let error = v(client.call_tool("test_error_handling", json!({}), RequestOptions::default()).await.unwrap());
    assert_eq!(error["isError"], true);

    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let options =
        RequestOptions::default().on_progress(Arc::new(move |p: Progress| sink.lock().unwrap().push(p.progress)));
    client.call_tool("test_tool_with_progress", json!({}), options).await.unwrap();
    let seen = seen.lock().unwrap().clone();
    assert!(seen.len() >= 3 && seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");

    let sampled =
        v(client.call_tool("test_sampling", json!({"prompt": "capital?"}), RequestOptions::default()).await.unwrap());
    assert!(text_of(&sampled).contains("Paris"), "{sampled}");
    let elicited =
        v(client.call_tool("test_elicitation", json!({"message": "ok?"}), RequestOptions::default()).await.unwrap());
    assert!(text_of(&elicited).contains("accept"), "{elicited}");

    let text = v(client.read_resource("test://static-text").await.unwrap());
    assert_eq!(text["contents"][0]["text"], "This is the content of the static text resource.");
    let templated = v(client.read_resource("test://template/123/data").await.unwrap());
    assert!(templated["contents"][0]["text"].as_str().unwrap().contains("123"));
    let missing = client.read_resource("test://nope").await.unwrap_err();
    let expected = if client.server().modern { -32602 } else { -32002 };
    assert_eq!(missing.code(), expected, "{missing}");

    let prompt = v(client.get_prompt("test_prompt_with_arguments", json!({"arg1": "a", "arg2": "b"})).await.unwrap());
    assert!(prompt["messages"][0]["content"]["text"].as_str().unwrap().contains("arg1='a'"));
    let completion = v(client
        .complete(
            json!({"type": "ref/prompt", "name": "test_prompt_with_arguments"}),
            json!({"name": "arg1", "value": "t"}),
        )
        .await
        .unwrap());
    assert!(completion["completion"]["values"].is_array());
    assert!(!client.list_resource_templates().await.unwrap().is_empty());
    assert!(client.list_prompts().await.unwrap().len() >= 4);
}

#[tokio::test]
async fn auto_probe_finds_the_modern_era_and_everything_works() {
    let client = connect(EraPreference::Auto).await;
    assert!(client.server().modern);
    assert_eq!(client.server().protocol_version, "2026-07-28");
    assert_eq!(client.server().info["name"], "mcp-conformance-test-server");
    exercise(&client).await;
    // MRTR: the server asks for input, the client answers through its callbacks and retries.
    let result = v(client
        .call_tool("test_input_required_result_elicitation", json!({}), RequestOptions::default())
        .await
        .unwrap());
    assert_eq!(text_of(&result), "Hello, Ada!");
    let multi = v(client
        .call_tool("test_input_required_result_multi_round", json!({}), RequestOptions::default())
        .await
        .unwrap());
    assert!(text_of(&multi).starts_with("Multi-round complete for Ada"), "{multi}");
    client.close().await;
}

#[tokio::test]
async fn legacy_session_works_the_same() {
    let client = connect(EraPreference::Legacy).await;
    assert!(!client.server().modern);
    assert_eq!(client.server().protocol_version, "2025-11-25");
    client.ping().await.unwrap();
    client.set_logging_level("debug").await.unwrap();
    client.subscribe_resource("test://watched-resource").await.unwrap();
    client.unsubscribe_resource("test://watched-resource").await.unwrap();
    exercise(&client).await;
    client.close().await;
}
