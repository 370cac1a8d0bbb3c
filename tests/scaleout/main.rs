//! Scale-out: three replicas of the fixture server behind a real haproxy doing plain round
//! robin (no sticky sessions), legacy sessions and resumable events in a real Redis, and
//! multi-round state sealed with a key the replicas share. Every request is raw HTTP
//! through the balancer; haproxy names the replica that answered in `X-Replica`, so each
//! test shows that the requests of one session really were served by different processes.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use bytes::Bytes;
use ferrymcp_tests::certs::Certificates;
use ferrymcp_tests::listening::{self, Server, free_port};
use ferrymcp_tests::schema;
use http::{HeaderMap, Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};

const LEGACY: &str = "2025-11-25";
const MODERN: &str = "2026-07-28";
const REPLICAS: usize = 3;
/// A guard against a hang, not a timing assertion.
const HANG_GUARD: Duration = Duration::from_secs(30);
const STATE_KEY: &str = "a key every replica shares, 32+ bytes";

struct Cluster {
    redis: Option<Server>,
    redis_port: u16,
    replicas: Vec<Server>,
    balancer: Server,
    config: PathBuf,
    client: Client<HttpConnector, Full<Bytes>>,
}

struct Reply {
    status: StatusCode,
    headers: HeaderMap,
    text: String,
}

impl Reply {
    fn replica(&self) -> String {
        self.headers.get("x-replica").expect("haproxy names the replica").to_str().unwrap().to_owned()
    }

    /// The JSON-RPC messages of the body: one JSON object, or the data of each SSE event.
    fn messages(&self) -> Vec<Value> {
        if self.text.trim_start().starts_with('{') {
            return vec![serde_json::from_str(&self.text).expect("a JSON body")];
        }
        let data = self.text.lines().filter_map(|line| line.strip_prefix("data:")).map(str::trim);
        data.filter(|d| !d.is_empty()).map(|d| serde_json::from_str(d).expect("JSON event data")).collect()
    }

    /// The message that answers (the last one).
    fn answer(&self) -> Value {
        let answer = self.messages().pop().expect("an answer");
        assert!(answer.get("result").is_some() || answer.get("error").is_some(), "not an answer: {answer}");
        answer
    }
}

async fn redis(port: u16) -> Server {
    let command = Command::new(listening::program("redis-server").unwrap());
    Server::start_at(command, port, |c, port| {
        c.args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]);
    })
    .await
}

impl Cluster {
    /// Redis, the replicas and the balancer; `None` (skipped) outside CI without Redis or
    /// haproxy installed.
    async fn start() -> Option<Cluster> {
        let (_, haproxy) = (listening::program("redis-server")?, listening::program("haproxy")?);
        let redis_port = free_port();
        let redis = redis(redis_port).await;
        let url = format!("redis://127.0.0.1:{redis_port}");
        let mut replicas = Vec::new();
        for _ in 0..REPLICAS {
            let command = Command::new(env!("CARGO_BIN_EXE_ferrymcp-everything"));
            replicas.push(
                Server::start(command, |c, port| {
                    let port = port.to_string();
                    c.args(["--transport", "http", "--port", &port, "--redis", &url, "--state-key", STATE_KEY]);
                })
                .await,
            );
        }
        let servers: String = replicas
            .iter()
            .enumerate()
            .map(|(i, replica)| format!("  server r{i} 127.0.0.1:{} check inter 500 fall 1 rise 1\n", replica.port))
            .collect();
        let config = std::env::temp_dir().join(format!("ferrymcp-scaleout-{}-{redis_port}.cfg", std::process::id()));
        let balancer = Server::start(Command::new(haproxy), |c, port| {
            std::fs::write(&config, haproxy_config(port, &servers)).unwrap();
            c.arg("-db").arg("-f").arg(&config);
        })
        .await;
        let client = Client::builder(TokioExecutor::new()).build_http();
        Some(Cluster { redis: Some(redis), redis_port, replicas, balancer, config, client })
    }

