//! In-process round trips: a client `Peer` and a server `Peer` joined by
//! `transport::memory::pair()`, the server answering every request with a pre-made `{}`
//! (its handler finishes at once, so the engine answers it inline).
//!
//! Each criterion iteration is one round trip (`tools/call` with small params, encoded,
//! queued, coalesced by the writer, carried over the in-memory channel, framed, parsed,
//! dispatched, answered, and the answer correlated back to its waiting caller). One task
//! drives `in_flight` concurrent requests with `FuturesUnordered`, topping it up as answers
//! arrive: `in_flight = 1` is the latency of one request at a time, 256 the throughput under
//! load. The runtime is tokio's multi-thread one with 2 workers (this machine has 2 cores);
//! one variant on a current-thread runtime shows what the cross-thread hand-offs cost.

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ferrymcp_core::peer::{MethodNotFound, Peer, PeerConfig, RequestContext, RequestOptions};
use ferrymcp_core::transport::memory;
use ferrymcp_core::wire::{RawJson, Request};
use futures_util::stream::{FuturesUnordered, StreamExt};
use serde_json::value::RawValue;
use tokio::runtime::Runtime;

const PARAMS: &str = r#"{"name":"echo","arguments":{"text":"hello world, this is a benchmark"}}"#;

struct Connection {
    client: Peer,
    // Kept so the server side lives as long as the benchmark.
    _server: Peer,
    params: Arc<RawValue>,
}

fn connect(rt: &Runtime) -> Connection {
    let _enter = rt.enter();
    let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
    let empty = RawJson::from_text("{}").unwrap();
    let handler = move |_: Request, _: RequestContext| {
        let result = empty.clone();
        async move { Ok(result) }
    };
    let server = Peer::spawn(server_source, server_sink, Arc::new(handler), PeerConfig::default());
    let client = Peer::spawn(client_source, client_sink, Arc::new(MethodNotFound), PeerConfig::default());
    let params: Box<RawValue> = serde_json::from_str(PARAMS).unwrap();
    Connection { client, _server: server, params: params.into() }
}

async fn one(client: &Peer, params: &RawValue) {
    let result = client.request("tools/call", Some(params), RequestOptions::default()).await;
    assert_eq!(result.expect("the round trip failed").get(), "{}");
}

/// Runs `total` round trips with at most `in_flight` outstanding; returns the time taken.
async fn drive(client: Peer, params: Arc<RawValue>, total: u64, in_flight: usize) -> Duration {
    let start = Instant::now();
    let mut running = FuturesUnordered::new();
    let mut issued = 0;
    while issued < total && running.len() < in_flight {
        running.push(one(&client, &params));
        issued += 1;
    }
    while running.next().await.is_some() {
        if issued < total {
            running.push(one(&client, &params));
            issued += 1;
        }
    }
    start.elapsed()
}

fn bench_on(c: &mut Criterion, rt: Runtime, label: &str, levels: &[usize]) {
    let conn = connect(&rt);
    // A first run proves the connection works before anything is timed.
    rt.block_on(drive(conn.client.clone(), conn.params.clone(), 1000, 64));

    let mut group = c.benchmark_group("roundtrip");
    group.throughput(Throughput::Elements(1));
    for &in_flight in levels {
        group.bench_function(BenchmarkId::new(label, format!("in_flight_{in_flight}")), |b| {
            b.iter_custom(|iters| {
                let (client, params) = (conn.client.clone(), conn.params.clone());
                // Spawned, so the driver runs on a worker like any other task.
                rt.block_on(async move { tokio::spawn(drive(client, params, iters, in_flight)).await.unwrap() })
            })
        });
    }
    group.finish();
    drop(conn);
    rt.shutdown_timeout(Duration::from_secs(1));
}

fn roundtrip(c: &mut Criterion) {
    let multi = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    bench_on(c, multi, "multi_thread_2_workers", &[1, 16, 256]);
    let single = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    bench_on(c, single, "current_thread", &[256]);
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = roundtrip
}
criterion_main!(benches);
