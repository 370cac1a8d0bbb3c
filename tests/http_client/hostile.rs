//! A server that misbehaves on purpose, raw HTTP/1.1 on a local socket: each broken
//! answer must fail exactly the call it answers, with an error that says what was wrong,
//! and the next call on the same client must work. Every message the client sent is
//! checked against the 2026-07-28 schema, with the headers it came with.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ferrymcp_core::client::http::{HttpClientOptions, HttpFailure};
use ferrymcp_core::client::{Client, ClientCallbacks, ClientError, ClientOptions};
use ferrymcp_core::peer::{PeerError, RequestOptions};
use ferrymcp_core::protocol::ErrorCode;
use ferrymcp_tests::schema;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;

/// Status, content type and body for one request body.
fn answer(request: &Value) -> (u16, &'static str, String) {
    let id = request["id"].clone();
    let ok =
        |result: Value| (200, "application/json", json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string());
    match (request["method"].as_str(), request["params"]["name"].as_str()) {
        (Some("server/discover"), _) => ok(json!({
            "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "resultType": "complete",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "hostile", "version": "1"}},
        })),
        (Some("tools/call"), Some("not-json")) => (200, "application/json", "this is not JSON".into()),
        (Some("tools/call"), Some("html-500")) => (500, "text/html", "<h1>Internal Server Error</h1>".into()),
        (Some("tools/call"), Some("plain-text")) => (200, "text/plain; charset=utf-8", "hello".into()),
        (Some("tools/call"), Some("wrong-id")) => {
            (200, "application/json", json!({"jsonrpc": "2.0", "id": 99999, "result": {}}).to_string())
        }
        (Some("tools/call"), Some("empty-stream")) => (200, "text/event-stream", ": nothing here\n\n".into()),
        (Some("tools/call"), Some("mismatch")) => (
            400,
            "application/json",
            json!({
                "jsonrpc": "2.0", "id": id, "error": {"code": -32020, "message": "Header mismatch: Mcp-Name"},
            })
            .to_string(),
        ),
        _ => ok(json!({"content": [{"type": "text", "text": "fine"}], "resultType": "complete"})),
    }
}

/// What the client sent: each message with its headers (names in lower case).
type Received = Arc<Mutex<Vec<(HashMap<String, String>, Value)>>>;

/// How the hand-written server treats a connection.
#[derive(Clone, Copy, Default)]
struct Behaviour {
    /// A `notifications/cancelled` is read and never acknowledged (the connection held
    /// open until the client hangs up).
    ignore_cancellations: bool,
    /// The connection is closed after its first answer, without a word (no `Connection:
    /// close`), as a server that drops keep-alive connections does.
    one_answer: bool,
}

/// Serves connection number `connection`; each message it carries is recorded with the
/// connection's number under the header name `:connection`.
async fn serve(stream: TcpStream, received: Received, hung_up: Arc<Notify>, behaviour: Behaviour, connection: usize) {
    let mut stream = BufReader::new(stream);
    loop {
        let mut headers = HashMap::from([(":connection".to_owned(), connection.to_string())]);
        let mut request_line = String::new();
        if stream.read_line(&mut request_line).await.unwrap_or(0) == 0 {
            return;
        }
        // The path, under a name no header has.
        let path = request_line.split(' ').nth(1).unwrap_or_default().to_owned();
        headers.insert(":path".to_owned(), path.clone());
        loop {
            let mut line = String::new();
            if stream.read_line(&mut line).await.unwrap_or(0) == 0 {
                return;
            }
            if line == "\r\n" {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                headers.insert(name.to_ascii_lowercase(), value.trim().to_owned());
            }
        }
        let length = headers.get("content-length").map_or(0, |n| n.parse().unwrap());
        let mut body = vec![0; length];
        stream.read_exact(&mut body).await.unwrap();
        let request: Value = serde_json::from_slice(&body).unwrap_or_default();
        received.lock().unwrap().push((headers, request.clone()));
        if request["params"]["name"] == "never" {
            // No answer: wait for the client to give up and hang up.
            let _ = stream.read(&mut [0; 1]).await;
            return hung_up.notify_one();
        }
        if behaviour.ignore_cancellations && request["method"] == "notifications/cancelled" {
            let _ = stream.read(&mut [0; 1]).await;
            return;
        }
        let (mut status, kind, body) = match request.get("id") {
            Some(_) => answer(&request),
            None => (202, "application/json", String::new()),
        };
        // "moved" is answered at /moved only: elsewhere, a redirect there.
        let mut location = "";
        if request["params"]["name"] == "moved" && path != "/moved" {
            (status, location) = (307, "location: /moved\r\n");
        }
        let length = body.len();
        let head = format!("HTTP/1.1 {status} X\r\ncontent-type: {kind}\r\n{location}content-length: {length}\r\n\r\n");
        if stream.get_mut().write_all(format!("{head}{body}").as_bytes()).await.is_err() || behaviour.one_answer {
            return;
        }
    }
}

