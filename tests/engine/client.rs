//! The engine's client side against `peer-fixture` in a real child process.

use std::os::unix::process::ExitStatusExt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ferrymcp_core::client::child::{self, ChildCommand, ChildProcess, ShutdownTimeouts, StderrMode};
use ferrymcp_core::peer::{
    CloseReason, Handler, MethodNotFound, Peer, PeerConfig, PeerError, Progress, RequestContext, RequestOptions,
};
use ferrymcp_core::wire::{ErrorObject, RawJson, Request};
use futures_util::stream::{FuturesUnordered, StreamExt};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::FIXTURE;

fn connect_with(args: &[&str], handler: Arc<dyn Handler>) -> (Peer, ChildProcess) {
    let command = ChildCommand::new(FIXTURE).args(args).stderr(StderrMode::Discard);
    let transport = child::spawn(command).unwrap();
    let peer = Peer::spawn(transport.source, transport.sink, handler, PeerConfig::default());
    (peer, transport.process)
}

fn connect(args: &[&str]) -> (Peer, ChildProcess) {
    connect_with(args, Arc::new(MethodNotFound))
}

async fn call(peer: &Peer, method: &str, params: Value) -> Result<Value, PeerError> {
    let raw = peer.request(method, Some(&params), RequestOptions::default()).await?;
    Ok(raw.parse_owned().unwrap())
}

