//! A test server with a few tools that make streams observable, and a raw HTTP client
//! with an SSE reader.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use ferrymcp_core::server::http::{HttpHandler, HttpOptions, HttpServer, ServeOptions, serve};
use ferrymcp_core::server::{Context, Dialect, Server, ServerOptions};
use ferrymcp_tests::schema;
use http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Map, Value, json};
use tokio::sync::{Semaphore, mpsc};

/// A guard against a hang, not a timing assertion: no healthy exchange comes near it.
pub const HANG_GUARD: Duration = Duration::from_secs(30);

pub const LEGACY: &str = "2025-11-25";
pub const MODERN: &str = "2026-07-28";

pub struct Harness {
    pub server: Server,
    pub handler: HttpHandler,
    pub http: Option<HttpServer>,
    pub url: String,
    pub client: Client<HttpConnector, Full<Bytes>>,
    /// Each permit lets the `gated` tool take one step.
    pub gate: Arc<Semaphore>,
    /// The `wait_cancel` tool reports here when its request is cancelled.
    pub cancelled: tokio::sync::Mutex<mpsc::UnboundedReceiver<String>>,
}

impl Harness {
    pub async fn start() -> Self {
        Self::with(HttpOptions::default()).await
    }

    pub async fn with(options: HttpOptions) -> Self {
        Self::serving(options, ServeOptions::default()).await
    }

    pub async fn serving(options: HttpOptions, serve_options: ServeOptions) -> Self {
        Self::around(Server::new("http-test", "1.0.0"), options, serve_options).await
    }

    /// The test server answering in `dialect`.
    pub async fn in_dialect(dialect: Dialect) -> Self {
        let options = ServerOptions { dialect, ..ServerOptions::default() };
        let server = Server::with_info(json!({"name": "http-test", "version": "1.0.0"}), None, options);
        Self::around(server, HttpOptions::default(), ServeOptions::default()).await
    }

    async fn around(server: Server, options: HttpOptions, serve_options: ServeOptions) -> Self {
        let gate = Arc::new(Semaphore::new(0));
        let (cancel_tx, cancel_rx) = mpsc::unbounded_channel();
        register_tools(&server, gate.clone(), cancel_tx);
        let handler = HttpHandler::new(server.clone(), options);
        let http = serve(handler.clone(), serve_options).await.unwrap();
        let url = format!("http://{}/mcp", http.local_addr());
        let client = Client::builder(TokioExecutor::new()).build_http();
        Self { server, handler, http: Some(http), url, client, gate, cancelled: tokio::sync::Mutex::new(cancel_rx) }
    }

    /// Sends a request with exactly these headers (plus Host, which the client adds).
    pub async fn send(&self, method: Method, headers: &[(&str, &str)], body: impl Into<Bytes>) -> Reply {
        let mut request = Request::builder().method(method).uri(&self.url);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request.body(Full::new(body.into())).unwrap();
        let response = tokio::time::timeout(HANG_GUARD, self.client.request(request)).await.expect("no hang").unwrap();
        let (parts, body) = response.into_parts();
        Reply { status: parts.status, headers: parts.headers, body, buffer: Vec::new() }
    }

    /// POSTs a JSON-RPC message with the headers every well-behaved client sends.
    pub async fn post(&self, extra: &[(&str, &str)], message: &Value) -> Reply {
        let mut headers = vec![("content-type", "application/json"), ("accept", "application/json, text/event-stream")];
        headers.extend_from_slice(extra);
        self.send(Method::POST, &headers, message.to_string()).await
    }

    /// Opens a legacy session; returns its id.
    pub async fn initialize(&self) -> String {
        let message = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": LEGACY, "capabilities": {"elicitation": {}}, "clientInfo": {"name": "t", "version": "1"}}});
        let reply = self.post(&[], &message).await;
        assert_eq!(reply.status, StatusCode::OK);
        let session = reply.header("mcp-session-id").expect("initialize answers with a session id").to_owned();
        let response = reply.json(LEGACY).await;
        schema::assert_valid(LEGACY, "InitializeResult", &response["result"]);
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(self.post(&[("mcp-session-id", &session)], &initialized).await.status, StatusCode::ACCEPTED);
        session
    }

