//! The client against the official reference server, `@modelcontextprotocol/server-everything`
//! (legacy era, stdio), installed by `scripts/test.sh` under `tests/interop/node_modules`.

use std::path::PathBuf;

use ferrymcp_core::client::child::{ChildCommand, StderrMode};
use ferrymcp_core::client::{Client, ClientCallbacks, ClientOptions};
use ferrymcp_core::peer::RequestOptions;
use serde_json::json;

fn reference_server() -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("interop/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    if path.exists() {
        return Some(path);
    }
    assert!(std::env::var_os("CI").is_none(), "CI must install the reference server ({path:?}): run scripts/test.sh");
    eprintln!("skipped: {path:?} is not installed (scripts/test.sh installs it)");
    None
}

#[tokio::test]
async fn lists_and_calls_the_reference_server() {
    let Some(server) = reference_server() else { return };
    let command = ChildCommand::new("node").arg(server).arg("stdio").stderr(StderrMode::Discard);
    let client = Client::spawn(command, ClientOptions::default(), ClientCallbacks::default()).await.expect("connect");
    assert!(!client.server().modern, "the reference server is legacy: the probe must fall back");

    let tools = serde_json::to_value(client.list_tools().await.unwrap()).unwrap();
    let names: Vec<&str> = tools.as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
    assert!(names.contains(&"echo"), "{names:?}");
    let echo = serde_json::to_value(
        client.call_tool("echo", json!({"message": "hi from ferrymcp"}), RequestOptions::default()).await.unwrap(),
    )
    .unwrap();
    assert!(echo["content"][0]["text"].as_str().unwrap().contains("hi from ferrymcp"), "{echo}");
    let sum = serde_json::to_value(
        client.call_tool("get-sum", json!({"a": 2, "b": 40}), RequestOptions::default()).await.unwrap(),
    )
    .unwrap();
    assert!(sum["content"][0]["text"].as_str().unwrap().contains("42"), "{sum}");

    let resources = serde_json::to_value(client.list_resources().await.unwrap()).unwrap();
    assert!(!resources.as_array().unwrap().is_empty());
    let uri = resources[0]["uri"].as_str().unwrap();
    let read = serde_json::to_value(client.read_resource(uri).await.unwrap()).unwrap();
    assert_eq!(read["contents"][0]["uri"], uri);

    let prompts = serde_json::to_value(client.list_prompts().await.unwrap()).unwrap();
    let simple = prompts.as_array().unwrap().iter().find(|p| {
        p.get("arguments").is_none_or(|a| a.as_array().is_some_and(|a| a.iter().all(|x| x["required"] != true)))
    });
    let simple = simple.expect("a prompt without required arguments");
    let got =
        serde_json::to_value(client.get_prompt(simple["name"].as_str().unwrap(), json!({})).await.unwrap()).unwrap();
    assert!(got["messages"].as_array().is_some_and(|m| !m.is_empty()), "{got}");
    client.close().await;
}