    /// Sends a request through the balancer; the response's body is still to be read.
    ///
    /// A connection the balancer resets before any answer is retried once on a new one.
    /// Only haproxy can reset this connection (a replica's failure reaches the test as a
    /// 502 or 503, never as a reset), and CI saw it happen once,
    /// in a test's first or second request: it says nothing about ferrymcp, so it must not fail
    /// a test; a second reset does, with what the balancer printed.
    async fn request(&self, method: Method, headers: &[(&str, &str)], body: String) -> http::Response<Incoming> {
        let build = || {
            let mut request = Request::builder().method(method.clone()).uri(self.balancer.url("/mcp"));
            for (name, value) in headers {
                request = request.header(*name, *value);
            }
            request.body(Full::new(Bytes::from(body.clone()))).unwrap()
        };
        let first = tokio::time::timeout(HANG_GUARD, self.client.request(build())).await.expect("no hang");
        match first {
            Ok(response) => response,
            Err(error) => {
                eprintln!("the balancer failed a request ({error:?}); retrying it once on a new connection");
                let retried = tokio::time::timeout(HANG_GUARD, self.client.request(build())).await.expect("no hang");
                retried.unwrap_or_else(|again| panic!("{again:?}; first {error:?}; {}", self.balancer.stderr_tail()))
            }
        }
    }

    async fn send(&self, method: Method, headers: &[(&str, &str)], body: String) -> Reply {
        let (parts, body) = self.request(method, headers, body).await.into_parts();
        let body = tokio::time::timeout(HANG_GUARD, body.collect()).await.expect("no hang").unwrap().to_bytes();
        Reply { status: parts.status, headers: parts.headers, text: String::from_utf8(body.to_vec()).unwrap() }
    }

    /// Starts a request and returns its response as it streams.
    async fn open(&self, method: Method, headers: &[(&str, &str)], body: String) -> Events {
        let response = self.request(method, headers, body).await;
        let replica = response.headers().get("x-replica").unwrap().to_str().unwrap().to_owned();
        assert_eq!(response.headers().get("content-type").unwrap(), "text/event-stream");
        Events { replica, body: response.into_body(), buffer: String::new() }
    }

    /// GET resuming a stream of `session` after event `last`.
    async fn resume(&self, session: &str, last: &str) -> Events {
        let headers = [
            ("mcp-session-id", session),
            ("mcp-protocol-version", LEGACY),
            ("accept", "text/event-stream"),
            ("last-event-id", last),
        ];
        self.open(Method::GET, &headers, String::new()).await
    }

    /// POSTs a legacy tool call whose answer streams.
    async fn stream_call(&self, session: &str, id: i64, tool: &str, arguments: Value) -> Events {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}});
        self.stream_request(session, message).await
    }

    /// POSTs a legacy request whose answer streams.
    async fn stream_request(&self, session: &str, message: Value) -> Events {
        let headers = [
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
            ("mcp-session-id", session),
            ("mcp-protocol-version", LEGACY),
        ];
        self.open(Method::POST, &headers, message.to_string()).await
    }

    fn replica(&mut self, name: &str) -> &mut Server {
        let index: usize = name.trim_start_matches('r').parse().unwrap();
        &mut self.replicas[index]
    }

    async fn post(&self, session: Option<&str>, message: Value) -> Reply {
        let mut headers = vec![("content-type", "application/json"), ("accept", "application/json, text/event-stream")];
        if let Some(session) = session {
            headers.extend([("mcp-session-id", session), ("mcp-protocol-version", LEGACY)]);
        }
        self.send(Method::POST, &headers, message.to_string()).await
    }

    /// Opens a legacy session; returns its id.
    async fn initialize(&self) -> String {
        let reply = self.post(None, initialize()).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        let session = reply.headers.get("mcp-session-id").expect("a session id").to_str().unwrap().to_owned();
        schema::assert_valid(LEGACY, "InitializeResult", &reply.answer()["result"]);
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(self.post(Some(&session), initialized).await.status, StatusCode::ACCEPTED);
        session
    }

    async fn call(&self, session: &str, id: i64, tool: &str) -> Reply {
        let message =
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": {}}});
        let reply = self.post(Some(session), message).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        reply
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.config);
    }
}

/// An SSE response read event by event.
struct Events {
    replica: String,
    body: Incoming,
    buffer: String,
}

