//! Graceful shutdown: the server stops accepting, and a request in flight still gets its
//! answer.

use serde_json::json;

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
