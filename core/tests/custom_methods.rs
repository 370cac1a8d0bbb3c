//! Custom methods and the session handle over the in-memory transport: a real server and
//! client in one process (the cross-process suites are in `tests/custom`), and the
//! registration rules that keep a custom handler from shadowing MCP.

use std::sync::Arc;

use ferrymcp_core::client::{Client, ClientCallbacks, ClientOptions, EraPreference};
use ferrymcp_core::peer::RequestOptions;
use ferrymcp_core::server::{Context, HandlerError, RegistryError, Server, ServerSession};
use ferrymcp_core::transport::memory;
use serde_json::{Map, Value, json};
use tokio::sync::mpsc;

type Seen = mpsc::UnboundedReceiver<(String, Value)>;

async fn connect(server: &Server, era: EraPreference) -> (Client, Seen) {
    let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
    let serving = server.clone();
    tokio::spawn(async move { serving.serve(server_source, server_sink).await });
    let (tx, seen) = mpsc::unbounded_channel();
    let mut callbacks = ClientCallbacks::default();
    let double = Arc::new(|params: Value| {
        Box::pin(async move { Ok(json!({"doubled": params["n"].as_i64().unwrap_or_default() * 2})) }) as _
    });
    callbacks.set_request_handler("example/double", double).unwrap();
    let forward = Arc::new(move |method: &str, params: Value| drop(tx.send((method.to_owned(), params))));
    callbacks.set_notification_handler("example/hello", forward).unwrap();
    let options = ClientOptions { era, ..ClientOptions::default() };
    (Client::connect(client_source, client_sink, options, callbacks).await.unwrap(), seen)
}

fn server() -> Server {
    let server = Server::new("custom", "1.0.0");
    let ask = |params: Map<String, Value>, cx: Context| async move {
        let answer = cx.input(Some("double"), "example/double", Value::Object(params)).await?;
        Ok::<_, HandlerError>(json!({"answer": answer}))
    };
    server.set_request_handler("example/ask", ask).unwrap();
    let greet = |params: Value, session: Option<ServerSession>| async move {
        if let Some(session) = session {
            session.notify("example/hello", params).await.unwrap();
        }
    };
    server.set_notification_handler("example/greet", greet).unwrap();
    server
}

#[tokio::test]
async fn custom_methods_each_way_in_both_eras() {
    let server = server();
    for era in [EraPreference::Legacy, EraPreference::Modern] {
        let (client, _seen) = connect(&server, era).await;
        let answer = client.request("example/ask", json!({"n": 21}), RequestOptions::default()).await.unwrap();
        assert_eq!(answer["answer"], json!({"doubled": 42}), "{era:?}: {answer}");
        client.close().await;
    }
}

#[tokio::test]
async fn notifications_reach_the_server_and_the_session_answers_later() {
    let server = server();
    let (client, mut seen) = connect(&server, EraPreference::Legacy).await;
    client.notify("example/greet", json!({"to": "you"})).await.unwrap();
    assert_eq!(seen.recv().await.unwrap(), ("example/hello".into(), json!({"to": "you"})));

    // The server reaches every open legacy session on its own.
    let sessions = server.legacy_sessions();
    assert_eq!(sessions.len(), 1);
    assert_eq!(sessions[0].client_info()["name"], "ferrymcp-client");
    sessions[0].notify("example/hello", json!({"from": "server"})).await.unwrap();
    assert_eq!(seen.recv().await.unwrap(), ("example/hello".into(), json!({"from": "server"})));
    sessions[0].ping().await.unwrap();
    let refused = sessions[0].list_roots().await.unwrap_err();
    assert!(refused.to_string().contains("does not support roots"), "{refused}");
    client.close().await;
}

#[test]
fn custom_handlers_cannot_shadow_mcp() {
    let server = Server::new("custom", "1.0.0");
    let handler = |_: Map<String, Value>, _: Context| async { Ok::<_, HandlerError>(json!({})) };
    for method in ["tools/call", "initialize", "ping", "tasks/update", "sampling/createMessage"] {
        let error = server.set_request_handler(method, handler).unwrap_err();
        assert!(matches!(&error, RegistryError::Builtin { method: m, .. } if m == method), "{error}");
    }
    let observer = |_: Value, _: Option<ServerSession>| async {};
    for method in ["notifications/cancelled", "notifications/progress"] {
        assert!(server.set_notification_handler(method, observer).is_err(), "{method}");
    }
    server.set_notification_handler("notifications/roots/list_changed", observer).unwrap();
    server.set_request_handler("example/ok", handler).unwrap();
    assert!(server.remove_request_handler("example/ok"));
    assert!(!server.remove_request_handler("example/ok"));
}
