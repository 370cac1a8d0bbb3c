//! rmcp-client: the client-side benchmark's client on rmcp (benches/README.md, "Issue 17:
//! the client side"), doing what `peers/python/clientbench.py` and
//! `peers/node/clientbench.mjs` do: connect, one checked echo, a warm-up of a quarter phase
//! at 64 in flight, a phase of sequential `echo` calls, a phase with 64 in flight, one JSON
//! line. `rmcp-client [--seconds S] [--window N] stdio CMD [ARG...]` (stdio only).
//! CPU per call is this process's `getrusage(RUSAGE_SELF)` (every thread, not the server).

use std::process::Stdio;
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{Peer, RoleClient};
use serde_json::{Map, Value, json};

const TEXT: &str = "hello world, this is a benchmark";

fn own_cpu_s() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

fn server_cpu_s(pid: Option<u32>) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid?)).ok()?;
    let fields: Vec<&str> = stat[stat.rfind(')')? + 2..].split(' ').collect();
    Some((fields[11].parse::<f64>().ok()? + fields[12].parse::<f64>().ok()?) / 100.0)
}

fn params() -> CallToolRequestParams {
    let mut arguments = Map::new();
    arguments.insert("text".into(), Value::String(TEXT.into()));
    CallToolRequestParams::new("echo").with_arguments(arguments)
}

async fn call(peer: &Peer<RoleClient>) {
    let result = peer.call_tool(params()).await.expect("echo call");
    assert_ne!(result.is_error, Some(true), "echo answered with an error");
}

async fn phase(peer: &Peer<RoleClient>, seconds: f64, window: usize, server: Option<u32>) -> Value {
    let (cpu0, server0, start) = (own_cpu_s(), server_cpu_s(server), Instant::now());
    let deadline = start + Duration::from_secs_f64(seconds);
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..window {
        let peer = peer.clone();
        tasks.spawn(async move {
            let mut latencies = Vec::new();
            loop {
                let t0 = Instant::now();
                if t0 >= deadline {
                    return latencies;
                }
                call(&peer).await;
                latencies.push(t0.elapsed().as_nanos() as u64);
            }
        });
    }
    let mut every = Vec::new();
    while let Some(done) = tasks.join_next().await {
        every.extend(done.expect("a caller task"));
    }
    let elapsed = start.elapsed().as_secs_f64();
    let (cpu, server1) = (own_cpu_s() - cpu0, server_cpu_s(server));
    every.sort_unstable();
    let calls = every.len();
    let pick = |q: f64| {
        every.get(((q * calls as f64) as usize).min(calls.saturating_sub(1))).map_or(0.0, |ns| *ns as f64 / 1000.0)
    };
    let mut report = json!({
        "calls": calls,
        "seconds": elapsed,
        "calls_per_s": calls as f64 / elapsed,
        "p50_us": pick(0.5),
        "p99_us": pick(0.99),
        "client_cpu_us_per_call": cpu * 1e6 / calls as f64,
    });
    if let (Some(a), Some(b)) = (server0, server1) {
        report["server_cpu_us_per_call"] = json!((b - a) * 1e6 / calls as f64);
    }
    report
}

#[tokio::main]
async fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let (mut seconds, mut window) = (2.0, 64);
    while args.first().is_some_and(|a| a.starts_with("--")) {
        let (name, value) = (args.remove(0), args.remove(0));
        match name.as_str() {
            "--seconds" => seconds = value.parse().expect("--seconds S"),
            "--window" => window = value.parse().expect("--window N"),
            _ => panic!("unknown option {name}"),
        }
    }
    assert!(args.len() >= 2 && args[0] == "stdio", "usage: rmcp-client [--seconds S] [--window N] stdio CMD [ARG...]");
    let started = Instant::now();
    let mut child = tokio::process::Command::new(&args[1])
        .args(&args[2..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start the server");
    let server = child.id();
    let transport = (child.stdout.take().expect("stdout"), child.stdin.take().expect("stdin"));
    let client = ().serve(transport).await.expect("connect");
    let connect_ms = started.elapsed().as_secs_f64() * 1000.0;
    let peer: Peer<RoleClient> = client.peer().clone();
    let first = peer.call_tool(params()).await.expect("echo call");
    assert_eq!(first.content[0].as_text().map(|t| t.text.as_str()), Some(TEXT), "echo answered wrongly");
    phase(&peer, seconds / 4.0, window, None).await;
    let sequential = phase(&peer, seconds, 1, server).await;
    let mut in_flight = phase(&peer, seconds, window, server).await;
    in_flight["window"] = json!(window);
    let protocol = client.peer_info().map(|info| info.protocol_version.to_string());
    // SAFETY: as above.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    println!(
        "{}",
        json!({
            "transport": "stdio",
            "protocol_version": protocol,
            "connect_ms": connect_ms,
            "sequential": sequential,
            "in_flight": in_flight,
            "rss_peak_kib": usage.ru_maxrss,
        })
    );
    let _ = client.cancel().await;
}
