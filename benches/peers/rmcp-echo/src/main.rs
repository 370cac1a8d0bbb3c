//! rmcp-echo: the benchmark's echo server on the official Rust SDK, rmcp. One
//! `echo(text) -> text` tool, plus `MCP_BENCH_TOOLS` filler tools (`tool_0000`, ...),
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
        let mut tools = vec![Tool::new("echo", "Echo the text back.", schema.clone())];
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
        if !self.tools.iter().any(|tool| tool.name == request.name) {
            return Err(ErrorData::invalid_params(format!("unknown tool {}", request.name), None));
        }
        let text = request.arguments.as_ref().and_then(|args| args.get("text")).and_then(Value::as_str).unwrap_or("");
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
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
