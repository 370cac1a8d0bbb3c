//! hello-server: the ten-line MCP server of the README (stdio, both eras).

use ferrymcp_core::server::Server;
use serde_json::{Value, json};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let server = Server::new("hello", "1.0.0");
    let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    server
        .add_tool(json!({"name": "greet", "description": "Say hello", "inputSchema": schema}), |args: serde_json::Map<String, Value>, _cx| async move {
            Ok(json!({"content": [{"type": "text", "text": format!("Hello, {}!", args["name"].as_str().unwrap_or("you"))}]}))
        })
        .expect("a valid tool");
    server.serve_stdio().await.map(drop)
}
