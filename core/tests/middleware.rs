//! Middleware around every inbound message, over the in-memory transport in both eras: it
//! sees the engine's own answers (`initialize`, `server/discover`) and the application's,
//! notifications without an id, the request's revision; its answer is the message's
//! answer (the result passes through, or it refuses with an error of its own); an error
//! from `next` reaches it; and with none set nothing changes.

use std::sync::{Arc, Mutex};

use ferrymcp_core::client::EraPreference;
use ferrymcp_core::peer::RequestOptions;
use ferrymcp_core::protocol::ErrorCode;
use ferrymcp_core::server::{Context, HandlerError, Inbound, Middleware, Next, Server};
use ferrymcp_core::wire::ErrorObject;
use serde_json::{Map, Value, json};
use tokio::sync::mpsc;

mod common;
use common::connect;

type Seen = Arc<Mutex<Vec<(String, Option<String>, Option<String>)>>>;

/// Records each message, refuses `tools/call` of the tool named "forbidden", and notes
/// the errors `next` gives.
fn recorder(seen: Seen, errors: mpsc::UnboundedSender<i64>) -> Arc<dyn Middleware> {
    Arc::new(move |inbound: Inbound, next: Next| {
        let (seen, errors) = (seen.clone(), errors.clone());
        Box::pin(async move {
            let id = inbound.request_id.as_ref().map(|id| format!("{id:?}"));
            seen.lock().unwrap().push((inbound.method.clone(), id, inbound.protocol_version.clone()));
            if inbound.method == "tools/call" && inbound.params["name"] == "forbidden" {
                return Err(ErrorObject::new(ErrorCode::INVALID_REQUEST, "No calls on Sundays."));
            }
            let answer = next().await;
            if let Err(e) = &answer {
                let _ = errors.send(e.code);
            }
            answer
        }) as ferrymcp_core::peer::BoxFuture<_>
    })
}

fn server() -> Server {
    let server = Server::new("gated", "1.0.0");
    let echo = |arguments: Map<String, Value>, _: Context| async move {
        Ok::<_, HandlerError>(json!({"content": [{"type": "text", "text": Value::Object(arguments).to_string()}]}))
    };
    server.add_tool(json!({"name": "echo", "inputSchema": {"type": "object"}}), echo).unwrap();
    server.add_tool(json!({"name": "forbidden", "inputSchema": {"type": "object"}}), echo).unwrap();
    server
}

#[tokio::test]
async fn middleware_wraps_every_message_in_both_eras() {
    for era in [EraPreference::Legacy, EraPreference::Modern] {
        let server = server();
        let seen: Seen = Arc::default();
        let (errors_tx, mut errors) = mpsc::unbounded_channel();
        server.set_middleware(Some(recorder(seen.clone(), errors_tx)));
        let client = connect(&server, era).await;
        let result = client
            .request("tools/call", json!({"name": "echo", "arguments": {"b": 1, "a": 2}}), RequestOptions::default())
            .await
            .unwrap();
        assert_eq!(result["content"][0]["text"], r#"{"b":1,"a":2}"#, "{era:?}: the result passes through unchanged");
        let refused = client
            .request("tools/call", json!({"name": "forbidden", "arguments": {}}), RequestOptions::default())
            .await
            .unwrap_err();
        assert!(refused.to_string().contains("No calls on Sundays."), "{era:?}: {refused}");
        let missing = client.request("resources/read", json!({"uri": "x://y"}), RequestOptions::default()).await;
        assert!(missing.is_err());
        assert!(errors.recv().await.is_some(), "{era:?}: the error of `next` reached the middleware");
        // The connection keeps working after a refusal.
        client.request("tools/list", json!({}), RequestOptions::default()).await.unwrap();
        let seen = seen.lock().unwrap().clone();
        let methods: Vec<&str> = seen.iter().map(|(method, _, _)| method.as_str()).collect();
        match era {
            EraPreference::Legacy => {
                assert_eq!(
                    methods,
                    [
                        "initialize",
                        "notifications/initialized",
                        "tools/call",
                        "tools/call",
                        "resources/read",
                        "tools/list"
                    ]
                );
                assert!(seen[0].1.is_some() && seen[1].1.is_none(), "a notification has no request id: {seen:?}");
                assert_eq!(seen[2].2.as_deref(), Some("2025-11-25"), "the session's revision");
            }
            _ => {
                assert_eq!(methods, ["server/discover", "tools/call", "tools/call", "resources/read", "tools/list"]);
                assert_eq!(seen[1].2.as_deref(), Some("2026-07-28"), "the revision the request states");
            }
        }
        server.set_middleware(None);
        client
            .request("tools/call", json!({"name": "forbidden", "arguments": {}}), RequestOptions::default())
            .await
            .unwrap();
    }
}

/// Passes over `tools/call` ([`Middleware::sees_request`]), records the rest.
struct Selective(Seen);

impl Middleware for Selective {
    fn sees_request(&self, method: &str) -> bool {
        method != "tools/call"
    }

    fn handle(&self, inbound: Inbound, next: Next) -> ferrymcp_core::peer::BoxFuture<ferrymcp_core::server::Answer> {
        self.0.lock().unwrap().push((inbound.method.clone(), None, None));
        next()
    }
}

#[tokio::test]
async fn a_request_the_middleware_passes_over_goes_straight_to_its_handler() {
    for era in [EraPreference::Legacy, EraPreference::Modern] {
        let server = server();
        let seen: Seen = Arc::default();
        server.set_middleware(Some(Arc::new(Selective(seen.clone()))));
        let client = connect(&server, era).await;
        let result = client
            .request("tools/call", json!({"name": "echo", "arguments": {"b": 1, "a": 2}}), RequestOptions::default())
            .await
            .unwrap();
        assert_eq!(result["content"][0]["text"], r#"{"b":1,"a":2}"#, "{era:?}");
        client.request("tools/list", json!({}), RequestOptions::default()).await.unwrap();
        let seen = seen.lock().unwrap().clone();
        let methods: Vec<&str> = seen.iter().map(|(method, _, _)| method.as_str()).collect();
        assert!(!methods.contains(&"tools/call") && methods.contains(&"tools/list"), "{era:?}: {methods:?}");
    }
}