/// Starts the hand-written server on a random port and connects a client to it: what it
/// received, the signal of a cancelled call's hang-up, and the client.
async fn connect(ignore_cancellations: bool) -> (Received, Arc<Notify>, Client) {
    let (received, hung_up, client, _) = connect_with(Behaviour { ignore_cancellations, ..Behaviour::default() }).await;
    (received, hung_up, client)
}

/// [`connect`], with the count of connections the server accepted.
async fn connect_with(behaviour: Behaviour) -> (Received, Arc<Notify>, Client, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let received = Received::default();
    let hung_up = Arc::new(Notify::new());
    let (log, hang_up) = (received.clone(), hung_up.clone());
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let connection = count.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(serve(stream, log.clone(), hang_up.clone(), behaviour, connection));
        }
    });
    let client =
        Client::connect_http(HttpClientOptions::new(url), ClientOptions::default(), ClientCallbacks::default())
            .await
            .unwrap();
    (received, hung_up, client, accepted)
}

#[tokio::test]
async fn each_broken_answer_fails_only_its_call_and_says_why() {
    let (received, hung_up, client) = connect(false).await;
    assert!(client.server().modern);

    for (tool, code, says) in [
        ("not-json", ErrorCode::CONNECTION_CLOSED, "without the response: \"this is not JSON\""),
        ("html-500", ErrorCode::CONNECTION_CLOSED, "HTTP 500 Internal Server Error: <h1>Internal Server Error</h1>"),
        ("wrong-id", ErrorCode::CONNECTION_CLOSED, "without the response"),
        ("empty-stream", ErrorCode::CONNECTION_CLOSED, "closed the response stream before answering"),
        ("mismatch", -32020, "Header mismatch: Mcp-Name"),
    ] {
        let error = client.call_tool(tool, json!({}), RequestOptions::default()).await.expect_err(tool);
        assert_eq!(error.code(), code, "{tool}: {error}");
        assert!(error.to_string().contains(says), "{tool}: {error}");
        let fine =
            client.call_tool("fine", json!({}), RequestOptions::default()).await.expect("the client still works");
        assert_eq!(serde_json::to_value(fine).unwrap()["content"][0]["text"], "fine");
    }

    // A call the client stops waiting for is cancelled with a notification, which carries
    // the headers a request would, and its HTTP exchange is dropped (for 2026-07-28 that
    // is the cancellation).
    let gave_up =
        client.call_tool("never", json!({}), RequestOptions::default().timeout(Duration::from_millis(100))).await;
    assert!(matches!(gave_up, Err(ClientError::Peer(PeerError::Timeout(_)))), "{gave_up:?}");
    // (A guard against hanging, not a measure.)
    tokio::time::timeout(Duration::from_secs(60), hung_up.notified())
        .await
        .expect("the cancelled call's connection stays open");
    let _ = client.call_tool("fine", json!({}), RequestOptions::default()).await.unwrap();

    // A redirect is followed (307: the POST again, at the new place), and the client goes
    // on working.
    let moved = client.call_tool("moved", json!({}), RequestOptions::default()).await.expect("a redirect is followed");
    assert_eq!(serde_json::to_value(moved).unwrap()["content"][0]["text"], "fine");
    let _ = client.call_tool("fine", json!({}), RequestOptions::default()).await.unwrap();
    client.close().await;

    let received = received.lock().unwrap();
    let moved: Vec<_> =
        received.iter().filter(|(_, m)| m["params"]["name"] == "moved").map(|(h, _)| h[":path"].as_str()).collect();
    // The client's direct path (core/src/client/http/direct.rs) met the redirect first and
    // left the request to reqwest, which sent it again and followed the redirect.
    assert_eq!(moved, ["/mcp", "/mcp", "/moved"]);
    let cancelled = received.iter().find(|(_, m)| m["method"] == "notifications/cancelled").expect("a cancellation");
    assert_eq!(cancelled.0["mcp-method"], "notifications/cancelled");
    assert_eq!(cancelled.0["mcp-protocol-version"], "2026-07-28");
    for (headers, message) in received.iter() {
        schema::assert_valid("2026-07-28", "JSONRPCMessage", message);
        assert_eq!(headers.get("mcp-method").map(String::as_str), message["method"].as_str(), "{message}");
        assert_eq!(headers["accept"], "application/json, text/event-stream");
        assert_eq!(headers["content-type"], "application/json");
        if let Some(name) = message["params"]["name"].as_str() {
            assert_eq!(headers["mcp-name"], name);
        }
    }
}