async fn wait_for_cancelled(peer: &Peer, expected: u64) {
    loop {
        let stats = call(peer, "stats", json!({})).await.unwrap();
        if stats["cancelled"] == expected {
            return;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_requests_in_flight_answered_out_of_order() {
    let (peer, process) = connect(&[]);
    let mut calls: FuturesUnordered<_> = (0..10_000u64)
        .map(|i| {
            let peer = peer.clone();
            // Later requests sleep less, so answers arrive in another order than asked.
            let ms = (10_000 - i) / 500;
            async move { (i, ms, call(&peer, "sleep", json!({"ms": ms})).await) }
        })
        .collect();
    let mut order = Vec::with_capacity(10_000);
    while let Some((i, ms, result)) = calls.next().await {
        assert_eq!(result.unwrap(), json!({"slept": ms}));
        order.push(i);
    }
    assert_eq!(order.len(), 10_000);
    assert!(order.windows(2).any(|w| w[0] > w[1]), "answers came back in request order");
    assert_eq!(peer.requests_pending(), 0);
    peer.close().await;
    assert!(process.wait().await.unwrap().success());
}

#[tokio::test]
async fn a_timeout_fails_the_call_and_cancels_it_on_the_server() {
    let (peer, _process) = connect(&[]);
    let options = RequestOptions::default().timeout(Duration::from_millis(50));
    let outcome = peer.request("sleep", Some(&json!({"ms": 60_000})), options).await;
    assert!(matches!(outcome, Err(PeerError::Timeout(_))), "{outcome:?}");
    assert_eq!(outcome.unwrap_err().code(), -32001);
    wait_for_cancelled(&peer, 1).await;
    assert_eq!(peer.requests_pending(), 0);
}

#[tokio::test]
async fn cancelling_or_dropping_a_call_cancels_it_on_the_server() {
    let (peer, _process) = connect(&[]);
    let token = CancellationToken::new();
    let options = RequestOptions::default().cancel(token.clone());
    let cancelled = {
        let peer = peer.clone();
        tokio::spawn(async move { peer.request("sleep", Some(&json!({"ms": 60_000})), options).await })
    };
    while call(&peer, "stats", json!({})).await.unwrap()["in_flight"] != 1 {
        tokio::task::yield_now().await;
    }
    token.cancel();
    assert!(matches!(cancelled.await.unwrap(), Err(PeerError::Cancelled)));
    wait_for_cancelled(&peer, 1).await;

    let dropped = {
        let peer = peer.clone();
        tokio::spawn(async move { call(&peer, "sleep", json!({"ms": 60_000})).await })
    };
    while call(&peer, "stats", json!({})).await.unwrap()["in_flight"] != 1 {
        tokio::task::yield_now().await;
    }
    dropped.abort();
    wait_for_cancelled(&peer, 2).await;
    assert_eq!(peer.requests_pending(), 0);
}

#[tokio::test]
async fn progress_reaches_its_request_and_extends_the_timeout() {
    let (peer, _process) = connect(&[]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let options = RequestOptions::default()
        .timeout(Duration::from_millis(400))
        .reset_timeout_on_progress(Some(Duration::from_secs(20)))
        .on_progress(Arc::new(move |p: Progress| sink.lock().unwrap().push(p.progress)));
    // Ten steps of 80 ms outlast the 400 ms timeout; progress keeps the call alive.
    let result = peer.request("progress", Some(&json!({"steps": 10, "ms": 80})), options).await;
    assert_eq!(result.unwrap().parse_owned::<Value>().unwrap(), json!({"sent": 10}));
    let expected: Vec<f64> = (1..=10).map(f64::from).collect();
    assert_eq!(*seen.lock().unwrap(), expected);
}

#[tokio::test]
async fn when_the_child_dies_every_pending_call_fails_at_once() {
    let (peer, process) = connect(&[]);
    let sleepers: Vec<_> = (0..3)
        .map(|_| {
            let peer = peer.clone();
            tokio::spawn(async move { call(&peer, "sleep", json!({"ms": 60_000})).await })
        })
        .collect();
    while call(&peer, "stats", json!({})).await.unwrap()["in_flight"] != 3 {
        tokio::task::yield_now().await;
    }
    let exit = call(&peer, "exit", json!({"code": 3})).await;
    for outcome in
        std::iter::once(exit).chain(futures_util::future::join_all(sleepers).await.into_iter().map(|r| r.unwrap()))
    {
        match outcome {
            Err(PeerError::Closed(CloseReason::Transport(why))) => {
                assert!(why.contains("exit status: 3"), "{why}")
            }
            other => panic!("expected a closed connection, got {other:?}"),
        }
    }
    assert_eq!(process.wait().await.unwrap().code(), Some(3));
    let after = call(&peer, "echo", json!({})).await;
    assert!(matches!(after, Err(PeerError::Closed(_))), "{after:?}");
}

#[tokio::test]
async fn shutdown_closes_stdin_then_terms_then_kills() {
    let quick = ShutdownTimeouts { after_close: Duration::from_millis(200), after_term: Duration::from_millis(200) };

    let (peer, process) = connect(&[]);
    peer.close().await;
    assert!(process.shutdown(quick).await.unwrap().success(), "EOF on stdin should end it");

    let (peer, process) = connect(&["--ignore-eof"]);
    peer.close().await;
    assert_eq!(process.shutdown(quick).await.unwrap().signal(), Some(libc::SIGTERM));

    let (peer, process) = connect(&["--ignore-eof", "--ignore-term"]);
    peer.close().await;
    assert_eq!(process.shutdown(quick).await.unwrap().signal(), Some(libc::SIGKILL));
}

struct EchoBack;

impl Handler for EchoBack {
    fn handle_request(
        &self,
        request: Request,
        _: RequestContext,
    ) -> ferrymcp_core::peer::BoxFuture<Result<RawJson, ErrorObject>> {
        Box::pin(async move {
            match request.method.as_str() {
                "client/echo" => Ok(request.params.unwrap_or_else(|| RawJson::from_text("{}").unwrap())),
                other => Err(ErrorObject::method_not_found(other)),
            }
        })
    }
}

#[tokio::test]
async fn the_server_can_call_back_while_serving_a_request() {
    let (peer, _process) = connect_with(&[], Arc::new(EchoBack));
    let answer = call(&peer, "ask", json!({"question": 42})).await.unwrap();
    assert_eq!(answer, json!({"question": 42}));
}

#[tokio::test]
async fn a_panicking_handler_is_an_internal_error_not_a_crash() {
    let (peer, _process) = connect(&[]);
    let outcome = call(&peer, "panic", json!({})).await;
    match outcome {
        Err(PeerError::Rpc(e)) => {
            assert_eq!(e.code, -32603);
            assert!(e.message.contains("asked to panic"), "{}", e.message);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(call(&peer, "echo", json!({"still": "alive"})).await.unwrap(), json!({"still": "alive"}));
}

#[tokio::test]
async fn stderr_lines_reach_the_callback() {
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = lines.clone();
    let command = ChildCommand::new(FIXTURE)
        .stderr(StderrMode::Lines(Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_owned()))));
    let transport = child::spawn(command).unwrap();
    let peer = Peer::spawn(transport.source, transport.sink, Arc::new(MethodNotFound), PeerConfig::default());
    peer.close().await;
    transport.process.wait().await.unwrap();
    // The fixture says why it stopped on stderr; the reader may trail the exit a little.
    loop {
        if lines.lock().unwrap().iter().any(|l| l.starts_with("peer-fixture:")) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}
