//! Every message between the Rust client and the fixture (a real child process) checked
//! against the schema of the era in use: a tap sits between the two and validates each
//! frame in both directions, requests and notifications by their method's definition and
//! results by the definition of the request they answer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ferrymcp_core::client::child::{self, ChildCommand, ShutdownTimeouts, StderrMode};
use ferrymcp_core::client::{Client, ClientOptions, EraPreference};
use ferrymcp_core::framing::{FrameSink, FrameSource, SourceEvent};
use ferrymcp_core::transport::memory;
use ferrymcp_tests::schema;
use serde_json::Value;

use crate::fixture::{EVERYTHING, callbacks, exercise};

/// The schema definition of each method's request (or notification) and result.
fn definitions(method: &str) -> Option<(&'static str, &'static str)> {
    Some(match method {
        "initialize" => ("InitializeRequest", "InitializeResult"),
        "notifications/initialized" => ("InitializedNotification", ""),
        "server/discover" => ("DiscoverRequest", "DiscoverResult"),
        "ping" => ("PingRequest", "EmptyResult"),
        "logging/setLevel" => ("SetLevelRequest", "EmptyResult"),
        "resources/subscribe" => ("SubscribeRequest", "EmptyResult"),
        "resources/unsubscribe" => ("UnsubscribeRequest", "EmptyResult"),
        "tools/list" => ("ListToolsRequest", "ListToolsResult"),
        "tools/call" => ("CallToolRequest", "CallToolResult"),
        "resources/list" => ("ListResourcesRequest", "ListResourcesResult"),
        "resources/templates/list" => ("ListResourceTemplatesRequest", "ListResourceTemplatesResult"),
        "resources/read" => ("ReadResourceRequest", "ReadResourceResult"),
        "prompts/list" => ("ListPromptsRequest", "ListPromptsResult"),
        "prompts/get" => ("GetPromptRequest", "GetPromptResult"),
        "completion/complete" => ("CompleteRequest", "CompleteResult"),
        "sampling/createMessage" => ("CreateMessageRequest", "CreateMessageResult"),
        "elicitation/create" => ("ElicitRequest", "ElicitResult"),
        "roots/list" => ("ListRootsRequest", "ListRootsResult"),
        "notifications/progress" => ("ProgressNotification", ""),
        "notifications/message" => ("LoggingMessageNotification", ""),
        "notifications/cancelled" => ("CancelledNotification", ""),
        _ => return None,
    })
}

#[derive(Default)]
struct Checker {
    revision: &'static str,
    /// Request ids (by direction) to their method, to check results.
    methods: HashMap<(bool, String), String>,
    checked: usize,
    problems: Vec<String>,
}

impl Checker {
    fn check(&mut self, frame: &str, from_client: bool) {
        let message: Value = match serde_json::from_str(frame) {
            Ok(message) => message,
            Err(e) => return self.problems.push(format!("not JSON ({e}): {frame}")),
        };
        self.validate("JSONRPCMessage", &message);
        if let Some(method) = message.get("method").and_then(Value::as_str) {
            match definitions(method) {
                Some((request, _)) => self.validate(request, &message),
                None => self.problems.push(format!("no schema definition known for {method}")),
            }
            if let Some(id) = message.get("id") {
                self.methods.insert((from_client, id.to_string()), method.to_owned());
            }
        } else if let (Some(id), Some(result)) = (message.get("id"), message.get("result")) {
            let asked = self.methods.get(&(!from_client, id.to_string())).cloned();
            let definition = match asked.as_deref().and_then(definitions) {
                _ if result.get("resultType") == Some(&Value::from("input_required")) => "InputRequiredResult",
                Some((_, result)) => result,
                None => return self.problems.push(format!("a result for an unknown request: {frame}")),
            };
            self.validate(definition, result);
        }
        self.checked += 1;
    }

    fn validate(&mut self, definition: &str, instance: &Value) {
        if let Err(problem) = schema::check(self.revision, definition, instance) {
            self.problems.push(problem);
        }
    }
}

async fn pump(mut from: impl FrameSource, mut to: impl FrameSink, checker: Arc<Mutex<Checker>>, from_client: bool) {
    while let Ok(SourceEvent::Frame(frame)) = from.next_event().await {
        checker.lock().unwrap().check(&frame, from_client);
        let line = format!("{frame}\n");
        if to.send(line.into()).await.is_err() {
            break;
        }
    }
    let _ = to.close().await;
}

async fn tapped_session(era: EraPreference, revision: &'static str) {
    let command = ChildCommand::new(EVERYTHING).args(["--transport", "stdio"]).stderr(StderrMode::Discard);
    let server = child::spawn(command).unwrap();
    let ((client_source, client_sink), (tap_source, tap_sink)) = memory::pair();
    let checker = Arc::new(Mutex::new(Checker { revision, ..Checker::default() }));
    tokio::spawn(pump(tap_source, server.sink, checker.clone(), true));
    tokio::spawn(pump(server.source, tap_sink, checker.clone(), false));

    let options = ClientOptions { era, ..ClientOptions::default() };
    let client = Client::connect(client_source, client_sink, options, callbacks()).await.unwrap();
    exercise(&client).await;
    client.close().await;
    server.process.shutdown(ShutdownTimeouts::default()).await.unwrap();

    let checker = checker.lock().unwrap();
    assert!(checker.checked > 20, "only {} messages were seen", checker.checked);
    assert!(
        checker.problems.is_empty(),
        "{} invalid messages:\n{}",
        checker.problems.len(),
        checker.problems.join("\n")
    );
}

#[tokio::test]
async fn every_legacy_message_matches_the_2025_11_25_schema() {
    tapped_session(EraPreference::Legacy, "2025-11-25").await;
}

#[tokio::test]
async fn every_modern_message_matches_the_2026_07_28_schema() {
    tapped_session(EraPreference::Modern, "2026-07-28").await;
}

#[test]
fn the_checker_catches_bad_messages() {
    let mut checker = Checker { revision: "2026-07-28", ..Checker::default() };
    checker.check(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{}}}"#, true);
    checker.check(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#, false);
    checker.check(r#"{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}"#, false);
    let reported = |needle: &str| checker.problems.iter().any(|p| p.contains(needle));
    assert!(
        reported("ListToolsRequest") && reported("ListToolsResult") && reported("\"id\":null"),
        "{:#?}",
        checker.problems
    );
}