/// A notification the server never acknowledges (here the cancellation of a call the
/// client gave up on) holds up neither the calls after it nor `close()`.
#[tokio::test]
async fn a_notification_never_acknowledged_stops_nothing_behind_it() {
    let (received, _, client) = connect(true).await;
    let gave_up =
        client.call_tool("never", json!({}), RequestOptions::default().timeout(Duration::from_millis(100))).await;
    assert!(matches!(gave_up, Err(ClientError::Peer(PeerError::Timeout(_)))), "{gave_up:?}");
    // (Guards against hanging, not measures: the defect they catch is a wait without end.)
    for _ in 0..3 {
        let fine = tokio::time::timeout(
            Duration::from_secs(20),
            client.call_tool("fine", json!({}), RequestOptions::default().timeout(Duration::from_secs(15))),
        )
        .await
        .expect("a call after the unacknowledged notification is sent and answered")
        .expect("the call succeeds");
        assert_eq!(serde_json::to_value(fine).unwrap()["content"][0]["text"], "fine");
    }
    tokio::time::timeout(Duration::from_secs(20), client.close()).await.expect("close() returns");
    let received = received.lock().unwrap();
    assert!(received.iter().any(|(_, m)| m["method"] == "notifications/cancelled"), "the cancellation was sent");
    assert_eq!(received.iter().filter(|(_, m)| m["params"]["name"] == "fine").count(), 3);
}

/// The HTTP/1.1 connections of the client's POSTs: calls one after the other share one
/// kept-alive connection; against a server that closes each connection after one answer
/// (the connection the client kept may close just as it is used again) no call fails or
/// is sent twice, and each message goes out on a connection of its own: none is opened
/// for nothing. (The client lists the tools after each call here, to learn the output
/// schema of a tool this server never lists: two requests per call.)
#[tokio::test]
async fn kept_alive_connections_are_reused_and_none_is_opened_for_nothing() {
    for one_answer in [false, true] {
        let (received, _, client, accepted) = connect_with(Behaviour { one_answer, ..Behaviour::default() }).await;
        for _ in 0..20 {
            let fine = client.call_tool("fine", json!({}), RequestOptions::default()).await.expect("the call succeeds");
            assert_eq!(serde_json::to_value(fine).unwrap()["content"][0]["text"], "fine");
        }
        client.close().await;
        let received = received.lock().unwrap();
        let calls = received.iter().filter(|(_, m)| m["params"]["name"] == "fine").count();
        assert_eq!(calls, 20, "each call reached the server once (one answer per connection: {one_answer})");
        let mut connections: Vec<usize> = received.iter().map(|(h, _)| h[":connection"].parse().unwrap()).collect();
        connections.sort_unstable();
        let accepted = accepted.load(Ordering::SeqCst);
        if one_answer {
            assert_eq!(accepted, received.len(), "one connection per message");
            // Connections 0, 1, 2... each carried one message.
            assert_eq!(connections, (0..received.len()).collect::<Vec<_>>());
        } else {
            assert_eq!(accepted, 1, "one connection");
            assert!(connections.iter().all(|c| *c == 0), "the messages share one connection: {connections:?}");
        }
    }
}

