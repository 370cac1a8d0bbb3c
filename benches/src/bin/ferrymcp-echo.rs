//! ferrymcp-echo: the benchmark's echo server on ferrymcp's Rust API, the same server the
//! Python, Node and peer rows run: one `echo(text) -> text` tool, the `report` tool (ten
//! validated arguments, a structured result with an `outputSchema`, 64 KiB of text; see
//! benches/README.md, "The realistic tool"), plus `MCP_BENCH_TOOLS` filler tools (`tool_0000`, ...) for the `tools/list` measurement. Serves stdio, or
//! Streamable HTTP at `http://127.0.0.1:PORT/mcp` when started as `ferrymcp-echo http PORT`,
//! as one of several replicas sharing sessions, events and a bus in Redis with
//! `ferrymcp-echo http PORT REDIS_URL` (the scale-out benchmark, `benches/scaleout`).

use std::net::SocketAddr;

use std::sync::LazyLock;

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
    server
        .add_tool(report_definition(), |args: Map<String, Value>, _cx| async move { Ok(report(&args)) })
        .expect("a valid tool");
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

/// The text moves from the arguments into the result, as rmcp's echo moves its `String`
/// (`json!` would copy it: it takes an expression through `to_value(&expr)`).
fn echo(mut args: Map<String, Value>) -> Value {
    let text = match args.remove("text") {
        Some(text @ Value::String(_)) => text,
        _ => Value::String(String::new()),
    };
    let mut content = Map::new();
    content.insert("type".to_owned(), Value::from("text"));
    content.insert("text".to_owned(), text);
    let mut result = Map::new();
    result.insert("content".to_owned(), Value::Array(vec![Value::Object(content)]));
    Value::Object(result)
}

const REPORT_BYTES: usize = 65536;

/// Built once: the report's text is its per-call header line followed by this body, cut to
/// 64 KiB (the same text every implementation builds).
static BODY: LazyLock<String> =
    LazyLock::new(|| (0..1300).map(|i| format!("{i:05} The quick brown fox jumps over the \"lazy\" dog.\n")).collect());

/// The `report` tool: core validates the arguments against `inputSchema` and the
/// structured result against `outputSchema`.
fn report_definition() -> Value {
    let string = json!({"type": "string"});
    let integer = json!({"type": "integer"});
    json!({
        "name": "report",
        "description": "Summarise an order: a structured result and a 64 KiB text report.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "ref": string, "title": string, "count": integer, "ratio": {"type": "number"},
                "enabled": {"type": "boolean"}, "level": {"type": "string", "enum": ["low", "medium", "high"]},
                "tags": {"type": "array", "items": string},
                "owner": {
                    "type": "object",
                    "properties": {"name": string, "email": string, "age": integer},
                    "required": ["name", "email", "age"],
                },
                "note": string, "priority": integer,
            },
            "required": ["ref", "title", "count", "ratio", "enabled", "level", "tags", "owner", "note", "priority"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "ref": string, "accepted": {"type": "boolean"}, "score": {"type": "number"}, "tag_count": integer,
                "owner": {
                    "type": "object",
                    "properties": {"name": string, "domain": string, "adult": {"type": "boolean"}},
                    "required": ["name", "domain", "adult"],
                },
                "priority": integer, "bytes": integer,
            },
            "required": ["ref", "accepted", "score", "tag_count", "owner", "priority", "bytes"],
        },
    })
}

/// The report's result from arguments core has already checked against the schema.
fn report(args: &Map<String, Value>) -> Value {
    let str_of = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let (reference, title, note) = (str_of(&args["ref"]), str_of(&args["title"]), str_of(&args["note"]));
    let owner = &args["owner"];
    let email = str_of(&owner["email"]);
    let head = format!("report {reference}: {title} ({note})\n");
    let mut text = head.clone();
    text.push_str(&BODY[..REPORT_BYTES.saturating_sub(head.len())]);
    let level = args["level"].as_str().unwrap_or_default();
    let summary = json!({
        "ref": reference,
        "accepted": args["enabled"].as_bool().unwrap_or(false) && level != "low",
        "score": args["count"].as_f64().unwrap_or(0.0) * args["ratio"].as_f64().unwrap_or(0.0),
        "tag_count": args["tags"].as_array().map_or(0, Vec::len),
        "owner": {
            "name": owner["name"],
            "domain": email.split_once('@').map_or("", |(_, domain)| domain),
            "adult": owner["age"].as_i64().unwrap_or(0) >= 18,
        },
        "priority": args["priority"],
        "bytes": text.len(),
    });
    json!({"content": [{"type": "text", "text": text}], "structuredContent": summary})
}
