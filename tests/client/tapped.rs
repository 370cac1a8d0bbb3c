//! Every message between the Rust client and the fixture (a real child process) checked
//! against the schema of the era in use: a tap sits between the two and validates each
//! frame in both directions, requests and notifications by their method's definition and
//! results by the definition of the request they answer. The tap also keeps what the
//! client sent, for tests of what a client option puts on the wire.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ferrymcp_core::client::child::{self, ChildCommand, ChildProcess, ShutdownTimeouts, StderrMode};
use ferrymcp_core::client::{Client, ClientCallbacks, ClientOptions, EraPreference, NotificationCallback};
use ferrymcp_core::framing::{FrameSink, FrameSource, SourceEvent};
use ferrymcp_core::peer::RequestOptions;
use ferrymcp_core::protocol::meta;
use ferrymcp_core::transport::memory;
use ferrymcp_tests::schema;
use serde_json::{Value, json};

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
    /// The requests and notifications the client sent, in order.
    sent: Vec<Value>,
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
            if from_client {
                self.sent.push(message.clone());
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

/// A client connected to the fixture (a real child process) through the checking tap.
async fn tapped(
    options: ClientOptions,
    callbacks: ClientCallbacks,
    revision: &'static str,
) -> (Client, ChildProcess, Arc<Mutex<Checker>>) {
    let command = ChildCommand::new(EVERYTHING).args(["--transport", "stdio"]).stderr(StderrMode::Discard);
    let server = child::spawn(command).unwrap();
    let ((client_source, client_sink), (tap_source, tap_sink)) = memory::pair();
    let checker = Arc::new(Mutex::new(Checker { revision, ..Checker::default() }));
    tokio::spawn(pump(tap_source, server.sink, checker.clone(), true));
    tokio::spawn(pump(server.source, tap_sink, checker.clone(), false));
    let client = Client::connect(client_source, client_sink, options, callbacks).await.unwrap();
    (client, server.process, checker)
}

async fn tapped_session(era: EraPreference, revision: &'static str) {
    let options = ClientOptions { era, ..ClientOptions::default() };
    let (client, process, checker) = tapped(options, callbacks(), revision).await;
    exercise(&client).await;
    client.close().await;
    process.shutdown(ShutdownTimeouts::default()).await.unwrap();

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

/// The methods of what the client sent.
fn sent_methods(checker: &Mutex<Checker>) -> Vec<String> {
    checker.lock().unwrap().sent.iter().filter_map(|m| m["method"].as_str().map(str::to_owned)).collect()
}

/// A configured log level sends no `logging/setLevel` after a legacy handshake (as the
/// official Python and TypeScript clients): the server keeps its own level, so its `info`
/// message still arrives under a configured `error`; only an explicit call sends it.
#[tokio::test]
async fn a_configured_log_level_sends_nothing_to_a_legacy_server() {
    let (logged, mut messages) = tokio::sync::mpsc::unbounded_channel::<Value>();
    let on_message: NotificationCallback = Arc::new(move |method: &str, params: Value| {
        if method == "notifications/message" {
            let _ = logged.send(params);
        }
    });
    let callbacks = ClientCallbacks { notification: Some(on_message), ..callbacks() };
    let options =
        ClientOptions { era: EraPreference::Legacy, log_level: Some("error".into()), ..ClientOptions::default() };
    let (client, process, checker) = tapped(options, callbacks, "2025-11-25").await;
    client.call_tool("test_logging_tool", json!({}), RequestOptions::default()).await.unwrap();
    let message = messages.recv().await.expect("the info message");
    assert_eq!(message["level"], "info", "{message}");
    let methods = sent_methods(&checker);
    assert_eq!(methods[..3], ["initialize", "notifications/initialized", "tools/call"]);
    assert!(!methods.iter().any(|m| m == "logging/setLevel"), "{methods:?}");

    client.set_logging_level("error").await.unwrap();
    let sent = checker.lock().unwrap().sent.last().cloned().unwrap();
    assert_eq!((&sent["method"], &sent["params"]["level"]), (&json!("logging/setLevel"), &json!("error")), "{sent}");
    client.close().await;
    process.shutdown(ShutdownTimeouts::default()).await.unwrap();
    assert!(checker.lock().unwrap().problems.is_empty());
}

/// On 2026-07-28 the level is the per-request `_meta` opt-in, on every request after the
/// probe (which, as the official Python client's, carries none); a request's own level
/// wins; `logging/setLevel` is never sent.
#[tokio::test]
async fn a_configured_log_level_rides_on_every_modern_request() {
    let options =
        ClientOptions { era: EraPreference::Modern, log_level: Some("error".into()), ..ClientOptions::default() };
    let (client, process, checker) = tapped(options, callbacks(), "2026-07-28").await;
    client.list_tools().await.unwrap();
    let params = json!({"name": "test_logging_tool", "arguments": {}, "_meta": {meta::LOG_LEVEL: "debug"}});
    client.request("tools/call", params, RequestOptions::default()).await.unwrap();
    client.close().await;
    process.shutdown(ShutdownTimeouts::default()).await.unwrap();

    let checker = checker.lock().unwrap();
    let levels: Vec<(&str, &Value)> =
        checker.sent.iter().map(|m| (m["method"].as_str().unwrap(), &m["params"]["_meta"][meta::LOG_LEVEL])).collect();
    assert_eq!(
        levels,
        [("server/discover", &Value::Null), ("tools/list", &json!("error")), ("tools/call", &json!("debug"))]
    );
    assert!(checker.problems.is_empty(), "{:?}", checker.problems);
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
