//! Connection lifecycle: graceful shutdown (the server stops accepting, and a request in
//! flight still gets its answer) and the idle timeout (an idle connection is closed, one
//! waiting for its answer is not).

use std::time::Duration;

use ferrymcp_core::server::http::{HttpOptions, ServeOptions};
use http::StatusCode;
use serde_json::json;
use tokio::io::AsyncReadExt;

use crate::support::{HANG_GUARD, Harness, LEGACY};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_requests_in_flight() {
    let mut harness = Harness::start().await;
    let session = harness.initialize().await;
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "gated", "arguments": {"steps": 1}, "_meta": {"progressToken": 1}}});
    harness.gate.add_permits(1);
    let mut stream = harness.post(&[("mcp-session-id", &session)], &call).await;
    let (_, progress) = stream.message(LEGACY).await.unwrap();
    assert_eq!(progress["method"], "notifications/progress", "the request is in flight");

    let http = harness.http.take().unwrap();
    let addr = http.local_addr();
    let shutting_down = tokio::spawn(http.shutdown());
    let refused = async {
        while tokio::net::TcpStream::connect(addr).await.is_ok() {
            tokio::task::yield_now().await;
        }
    };
    tokio::time::timeout(HANG_GUARD, refused).await.expect("the listener closes");

    harness.gate.add_permits(1);
    let (_, response) = stream.message(LEGACY).await.expect("the answer still comes");
    assert_eq!(response["id"], 1);
    assert_eq!(response["result"]["content"][0]["text"], "done");
    tokio::time::timeout(HANG_GUARD, shutting_down).await.expect("shutdown completes").unwrap();
    assert_eq!(harness.handler.session_count(), 0, "sessions end with the server");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_close_but_waiting_requests_are_answered() {
    let serve_options = ServeOptions { idle_timeout: Duration::from_millis(200), ..ServeOptions::default() };
    let harness = Harness::serving(HttpOptions::default(), serve_options).await;
    let addr = harness.url.trim_start_matches("http://").trim_end_matches("/mcp").to_owned();
    let mut silent = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let mut byte = [0u8; 1];
    let read = tokio::time::timeout(HANG_GUARD, silent.read(&mut byte)).await.expect("the idle connection is closed");
    assert_eq!(read.unwrap(), 0, "closed without a byte");

    // A request whose tool sends nothing for longer than the idle timeout.
    let session = harness.initialize().await;
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "gated", "arguments": {"steps": 0}}});
    let headers = [("mcp-session-id", session.as_str())];
    let pending = harness.post(&headers, &call);
    let release = async {
        tokio::time::sleep(Duration::from_millis(600)).await;
        harness.gate.add_permits(1);
    };
    let (reply, ()) = tokio::join!(pending, release);
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.json(LEGACY).await["result"]["content"][0]["text"], "done");
}
