//! The 2025-era revisions an application lists (the official `supportedProtocolVersions`):
//! `initialize` answers the requested one if listed, else the list's first; the session's
//! `MCP-Protocol-Version` header must name a listed one; a revision core does not know is
//! served as the newest one it knows that is not later (so a session of a draft dated after
//! 2025-11-25 has that revision's tasks). Over real HTTP on 127.0.0.1, raw requests.

use ferrymcp_core::server::http::{HttpHandler, HttpOptions, HttpServer, ServeOptions, serve};
use ferrymcp_core::server::{Context, HandlerError, Server, ServerOptions};
use serde_json::{Map, Value, json};

async fn start(versions: &[&str]) -> HttpServer {
    let mut options = ServerOptions::default();
    options.set_legacy_versions(versions).unwrap();
    let server = Server::with_info(json!({"name": "versions", "version": "1.0.0"}), None, options);
    let tool = json!({"name": "hi", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}});
    let hi = |_: Map<String, Value>, _: Context| async move {
        Ok::<_, HandlerError>(json!({"content": [{"type": "text", "text": "hi"}]}))
    };
    server.add_tool(tool, hi).unwrap();
    serve(HttpHandler::new(server, HttpOptions::default()), ServeOptions::default()).await.unwrap()
}

/// POSTs one message; the status, the session id and the JSON answer (first SSE event).
async fn post(
    http: &HttpServer,
    session: Option<&str>,
    version: Option<&str>,
    body: Value,
) -> (u16, Option<String>, Value) {
    let client = ferrymcp_core::client::http::http_client(&Default::default()).unwrap().build().unwrap();
    let mut request = client
        .post(format!("http://{}/mcp", http.local_addr()))
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .body(body.to_string());
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    if let Some(version) = version {
        request = request.header("mcp-protocol-version", version);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let session = response.headers().get("mcp-session-id").map(|v| v.to_str().unwrap().to_owned());
    let text = response.text().await.unwrap();
    let json = text.lines().find_map(|l| l.strip_prefix("data: ")).unwrap_or(&text);
    (status, session, serde_json::from_str(json).unwrap_or(Value::Null))
}

fn initialize(version: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}})
}

#[tokio::test]
async fn a_listed_draft_is_negotiated_and_served_as_the_revision_before_it() {
    let http = start(&["2026-01-01", "2025-11-25", "2025-06-18"]).await;
    let (status, session, answer) = post(&http, None, None, initialize("2026-01-01")).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"]["protocolVersion"], "2026-01-01");
    // Served as 2025-11-25: its tasks are declared.
    assert!(answer["result"]["capabilities"]["tasks"].is_object(), "{answer}");
    let session = session.expect("a session");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "hi", "arguments": {}}});
    let (status, _, answer) = post(&http, Some(&session), Some("2026-01-01"), call.clone()).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"]["content"][0]["text"], "hi");
    // A revision the application did not list is refused on the session.
    let (status, _, answer) = post(&http, Some(&session), Some("2025-03-26"), call).await;
    assert_eq!(status, 400);
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("\"2025-03-26\" (supported: 2026-01-01, 2025-11-25, 2025-06-18)"), "{message}");
}

#[tokio::test]
async fn an_unlisted_request_gets_the_first_listed_and_listed_known_ones_themselves() {
    let http = start(&["2025-06-18", "2025-11-25"]).await;
    let (_, _, answer) = post(&http, None, None, initialize("2025-11-25")).await;
    assert_eq!(answer["result"]["protocolVersion"], "2025-11-25");
    let (_, _, answer) = post(&http, None, None, initialize("2025-03-26")).await;
    assert_eq!(answer["result"]["protocolVersion"], "2025-06-18");
    // 2025-06-18 has no core tasks.
    assert!(answer["result"]["capabilities"].get("tasks").is_none(), "{answer}");
    let (_, _, answer) = post(&http, None, None, initialize("2099-01-01")).await;
    assert_eq!(answer["result"]["protocolVersion"], "2025-06-18");
}

#[test]
fn a_list_core_cannot_serve_is_refused_naming_the_entry() {
    let mut options = ServerOptions::default();
    let refused = |options: &mut ServerOptions, list: &[&str]| options.set_legacy_versions(list).unwrap_err();
    assert_eq!(
        refused(&mut options, &["2024-01-01"]),
        "\"2024-01-01\" is older than the first protocol revision (2024-11-05)"
    );
    assert!(
        refused(&mut options, &["2027-01-01", "2025-11-25"])
            .starts_with("\"2027-01-01\" is a revision of the 2026-07-28 era")
    );
    assert!(refused(&mut options, &["latest"]).contains("not a protocol revision"));
    assert!(refused(&mut options, &["2026-07-28"]).contains("names no revision before 2026-07-28"));
    assert!(options.legacy_versions.is_none(), "nothing applied");
    // The modern entries are left to server/discover.
    options.set_legacy_versions(&["2026-07-28", "2025-11-25"]).unwrap();
    assert_eq!(options.legacy_versions, Some(vec!["2025-11-25".to_owned()]));
}
