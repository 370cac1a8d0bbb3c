//! Core's input batch (`server::input_batch`), the way the bindings use it: a handler that
//! runs on another runtime (here a second tokio runtime, standing for Python's asyncio
//! loop or Node's thread) asks for inputs one call at a time and flushes when it has asked
//! what it needs for now. A real server serves a raw JSON-RPC peer over the in-memory
//! transport, in both eras:
//!
//! - 2026-07-28: the two inputs awaited together form one `input_required` round (one
//!   automatic key, one explicit), the third a second round, and each retry delivers what
//!   was answered; the asks of a stopped round fail with `REQUEST_CANCELLED` on the other
//!   runtime instead of waiting forever;
//! - legacy: each input is one `elicitation/create` request to the client, the first two
//!   in flight together (a bound on the call is the only clock: without it, a failure
//!   would hang).

use std::sync::{Arc, Mutex};

use ferrymcp_core::client::ClientCallbacks;
use ferrymcp_core::peer::{Peer, PeerConfig, PeerError, RequestOptions};
use ferrymcp_core::protocol::ErrorCode;
use ferrymcp_core::server::{Context, HandlerError, HandlerFuture, Server, ToolHandler, input_batch};
use ferrymcp_core::transport::memory;
use serde_json::{Map, Value, json};
use tokio::sync::{mpsc, oneshot};

/// What the foreign side of the handler saw end its runs: `Ok` a finished run, `Err` the
/// code its first two inputs failed with.
type Runs = mpsc::UnboundedSender<Result<(), i64>>;

/// A tool whose body runs on `foreign`: asks for two inputs together, then a third.
struct Foreign {
    foreign: tokio::runtime::Handle,
    runs: Runs,
}

fn elicit(message: &str) -> Value {
    json!({"message": message, "requestedSchema": {"type": "object", "properties": {}}})
}

impl ToolHandler for Foreign {
    fn call(&self, _arguments: Map<String, Value>, cx: Context) -> HandlerFuture {
        let (batch, handler) = input_batch(cx);
        let (done, result) = oneshot::channel();
        let runs = self.runs.clone();
        self.foreign.spawn(async move {
            let (first, opens) =
                batch.ask(None, "elicitation/create".into(), elicit("first"), RequestOptions::default());
            let (second, joins) = batch.ask(
                Some("second".into()),
                "elicitation/create".into(),
                elicit("second"),
                RequestOptions::default(),
            );
            assert!(opens && !joins, "the first ask opens the batch, the second joins it");
            batch.flush();
            let (first, second) = tokio::join!(first, second);
            let (first, second) = match (first, second) {
                (Ok(first), Ok(second)) => (first, second),
                (Err(HandlerError::Rpc(a)), Err(HandlerError::Rpc(b))) if a.code == b.code => {
                    let _ = runs.send(Err(a.code));
                    return;
                }
                other => panic!("the two inputs ended apart: {other:?}"),
            };
            let (third, opens) =
                batch.ask(None, "elicitation/create".into(), elicit("third"), RequestOptions::default());
            assert!(opens, "an ask after a flush opens a new batch");
            batch.flush();
            let third = match third.await {
                Ok(third) => third,
                Err(HandlerError::Rpc(error)) => {
                    let _ = runs.send(Err(error.code));
                    return;
                }
                Err(other) => panic!("the third input: {other:?}"),
            };
            let _ = runs.send(Ok(()));
            let text = format!("{} {} {}", first["content"]["v"], second["content"]["v"], third["content"]["v"]);
            let _ = done.send(json!({"content": [{"type": "text", "text": text}]}));
        });
        Box::pin(handler.run(async move {
            result.await.map_err(|_| HandlerError::Failed("the foreign run ended without a result".into()))
        }))
    }
}

struct Fixture {
    peer: Peer,
    runs: mpsc::UnboundedReceiver<Result<(), i64>>,
    asked: Arc<Mutex<Vec<String>>>,
    _foreign: ForeignLoop,
}

/// The other runtime, shut down without blocking when the test (an async context) ends.
struct ForeignLoop(Option<tokio::runtime::Runtime>);

impl Drop for ForeignLoop {
    fn drop(&mut self) {
        if let Some(runtime) = self.0.take() {
            runtime.shutdown_background();
        }
    }
}

