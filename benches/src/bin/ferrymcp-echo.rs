//! ferrymcp-echo: the benchmark's echo server on ferrymcp's Rust API, the same server the
//! Python, Node and peer rows run: one `echo(text) -> text` tool, plus `MCP_BENCH_TOOLS`
//! filler tools (`tool_0000`, ...) for the `tools/list` measurement. Serves stdio, or
//! Streamable HTTP at `http://127.0.0.1:PORT/mcp` when started as `ferrymcp-echo http PORT`,
//! as one of several replicas sharing sessions, events and a bus in Redis with
//! `ferrymcp-echo http PORT REDIS_URL` (the scale-out benchmark, `benches/scaleout`).

use std::net::SocketAddr;

use ferrymcp_core::server::Server;
use ferrymcp_core::server::http::{HttpHandler, HttpSettings, ServeOptions, serve};
use ferrymcp_redis::{RedisOptions, RedisStore};
use serde_json::{Map, Value, json};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let server = Server::new("echo", "1.0.0");
    let schema = json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]});
    let definition = json!({"name": "echo", "description": "Echo the text back.", "inputSchema": schema});
    server.add_tool(definition, |args: Map<String, Value>, _cx| async move { Ok(echo(args)) }).expect("a valid tool");
    let fillers: usize = std::env::var("MCP_BENCH_TOOLS").ok().and_then(|n| n.parse().ok()).unwrap_or(0);
    for i in 0..fillers {
        let definition = json!({"name": format!("tool_{i:04}"), "description": format!("Benchmark filler tool number {i}."), "inputSchema": schema});
        server
            .add_tool(definition, |args: Map<String, Value>, _cx| async move { Ok(echo(args)) })
            .expect("a valid tool");
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => server.serve_stdio().await.map(drop),
        [mode, port, redis @ ..] if mode == "http" && redis.len() <= 1 => {
            let port = port.parse().map_err(|_| std::io::Error::other(format!("not a port: {port}")))?;
            let options = ServeOptions { addr: SocketAddr::from(([127, 0, 0, 1], port)), ..ServeOptions::default() };
            let mut settings = HttpSettings::default();
            if let [url] = redis {
                RedisStore::new(url, RedisOptions::default()).map_err(std::io::Error::other)?.configure(&mut settings);
            }
            let http = settings.resolve(Some("127.0.0.1")).map_err(std::io::Error::other)?;
            serve(HttpHandler::new(server, http), options).await?.wait().await;
            Ok(())
        }
        _ => Err(std::io::Error::other("usage: ferrymcp-echo [http PORT [REDIS_URL]]")),
    }
}

/// The text moves from the arguments into the result, as rmcp's echo moves its `String`.
fn echo(mut args: Map<String, Value>) -> Value {
    let text = match args.remove("text") {
        Some(Value::String(text)) => text,
        _ => String::new(),
    };
    json!({"content": [{"type": "text", "text": text}]})
}