impl Events {
    /// The next event: its id and its data (`None` for a priming event); `None` at the end.
    async fn next(&mut self) -> Option<(String, Option<Value>)> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let event: String = self.buffer.drain(..end + 2).collect();
                let id = event.lines().find_map(|l| l.strip_prefix("id:")).map(|id| id.trim().to_owned());
                let data: String = event.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim).collect();
                let Some(id) = id else { continue }; // keep-alive comments
                let data = (!data.is_empty()).then(|| serde_json::from_str(&data).expect("JSON event data"));
                return Some((id, data));
            }
            let frame = tokio::time::timeout(HANG_GUARD, self.body.frame()).await.expect("no hang")?.unwrap();
            if let Ok(data) = frame.into_data() {
                self.buffer.push_str(std::str::from_utf8(&data).unwrap());
            }
        }
    }

    /// Every message to the end of the stream, with its event id.
    async fn rest(&mut self) -> Vec<(String, Value)> {
        let mut all = Vec::new();
        while let Some((id, data)) = self.next().await {
            all.extend(data.map(|data| (id, data)));
        }
        all
    }
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": {"elicitation": {}}, "clientInfo": {"name": "scaleout", "version": "1"}}})
}

fn haproxy_config(port: u16, servers: &str) -> String {
    format!(
        "global\n  maxconn 1000\n\
         defaults\n  mode http\n  timeout connect 5s\n  timeout client 60s\n  timeout server 60s\n\
         frontend mcp\n  bind 127.0.0.1:{port}\n  default_backend replicas\n\
         backend replicas\n  balance roundrobin\n  option redispatch\n  retries 3\n\
         http-response set-header X-Replica %s\n{servers}"
    )
}