    /// POSTs a 2026-07-28 request with its `_meta` and mirrored headers.
    pub async fn modern(&self, id: i64, method: &str, mut params: Value) -> Reply {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
        });
        let name = params.get("name").or_else(|| params.get("uri")).and_then(Value::as_str).map(str::to_owned);
        let mut headers = vec![("mcp-protocol-version", MODERN), ("mcp-method", method)];
        if let Some(name) = &name {
            headers.push(("mcp-name", name));
        }
        self.post(&headers, &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).await
    }
}

fn register_tools(server: &Server, gate: Arc<Semaphore>, cancelled: mpsc::UnboundedSender<String>) {
    let object = |properties: Value| json!({"type": "object", "properties": properties});
    let tool = |name: &str, schema: Value| json!({"name": name, "inputSchema": schema});
    let done = || Ok(json!({"content": [{"type": "text", "text": "done"}]}));
    server
        .add_tool(tool("echo", object(json!({"text": {"type": "string"}}))), |args: Map<String, Value>, _cx: Context| async move {
            Ok(json!({"content": [{"type": "text", "text": args.get("text").and_then(Value::as_str).unwrap_or("")}]}))
        })
        .unwrap();
    let routed = object(
        json!({"region": {"type": "string", "x-mcp-header": "Region"}, "n": {"type": "integer", "x-mcp-header": "N"}}),
    );
    server
        .add_tool(tool("routed", routed), |args: Map<String, Value>, _cx: Context| async move {
            Ok(json!({"content": [{"type": "text", "text": Value::Object(args).to_string()}]}))
        })
        .unwrap();
    server
        .add_tool(tool("whoami", object(json!({}))), |_: Map<String, Value>, cx: Context| async move {
            let auth = serde_json::to_string(&cx.auth_info()).unwrap();
            Ok(json!({"content": [{"type": "text", "text": auth}]}))
        })
        .unwrap();
    server
        .add_tool(
            tool("progress", object(json!({"steps": {"type": "integer"}}))),
            move |args: Map<String, Value>, cx: Context| async move {
                let steps = args.get("steps").and_then(Value::as_u64).unwrap_or(3);
                for step in 1..=steps {
                    cx.report_progress(
                        step as f64,
                        Some(steps as f64),
                        Some(format!("step {step} {}", "x".repeat(200))),
                    )
                    .await;
                }
                done()
            },
        )
        .unwrap();
    let gated = gate.clone();
    server
        .add_tool(
            tool("gated", object(json!({"steps": {"type": "integer"}}))),
            move |args: Map<String, Value>, cx: Context| {
                let gate = gated.clone();
                async move {
                    let steps = args.get("steps").and_then(Value::as_u64).unwrap_or(3);
                    for step in 1..=steps {
                        gate.acquire().await.unwrap().forget();
                        cx.report_progress(step as f64, Some(steps as f64), None).await;
                    }
                    gate.acquire().await.unwrap().forget();
                    done()
                }
            },
        )
        .unwrap();
    let polled = gate.clone();
    server
        .add_tool(tool("poll", object(json!({}))), move |_: Map<String, Value>, cx: Context| {
            let gate = polled.clone();
            async move {
                cx.close_sse_stream();
                gate.acquire().await.unwrap().forget();
                done()
            }
        })
        .unwrap();
    server
        .add_tool(tool("elicit", object(json!({}))), |_: Map<String, Value>, cx: Context| async move {
            let answer = cx.elicit(json!({"message": "Name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}})).await?;
            let name = answer["content"]["name"].as_str().unwrap_or("nobody").to_owned();
            Ok(json!({"content": [{"type": "text", "text": name}]}))
        })
        .unwrap();
    server
        .add_tool(
            tool("wait_cancel", object(json!({"tag": {"type": "string"}}))),
            move |args: Map<String, Value>, cx: Context| {
                let cancelled = cancelled.clone();
                async move {
                    let tag = args.get("tag").and_then(Value::as_str).unwrap_or("").to_owned();
                    // Reports when the handler is stopped (its future dropped) or sees the cancellation.
                    let _report = Report(cancelled, tag);
                    cx.report_progress(1.0, None, Some("waiting".into())).await;
                    cx.cancellation().cancelled().await;
                    done()
                }
            },
        )
        .unwrap();
}

struct Report(mpsc::UnboundedSender<String>, String);

impl Drop for Report {
    fn drop(&mut self) {
        let _ = self.0.send(std::mem::take(&mut self.1));
    }
}

/// A response being read.
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    body: Incoming,
    buffer: Vec<u8>,
}

/// One SSE event.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Event {
    pub id: Option<String>,
    pub data: String,
    pub retry: Option<u64>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    pub fn is_sse(&self) -> bool {
        self.header("content-type") == Some("text/event-stream")
    }

    pub async fn bytes(self) -> Bytes {
        tokio::time::timeout(HANG_GUARD, self.body.collect()).await.expect("no hang").unwrap().to_bytes()
    }

    /// The whole body as one JSON-RPC message, validated against `revision`.
    pub async fn json(self, revision: &str) -> Value {
        assert_eq!(self.header("content-type"), Some("application/json"), "status {}", self.status);
        let bytes = self.bytes().await;
        let message: Value = serde_json::from_slice(&bytes).unwrap();
        schema::assert_valid(revision, "JSONRPCMessage", &message);
        message
    }

    /// The next SSE event (comments skipped), or `None` at the end of the stream.
    pub async fn event(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = self.parse_event() {
                if event.data.is_empty() && event.id.is_none() && event.retry.is_none() {
                    continue;
                }
                return Some(event);
            }
            let frame = tokio::time::timeout(HANG_GUARD, self.body.frame()).await.expect("no hang")?;
            if let Ok(data) = frame.unwrap().into_data() {
                self.buffer.extend_from_slice(&data);
            }
        }
    }

    /// The next event that carries a message, validated against `revision`.
    pub async fn message(&mut self, revision: &str) -> Option<(Option<String>, Value)> {
        loop {
            let event = self.event().await?;
            if event.data.is_empty() {
                continue;
            }
            let message: Value = serde_json::from_str(&event.data).unwrap();
            schema::assert_valid(revision, "JSONRPCMessage", &message);
            return Some((event.id, message));
        }
    }

    /// Raw bytes until `needle` shows up (to see comments, which [`Reply::event`] skips).
    pub async fn until(&mut self, needle: &[u8]) {
        while !self.buffer.windows(needle.len()).any(|w| w == needle) {
            let frame =
                tokio::time::timeout(HANG_GUARD, self.body.frame()).await.expect("no hang").expect("stream open");
            if let Ok(data) = frame.unwrap().into_data() {
                self.buffer.extend_from_slice(&data);
            }
        }
        self.buffer.clear();
    }

    fn parse_event(&mut self) -> Option<Event> {
        let end = self.buffer.windows(2).position(|w| w == b"\n\n")?;
        let block: Vec<u8> = self.buffer.drain(..end + 2).collect();
        let mut event = Event::default();
        let mut data = Vec::new();
        for line in String::from_utf8(block).unwrap().lines() {
            let (field, value) = line.split_once(':').unwrap_or((line, ""));
            let value = value.strip_prefix(' ').unwrap_or(value);
            match field {
                "id" => event.id = Some(value.to_owned()),
                "data" => data.push(value.to_owned()),
                "retry" => event.retry = value.parse().ok(),
                _ => {}
            }
        }
        event.data = data.join("\n");
        Some(event)
    }
}
