//! ferrymcp-echo: the benchmark's echo server on ferrymcp's Rust API, the same server the
//! Python, Node and peer rows run: one `echo(text) -> text` tool, plus `MCP_BENCH_TOOLS`
//! filler tools (`tool_0000`, ...) for the `tools/list` measurement. Serves stdio.

use ferrymcp_core::server::Server;
use serde_json::{Map, Value, json};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let server = Server::new("echo", "1.0.0");
    let schema = json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]});
    let definition = json!({"name": "echo", "description": "Echo the text back.", "inputSchema": schema});
    server.add_tool(definition, |args: Map<String, Value>, _cx| async move { Ok(echo(&args)) }).expect("a valid tool");
    let fillers: usize = std::env::var("MCP_BENCH_TOOLS").ok().and_then(|n| n.parse().ok()).unwrap_or(0);
    for i in 0..fillers {
        let definition = json!({"name": format!("tool_{i:04}"), "description": format!("Benchmark filler tool number {i}."), "inputSchema": schema});
        server.add_tool(definition, |args: Map<String, Value>, _cx| async move { Ok(echo(&args)) }).expect("a valid tool");
    }
    server.serve_stdio().await.map(drop)
}

fn echo(args: &Map<String, Value>) -> Value {
    json!({"content": [{"type": "text", "text": args.get("text").and_then(Value::as_str).unwrap_or("")}]})
}
