//! The capabilities a server declares, derived from what it has and merged with what its
//! author states: a real server and a raw JSON-RPC peer over the in-memory transport, asking
//! `initialize` at every legacy revision and `server/discover` at 2026-07-28, each answer
//! checked against the official schema of its revision.

use std::path::PathBuf;

use ferrymcp_core::client::ClientCallbacks;
use ferrymcp_core::peer::{Peer, PeerConfig, RequestOptions};
use ferrymcp_core::protocol::ServerCapabilities;
use ferrymcp_core::server::{Context, Features, Server, ServerOptions};
use ferrymcp_core::transport::memory;
use serde_json::{Map, Value, json};

const LEGACY: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const MODERN: &str = "2026-07-28";

/// Panics unless `instance` is a valid `name` of `revision`'s schema.
fn assert_valid(revision: &str, name: &str, instance: &Value) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("../tests/mcp-schema/{revision}.schema.json"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let defs = if doc.get("$defs").is_some() { "$defs" } else { "definitions" };
    let root = json!({"$schema": doc["$schema"], "$ref": format!("#/{defs}/{name}"), defs: doc[defs]});
    let validator = jsonschema::validator_for(&root).expect("the schema compiles");
    let errors: Vec<String> =
        validator.iter_errors(instance).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{instance} is not a valid {name} ({revision}): {}", errors.join("; "));
}

fn connect(server: &Server) -> Peer {
    let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
    let serving = server.clone();
    tokio::spawn(async move { serving.serve(server_source, server_sink).await });
    Peer::spawn(client_source, client_sink, ClientCallbacks::default().handler().unwrap(), PeerConfig::default())
}

async fn ask(peer: &Peer, method: &str, params: Value) -> Value {
    let raw = peer.request(method, Some(&params), RequestOptions::default()).await.unwrap();
    raw.parse_owned().unwrap()
}

/// The capabilities `initialize` answers at `version` (on a new connection).
async fn initialized(server: &Server, version: &str) -> Value {
    let params =
        json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "caps", "version": "1"}});
    let result = ask(&connect(server), "initialize", params).await;
    assert_valid(version, "InitializeResult", &result);
    result["capabilities"].clone()
}

/// The capabilities `server/discover` answers.
async fn discovered(server: &Server) -> Value {
    let meta = json!({"_meta": {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "caps", "version": "1"},
    }});
    let result = ask(&connect(server), "server/discover", meta).await;
    assert_valid(MODERN, "DiscoverResult", &result);
    result["capabilities"].clone()
}

/// Checks that every legacy revision's `initialize` and `server/discover` declare `legacy`
/// and `modern`; at 2025-11-25 a server with a task-supporting tool also declares that
/// revision's `tasks`.
async fn declares(server: &Server, legacy: Value, modern: Value) {
    for version in LEGACY {
        let mut expected = legacy.clone();
        if version == "2025-11-25" && modern["extensions"].get("io.modelcontextprotocol/tasks").is_some() {
            expected["tasks"] = json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}});
        }
        assert_eq!(initialized(server, version).await, expected, "initialize at {version}");
    }
    assert_eq!(discovered(server).await, modern, "server/discover");
}

fn tool(server: &Server, name: &str, task_support: Option<&str>) {
    let mut definition = json!({"name": name, "inputSchema": {"type": "object"}});
    if let Some(support) = task_support {
        definition["execution"] = json!({"taskSupport": support});
    }
    let handler = |_: Map<String, Value>, _: Context| async { Ok(json!({"content": []})) };
    server.add_tool(definition, handler).unwrap();
}

fn caps(value: Value) -> ServerCapabilities {
    serde_json::from_value(value).unwrap()
}

#[tokio::test]
async fn an_empty_server_declares_only_logging() {
    let server = Server::new("empty", "1.0.0");
    declares(&server, json!({"logging": {}}), json!({"logging": {}})).await;
}

#[tokio::test]
async fn a_server_with_only_tools_declares_tools() {
    let server = Server::new("tools", "1.0.0");
    tool(&server, "echo", None);
    let expected = json!({"tools": {"listChanged": true}, "logging": {}});
    declares(&server, expected.clone(), expected.clone()).await;
    // Removing the last tool keeps the declaration: the list may fill again.
    assert!(server.remove_tool("echo"));
    declares(&server, expected.clone(), expected).await;
}

