//! `ServerOptions::dialect`: the official Python SDK's answers where the official SDKs
//! differ (capabilities, error wording, completion totals), against the default's, over
//! the in-memory transport with a raw JSON-RPC peer, in both eras.

use ferrymcp_core::client::ClientCallbacks;
use ferrymcp_core::peer::{Peer, PeerConfig, PeerError, RequestOptions};
use ferrymcp_core::server::{Context, Dialect, Features, HandlerError, Server, ServerOptions};
use ferrymcp_core::transport::memory;
use ferrymcp_core::wire::ErrorObject;
use serde_json::{Map, Value, json};

const LEGACY: &str = "2025-11-25";
const MODERN: &str = "2026-07-28";

fn server(dialect: Dialect, up_front: Features) -> Server {
    let options = ServerOptions { dialect, features_up_front: up_front, ..ServerOptions::default() };
    Server::with_info(json!({"name": "dialect", "version": "1"}), None, options)
}

/// A server like the official Python `MCPServer`: lists up front, a failing resource, a
/// prompt with a required argument, and a completion that says only its values.
fn mcpserver(dialect: Dialect) -> Server {
    let server = server(dialect, Features::ALL);
    let fail =
        |_: String, _: Map<String, Value>, _: Context| async { Err::<Value, _>(HandlerError::from("disk on fire")) };
    server.add_resource(json!({"uri": "data://broken", "name": "broken"}), fail).unwrap();
    let greet = |arguments: Map<String, Value>, _: Context| async move {
        Ok(json!({"messages": [{"role": "user", "content": {"type": "text", "text": arguments["who"]}}]}))
    };
    server.add_prompt(json!({"name": "greet", "arguments": [{"name": "who", "required": true}]}), greet).unwrap();
    server.set_completion_handler(|_: Map<String, Value>, _: Context| async {
        Ok(json!({"completion": {"values": ["python"]}}))
    });
    server
}

/// A low-level server: the application answers `tools/list` and `tools/call`, the call
/// failing as a handler's `KeyError` does.
fn lowlevel(dialect: Dialect) -> Server {
    let server = server(dialect, Features::NONE);
    let list = |_: Map<String, Value>, _: Context| async { Ok::<_, HandlerError>(json!({"tools": []})) };
    server.set_feature_handler("tools/list", list).unwrap();
    let call = |_: Map<String, Value>, _: Context| async { Err::<Value, _>(HandlerError::from("'query'")) };
    server.set_feature_handler("tools/call", call).unwrap();
    server
}

/// A connection whose session is initialized at `revision` (legacy), or none (modern).
async fn connect(server: &Server, revision: &str) -> Peer {
    let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
    let serving = server.clone();
    tokio::spawn(async move { serving.serve(server_source, server_sink).await });
    let peer =
        Peer::spawn(client_source, client_sink, ClientCallbacks::default().handler().unwrap(), PeerConfig::default());
    if revision != MODERN {
        let params =
            json!({"protocolVersion": revision, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
        peer.request("initialize", Some(&params), RequestOptions::default()).await.unwrap();
        peer.notify("notifications/initialized", None::<&Value>).await.unwrap();
    }
    peer
}

/// `method`'s answer at `revision`: the result, or the error object as JSON.
async fn ask(peer: &Peer, revision: &str, method: &str, mut params: Value) -> Result<Value, Value> {
    if revision == MODERN {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
        });
    }
    match peer.request(method, Some(&params), RequestOptions::default()).await {
        Ok(raw) => Ok(raw.parse_owned().unwrap()),
        Err(PeerError::Rpc(error)) => Err(serde_json::to_value(error).unwrap()),
        Err(other) => panic!("{method}: {other}"),
    }
}

