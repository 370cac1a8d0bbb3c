//! MCP's feature methods answered by the application (the low-level server APIs) over
//! the in-memory transport, in both eras: the handler's result is the answer, the cursor
//! passes through, input requests work from inside it, capabilities follow the handlers
//! set, and only feature methods may be taken.

use std::sync::Arc;

use ferrymcp_core::client::{Client, ClientCallbacks, ClientOptions, EraPreference, InputCallback};
use ferrymcp_core::peer::RequestOptions;
use ferrymcp_core::server::{APPLICATION_ANSWERED, Context, HandlerError, RegistryError, Server};
use ferrymcp_core::transport::memory;
use serde_json::{Map, Value, json};

async fn connect(server: &Server, era: EraPreference) -> Client {
    let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
    let serving = server.clone();
    tokio::spawn(async move { serving.serve(server_source, server_sink).await });
    let mut callbacks = ClientCallbacks::default();
    let elicit: InputCallback =
        Arc::new(|_: Value| Box::pin(async { Ok(json!({"action": "accept", "content": {"ok": true}})) }));
    callbacks.elicitation = Some(elicit);
    let options = ClientOptions { era, ..ClientOptions::default() };
    Client::connect(client_source, client_sink, options, callbacks).await.unwrap()
}

fn server() -> Server {
    let server = Server::new("lowlevel", "1.0.0");
    let list = |params: Map<String, Value>, _: Context| async move {
        let page = params.get("cursor").and_then(Value::as_str).unwrap_or("first").to_owned();
        let next = (page == "first").then_some("second");
        Ok::<_, HandlerError>(json!({"tools": [{"name": page, "inputSchema": {"type": "object"}}], "nextCursor": next}))
    };
    server.set_feature_handler("tools/list", list).unwrap();
    let call = |params: Map<String, Value>, cx: Context| async move {
        let schema = json!({"type": "object", "properties": {"ok": {"type": "boolean"}}});
        let answer = cx
            .input(Some("confirm"), "elicitation/create", json!({"message": "sure?", "requestedSchema": schema}))
            .await?;
        let text = format!("{} {}", params["name"], answer["content"]["ok"]);
        Ok::<_, HandlerError>(json!({"content": [{"type": "text", "text": text}]}))
    };
    server.set_feature_handler("tools/call", call).unwrap();
    server
}

#[tokio::test]
async fn the_application_answers_tools_in_both_eras() {
    let server = server();
    for era in [EraPreference::Legacy, EraPreference::Modern] {
        let client = connect(&server, era).await;
        let first = client.request("tools/list", json!({}), RequestOptions::default()).await.unwrap();
        assert_eq!((first["tools"][0]["name"].as_str(), first["nextCursor"].as_str()), (Some("first"), Some("second")));
        let second =
            client.request("tools/list", json!({"cursor": "second"}), RequestOptions::default()).await.unwrap();
        assert_eq!(second["tools"][0]["name"], "second", "{era:?}: {second}");
        let call = json!({"name": "anything", "arguments": {}});
        let result = client.request("tools/call", call, RequestOptions::default()).await.unwrap();
        assert_eq!(result["content"][0]["text"], "\"anything\" true", "{era:?}: {result}");
        let tools = &client.server().capabilities["tools"];
        // A list the application answers announces changes only where the engine carries
        // them for it (the 2026-07-28 listen stream).
        assert_eq!(tools["listChanged"], json!(era == EraPreference::Modern), "{era:?}: {tools}");
        assert!(client.server().capabilities.get("prompts").is_none());
        client.close().await;
    }
}

#[test]
fn only_feature_methods_can_be_answered() {
    let server = Server::new("lowlevel", "1.0.0");
    let handler = |_: Map<String, Value>, _: Context| async { Ok::<_, HandlerError>(json!({})) };
    for method in APPLICATION_ANSWERED {
        server.set_feature_handler(method, handler).unwrap();
    }
    for method in ["initialize", "ping", "server/discover", "tasks/update", "example/custom"] {
        let error = server.set_feature_handler(method, handler).unwrap_err();
        assert!(matches!(&error, RegistryError::NotAnswerable(m) if m == method), "{error}");
    }
}
