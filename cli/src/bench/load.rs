//! The load: `concurrency` workers sharing one connection, each calling the tool again as
//! soon as its previous call is answered, so that many calls are always in flight.
//!
//! Each worker keeps its own histogram (no lock on the hot path); they are merged at the
//! end. Latency is recorded in microseconds for calls that succeeded; failed calls are
//! counted by kind. A lost connection stops every worker at once instead of counting
//! thousands of instant failures.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use ferrymcp_core::client::{Client, ClientError};
use ferrymcp_core::peer::{PeerError, RequestOptions};
use hdrhistogram::Histogram;
use indicatif::ProgressBar;
use serde_json::Value;

/// When a phase ends.
#[derive(Clone, Copy, Debug)]
pub enum Stop {
    After(Duration),
    Calls(u64),
}

/// What a phase measured.
pub struct Tally {
    /// Latencies of successful calls, in microseconds.
    pub latency: Histogram<u64>,
    pub ok: u64,
    /// Failed calls by kind: `JSON-RPC <code>`, `isError`, `timeout`, `transport`.
    pub errors: BTreeMap<String, u64>,
    pub elapsed: Duration,
    /// The connection was lost before the phase ended.
    pub lost: Option<String>,
}

impl Tally {
    fn new() -> Self {
        Self { latency: histogram(), ok: 0, errors: BTreeMap::new(), elapsed: Duration::ZERO, lost: None }
    }

    pub fn failed(&self) -> u64 {
        self.errors.values().sum()
    }

    pub fn calls(&self) -> u64 {
        self.ok + self.failed()
    }

    fn merge(&mut self, other: Tally) {
        self.latency.add(&other.latency).expect("histograms of the same bounds");
        self.ok += other.ok;
        for (kind, count) in other.errors {
            *self.errors.entry(kind).or_default() += count;
        }
        self.lost = self.lost.take().or(other.lost);
    }
}

fn histogram() -> Histogram<u64> {
    // 1 µs to one hour, 3 significant digits.
    Histogram::new_with_bounds(1, 3_600_000_000, 3).expect("valid histogram bounds")
}

/// What every worker shares.
struct Shared {
    client: Client,
    tool: String,
    arguments: Value,
    timeout: Duration,
    stop: Stop,
    started: Instant,
    issued: AtomicU64,
    completed: AtomicU64,
    lost: AtomicBool,
}

impl Shared {
    /// Takes the right to make one more call.
    fn claim(&self) -> bool {
        if self.lost.load(Ordering::Relaxed) {
            return false;
        }
        match self.stop {
            Stop::After(duration) => self.started.elapsed() < duration,
            Stop::Calls(total) => self.issued.fetch_add(1, Ordering::Relaxed) < total,
        }
    }
}

pub struct Load<'a> {
    pub client: &'a Client,
    pub tool: &'a str,
    pub arguments: &'a Value,
    pub concurrency: usize,
    pub timeout: Duration,
}

impl Load<'_> {
    /// Runs one phase, moving `bar` along (its length is set here).
    pub async fn run(&self, stop: Stop, bar: &ProgressBar) -> Tally {
        let shared = Arc::new(Shared {
            client: self.client.clone(),
            tool: self.tool.to_owned(),
            arguments: self.arguments.clone(),
            timeout: self.timeout,
            stop,
            started: Instant::now(),
            issued: AtomicU64::new(0),
            completed: AtomicU64::new(0),
            lost: AtomicBool::new(false),
        });
        let workers: Vec<_> = (0..self.concurrency.max(1)).map(|_| tokio::spawn(worker(shared.clone()))).collect();
        let ticker = tokio::spawn(tick(shared.clone(), bar.clone()));
        let mut tally = Tally::new();
        for worker in workers {
            match worker.await {
                Ok(part) => tally.merge(part),
                Err(e) => tally.lost = Some(format!("a worker failed: {e}")),
            }
        }
        tally.elapsed = shared.started.elapsed();
        ticker.abort();
        bar.finish_and_clear();
        tally
    }
}

async fn worker(shared: Arc<Shared>) -> Tally {
    let mut tally = Tally::new();
    let options = RequestOptions::default().timeout(shared.timeout);
    while shared.claim() {
        let started = Instant::now();
        let result = shared.client.call_tool(&shared.tool, shared.arguments.clone(), options.clone()).await;
        let elapsed = started.elapsed();
        shared.completed.fetch_add(1, Ordering::Relaxed);
        let kind = match result {
            Ok(result) if result.is_error != Some(true) => {
                tally.latency.saturating_record(elapsed.as_micros().max(1) as u64);
                tally.ok += 1;
                continue;
            }
            Ok(_) => "isError".to_owned(),
            Err(e) => match error_kind(&e) {
                Some(kind) => kind,
                None => {
                    shared.lost.store(true, Ordering::Relaxed);
                    tally.lost.get_or_insert_with(|| e.to_string());
                    "transport".to_owned()
                }
            },
        };
        *tally.errors.entry(kind).or_default() += 1;
    }
    tally
}

/// The kind of a failed call, `None` when the connection is gone.
fn error_kind(error: &ClientError) -> Option<String> {
    match error {
        ClientError::Peer(PeerError::Rpc(rpc)) | ClientError::Input(rpc) => Some(format!("JSON-RPC {}", rpc.code)),
        ClientError::Peer(PeerError::Timeout(_)) => Some("timeout".into()),
        ClientError::Peer(PeerError::Closed(_)) | ClientError::Transport(_) => None,
        ClientError::Peer(_)
        | ClientError::Protocol(_)
        | ClientError::Usage(_)
        | ClientError::OutputSchema { .. }
        | ClientError::InputRequired { .. } => Some("protocol".into()),
    }
}

/// Redraws the bar ten times a second: position, calls so far and the rate.
async fn tick(shared: Arc<Shared>, bar: ProgressBar) {
    match shared.stop {
        Stop::After(duration) => bar.set_length(duration.as_millis() as u64),
        Stop::Calls(total) => bar.set_length(total),
    }
    loop {
        let done = shared.completed.load(Ordering::Relaxed);
        let elapsed = shared.started.elapsed();
        bar.set_position(match shared.stop {
            Stop::After(_) => elapsed.as_millis() as u64,
            Stop::Calls(_) => done,
        });
        bar.set_message(format!("{done} calls, {:.0}/s", done as f64 / elapsed.as_secs_f64().max(1e-3)));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
