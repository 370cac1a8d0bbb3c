//! rmcp-echo: the benchmark's echo server on the official Rust SDK, rmcp. One
//! `echo(text) -> text` tool, the `report` tool (ten arguments, a structured result with an
//! `outputSchema`, 64 KiB of text; benches/README.md, "The realistic tool"), plus
//! `MCP_BENCH_TOOLS` filler tools (`tool_0000`, ...),
//! answered by a hand-written `ServerHandler` (the macros cannot register tools at run time).
//! `rmcp-echo` serves stdio; `rmcp-echo http PORT` serves Streamable HTTP on 127.0.0.1:PORT/mcp
//! with rmcp's session manager.

use std::sync::Arc;

use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::StreamableHttpService;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

#[derive(Clone)]
struct Echo {
    tools: Arc<Vec<Tool>>,
}

impl Echo {
    fn new() -> Echo {
        let schema: Map<String, Value> = match json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}) {
            Value::Object(schema) => schema,
            _ => unreachable!(),
        };
        let schema = Arc::new(schema);
        let fillers: usize = std::env::var("MCP_BENCH_TOOLS").ok().and_then(|n| n.parse().ok()).unwrap_or(0);
        let mut tools = vec![Tool::new("echo", "Echo the text back.", schema.clone()), report_tool()];
        tools.extend((0..fillers).map(|i| Tool::new(format!("tool_{i:04}"), format!("Benchmark filler tool number {i}."), schema.clone())));
        Echo { tools: Arc::new(tools) }
    }
}

impl ServerHandler for Echo {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::default();
        info.capabilities = ServerCapabilities::builder().enable_tools().build();
        info
    }

    async fn list_tools(&self, _request: Option<PaginatedRequestParams>, _cx: RequestContext<RoleServer>) -> Result<ListToolsResult, ErrorData> {
        let mut result = ListToolsResult::default();
        result.tools = self.tools.as_ref().clone();
        Ok(result)
    }

    async fn call_tool(&self, request: CallToolRequestParams, _cx: RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData> {
        if request.name == "report" {
            // As rmcp's `#[tool]` router does with `Parameters<T>`: the arguments are checked
            // by deserialising them into the typed struct.
            let args: ReportArgs = serde_json::from_value(Value::Object(request.arguments.unwrap_or_default()))
                .map_err(|e| ErrorData::invalid_params(format!("invalid arguments for tool report: {e}"), None))?;
            return Ok(report(args).into());
        }
        if !self.tools.iter().any(|tool| tool.name == request.name) {
            return Err(ErrorData::invalid_params(format!("unknown tool {}", request.name), None));
        }
        let text = request.arguments.as_ref().and_then(|args| args.get("text")).and_then(Value::as_str).unwrap_or("");
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}

const REPORT_BYTES: usize = 65536;

/// Built once: the report's text is its per-call header line followed by this body, cut to
/// 64 KiB (the same text every implementation builds).
static BODY: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    (0..1300).map(|i| format!("{i:05} The quick brown fox jumps over the \"lazy\" dog.\n")).collect()
});

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Level {
    Low,
    Medium,
    High,
}

#[derive(Deserialize)]
struct Owner {
    name: String,
    email: String,
    age: i64,
}

#[derive(Deserialize)]
struct ReportArgs {
    #[serde(rename = "ref")]
    reference: String,
    title: String,
    count: i64,
    ratio: f64,
    enabled: bool,
    level: Level,
    tags: Vec<String>,
    owner: Owner,
    note: String,
    priority: i64,
}

#[derive(Serialize)]
struct OwnerSummary {
    name: String,
    domain: String,
    adult: bool,
}

#[derive(Serialize)]
struct ReportSummary {
    #[serde(rename = "ref")]
    reference: String,
    accepted: bool,
    score: f64,
    tag_count: usize,
    owner: OwnerSummary,
    priority: i64,
    bytes: usize,
}

fn object(value: Value) -> Arc<Map<String, Value>> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => unreachable!(),
    }
}

fn report_tool() -> Tool {
    let string = json!({"type": "string"});
    let integer = json!({"type": "integer"});
    let input = json!({
        "type": "object",
        "properties": {
            "ref": string, "title": string, "count": integer, "ratio": {"type": "number"},
            "enabled": {"type": "boolean"}, "level": {"type": "string", "enum": ["low", "medium", "high"]},
            "tags": {"type": "array", "items": string},
            "owner": {"type": "object", "properties": {"name": string, "email": string, "age": integer}, "required": ["name", "email", "age"]},
            "note": string, "priority": integer,
        },
        "required": ["ref", "title", "count", "ratio", "enabled", "level", "tags", "owner", "note", "priority"],
    });
    let output = json!({
        "type": "object",
        "properties": {
            "ref": string, "accepted": {"type": "boolean"}, "score": {"type": "number"}, "tag_count": integer,
            "owner": {"type": "object", "properties": {"name": string, "domain": string, "adult": {"type": "boolean"}}, "required": ["name", "domain", "adult"]},
            "priority": integer, "bytes": integer,
        },
        "required": ["ref", "accepted", "score", "tag_count", "owner", "priority", "bytes"],
    });
    Tool::new("report", "Summarise an order: a structured result and a 64 KiB text report.", object(input)).with_raw_output_schema(object(output))
}

fn report(args: ReportArgs) -> CallToolResult {
    let head = format!("report {}: {} ({})\n", args.reference, args.title, args.note);
    let mut text = head.clone();
    text.push_str(&BODY[..REPORT_BYTES.saturating_sub(head.len())]);
    let summary = ReportSummary {
        accepted: args.enabled && !matches!(args.level, Level::Low),
        score: args.count as f64 * args.ratio,
        tag_count: args.tags.len(),
        owner: OwnerSummary {
            domain: args.owner.email.split_once('@').map_or("", |(_, domain)| domain).to_owned(),
            name: args.owner.name,
            adult: args.owner.age >= 18,
        },
        reference: args.reference,
        priority: args.priority,
        bytes: text.len(),
    };
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(serde_json::to_value(summary).expect("a plain struct"));
    result
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None | Some("stdio") => {
            let service = Echo::new().serve(rmcp::transport::stdio()).await?;
            service.waiting().await?;
        }
        Some("http") => {
            let port: u16 = args.get(1).ok_or("http needs a port")?.parse()?;
            let service = TowerToHyperService::new(StreamableHttpService::new(
                || Ok(Echo::new()),
                LocalSessionManager::default().into(),
                Default::default(),
            ));
            let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
            loop {
                let (stream, _) = listener.accept().await?;
                stream.set_nodelay(true)?;
                let service = service.clone();
                tokio::spawn(async move {
                    let _ = Builder::new(TokioExecutor::default()).serve_connection(TokioIo::new(stream), service).await;
                });
            }
        }
        Some(other) => return Err(format!("unknown transport {other}").into()),
    }
    Ok(())
}
