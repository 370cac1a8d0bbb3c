//! The era probe against a modern server that answers `server/discover` only after the
//! client's probe timeout: the client falls back to `initialize`, the server (settled as
//! modern by the late probe) refuses it with -32022 naming its versions, and the client
//! probes once more and connects modern, as the official clients do. The server is a raw
//! stdio script that holds its discover answer until the `initialize` arrives, so the
//! ordering is forced by events, not by timing.

use std::time::Duration;

use ferrymcp_core::client::child::{ChildCommand, StderrMode};
use ferrymcp_core::client::{Client, ClientCallbacks, ClientOptions};

const SLOW_MODERN_SERVER: &str = r#"
import json, sys
MODERN = "2026-07-28"
def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
def discovered(id):
    return {"jsonrpc": "2.0", "id": id, "result": {"supportedVersions": [MODERN], "capabilities": {"tools": {}},
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "slow", "version": "1"}}}}
held = None
for line in sys.stdin:
    message = json.loads(line)
    method = message.get("method")
    if method == "server/discover" and held is None:
        held = message["id"]  # answered late: after the client gave up waiting
    elif method == "initialize":
        send(discovered(held))
        send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32022,
              "message": "this connection speaks 2026-07-28", "data": {"supported": [MODERN], "requested": "2025-11-25"}}})
    elif method == "server/discover":
        send(discovered(message["id"]))
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": message["id"], "result": {"tools": []}})
"#;

#[tokio::test]
async fn a_modern_server_slower_than_the_probe_is_still_reached_as_modern() {
    let command = ChildCommand::new("python3").args(["-c", SLOW_MODERN_SERVER]).stderr(StderrMode::Inherit);
    let options = ClientOptions { probe_timeout: Some(Duration::from_millis(100)), ..ClientOptions::default() };
    let client = Client::spawn(command, options, ClientCallbacks::default()).await.expect("connect");
    assert!(client.server().modern, "connected as {}", client.server().protocol_version);
    assert_eq!(client.server().protocol_version, "2026-07-28");
    assert_eq!(client.server().info["name"], "slow");
}