#[tokio::test]
async fn a_server_with_only_prompts_declares_prompts() {
    let server = Server::new("prompts", "1.0.0");
    let handler = |_: Map<String, Value>, _: Context| async { Ok(json!({"messages": []})) };
    server.add_prompt(json!({"name": "greet"}), handler).unwrap();
    let expected = json!({"prompts": {"listChanged": true}, "logging": {}});
    declares(&server, expected.clone(), expected).await;
}

#[tokio::test]
async fn templates_and_completion_declare_resources_and_completions() {
    let server = Server::new("resources", "1.0.0");
    let read = |_: String, _: Map<String, Value>, _: Context| async { Ok(json!({"contents": []})) };
    server.add_resource_template(json!({"uriTemplate": "file:///{path}", "name": "files"}), read).unwrap();
    server.set_completion_handler(|_: Map<String, Value>, _: Context| async {
        Ok(json!({"completion": {"values": []}}))
    });
    let expected = json!({"resources": {"subscribe": true, "listChanged": true}, "logging": {}, "completions": {}});
    declares(&server, expected.clone(), expected).await;
}

#[tokio::test]
async fn tasks_are_declared_as_each_revision_has_them() {
    let server = Server::new("tasks", "1.0.0");
    tool(&server, "slow", Some("optional"));
    let legacy = json!({"tools": {"listChanged": true}, "logging": {}});
    for version in &LEGACY[..3] {
        assert_eq!(initialized(&server, version).await, legacy, "initialize at {version}");
    }
    // 2025-11-25 has tasks in the core protocol: `tasks` (list, cancel, task-augmented
    // tools/call); 2026-07-28 has the extension.
    let core_tasks = json!({"tools": {"listChanged": true}, "logging": {},
        "tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}});
    assert_eq!(initialized(&server, "2025-11-25").await, core_tasks);
    let modern = json!({"tools": {"listChanged": true}, "logging": {},
        "extensions": {"io.modelcontextprotocol/tasks": {}}});
    assert_eq!(discovered(&server).await, modern, "server/discover");
    // An author's own `tasks` stands as declared.
    server.register_capabilities(&caps(json!({"tasks": {"requests": {"tools": {"call": {}}}}}))).unwrap();
    let declared = initialized(&server, "2025-11-25").await;
    assert_eq!(declared["tasks"], json!({"requests": {"tools": {"call": {}}}}));
}

#[tokio::test]
async fn lists_registered_up_front_are_declared_while_empty() {
    let options = ServerOptions { features_up_front: Features::ALL, ..ServerOptions::default() };
    let server = Server::with_info(json!({"name": "python-like", "version": "1"}), None, options);
    let expected = json!({"tools": {"listChanged": true}, "resources": {"subscribe": true, "listChanged": true},
        "prompts": {"listChanged": true}, "logging": {}});
    declares(&server, expected.clone(), expected).await;
}

#[tokio::test]
async fn explicit_capabilities_merge_over_the_derived_ones() {
    let server = Server::new("explicit", "1.0.0");
    tool(&server, "slow", Some("optional"));
    server
        .register_capabilities(&caps(json!({
            "tools": {"listChanged": false},
            "prompts": {},
            "experimental": {"com.example/beta": {"level": 2}},
            "extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html"]}},
        })))
        .unwrap();
    server.register_capabilities(&caps(json!({"experimental": {"com.example/more": {}}}))).unwrap();
    let experimental = json!({"com.example/beta": {"level": 2}, "com.example/more": {}});
    let legacy = json!({"tools": {"listChanged": false}, "prompts": {}, "logging": {}, "experimental": experimental,
        "extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html"]}}});
    let modern = json!({"tools": {"listChanged": false}, "prompts": {}, "logging": {}, "experimental": experimental,
        "extensions": {"io.modelcontextprotocol/tasks": {}, "io.modelcontextprotocol/ui": {"mimeTypes": ["text/html"]}}});
    declares(&server, legacy, modern).await;
    assert_eq!(serde_json::to_value(server.capabilities(true)).unwrap(), discovered(&server).await);
}

#[tokio::test]
async fn an_extension_that_is_not_an_object_is_refused_by_name() {
    let server = Server::new("bad", "1.0.0");
    let error = server.register_capabilities(&caps(json!({"experimental": {"com.example/flag": true}}))).unwrap_err();
    assert!(error.contains("capabilities.experimental[\"com.example/flag\"] must be an object"), "{error}");
    declares(&server, json!({"logging": {}}), json!({"logging": {}})).await;
}