async fn capabilities(server: &Server, revision: &str) -> Value {
    let peer = connect(server, MODERN).await;
    if revision == MODERN {
        return ask(&peer, MODERN, "server/discover", json!({})).await.unwrap()["capabilities"].clone();
    }
    let params = json!({"protocolVersion": revision, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
    ask(&peer, revision, "initialize", params).await.unwrap()["capabilities"].clone()
}

#[tokio::test]
async fn the_python_sdk_declares_logging_only_with_a_set_level_handler() {
    for revision in [LEGACY, MODERN] {
        let caps = capabilities(&mcpserver(Dialect::PythonSdk), revision).await;
        assert_eq!(caps.get("logging"), None, "{revision}: {caps}");
        assert_eq!(capabilities(&mcpserver(Dialect::Ferrymcp), revision).await["logging"], json!({}));
    }
    // Without the handler `logging/setLevel` is not served, as the official runner answers.
    let python = mcpserver(Dialect::PythonSdk);
    let peer = connect(&python, LEGACY).await;
    let refused = ask(&peer, LEGACY, "logging/setLevel", json!({"level": "info"})).await.unwrap_err();
    assert_eq!(refused, json!({"code": -32601, "message": "Method not found", "data": "logging/setLevel"}));
    // With it, `logging` is declared and the handler answers (core keeps the level too).
    let set_level = |_: Map<String, Value>, _: Context| async { Ok::<_, HandlerError>(json!({"handled": true})) };
    python.set_feature_handler("logging/setLevel", set_level).unwrap();
    assert_eq!(capabilities(&python, LEGACY).await["logging"], json!({}));
    let peer = connect(&python, LEGACY).await;
    assert_eq!(ask(&peer, LEGACY, "logging/setLevel", json!({"level": "info"})).await, Ok(json!({"handled": true})));
    assert_eq!(ask(&peer, LEGACY, "logging/setLevel", json!({"level": "loud"})).await.unwrap_err()["code"], -32602);
}

#[tokio::test]
async fn an_application_answered_list_announces_no_changes_in_the_python_sdk() {
    for revision in [LEGACY, MODERN] {
        let python = capabilities(&lowlevel(Dialect::PythonSdk), revision).await;
        assert_eq!(python, json!({"tools": {"listChanged": false}}), "{revision}");
    }
    // ferrymcp's own: changes reach 2026-07-28 clients on `subscriptions/listen`.
    let ours = capabilities(&lowlevel(Dialect::Ferrymcp), MODERN).await;
    assert_eq!(ours, json!({"tools": {"listChanged": true}, "logging": {}}));
}

#[tokio::test]
async fn a_kept_list_announces_changes_to_legacy_clients_only_as_the_python_sdk_declares() {
    let lists = |changes: bool| {
        json!({
            "tools": {"listChanged": changes},
            "resources": {"subscribe": changes, "listChanged": changes},
            "prompts": {"listChanged": changes},
            "completions": {},
        })
    };
    // The official `MCPServer`: `false` to a legacy client though it keeps the lists (its
    // application sends list changes itself), `true` to a 2026-07-28 one.
    assert_eq!(capabilities(&mcpserver(Dialect::PythonSdk), LEGACY).await, lists(false));
    assert_eq!(capabilities(&mcpserver(Dialect::PythonSdk), MODERN).await, lists(true));
    let mut ours = lists(true);
    ours["logging"] = json!({});
    assert_eq!(capabilities(&mcpserver(Dialect::Ferrymcp), LEGACY).await, ours);
    // A list change the application sends still reaches the legacy client.
    let python = mcpserver(Dialect::PythonSdk);
    let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
    let serving = python.clone();
    tokio::spawn(async move { serving.serve(server_source, server_sink).await });
    let (sent, mut received) = tokio::sync::mpsc::unbounded_channel();
    let callbacks = ClientCallbacks {
        notification: Some(std::sync::Arc::new(move |method: &str, _: Value| {
            let _ = sent.send(method.to_owned());
        })),
        ..ClientCallbacks::default()
    };
    let peer = Peer::spawn(client_source, client_sink, callbacks.handler().unwrap(), PeerConfig::default());
    let params = json!({"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
    peer.request("initialize", Some(&params), RequestOptions::default()).await.unwrap();
    peer.notify("notifications/initialized", None::<&Value>).await.unwrap();
    ask(&peer, LEGACY, "ping", json!({})).await.unwrap();
    python.notify_tools_changed().await;
    assert_eq!(received.recv().await.as_deref(), Some("notifications/tools/list_changed"));
}

#[tokio::test]
async fn the_python_sdks_1x_api_declares_experimental_and_no_subscribe() {
    let v1 = |python_v1: bool| {
        let options = ServerOptions { dialect: Dialect::PythonSdk, python_v1, ..ServerOptions::default() };
        let server = Server::with_info(json!({"name": "v1", "version": "1"}), None, options);
        let list = |_: Map<String, Value>, _: Context| async { Ok::<_, HandlerError>(json!({"resources": []})) };
        server.set_feature_handler("resources/list", list).unwrap();
        let subscribe = |_: Map<String, Value>, _: Context| async { Ok::<_, HandlerError>(json!({})) };
        server.set_feature_handler("resources/subscribe", subscribe).unwrap();
        server
    };
    let caps = capabilities(&v1(true), LEGACY).await;
    assert_eq!(caps, json!({"experimental": {}, "resources": {"subscribe": false, "listChanged": false}}));
    // 2.x: no empty `experimental`, and the handler makes `subscribe` true.
    let caps = capabilities(&v1(false), LEGACY).await;
    assert_eq!(caps, json!({"resources": {"subscribe": true, "listChanged": false}}));
}

#[tokio::test]
async fn a_tool_without_content_keeps_it_empty_in_the_python_sdk() {
    for (dialect, content) in
        [(Dialect::PythonSdk, json!([])), (Dialect::Ferrymcp, json!([{"type": "text", "text": "{\"result\":[]}"}]))]
    {
        let server = server(dialect, Features::ALL);
        let schema = json!({"type": "object", "properties": {"result": {"type": "array"}}, "required": ["result"]});
        let definition = json!({"name": "none", "inputSchema": {"type": "object"}, "outputSchema": schema});
        let empty = |_: Map<String, Value>, _: Context| async {
            Ok::<_, HandlerError>(json!({"content": [], "structuredContent": {"result": []}}))
        };
        server.add_tool(definition, empty).unwrap();
        let peer = connect(&server, LEGACY).await;
        let result = ask(&peer, LEGACY, "tools/call", json!({"name": "none", "arguments": {}})).await.unwrap();
        assert_eq!(result["content"], content, "{dialect:?}");
        assert_eq!(result["structuredContent"], json!({"result": []}));
    }
}

#[tokio::test]
async fn errors_are_worded_as_the_official_python_sdk_words_them() {
    for revision in [LEGACY, MODERN] {
        let peer = connect(&mcpserver(Dialect::PythonSdk), revision).await;
        let missing = ask(&peer, revision, "resources/read", json!({"uri": "data://nothing"})).await.unwrap_err();
        let expected =
            json!({"code": -32602, "message": "Unknown resource: data://nothing", "data": {"uri": "data://nothing"}});
        assert_eq!(missing, expected, "{revision}");
        let broken = ask(&peer, revision, "resources/read", json!({"uri": "data://broken"})).await.unwrap_err();
        let expected = json!({"code": -32603, "message": "Error reading resource data://broken", "data": {"uri": "data://broken"}});
        assert_eq!(broken, expected, "{revision}");
        // A failure is sanitised at 2026-07-28, and code 0 with its own text before.
        let failed = |text: &str| match revision {
            MODERN => json!({"code": -32603, "message": "Internal server error"}),
            _ => json!({"code": 0, "message": text}),
        };
        let no_argument = ask(&peer, revision, "prompts/get", json!({"name": "greet"})).await.unwrap_err();
        assert_eq!(no_argument, failed("Missing required arguments: {'who'}"), "{revision}");
        let no_prompt = ask(&peer, revision, "prompts/get", json!({"name": "nope"})).await.unwrap_err();
        assert_eq!(no_prompt, failed("Unknown prompt: nope"), "{revision}");
        let unknown = ask(&peer, revision, "vendor/nothing", json!({})).await.unwrap_err();
        assert_eq!(unknown, json!({"code": -32601, "message": "Method not found", "data": "vendor/nothing"}));

        let peer = connect(&lowlevel(Dialect::PythonSdk), revision).await;
        let call = ask(&peer, revision, "tools/call", json!({"name": "search"})).await.unwrap_err();
        assert_eq!(call, failed("'query'"), "{revision}");
        // No resources handler: the method is not found, not the resource.
        let unserved = ask(&peer, revision, "resources/read", json!({"uri": "config://settings"})).await.unwrap_err();
        assert_eq!(unserved, json!({"code": -32601, "message": "Method not found", "data": "resources/read"}));
        let unserved = ask(&peer, revision, "completion/complete", json!({})).await.unwrap_err();
        assert_eq!(unserved["data"], "completion/complete");
    }
    // 2026-07-28 removed `resources/subscribe`: the era check's -32601, worded the same.
    let peer = connect(&mcpserver(Dialect::PythonSdk), MODERN).await;
    let removed = ask(&peer, MODERN, "resources/subscribe", json!({"uri": "data://broken"})).await.unwrap_err();
    assert_eq!(removed, json!({"code": -32601, "message": "Method not found", "data": "resources/subscribe"}));
}

#[tokio::test]
async fn the_default_keeps_ferrymcps_wording() {
    let peer = connect(&mcpserver(Dialect::Ferrymcp), LEGACY).await;
    let missing = ask(&peer, LEGACY, "resources/read", json!({"uri": "data://nothing"})).await.unwrap_err();
    assert_eq!(
        (missing["code"].clone(), missing["message"].clone()),
        (json!(-32002), json!("Resource not found: data://nothing"))
    );
    let no_argument = ask(&peer, LEGACY, "prompts/get", json!({"name": "greet"})).await.unwrap_err();
    assert_eq!(no_argument["code"], -32602);
    let unknown = ask(&peer, LEGACY, "vendor/nothing", json!({})).await.unwrap_err();
    assert_eq!(unknown, json!({"code": -32601, "message": "Method not found: vendor/nothing"}));
    let peer = connect(&lowlevel(Dialect::Ferrymcp), LEGACY).await;
    let failed = ask(&peer, LEGACY, "tools/call", json!({"name": "search"})).await.unwrap_err();
    assert_eq!(failed["message"], "tools/call failed: 'query'");
}

#[tokio::test]
async fn a_completion_is_answered_as_the_handler_gave_it_in_the_python_sdk() {
    let params = json!({"ref": {"type": "ref/prompt", "name": "greet"}, "argument": {"name": "who", "value": "p"}});
    for revision in [LEGACY, MODERN] {
        let peer = connect(&mcpserver(Dialect::PythonSdk), revision).await;
        let answer = ask(&peer, revision, "completion/complete", params.clone()).await.unwrap();
        assert_eq!(answer["completion"], json!({"values": ["python"]}), "{revision}");
        let peer = connect(&mcpserver(Dialect::Ferrymcp), revision).await;
        let answer = ask(&peer, revision, "completion/complete", params.clone()).await.unwrap();
        assert_eq!(answer["completion"], json!({"values": ["python"], "total": 1, "hasMore": false}), "{revision}");
    }
}

/// A tool that elicits (`cx.elicit`) and says how it went.
fn eliciting(dialect: Dialect) -> Server {
    let server = server(dialect, Features::NONE);
    let ask = |_: Map<String, Value>, cx: Context| async move {
        let said = match cx.elicit(json!({"message": "ok?", "requestedSchema": {"type": "object"}})).await {
            Ok(answer) => format!("answered {answer}"),
            Err(HandlerError::Rpc(error)) => format!("{} {}", error.code, error.message),
            Err(other) => format!("failed {other:?}"),
        };
        Ok::<_, HandlerError>(json!({"content": [{"type": "text", "text": said}]}))
    };
    server.add_tool(json!({"name": "ask", "inputSchema": {"type": "object"}}), ask).unwrap();
    server
}

async fn said(server: &Server, revision: &str) -> String {
    let peer = connect(server, revision).await;
    let result = ask(&peer, revision, "tools/call", json!({"name": "ask", "arguments": {}})).await.unwrap();
    result["content"][0]["text"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn the_python_sdks_elicit_is_a_session_request() {
    // Sent on a legacy session whatever the client declared: this client has no callback,
    // and its own -32601 comes back to the handler.
    let python = eliciting(Dialect::PythonSdk);
    assert_eq!(said(&python, LEGACY).await, "-32601 Method not found: elicitation/create");
    // At 2026-07-28 there is no back-channel.
    assert_eq!(
        said(&python, MODERN).await,
        "-32600 Cannot send 'elicitation/create': this transport context has no back-channel for server-initiated requests."
    );
    // ferrymcp's own: refused before sending on a legacy session, a round at 2026-07-28
    // (here refused up front, the client having declared nothing).
    let ours = eliciting(Dialect::Ferrymcp);
    assert!(said(&ours, LEGACY).await.starts_with("failed"));
    assert!(said(&ours, MODERN).await.starts_with("-32021 "));
}

/// A server like the official TypeScript `McpServer`: lists registered as used, a tool that
/// logs and says whether the message went out.
fn typescript_mcpserver() -> Server {
    let server = server(Dialect::TypeScriptSdk, Features::NONE);
    let shout = |_: Map<String, Value>, cx: Context| async move {
        let sent = cx.log("error", json!("shouted"), None).await;
        Ok::<_, HandlerError>(json!({"content": [{"type": "text", "text": format!("sent {sent}")}]}))
    };
    server.add_tool(json!({"name": "shout", "inputSchema": {"type": "object"}}), shout).unwrap();
    let read = |uri: String, _: Map<String, Value>, _: Context| async move { Ok(json!({"contents": [{"uri": uri}]})) };
    server.add_resource(json!({"uri": "data://a", "name": "a"}), read).unwrap();
    server
}

#[tokio::test]
async fn the_typescript_sdk_declares_logging_and_subscribe_only_as_given() {
    let lists = json!({"tools": {"listChanged": true}, "resources": {"listChanged": true}});
    for revision in [LEGACY, MODERN] {
        assert_eq!(capabilities(&typescript_mcpserver(), revision).await, lists, "{revision}");
        let peer = connect(&typescript_mcpserver(), revision).await;
        let called = ask(&peer, revision, "tools/call", json!({"name": "shout"})).await.unwrap();
        assert_eq!(called["content"][0]["text"], "sent false", "{revision}");
    }
    let peer = connect(&typescript_mcpserver(), LEGACY).await;
    let refused = ask(&peer, LEGACY, "logging/setLevel", json!({"level": "info"})).await.unwrap_err();
    assert_eq!(refused, json!({"code": -32601, "message": "Method not found"}));

    let declared = typescript_mcpserver();
    let given = serde_json::from_value(json!({"logging": {}, "resources": {"subscribe": true}})).unwrap();
    declared.register_capabilities(&given).unwrap();
    let expected =
        json!({"tools": {"listChanged": true}, "resources": {"listChanged": true, "subscribe": true}, "logging": {}});
    for revision in [LEGACY, MODERN] {
        assert_eq!(capabilities(&declared, revision).await, expected, "{revision}");
    }
    let peer = connect(&declared, LEGACY).await;
    assert_eq!(ask(&peer, LEGACY, "logging/setLevel", json!({"level": "info"})).await, Ok(json!({})));
    let called = ask(&peer, LEGACY, "tools/call", json!({"name": "shout"})).await.unwrap();
    assert_eq!(called["content"][0]["text"], "sent true");

    // A low-level server: exactly what the application declared, no `false` flags.
    for revision in [LEGACY, MODERN] {
        assert_eq!(capabilities(&lowlevel(Dialect::TypeScriptSdk), revision).await, json!({"tools": {}}), "{revision}");
    }
}

#[tokio::test]
async fn the_python_sdks_stream_keeps_the_era_its_first_request_opened() {
    let initialize =
        json!({"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
    let code = |answer: Result<Value, Value>| answer.err().map(|error| error["code"].as_i64().unwrap());

    let modern = connect(&mcpserver(Dialect::PythonSdk), MODERN).await;
    assert_eq!(code(ask(&modern, MODERN, "tools/list", json!({})).await), None);
    let refused = ask(&modern, LEGACY, "initialize", initialize.clone()).await.unwrap_err();
    assert_eq!(refused["code"], -32022);
    assert_eq!(refused["data"], json!({"supported": [MODERN], "requested": LEGACY}));
    // A request without the envelope runs the ladder's first rung.
    let bare = ask(&modern, LEGACY, "tools/list", json!({})).await.unwrap_err();
    assert_eq!(
        (bare["code"].as_i64(), bare["message"].as_str().unwrap().starts_with("params._meta")),
        (Some(-32602), true)
    );

    let legacy = connect(&mcpserver(Dialect::PythonSdk), LEGACY).await;
    let refused = ask(&legacy, MODERN, "tools/list", json!({})).await.unwrap_err();
    assert_eq!(refused["code"], -32600);
    assert_eq!(code(ask(&legacy, LEGACY, "tools/list", json!({})).await), None);

    // ferrymcp's own dialect serves each request in the era its `_meta` names.
    let either = connect(&mcpserver(Dialect::Ferrymcp), LEGACY).await;
    assert_eq!(code(ask(&either, MODERN, "tools/list", json!({})).await), None);
    assert_eq!(code(ask(&either, LEGACY, "tools/list", json!({})).await), None);
}

/// A server like the official 1.x `FastMCP` (`python_v1`), or, without it, 2.x's
/// `MCPServer`: a tool that raises the client's JSON-RPC error, one that raises -32042,
/// a failing static resource, a failing template and a failing prompt.
fn failing(python_v1: bool) -> Server {
    let options = ServerOptions {
        dialect: Dialect::PythonSdk,
        python_v1,
        tool_error_names_tool: true,
        features_up_front: Features::ALL,
        ..ServerOptions::default()
    };
    let server = Server::with_info(json!({"name": "v1", "version": "1"}), None, options);
    let refused = |_: Map<String, Value>, _: Context| async {
        Err::<Value, _>(HandlerError::Rpc(ErrorObject::new(-32600, "Elicitation not supported")))
    };
    server.add_tool(json!({"name": "pay", "inputSchema": {"type": "object"}}), refused).unwrap();
    let url = |_: Map<String, Value>, _: Context| async {
        Err::<Value, _>(HandlerError::Rpc(ErrorObject::new(-32042, "URL elicitation required")))
    };
    server.add_tool(json!({"name": "link", "inputSchema": {"type": "object"}}), url).unwrap();
    let fail =
        |_: String, _: Map<String, Value>, _: Context| async { Err::<Value, _>(HandlerError::from("disk gone")) };
    server.add_resource(json!({"uri": "data://broken", "name": "broken"}), fail).unwrap();
    server.add_resource_template(json!({"uriTemplate": "items://{name}", "name": "item"}), fail).unwrap();
    let prompt = |_: Map<String, Value>, _: Context| async { Err::<Value, _>(HandlerError::from("no file")) };
    server.add_prompt(json!({"name": "review"}), prompt).unwrap();
    server
}

#[tokio::test]
async fn the_python_sdk_1x_answers_failures_as_fastmcp() {
    for revision in [LEGACY, MODERN] {
        let peer = connect(&failing(true), revision).await;
        // A tool's JSON-RPC error is a tool error (both eras: 1.x's tools wrap it), but -32042.
        let paid = ask(&peer, revision, "tools/call", json!({"name": "pay", "arguments": {}})).await.unwrap();
        assert_eq!(paid["isError"], true, "{revision}");
        assert_eq!(paid["content"][0]["text"], "Error executing tool pay: Elicitation not supported");
        let link = ask(&peer, revision, "tools/call", json!({"name": "link", "arguments": {}})).await.unwrap_err();
        assert_eq!(link["code"], -32042, "{revision}");
        let read = |uri: &str| ask(&peer, revision, "resources/read", json!({"uri": uri}));
        let (broken, item, missing) = (read("data://broken").await, read("items://x").await, read("x://y").await);
        let prompt = ask(&peer, revision, "prompts/get", json!({"name": "review"})).await.unwrap_err();
        if revision == LEGACY {
            // Code 0 with the cause, worded as 1.x's `FastMCP` does.
            assert_eq!(
                broken.unwrap_err(),
                json!({"code": 0, "message": "Error reading resource data://broken: disk gone"})
            );
            let template = "Error creating resource from template: Error creating resource from template: disk gone";
            assert_eq!(item.unwrap_err(), json!({"code": 0, "message": template}));
            assert_eq!(missing.unwrap_err(), json!({"code": 0, "message": "Unknown resource: x://y"}));
            assert_eq!(prompt, json!({"code": 0, "message": "Error rendering prompt review: no file"}));
        } else {
            // 1.x has no 2026-07-28: 2.x's answers.
            assert_eq!(broken.unwrap_err()["code"], -32603);
            assert_eq!(missing.unwrap_err()["code"], -32602);
            assert_eq!(prompt, json!({"code": -32603, "message": "Internal server error"}));
        }
    }
    // 2.x: the tool's error is the call's answer, a failed read keeps its cause to itself,
    // and a failed prompt says which.
    let peer = connect(&failing(false), LEGACY).await;
    let paid = ask(&peer, LEGACY, "tools/call", json!({"name": "pay", "arguments": {}})).await.unwrap_err();
    assert_eq!(paid, json!({"code": -32600, "message": "Elicitation not supported"}));
    let broken = ask(&peer, LEGACY, "resources/read", json!({"uri": "data://broken"})).await.unwrap_err();
    assert_eq!(broken["message"], "Error reading resource data://broken");
    let item = ask(&peer, LEGACY, "resources/read", json!({"uri": "items://x"})).await.unwrap_err();
    let expected = json!({"code": -32603, "message": "Error creating resource from template items://x", "data": {"uri": "items://x"}});
    assert_eq!(item, expected);
    let prompt = ask(&peer, LEGACY, "prompts/get", json!({"name": "review"})).await.unwrap_err();
    assert_eq!(prompt, json!({"code": 0, "message": "Error rendering prompt review"}));
}

/// Core keeps a legacy session's subscriptions only for a server that declares
/// `resources.subscribe`; one that does not answers -32601 in its dialect's words, as the
/// official servers (which register no handler then) do.
#[tokio::test]
async fn resources_subscribe_is_served_only_where_it_is_declared() {
    let uri = json!({"uri": "data://a"});
    for method in ["resources/subscribe", "resources/unsubscribe"] {
        // The official Python `MCPServer` without subscription handlers.
        let peer = connect(&mcpserver(Dialect::PythonSdk), LEGACY).await;
        let refused = ask(&peer, LEGACY, method, uri.clone()).await.unwrap_err();
        assert_eq!(refused, json!({"code": -32601, "message": "Method not found", "data": method}));
        // The official TypeScript `McpServer` without `subscribe` declared, then with it.
        let peer = connect(&typescript_mcpserver(), LEGACY).await;
        let refused = ask(&peer, LEGACY, method, uri.clone()).await.unwrap_err();
        assert_eq!(refused, json!({"code": -32601, "message": "Method not found"}));
        let declared = typescript_mcpserver();
        declared
            .register_capabilities(&serde_json::from_value(json!({"resources": {"subscribe": true}})).unwrap())
            .unwrap();
        let peer = connect(&declared, LEGACY).await;
        assert_eq!(ask(&peer, LEGACY, method, uri.clone()).await, Ok(json!({})), "{method}");
        // ferrymcp's own dialect declares subscriptions with its resources, and serves them.
        let peer = connect(&mcpserver(Dialect::Ferrymcp), LEGACY).await;
        assert_eq!(ask(&peer, LEGACY, method, uri.clone()).await, Ok(json!({})), "{method}");
    }
}