fn fixture() -> Fixture {
    let foreign = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let (runs, seen) = mpsc::unbounded_channel();
    let server = Server::new("batch", "1.0.0");
    let tool = json!({"name": "three", "inputSchema": {"type": "object"}});
    server.add_tool(tool, Foreign { foreign: foreign.handle().clone(), runs }).unwrap();
    let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
    tokio::spawn(async move { server.serve(server_source, server_sink).await });
    let asked: Arc<Mutex<Vec<String>>> = Arc::default();
    let log = asked.clone();
    let (gate_tx, gate) = tokio::sync::watch::channel(0usize);
    let gate_tx = Arc::new(gate_tx);
    let callbacks = ClientCallbacks {
        // A legacy client's answer: the first two wait until both have arrived, so the
        // test proves they were in flight together.
        elicitation: Some(Arc::new(move |params: Value| {
            let message = params["message"].as_str().unwrap().to_owned();
            log.lock().unwrap().push(message.clone());
            let (gate_tx, mut gate) = (gate_tx.clone(), gate.clone());
            Box::pin(async move {
                gate_tx.send_modify(|n| *n += 1);
                gate.wait_for(|n| *n >= 2).await.unwrap();
                Ok(json!({"action": "accept", "content": {"v": message}}))
            })
        })),
        ..ClientCallbacks::default()
    };
    let peer = Peer::spawn(client_source, client_sink, callbacks.handler().unwrap(), PeerConfig::default());
    Fixture { peer, runs: seen, asked, _foreign: ForeignLoop(Some(foreign)) }
}

async fn request(peer: &Peer, method: &str, params: Value) -> Value {
    match peer.request(method, Some(&params), RequestOptions::default()).await {
        Ok(raw) => raw.parse_owned().unwrap(),
        Err(PeerError::Rpc(error)) => panic!("{method}: {error:?}"),
        Err(other) => panic!("{method}: {other}"),
    }
}

fn modern(mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
    });
    params
}

fn keys(result: &Value) -> Vec<&str> {
    result["inputRequests"].as_object().expect("inputRequests").keys().map(String::as_str).collect()
}

fn accept(v: &str) -> Value {
    json!({"action": "accept", "content": {"v": v}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inputs_awaited_together_form_one_round_and_a_later_one_the_next() {
    let Fixture { peer, mut runs, _foreign: _running, .. } = fixture();
    let call = json!({"name": "three", "arguments": {}});

    let round = request(&peer, "tools/call", modern(call.clone())).await;
    assert_eq!(round["resultType"], "input_required", "{round}");
    assert_eq!(keys(&round), ["input-0", "second"]);
    assert_eq!(round["inputRequests"]["input-0"]["method"], "elicitation/create");
    assert_eq!(round["inputRequests"]["second"]["params"]["message"], "second");
    // The stopped round's asks failed on the foreign runtime; nothing waits forever.
    assert_eq!(runs.recv().await, Some(Err(ErrorCode::REQUEST_CANCELLED)));

    let mut retry = call.clone();
    retry["inputResponses"] = json!({"input-0": accept("a"), "second": accept("b")});
    retry["requestState"] = round["requestState"].clone();
    let round = request(&peer, "tools/call", modern(retry)).await;
    assert_eq!(round["resultType"], "input_required", "{round}");
    assert_eq!(keys(&round), ["input-1"]);
    assert_eq!(round["inputRequests"]["input-1"]["params"]["message"], "third");
    assert_eq!(runs.recv().await, Some(Err(ErrorCode::REQUEST_CANCELLED)), "the third ask, too, ended with its run");

    let mut retry = call;
    retry["inputResponses"] = json!({"input-1": accept("c")});
    retry["requestState"] = round["requestState"].clone();
    let done = request(&peer, "tools/call", modern(retry)).await;
    assert_eq!(done["resultType"], "complete", "{done}");
    assert_eq!(done["content"][0]["text"], r#""a" "b" "c""#);
    assert_eq!(runs.recv().await, Some(Ok(())));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_session_sends_each_input_as_a_request() {
    let Fixture { peer, mut runs, asked, _foreign: _running } = fixture();
    let init = json!({
        "protocolVersion": "2025-11-25",
        "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "batch-test", "version": "1.0.0"},
    });
    request(&peer, "initialize", init).await;
    peer.notify("notifications/initialized", None::<&Value>).await.unwrap();
    // The first two answers wait for each other: were they not in flight together, the
    // call would never end, so it is bounded.
    let call = request(&peer, "tools/call", json!({"name": "three", "arguments": {}}));
    let done = tokio::time::timeout(std::time::Duration::from_secs(30), call).await.expect("both asked at once");
    assert_eq!(done["content"][0]["text"], r#""first" "second" "third""#, "{done}");
    assert_eq!(runs.recv().await, Some(Ok(())));
    let mut asked = asked.lock().unwrap().clone();
    asked[..2].sort();
    assert_eq!(asked, ["first", "second", "third"]);
}
