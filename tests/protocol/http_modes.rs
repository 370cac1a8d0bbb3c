//! The official SDKs' two HTTP modes, served by core, on each fixture under test (`--stateless`
//! and `--json-response`, which the Rust, Python and Node fixtures map to their SDK's
//! option): stateless legacy serving gives no `Mcp-Session-Id`, answers a request that no
//! `initialize` preceded, and refuses GET with 405; JSON-response mode answers a tool that
//! reports progress first with one `application/json` body holding only its result, where
//! the default streams the progress before it.
//!
//! Requests are written by hand on a TCP socket (`Connection: close`, read to the end), so
//! the test sees the status, the headers and the body exactly as sent.

use ferrymcp_tests::listening::Server;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::fixture;

async fn serving(modes: &[&str]) -> Server {
    let command = fixture();
    let mut process = std::process::Command::new(&command[0]);
    process.args(&command[1..]);
    let modes: Vec<String> = modes.iter().map(|m| (*m).to_owned()).collect();
    Server::start(process, move |process, port| {
        process.args(["--transport", "http", "--port", &port.to_string()]).args(&modes);
    })
    .await
}

struct Answer {
    status: u16,
    head: String,
    body: String,
}

async fn send(server: &Server, method: &str, body: Option<&Value>) -> Answer {
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).await.expect("connect");
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        server.port,
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut raw = Vec::new();
    // What arrived before any reset of the closing connection is the answer; a reset
    // before a whole response head fails below.
    let ended = stream.read_to_end(&mut raw).await;
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no response head ({ended:?}): {raw:?}"));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status");
    Answer { status, head: head.to_ascii_lowercase(), body: body.to_owned() }
}

fn initialize() -> Value {
    let params =
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}});
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
}

fn progress_call(id: i64) -> Value {
    let params = json!({"name": "test_tool_with_progress", "arguments": {}, "_meta": {"progressToken": "p"}});
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

#[tokio::test]
async fn stateless_mode_has_no_sessions() {
    let server = serving(&["--stateless"]).await;
    let init = send(&server, "POST", Some(&initialize())).await;
    assert_eq!(init.status, 200, "{}", init.body);
    assert!(!init.head.contains("mcp-session-id"), "{}", init.head);
    // No session, no initialize on this connection: answered on its own.
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let listed = send(&server, "POST", Some(&list)).await;
    assert_eq!(listed.status, 200);
    assert!(!listed.head.contains("mcp-session-id"));
    assert!(listed.body.contains("test_tool_with_progress"), "{}", listed.body);
    assert_eq!(send(&server, "GET", None).await.status, 405);
    assert_eq!(send(&server, "DELETE", None).await.status, 405);
}

#[tokio::test]
async fn json_response_mode_answers_with_one_body() {
    let server = serving(&["--stateless", "--json-response"]).await;
    let answered = send(&server, "POST", Some(&progress_call(3))).await;
    assert_eq!(answered.status, 200);
    assert!(answered.head.contains("content-type: application/json"), "{}", answered.head);
    let body: Value = serde_json::from_str(&answered.body).expect("one JSON body");
    assert_eq!(body["id"], 3);
    assert!(body["result"]["content"].is_array(), "{body}");

    let streaming = serving(&["--stateless"]).await;
    let streamed = send(&streaming, "POST", Some(&progress_call(4))).await;
    assert!(streamed.head.contains("content-type: text/event-stream"), "{}", streamed.head);
    assert!(streamed.body.matches("notifications/progress").count() >= 1, "{}", streamed.body);
    assert!(streamed.body.contains("\"id\":4"), "{}", streamed.body);
}
