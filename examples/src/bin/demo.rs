//! demo: starts `echo-server` as a child process, talks to it over its stdin and stdout,
//! and shows what the engine does: calls, concurrency, errors, and a clean shutdown.

use std::sync::Arc;
use std::time::Instant;

use ferrymcp_core::client::child::{self, ChildCommand, ShutdownTimeouts};
use ferrymcp_core::peer::{MethodNotFound, Peer, PeerConfig, PeerError, RequestOptions};
use serde_json::{Value, json};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = std::env::current_exe()?.with_file_name("echo-server");
    println!("starting {}", server.display());
    let transport = child::spawn(ChildCommand::new(&server))?;
    let peer = Peer::spawn(transport.source, transport.sink, Arc::new(MethodNotFound), PeerConfig::default());

    let answer = call(&peer, "echo", json!({"text": "hello, ferrymcp"})).await?;
    println!("echo -> {answer}");

    match call(&peer, "shout", json!({})).await {
        Err(PeerError::Rpc(error)) => println!("shout -> error {}: {}", error.code, error.message),
        other => println!("shout -> unexpected {other:?}"),
    }

    let started = Instant::now();
    let count = 20_000;
    let calls = (0..count).map(|i| {
        let peer = peer.clone();
        async move { call(&peer, "echo", json!({"i": i})).await }
    });
    let tasks: Vec<_> = calls.map(tokio::spawn).collect();
    for (i, task) in tasks.into_iter().enumerate() {
        assert_eq!(task.await??, json!({"i": i}));
    }
    let elapsed = started.elapsed();
    println!(
        "{count} concurrent echo calls over stdio in {:.1} ms ({:.0} calls/s)",
        elapsed.as_secs_f64() * 1e3,
        count as f64 / elapsed.as_secs_f64()
    );

    peer.close().await;
    let status = transport.process.shutdown(ShutdownTimeouts::default()).await?;
    println!("server stopped: {status}");
    Ok(())
}

async fn call(peer: &Peer, method: &str, params: Value) -> Result<Value, PeerError> {
    let raw = peer.request(method, Some(&params), RequestOptions::default()).await?;
    Ok(raw.parse_owned().expect("the server sends JSON"))
}
