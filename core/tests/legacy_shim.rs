//! The legacy shim: handlers written for 2026-07-28, which return their own
//! `input_required` results, served to a real 2025-era client (core's client, legacy
//! `initialize`, over the in-memory transport). Each embedded request reaches the client as
//! a request of its own, the handler runs again with that round's answers and its
//! `requestState`, failures answer per family, and the shim can be turned off.

use std::sync::{Arc, Mutex};

use ferrymcp_core::client::{Client, ClientCallbacks, ClientOptions, EraPreference, InputCallback};
use ferrymcp_core::peer::RequestOptions;
use ferrymcp_core::server::{Context, HandlerError, InputRequiredOptions, Server, ServerOptions};
use ferrymcp_core::transport::memory;
use ferrymcp_core::wire::ErrorObject;
use serde_json::{Map, Value, json};

/// What the client was asked, in order (method and params).
type Asked = Arc<Mutex<Vec<(String, Value)>>>;

fn text(value: &str) -> Value {
    json!({"content": [{"type": "text", "text": value}]})
}

fn elicit(message: &str) -> Value {
    json!({"method": "elicitation/create", "params": {"mode": "form", "message": message, "requestedSchema": {"type": "object", "properties": {"value": {"type": "string"}}}}})
}

fn input_required(requests: Value, state: Option<&str>) -> Value {
    let mut result = json!({"resultType": "input_required", "inputRequests": requests});
    if let Some(state) = state {
        result["requestState"] = json!(state);
    }
    result
}

/// What a handler sees of one run: this round's answers (keys and values) and its state.
fn seen(cx: &Context) -> (Map<String, Value>, Option<String>) {
    (cx.input_responses().cloned().unwrap_or_default(), cx.request_state().map(str::to_owned))
}

fn server(options: ServerOptions) -> Server {
    let server = Server::with_info(json!({"name": "shim", "version": "1.0.0"}), None, options);
    let object = json!({"type": "object"});
    // Confirm, then (state `confirmed`) pick a scope, then answer with what the last run saw.
    let wipe = |_: Map<String, Value>, cx: Context| {
        let (responses, state) = seen(&cx);
        async move {
            Ok::<_, HandlerError>(match state.as_deref() {
                None if responses.get("confirm").is_some_and(|r| r["action"] == "accept") => {
                    input_required(json!({"scope": elicit("Which scope?")}), Some("confirmed"))
                }
                None => input_required(json!({"confirm": elicit("Really wipe?")}), None),
                Some(state) => {
                    let keys: Vec<&String> = responses.keys().collect();
                    let scope = &responses["scope"]["content"]["value"];
                    text(&format!("{state}: wiped {scope} (this round: {keys:?})"))
                }
            })
        }
    };
    server.add_tool(json!({"name": "wipe", "inputSchema": object}), wipe).unwrap();
    // Sampling and roots in one round (sent together), and a URL elicitation.
    let survey = |_: Map<String, Value>, cx: Context| {
        let (responses, _) = seen(&cx);
        async move {
            Ok::<_, HandlerError>(if responses.is_empty() {
                input_required(
                    json!({
                        "summary": {"method": "sampling/createMessage", "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "sum up"}}], "maxTokens": 10}},
                        "roots": {"method": "roots/list"},
                        "signin": {"method": "elicitation/create", "params": {"mode": "url", "message": "sign in", "url": "https://example.com/auth"}},
                    }),
                    None,
                )
            } else {
                let summary = &responses["summary"]["content"]["text"];
                let root = &responses["roots"]["roots"][0]["uri"];
                text(&format!("{summary} {root} {}", responses["signin"]["action"]))
            })
        }
    };
    server.add_tool(json!({"name": "survey", "inputSchema": object}), survey).unwrap();
    // Never satisfied.
    let forever = |_: Map<String, Value>, _: Context| async move {
        Ok::<_, HandlerError>(input_required(json!({"again": elicit("Again?")}), None))
    };
    server.add_tool(json!({"name": "forever", "inputSchema": object}), forever).unwrap();
    server.add_prompt(json!({"name": "forever"}), forever).unwrap();
    let greet = |_: Map<String, Value>, cx: Context| {
        let (responses, _) = seen(&cx);
        async move {
            Ok::<_, HandlerError>(match responses.get("name") {
                None => input_required(json!({"name": elicit("Your name?")}), None),
                Some(answer) => {
                    let name = answer["content"]["value"].as_str().unwrap_or_default();
                    json!({"messages": [{"role": "user", "content": {"type": "text", "text": format!("Hello {name}")}}]})
                }
            })
        }
    };
    server.add_prompt(json!({"name": "greet"}), greet).unwrap();
    server
}

/// A 2025-era client with the callbacks given (each records what it was asked).
async fn client(server: &Server, asked: &Asked, elicitation: bool, failing: bool) -> Client {
    let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
    let serving = server.clone();
    tokio::spawn(async move { serving.serve(server_source, server_sink).await });
    let recorder = |method: &'static str, answer: Value| -> InputCallback {
        let asked = asked.clone();
        Arc::new(move |params: Value| {
            asked.lock().unwrap().push((method.to_owned(), params.clone()));
            let answer = answer.clone();
            Box::pin(async move {
                match failing {
                    true => Err(ErrorObject::new(-32000, "the user closed the dialog")),
                    false => Ok(answer),
                }
            })
        })
    };
    let mut callbacks = ClientCallbacks::default();
    if elicitation {
        callbacks.elicitation =
            Some(recorder("elicitation/create", json!({"action": "accept", "content": {"value": "sessions"}})));
    }
    callbacks.sampling = Some(recorder(
        "sampling/createMessage",
        json!({"role": "assistant", "content": {"type": "text", "text": "summed"}, "model": "m"}),
    ));
    callbacks.roots = Some(recorder("roots/list", json!({"roots": [{"uri": "file:///work"}]})));
    let options = ClientOptions { era: EraPreference::Legacy, ..ClientOptions::default() };
    let client = Client::connect(client_source, client_sink, options, callbacks).await.unwrap();
    assert_eq!(client.server().protocol_version, "2025-11-25");
    client
}

