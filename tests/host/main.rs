//! The multi-server host (core's `host` module) against real servers: the official
//! reference servers (`@modelcontextprotocol/server-everything`, `server-filesystem`,
//! `server-memory`, installed by `scripts/test.sh` under `tests/interop/node_modules`) and
//! ferrymcp servers, all named in one `mcp.json` file and started as real processes.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::client::{ClientCallbacks, ClientOptions};
use ferrymcp_core::host::config::McpConfig;
use ferrymcp_core::host::group::{ClientGroup, GroupError, GroupOptions, ServerState};
use ferrymcp_core::host::llm::{LlmApi, tool_definitions, tool_result};
use ferrymcp_core::peer::RequestOptions;
use ferrymcp_core::proxy::gateway::UpstreamEvent;
use serde_json::{Value, json};
use tokio::sync::mpsc;

fn reference(name: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("interop/node_modules/@modelcontextprotocol/{name}/dist/index.js"));
    if path.exists() {
        return Some(path);
    }
    assert!(std::env::var_os("CI").is_none(), "CI must install {path:?}: run scripts/test.sh");
    eprintln!("skipped: {path:?} is not installed (scripts/test.sh installs it)");
    None
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrymcp-host-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The `mcp.json` text: the three reference servers, two ferrymcp servers (whose tools
/// collide) and a server whose command does not exist.
fn config_text(files: &Path, memory: &Path) -> Option<String> {
    let (everything, filesystem, memory_server) =
        (reference("server-everything")?, reference("server-filesystem")?, reference("server-memory")?);
    let ferry = env!("CARGO_BIN_EXE_ferrymcp-everything");
    Some(
        json!({"mcpServers": {
            "everything": {"command": "node", "args": [everything, "stdio"]},
            "files": {"command": "node", "args": [filesystem, files]},
            "memory": {"command": "node", "args": [memory_server], "env": {"MEMORY_FILE_PATH": memory}},
            "ferry": {"command": ferry},
            "ferry2": {"type": "stdio", "command": ferry, "cwd": files},
            "broken": {"command": "/nonexistent/ferrymcp-no-such-server"},
        }})
        .to_string(),
    )
}

type Events = mpsc::UnboundedReceiver<(String, String)>;

async fn start(text: &str) -> (ClientGroup, Events) {
    let config = McpConfig::parse(text).expect("an mcp.json file");
    let (sender, events) = mpsc::unbounded_channel();
    let on_event = Arc::new(move |name: &str, event: UpstreamEvent| {
        let kind = match event {
            UpstreamEvent::Connected { .. } => "connected",
            UpstreamEvent::Failed { .. } => "failed",
            UpstreamEvent::Lost { .. } => "lost",
        };
        let _ = sender.send((name.to_owned(), kind.to_owned()));
    });
    let options = GroupOptions {
        connect_timeout: Duration::from_secs(20),
        min_backoff: Duration::from_millis(100),
        max_backoff: Duration::from_secs(2),
    };
    let callbacks = Arc::new(|_: &str| ClientCallbacks::default());
    let group = ClientGroup::from_config(&config, options, ClientOptions::default(), callbacks, Some(on_event))
        .await
        .expect("a group");
    (group, events)
}

fn text_of(result: &Value) -> String {
    let blocks = result["content"].as_array().cloned().unwrap_or_default();
    blocks.iter().filter_map(|b| b["text"].as_str()).collect::<Vec<_>>().join("\n")
}

#[tokio::test]
async fn a_group_from_mcp_json_connects_names_routes_and_reconnects() {
    let (files, state) = (temp_dir("files"), temp_dir("memory"));
    std::fs::write(files.join("note.txt"), "the ferry leaves at noon").unwrap();
    let Some(text) = config_text(&files, &state.join("memory.jsonl")) else { return };
    let (group, mut events) = start(&text).await;

    // Connected in parallel; the broken server is reported, the others are up.
    let states: Vec<(String, ServerState)> = group.servers().into_iter().map(|s| (s.name, s.state)).collect();
    let names: Vec<&str> = states.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["broken", "everything", "ferry", "ferry2", "files", "memory"]);
    for (name, state) in &states {
        match name.as_str() {
            "broken" => {
                assert!(matches!(state, ServerState::Failed(e) if e.contains("ferrymcp-no-such-server")), "{state:?}")
            }
            _ => assert_eq!(state, &ServerState::Connected, "{name}"),
        }
    }

    // Names: unique ones as they are, the two ferrymcp servers' prefixed.
    let tools = group.list_tools().await;
    let named = |name: &str| tools.iter().find(|t| t.name == name).map(|t| t.server.clone());
    assert_eq!(named("echo").as_deref(), Some("everything"));
    assert_eq!(named("read_text_file").as_deref(), Some("files"));
    assert_eq!(named("create_entities").as_deref(), Some("memory"));
    assert_eq!(named("ferry__test_simple_text").as_deref(), Some("ferry"));
    assert_eq!(named("ferry2__test_simple_text").as_deref(), Some("ferry2"));
    assert_eq!(named("test_simple_text"), None);
    let error = group.call_tool("test_simple_text", json!({}), RequestOptions::default()).await.unwrap_err();
    assert!(matches!(&error, GroupError::Ambiguous { candidates, .. } if candidates.len() == 2), "{error}");

    // Calls are routed to their servers.
    let echo = group.call_tool("echo", json!({"message": "over the group"}), RequestOptions::default()).await.unwrap();
    assert!(text_of(&echo).contains("over the group"), "{echo}");
    let note = json!({"path": files.join("note.txt")});
    let read = group.call_tool("read_text_file", note, RequestOptions::default()).await.unwrap();
    assert_eq!(text_of(&read), "the ferry leaves at noon");
    let entity = json!({"entities": [{"name": "Ferry", "entityType": "boat", "observations": ["leaves at noon"]}]});
    group.call_tool("create_entities", entity, RequestOptions::default()).await.unwrap();
    let graph = group.call_tool("read_graph", json!({}), RequestOptions::default()).await.unwrap();
    assert!(text_of(&graph).contains("leaves at noon"), "{graph}");
    let simple = group.call_tool("ferry2__test_simple_text", json!({}), RequestOptions::default()).await.unwrap();
    assert!(!text_of(&simple).is_empty(), "{simple}");
    let unknown = group.call_tool("no_such_tool", json!({}), RequestOptions::default()).await.unwrap_err();
    assert!(matches!(unknown, GroupError::UnknownTool(_)), "{unknown}");
    let down = group.call_tool("broken__anything", json!({}), RequestOptions::default()).await.unwrap_err();
    assert!(matches!(&down, GroupError::NotConnected { server, .. } if server == "broken"), "{down}");

    // A killed server is reconnected (a new process), and its tools answer again.
    let before = group.servers().into_iter().find(|s| s.name == "ferry").unwrap();
    let pid = before.pid.expect("a stdio server's pid");
    while events.try_recv().is_ok() {}
    // SAFETY: kill(2) on the process this test's group started.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGKILL) }, 0);
    let mut seen = Vec::new();
    while seen.last().map(String::as_str) != Some("connected") {
        let (name, kind) = tokio::time::timeout(Duration::from_secs(30), events.recv()).await.unwrap().unwrap();
        if name == "ferry" {
            seen.push(kind);
        }
    }
    assert_eq!(seen, ["lost", "connected"]);
    let after = group.servers().into_iter().find(|s| s.name == "ferry").unwrap();
    assert_eq!((after.state, after.connections), (ServerState::Connected, 2));
    assert_ne!(after.pid, Some(pid));
    let again = group.call_tool("ferry__test_simple_text", json!({}), RequestOptions::default()).await.unwrap();
    assert_eq!(again, simple);

    group.close().await;
    let _ = std::fs::remove_dir_all(&files);
    let _ = std::fs::remove_dir_all(&state);
}