fn log_messages(reply: &Reply) -> usize {
    reply.messages().iter().filter(|m| m["method"] == "notifications/message").count()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_legacy_session_is_served_by_every_replica() {
    let Some(cluster) = Cluster::start().await else { return };
    let session = cluster.initialize().await;

    let mut served = BTreeSet::new();
    for id in 1..=REPLICAS as i64 * 2 {
        let reply = cluster.call(&session, id, "test_simple_text").await;
        let answer = reply.answer();
        assert_eq!(answer["id"], id);
        schema::assert_valid(LEGACY, "CallToolResult", &answer["result"]);
        served.insert(reply.replica());
    }
    assert_eq!(served.len(), REPLICAS, "round robin spread the session over every replica: {served:?}");

    // The log level set through one replica holds on every other.
    let before = cluster.call(&session, 10, "test_tool_with_logging").await;
    assert_eq!(log_messages(&before), 3, "{}", before.text);
    let set = json!({"jsonrpc": "2.0", "id": 11, "method": "logging/setLevel", "params": {"level": "error"}});
    let set = cluster.post(Some(&session), set).await;
    assert_eq!(set.answer()["result"], json!({}));
    let mut quiet = BTreeSet::new();
    for id in 12..12 + REPLICAS as i64 {
        let reply = cluster.call(&session, id, "test_tool_with_logging").await;
        assert_eq!(log_messages(&reply), 0, "info logs are below the level set on {}: {}", set.replica(), reply.text);
        quiet.insert(reply.replica());
    }
    assert_eq!(quiet.len(), REPLICAS, "{quiet:?}");

    // DELETE through one replica ends the session on all of them.
    let deleted = cluster
        .send(Method::DELETE, &[("mcp-session-id", &session), ("mcp-protocol-version", LEGACY)], String::new())
        .await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    let mut gone = BTreeSet::new();
    for id in 20..20 + REPLICAS as i64 {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": "ping"});
        let reply = cluster.post(Some(&session), message).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.text);
        gone.insert(reply.replica());
    }
    assert_eq!(gone.len(), REPLICAS, "{gone:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn redis_down_is_a_503_and_service_resumes_when_it_returns() {
    let Some(mut cluster) = Cluster::start().await else { return };
    let session = cluster.initialize().await;
    drop(cluster.redis.take());

    for id in 1..=REPLICAS as i64 {
        let reply = cluster.post(Some(&session), json!({"jsonrpc": "2.0", "id": id, "method": "ping"})).await;
        assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{}", reply.text);
        let error: Value = serde_json::from_str(&reply.text).expect("a JSON-RPC error");
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.contains("session store is unavailable"), "{message}");
        assert_eq!(reply.headers.get("retry-after").unwrap(), "5");
    }
    let refused = cluster.post(None, initialize()).await;
    assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE, "no session is opened that others could not serve");

    // A new Redis where the old one was: each replica reconnects on its own (the old
    // sessions are gone with the data of the old server, which kept none on disk).
    cluster.redis = Some(redis(cluster.redis_port).await);
    let deadline = tokio::time::Instant::now() + HANG_GUARD;
    let mut back = BTreeSet::new();
    while back.len() < REPLICAS {
        assert!(tokio::time::Instant::now() < deadline, "the replicas did not come back: {back:?}");
        let reply = cluster.post(None, initialize()).await;
        if reply.status == StatusCode::OK {
            back.insert(reply.replica());
        } else {
            assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE, "{}", reply.text);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let session = cluster.initialize().await;
    for id in 1..=REPLICAS as i64 {
        cluster.call(&session, id, "test_simple_text").await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_2026_elicitation_retried_on_another_replica_completes() {
    let Some(cluster) = Cluster::start().await else { return };
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "scaleout", "version": "1"},
    });
    let tool = "test_input_required_result_elicitation";
    let headers = [
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", MODERN),
        ("mcp-method", "tools/call"),
        ("mcp-name", tool),
    ];
    let first = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": {}, "_meta": meta}});
    let first = cluster.send(Method::POST, &headers, first.to_string()).await;
    let result = first.answer()["result"].clone();
    assert_eq!(result["resultType"], "input_required", "{result}");
    let state = result["requestState"].clone();
    assert!(state.is_string(), "{result}");

    let retry = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": tool, "arguments": {}, "_meta": meta, "requestState": state,
        "inputResponses": {"user_name": {"action": "accept", "content": {"name": "Ada"}}}}});
    let retry = cluster.send(Method::POST, &headers, retry.to_string()).await;
    assert_ne!(retry.replica(), first.replica(), "round robin sent the retry elsewhere");
    let result = retry.answer()["result"].clone();
    assert_eq!(result["content"][0]["text"], "Hello, Ada!", "{result}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stream_dropped_on_one_replica_resumes_on_another_without_loss() {
    let Some(cluster) = Cluster::start().await else { return };
    let session = cluster.initialize().await;
    let mut first = cluster.stream_call(&session, 1, "test_tool_with_logging", json!({})).await;
    let (priming, none) = first.next().await.unwrap();
    assert!(none.is_none(), "2025-11-25 streams start with a priming event");
    let (seen, log) = first.next().await.unwrap();
    assert_eq!(log.unwrap()["method"], "notifications/message");
    let writer = first.replica.clone();
    drop(first); // the client loses the connection; the tool goes on where it runs

    let mut resumed = cluster.resume(&session, &seen).await;
    assert_ne!(resumed.replica, writer, "round robin sent the resumption elsewhere");
    let (primed, none) = resumed.next().await.unwrap();
    assert!(none.is_none() && primed == seen, "resumption is primed with the last event id: {primed}");
    let rest = resumed.rest().await;
    let kinds: Vec<&str> = rest.iter().map(|(_, m)| m["method"].as_str().unwrap_or("answer")).collect();
    assert_eq!(kinds, ["notifications/message", "notifications/message", "answer"], "{rest:?}");
    let answer = &rest[2].1;
    assert_eq!(answer["id"], 1);
    assert_eq!(answer["result"]["content"][0]["text"], "Tool with logging executed successfully");
    let stream = priming.split('/').next().unwrap();
    let ids: Vec<String> = rest.iter().map(|(id, _)| id.clone()).collect();
    assert_eq!(ids, [2, 3, 4].map(|seq| format!("{stream}/{seq}")), "every missed event once, in order");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stream_the_server_closes_is_answered_through_another_replica() {
    let Some(cluster) = Cluster::start().await else { return };
    let session = cluster.initialize().await;
    // The tool closes its stream at once and answers later (SEP-1699): the client comes back.
    let mut first = cluster.stream_call(&session, 1, "test_reconnection", json!({})).await;
    let (priming, none) = first.next().await.unwrap();
    assert!(none.is_none());
    assert!(first.next().await.is_none(), "the server closed the stream");
    let mut resumed = cluster.resume(&session, &priming).await;
    assert_ne!(resumed.replica, first.replica);
    let rest = resumed.rest().await;
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert_eq!(rest[0].1["id"], 1);
    assert!(rest[0].1["result"]["content"][0]["text"].as_str().unwrap().starts_with("Reconnection test completed"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_request_whose_replica_dies_is_answered_with_an_error_elsewhere() {
    let Some(mut cluster) = Cluster::start().await else { return };
    let session = cluster.initialize().await;
    let mut call = cluster.stream_call(&session, 7, "test_elicitation", json!({"message": "Name?"})).await;
    let _priming = call.next().await.unwrap();
    let (seen, asked) = call.next().await.unwrap();
    assert_eq!(asked.unwrap()["method"], "elicitation/create");
    let writer = call.replica.clone();
    drop(call);
    cluster.replica(&writer).kill();

    let mut resumed = cluster.resume(&session, &seen).await;
    assert_ne!(resumed.replica, writer);
    let _priming = resumed.next().await.unwrap();
    let rest = resumed.rest().await;
    assert_eq!(rest.len(), 1, "nothing but the error: {rest:?}");
    let error = &rest[0].1;
    assert_eq!(error["id"], 7);
    assert_eq!(error["error"]["code"], -32603);
    assert!(error["error"]["message"].as_str().unwrap().contains("stopped before answering"), "{error}");

    // The session itself lives on, served by the replicas left.
    for id in 10..10 + REPLICAS as i64 {
        cluster.call(&session, id, "test_simple_text").await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_list_change_raised_on_one_replica_reaches_a_stream_held_by_another() {
    let Some(cluster) = Cluster::start().await else { return };
    let session = cluster.initialize().await;
    let headers =
        [("mcp-session-id", session.as_str()), ("mcp-protocol-version", LEGACY), ("accept", "text/event-stream")];
    let mut standalone = cluster.open(Method::GET, &headers, String::new()).await;
    let _priming = standalone.next().await.unwrap();
    let trigger = cluster.call(&session, 1, "test_trigger_tool_change").await;
    assert_ne!(trigger.replica(), standalone.replica, "the change is raised on another replica");
    let (_, message) = standalone.next().await.unwrap();
    assert_eq!(message.unwrap()["method"], "notifications/tools/list_changed");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_answer_posted_to_another_replica_reaches_the_waiting_request() {
    let Some(cluster) = Cluster::start().await else { return };
    let session = cluster.initialize().await;
    let mut call = cluster.stream_call(&session, 1, "test_elicitation", json!({"message": "Name?"})).await;
    let _priming = call.next().await.unwrap();
    let (_, asked) = call.next().await.unwrap();
    let asked = asked.unwrap();
    assert_eq!(asked["method"], "elicitation/create");
    let answer =
        json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "accept", "content": {"response": "Ada"}}});
    let posted = cluster.post(Some(&session), answer).await;
    assert_eq!(posted.status, StatusCode::ACCEPTED);
    assert_ne!(posted.replica(), call.replica, "the answer went to another replica");
    let rest = call.rest().await;
    let result = &rest.last().expect("the tool's answer").1;
    assert_eq!(result["id"], 1);
    let text = result["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("action=accept") && text.contains("Ada"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_password_protected_redis_over_tls_works_and_a_wrong_password_is_a_clear_503() {
    let (Some(redis_server), Some(certs)) = (listening::program("redis-server"), Certificates::make("scaleout-tls"))
    else {
        return;
    };
    let path = |p: &std::path::Path| p.to_str().unwrap().to_owned();
    let (cert, key, ca) = (path(&certs.cert), path(&certs.key), path(&certs.ca));
    let _redis = Server::start(Command::new(redis_server), |c, port| {
        let tls = ["--port", "0", "--tls-port", &port.to_string(), "--tls-cert-file", &cert, "--tls-key-file", &key];
        c.args(tls).args(["--tls-ca-cert-file", &ca, "--tls-auth-clients", "no", "--bind", "127.0.0.1"]);
        c.args(["--save", "", "--appendonly", "no", "--requirepass", "s3cret"]);
    })
    .await;
    let redis_port = _redis.port;
    let client = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    for (password, served) in [("s3cret", true), ("wrong", false)] {
        let url = format!("rediss://:{password}@127.0.0.1:{redis_port}");
        let replica = Server::start(Command::new(env!("CARGO_BIN_EXE_ferrymcp-everything")), |c, port| {
            c.args(["--transport", "http", "--port", &port.to_string(), "--redis", &url]);
            // The platform's trust store, as a deployment would extend it.
            c.env("SSL_CERT_FILE", &ca);
        })
        .await;
        let request = Request::post(replica.url("/mcp"))
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(Full::new(Bytes::from(initialize().to_string())))
            .unwrap();
        let response = tokio::time::timeout(HANG_GUARD, client.request(request)).await.unwrap().unwrap();
        let status = response.status();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        let body = String::from_utf8_lossy(&body).into_owned();
        if served {
            assert_eq!(status, StatusCode::OK, "{body}");
        } else {
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
            assert!(body.contains("session store is unavailable") && !body.contains("wrong"), "{body}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_replica_s_stored_events_reach_the_client_once_then_an_error() {
    let Some(mut cluster) = Cluster::start().await else { return };
    let session = cluster.initialize().await;
    let message = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
        "name": "test_tool_with_progress", "arguments": {}, "_meta": {"progressToken": "p"}}});
    let mut call = cluster.stream_request(&session, message).await;
    let _priming = call.next().await.unwrap();
    let (seen, progress) = call.next().await.unwrap();
    assert_eq!(progress.unwrap()["method"], "notifications/progress");
    let writer = call.replica.clone();
    drop(call);
    cluster.replica(&writer).kill(); // while the tool is still reporting

    // What the writer stored after the client's last event: the client must get exactly that.
    let (stream, seq) = seen.split_once('/').unwrap();
    let redis = redis::Client::open(format!("redis://127.0.0.1:{}", cluster.redis_port)).unwrap();
    let mut redis = redis.get_multiplexed_async_connection().await.unwrap();
    let stored: redis::streams::StreamRangeReply =
        redis::AsyncCommands::xrange(&mut redis, format!("ferrymcp:events:{stream}"), format!("({seq}-0"), "+")
            .await
            .unwrap();
    let stored: Vec<(String, Value)> = stored
        .ids
        .iter()
        .map(|entry| {
            let data: Vec<u8> = entry.get("d").unwrap();
            let seq = entry.id.split_once('-').unwrap().0;
            (format!("{stream}/{seq}"), serde_json::from_slice(&data).unwrap())
        })
        .collect();

    let mut resumed = cluster.resume(&session, &seen).await;
    assert_ne!(resumed.replica, writer);
    let _priming = resumed.next().await.unwrap();
    let mut rest = resumed.rest().await;
    let last = rest.last().map(|(_, m)| m.clone()).unwrap();
    if last.get("result").is_none() {
        // The writer died before its answer: an error stands in for it, after every event.
        assert_eq!(last["id"], 5);
        assert_eq!(last["error"]["code"], -32603, "{last}");
        rest.pop();
    }
    assert_eq!(rest, stored, "every stored event after the last one seen, in order, once");
}

#[tokio::test(flavor = "multi_thread")]
async fn resource_updates_and_logs_raised_on_one_replica_reach_the_subscriber_on_another_filtered() {
    use ferrymcp_core::server::http::{HttpHandler, HttpSettings, ServeOptions, serve};
    use ferrymcp_redis::{RedisOptions, RedisStore};

    let Some(_) = listening::program("redis-server") else { return };
    let redis = redis(free_port()).await;
    let url = format!("redis://127.0.0.1:{}", redis.port);
    // Two replicas in this process, each its own server, endpoint and socket.
    let mut replicas = Vec::new();
    for _ in 0..2 {
        let server = ferrymcp_core::server::Server::new("replica", "1.0.0");
        // Subscriptions are served only where declared.
        let declared = serde_json::from_value(json!({"resources": {"subscribe": true}})).unwrap();
        server.register_capabilities(&declared).unwrap();
        let mut settings = HttpSettings::default();
        RedisStore::new(&url, RedisOptions::default()).unwrap().configure(&mut settings);
        let handler = HttpHandler::new(server.clone(), settings.resolve(Some("127.0.0.1")).unwrap());
        let http = serve(handler, ServeOptions::default()).await.unwrap();
        replicas.push((server, format!("http://{}/mcp", http.local_addr()), http));
    }
    let client = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let post = |url: &str, session: Option<&str>, message: Value| {
        let mut request = Request::post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        if let Some(session) = session {
            request = request.header("mcp-session-id", session).header("mcp-protocol-version", LEGACY);
        }
        client.request(request.body(Full::new(Bytes::from(message.to_string()))).unwrap())
    };
    let (a, b) = (&replicas[0].1, &replicas[1].1);
    let opened = post(a, None, initialize()).await.unwrap();
    let session = opened.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    let ask =
        |id: i64, method: &str, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    // Subscribed and level set through replica A; the stream is read from replica B.
    for (id, method, params) in [
        (1, "resources/subscribe", json!({"uri": "test://watched"})),
        (2, "logging/setLevel", json!({"level": "error"})),
    ] {
        let reply = post(a, Some(&session), ask(id, method, params)).await.unwrap();
        assert_eq!(reply.status(), StatusCode::OK);
        let body = String::from_utf8(reply.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
        assert!(body.contains("\"result\"") && !body.contains("\"error\""), "{method}: {body}");
    }
    let get = Request::get(b.as_str())
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", LEGACY)
        .header("accept", "text/event-stream")
        .body(Full::new(Bytes::new()))
        .unwrap();
    let response = client.request(get).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut stream = Events { replica: "b".into(), body: response.into_body(), buffer: String::new() };
    let _priming = stream.next().await.unwrap();

    // Raised on replica A: what the session did not ask for, then what it did.
    let raising = &replicas[0].0;
    raising.notify_resource_updated("test://elsewhere").await;
    raising.notify_log("info", json!("below the session's level"), None).await;
    raising.notify_log("error", json!("at the session's level"), None).await;
    raising.notify_resource_updated("test://watched").await;
    let mut received = Vec::new();
    while received.len() < 2 {
        let (_, message) = stream.next().await.expect("the stream stays open");
        received.extend(message);
    }
    assert_eq!(received[0]["method"], "notifications/message");
    assert_eq!(received[0]["params"]["data"], "at the session's level");
    assert_eq!(received[1]["method"], "notifications/resources/updated");
    assert_eq!(received[1]["params"]["uri"], "test://watched");
    drop(redis);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_redis_stores_bound_events_by_count_and_age_and_expire_idle_sessions() {
    use ferrymcp_core::server::http::{EventStore, SessionRecord, SessionStore};
    use ferrymcp_redis::{RedisOptions, RedisStore};

    let Some(_) = listening::program("redis-server") else { return };
    let redis = redis(free_port()).await;
    let options = RedisOptions { events_per_stream: 2, events_age: Duration::from_secs(1), ..RedisOptions::default() };
    let store = RedisStore::new(&format!("redis://127.0.0.1:{}", redis.port), options).unwrap();
    for seq in 1..=5 {
        store.append(7, seq, Bytes::from(format!("{{\"n\":{seq}}}"))).await;
    }
    assert!(store.after(7, 1).await.is_none(), "events 2 and 3 were trimmed: no partial replay");
    let replay = store.after(7, 3).await.expect("4 and 5 are kept");
    assert_eq!(replay.iter().map(|(seq, _)| *seq).collect::<Vec<_>>(), [4, 5]);

    let record = SessionRecord { protocol_version: LEGACY.into(), ..SessionRecord::default() };
    store.save("s1", &record, Duration::from_secs(1)).await.unwrap();
    assert_eq!(store.load("s1", Duration::from_secs(1)).await.unwrap(), Some(record));
    // Redis expires keys on its own clock: wait for both (bounded), the events' age and the
    // session's idle time.
    let deadline = tokio::time::Instant::now() + HANG_GUARD;
    while store.after(7, 3).await.is_some() || store.load("s1", Duration::from_secs(1)).await.unwrap().is_some() {
        // Reading a session extends it: read only after it is due.
        assert!(tokio::time::Instant::now() < deadline, "nothing expired");
        tokio::time::sleep(Duration::from_millis(1100)).await;
    }
    assert!(!store.remove("s1").await.unwrap(), "an expired session is gone");
}