async fn call(client: &Client, method: &str, name: &str) -> Result<Value, String> {
    let params = json!({"name": name, "arguments": {}});
    client.request(method, params, RequestOptions::default()).await.map_err(|e| e.to_string())
}

#[tokio::test]
async fn rounds_of_real_requests_serve_the_handler_to_a_2025_client() {
    let server = server(ServerOptions::default());
    let asked = Asked::default();
    let client = client(&server, &asked, true, false).await;

    // Two rounds in sequence: the second carries the handler's state, and each run sees
    // that round's answers only.
    let result = call(&client, "tools/call", "wipe").await.unwrap();
    assert_eq!(result["content"][0]["text"], r#"confirmed: wiped "sessions" (this round: ["scope"])"#, "{result}");
    let messages: Vec<String> = asked.lock().unwrap().drain(..).map(|(_, p)| p["message"].to_string()).collect();
    assert_eq!(messages, [r#""Really wipe?""#, r#""Which scope?""#]);

    // Sampling, roots and a URL elicitation in one round; the URL one gets the
    // `elicitationId` 2025-11-25 requires, and every request carries a progress token.
    let result = call(&client, "tools/call", "survey").await.unwrap();
    assert_eq!(result["content"][0]["text"], r#""summed" "file:///work" "accept""#, "{result}");
    let mut requests = asked.lock().unwrap().drain(..).collect::<Vec<_>>();
    requests.sort_by(|a, b| a.0.cmp(&b.0));
    let methods: Vec<&str> = requests.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(methods, ["elicitation/create", "roots/list", "sampling/createMessage"]);
    let url = &requests[0].1;
    assert_eq!(url["elicitationId"].as_str().map(str::len), Some(36), "{url}");
    assert!(
        requests
            .iter()
            .all(|(_, p)| p["_meta"]["progressToken"].is_string() || p["_meta"]["progressToken"].is_number())
    );

    // A prompt too.
    let result = call(&client, "prompts/get", "greet").await.unwrap();
    assert_eq!(result["messages"][0]["content"]["text"], "Hello sessions", "{result}");
    client.close().await;
}

#[tokio::test]
async fn failures_answer_per_family() {
    let options = ServerOptions {
        input_required: InputRequiredOptions { max_rounds: 3, ..InputRequiredOptions::default() },
        ..ServerOptions::default()
    };
    let server = server(options);
    let asked = Asked::default();
    let client = client(&server, &asked, true, false).await;

    // The round cap: a tool's result with isError, a prompt's -32603.
    let result = call(&client, "tools/call", "forever").await.unwrap();
    assert_eq!(result["isError"], true, "{result}");
    assert_eq!(
        result["content"][0]["text"],
        "Multi-round-trip request 'tools/call' still required input after 3 rounds (inputRequired.maxRounds)"
    );
    assert_eq!(asked.lock().unwrap().drain(..).count(), 3);
    let error = call(&client, "prompts/get", "forever").await.unwrap_err();
    assert!(error.contains("-32603") && error.contains("after 3 rounds"), "{error}");
    client.close().await;

    // A client that did not declare elicitation is asked nothing.
    let asked = Asked::default();
    let client = self::client(&server, &asked, false, false).await;
    let result = call(&client, "tools/call", "wipe").await.unwrap();
    assert_eq!(result["isError"], true, "{result}");
    assert_eq!(
        result["content"][0]["text"],
        "Cannot request input 'confirm' (elicitation/create): the client on this 2025-era connection did not declare the required capability"
    );
    let error = call(&client, "prompts/get", "greet").await.unwrap_err();
    assert!(error.contains("-32603") && error.contains("did not declare"), "{error}");
    assert!(asked.lock().unwrap().is_empty());
    client.close().await;

    // A client whose answer is an error.
    let client = self::client(&server, &asked, true, true).await;
    let result = call(&client, "tools/call", "wipe").await.unwrap();
    assert_eq!(result["isError"], true, "{result}");
    let message = result["content"][0]["text"].as_str().unwrap();
    assert!(message.starts_with("Fulfilling input required by 'tools/call' failed:"), "{message}");
    assert!(message.contains("the user closed the dialog"), "{message}");
    client.close().await;
}

#[tokio::test]
async fn turned_off_the_result_fails_loudly() {
    let options = ServerOptions {
        input_required: InputRequiredOptions { legacy_shim: Some(false), ..InputRequiredOptions::default() },
        ..ServerOptions::default()
    };
    let server = server(options);
    let asked = Asked::default();
    let client = client(&server, &asked, true, false).await;
    let error = call(&client, "tools/call", "wipe").await.unwrap_err();
    assert!(error.contains("-32603") && error.contains("input_required"), "{error}");
    assert!(asked.lock().unwrap().is_empty());
    client.close().await;
}