/// The server dies (its listener and every connection closed) while the client holds an
/// idle kept-alive connection to it, and a server listens on the same port again: the
/// calls after it go out on a new connection (the dead one is never used again, no call
/// fails or is sent twice). (A call made while nobody listens fails, and the client then
/// takes the server for gone: reconnecting is the gateway's, a new client.)
#[tokio::test]
async fn a_server_that_died_and_came_back_is_reached_on_a_new_connection() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    // Accepts on `listener` and serves each connection; aborting the task drops the
    // listener and, with the `JoinSet`, every connection it serves.
    let run = |listener: TcpListener, received: Received, accepted: Arc<AtomicUsize>| {
        tokio::spawn(async move {
            let mut connections = tokio::task::JoinSet::new();
            while let Ok((stream, _)) = listener.accept().await {
                let connection = accepted.fetch_add(1, Ordering::SeqCst);
                let behaviour = Behaviour::default();
                connections.spawn(serve(stream, received.clone(), Arc::new(Notify::new()), behaviour, connection));
            }
        })
    };
    let (first, accepted) = (Received::default(), Arc::new(AtomicUsize::new(0)));
    let server = run(listener, first.clone(), accepted.clone());
    let url = format!("http://{address}/mcp");
    let client =
        Client::connect_http(HttpClientOptions::new(url), ClientOptions::default(), ClientCallbacks::default())
            .await
            .unwrap();
    for _ in 0..3 {
        client.call_tool("fine", json!({}), RequestOptions::default()).await.expect("the call succeeds");
    }
    assert_eq!(accepted.load(Ordering::SeqCst), 1, "one kept-alive connection before the server dies");

    server.abort();
    assert!(server.await.unwrap_err().is_cancelled());

    let (second, accepted) = (Received::default(), Arc::new(AtomicUsize::new(0)));
    let server = run(TcpListener::bind(address).await.unwrap(), second.clone(), accepted.clone());
    for _ in 0..3 {
        let fine = client.call_tool("fine", json!({}), RequestOptions::default()).await.expect("the server is back");
        assert_eq!(serde_json::to_value(fine).unwrap()["content"][0]["text"], "fine");
    }
    client.close().await;
    server.abort();
    assert_eq!(accepted.load(Ordering::SeqCst), 1, "the calls share one new connection");
    let second = second.lock().unwrap();
    assert_eq!(second.iter().filter(|(_, m)| m["params"]["name"] == "fine").count(), 3, "each call sent once");
    assert_eq!(first.lock().unwrap().iter().filter(|(_, m)| m["params"]["name"] == "fine").count(), 3);
}

/// An answer that fails a call reaches the caller as data, not only as words: the status,
/// the server's own reason phrase, the body and its content type (what the bindings make
/// their typed HTTP errors of). A successful answer of a type that holds no response
/// (neither JSON nor SSE) fails the call the same way.
#[tokio::test]
async fn the_http_answer_that_failed_a_call_reaches_its_error_as_data() {
    let (_, _, client) = connect(false).await;
    let failure_of = |error: ClientError| {
        let data: Value = error.rpc().and_then(|e| e.data.as_ref()).expect("data").parse_owned().unwrap();
        HttpFailure::from_data(&data).expect("the HTTP answer in the data")
    };
    let error = client.call_tool("html-500", json!({}), RequestOptions::default()).await.unwrap_err();
    assert_eq!(error.code(), ErrorCode::CONNECTION_CLOSED);
    let html = "<h1>Internal Server Error</h1>";
    let expected = HttpFailure {
        status: 500,
        status_text: "X".into(),
        body: Some(html.into()),
        content_type: Some("text/html".into()),
        sse: None,
    };
    assert_eq!(failure_of(error), expected);

    let error = client.call_tool("plain-text", json!({}), RequestOptions::default()).await.unwrap_err();
    assert!(error.to_string().contains("text/plain; charset=utf-8, neither JSON nor an SSE stream"), "{error}");
    let expected =
        HttpFailure { status: 200, body: None, content_type: Some("text/plain; charset=utf-8".into()), ..expected };
    assert_eq!(failure_of(error), expected);
    // The server's own JSON-RPC error stays the server's, with its data.
    let error = client.call_tool("mismatch", json!({}), RequestOptions::default()).await.unwrap_err();
    assert!(error.rpc().is_some_and(|e| e.data.is_none()), "{error:?}");
    client.close().await;
}

#[tokio::test]
async fn what_cannot_work_is_refused_before_anything_is_sent() {
    for (http, says) in [
        (HttpClientOptions::new("not a url"), "bad URL"),
        (HttpClientOptions::new("ftp://127.0.0.1:1/mcp"), "ftp:// is not HTTP"),
        (HttpClientOptions::new("http://127.0.0.1:1/mcp").header("X-Bad", "line\nbreak"), "bad value for header x-bad"),
        (HttpClientOptions::new("http://127.0.0.1:1/mcp").header("Bad Name", "v"), "bad header name"),
    ] {
        let refused = Client::connect_http(http, ClientOptions::default(), ClientCallbacks::default()).await;
        let error = refused.err().expect(says);
        assert!(matches!(error, ClientError::Transport(_)) && error.to_string().contains(says), "{error}");
    }
}
