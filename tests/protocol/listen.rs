//! `subscriptions/listen` (2026-07-28): acknowledged first, every frame tagged with the
//! listen request's id, filtered, and ended silently by `notifications/cancelled`.

use ferrymcp_tests::raw::RawChild;
use ferrymcp_tests::schema;
use serde_json::{Value, json};

use crate::*;

const TAG: &str = "io.modelcontextprotocol/subscriptionId";

/// Opens a listen stream and reads its acknowledgement, which must come first.
async fn listen(child: &mut RawChild, id: Value, filter: Value) -> Value {
    child.send(&request(id.clone(), "subscriptions/listen", modern(json!({"notifications": filter}), json!({})))).await;
    let ack = child.recv().await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged", "the first frame must be the ack: {ack}");
    schema::assert_valid(MODERN, "SubscriptionsAcknowledgedNotification", &ack);
    // The same id, of the same JSON type.
    assert_eq!(ack["params"]["_meta"][TAG], id, "{ack}");
    ack["params"]["notifications"].clone()
}

/// Calls a trigger tool over a modern request; returns what arrived before its answer.
async fn trigger(child: &mut RawChild, id: i64, tool: &str) -> Vec<Value> {
    let answer = exchange(child, request(id, "tools/call", modern(json!({"name": tool}), json!({})))).await;
    assert_eq!(text(answer.complete("CallToolResult")), "Mutation triggered");
    answer.before
}

fn tagged<'a>(frames: &'a [Value], method: &str, id: &Value) -> Vec<&'a Value> {
    frames.iter().filter(|f| f["method"] == method && &f["params"]["_meta"][TAG] == id).collect()
}

#[tokio::test]
async fn listen_acknowledges_tags_and_filters() {
    let mut child = spawn(MODERN);
    let tools_id = json!("sub-tools");
    let prompts_id = json!(77);
    let honoured =
        listen(&mut child, tools_id.clone(), json!({"toolsListChanged": true, "promptsListChanged": false})).await;
    assert_eq!(honoured, json!({"toolsListChanged": true}));
    let honoured =
        listen(&mut child, prompts_id.clone(), json!({"promptsListChanged": true, "somethingElse": true})).await;
    assert_eq!(honoured, json!({"promptsListChanged": true}));

    let frames = trigger(&mut child, 1, "test_trigger_tool_change").await;
    assert_eq!(frames.len(), 1, "only the tools listener hears a tools change: {frames:?}");
    assert_eq!(tagged(&frames, "notifications/tools/list_changed", &tools_id).len(), 1, "{frames:?}");
    schema::assert_valid(MODERN, "ToolListChangedNotification", &frames[0]);

    let frames = trigger(&mut child, 2, "test_trigger_prompt_change").await;
    assert_eq!(frames.len(), 1, "only the prompts listener hears a prompts change: {frames:?}");
    assert_eq!(tagged(&frames, "notifications/prompts/list_changed", &prompts_id).len(), 1, "{frames:?}");
    schema::assert_valid(MODERN, "PromptListChangedNotification", &frames[0]);

    // Two listeners of one kind each get their own tagged copy.
    let second = json!(78);
    listen(&mut child, second.clone(), json!({"toolsListChanged": true})).await;
    let frames = trigger(&mut child, 3, "test_trigger_tool_change").await;
    assert_eq!(frames.len(), 2, "{frames:?}");
    assert_eq!(tagged(&frames, "notifications/tools/list_changed", &tools_id).len(), 1);
    assert_eq!(tagged(&frames, "notifications/tools/list_changed", &second).len(), 1);
    finish(child).await;
}

#[tokio::test]
async fn cancelling_ends_a_listen_silently() {
    let mut child = spawn(MODERN);
    let tools_id = json!(5);
    let prompts_id = json!("p");
    listen(&mut child, tools_id.clone(), json!({"toolsListChanged": true})).await;
    listen(&mut child, prompts_id.clone(), json!({"promptsListChanged": true})).await;
    child.send(&notification("notifications/cancelled", json!({"requestId": tools_id, "reason": "done"}))).await;

    // No answer to the cancelled listen, and no notification on it any more.
    let frames = trigger(&mut child, 1, "test_trigger_tool_change").await;
    assert!(frames.is_empty(), "a cancelled listener still hears: {frames:?}");
    // The other stream is untouched.
    let frames = trigger(&mut child, 2, "test_trigger_prompt_change").await;
    assert_eq!(tagged(&frames, "notifications/prompts/list_changed", &prompts_id).len(), 1, "{frames:?}");
    ask(&mut child, 3, "server/discover", modern(Value::Null, json!({}))).await.complete("DiscoverResult");
    finish(child).await;
}

#[tokio::test]
async fn listen_needs_its_filter() {
    let mut child = spawn(MODERN);
    ask(&mut child, 1, "subscriptions/listen", modern(json!({}), json!({}))).await.error(-32602);
    ask(&mut child, 2, "subscriptions/listen", modern(json!({"notifications": true}), json!({}))).await.error(-32602);
    finish(child).await;
}

/// Every server caps open listen streams at core's default, the official SDKs' 1024
/// (`ServerOptions::max_listen_streams`): the 1025th is refused before any ack. Run
/// against each binding's fixture, none of which sets a cap.
#[tokio::test]
async fn listen_streams_are_capped_at_the_default() {
    const CAP: i64 = 1024;
    let mut child = spawn(MODERN);
    let filter = modern(json!({"notifications": {"toolsListChanged": true}}), json!({}));
    for id in 0..CAP {
        child.send(&request(id, "subscriptions/listen", filter.clone())).await;
    }
    let mut acknowledged = std::collections::BTreeSet::new();
    for _ in 0..CAP {
        let ack = child.recv().await;
        assert_eq!(ack["method"], "notifications/subscriptions/acknowledged", "{ack}");
        acknowledged.insert(ack["params"]["_meta"][TAG].as_i64().unwrap());
    }
    assert_eq!(acknowledged, (0..CAP).collect());

    let refused = ask(&mut child, CAP, "subscriptions/listen", filter).await;
    assert_eq!(refused.error(-32603)["message"], "Subscription limit reached");
    finish(child).await;
}