#[tokio::test]
async fn real_tools_and_results_in_the_llm_apis_shapes() {
    let Some(everything) = reference("server-everything") else { return };
    let text = json!({"servers": {"everything": {"command": "node", "args": [everything, "stdio"]}}}).to_string();
    let (group, _events) = start(&text).await;
    let tools = group.list_tools().await;
    let definitions: Vec<Value> = tools.iter().map(|t| t.definition()).collect();
    let sum = definitions.iter().find(|t| t["name"] == "get-sum").unwrap().clone();

    let chat = tool_definitions(LlmApi::OpenAiChat, &definitions);
    let chat_sum = chat.as_array().unwrap().iter().find(|t| t["function"]["name"] == "get-sum").unwrap();
    assert_eq!(chat_sum["type"], "function");
    assert_eq!(chat_sum["function"]["parameters"], sum["inputSchema"]);
    let responses = tool_definitions(LlmApi::OpenAiResponses, &definitions);
    assert!(responses.as_array().unwrap().iter().all(|t| t["strict"] == false && t["parameters"]["type"] == "object"));
    let anthropic = tool_definitions(LlmApi::Anthropic, &definitions);
    let anthropic_sum = anthropic.as_array().unwrap().iter().find(|t| t["name"] == "get-sum").unwrap();
    assert_eq!(anthropic_sum["input_schema"], sum["inputSchema"]);
    assert_eq!(anthropic_sum["description"], sum["description"]);

    // An image result: the picture reaches each API as an image, not as text.
    let image = group.call_tool("get-tiny-image", json!({}), RequestOptions::default()).await.unwrap();
    let png = image["content"].as_array().unwrap().iter().find(|b| b["type"] == "image").unwrap();
    let data = png["data"].as_str().unwrap();
    let chat = tool_result(LlmApi::OpenAiChat, "call_1", &image);
    assert_eq!(chat[0]["role"], "tool");
    assert_eq!(chat[0]["tool_call_id"], "call_1");
    assert_eq!(chat[1]["content"][1]["image_url"]["url"], format!("data:image/png;base64,{data}"));
    let anthropic = tool_result(LlmApi::Anthropic, "toolu_1", &image);
    let block = anthropic[0]["content"].as_array().unwrap().iter().find(|b| b["type"] == "image").unwrap().clone();
    assert_eq!(block["source"], json!({"type": "base64", "media_type": "image/png", "data": data}));

    // Structured content, echoed in text by the server, is not repeated.
    let weather = group.call_tool("get-structured-content", json!({"location": "New York"}), RequestOptions::default());
    let weather = weather.await.unwrap();
    assert!(weather["structuredContent"].is_object(), "{weather}");
    let output = tool_result(LlmApi::OpenAiResponses, "call_2", &weather);
    assert_eq!(output[0]["output"], json!(text_of(&weather)));
    group.close().await;
}
