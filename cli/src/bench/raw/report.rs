//! What one run prints: a single JSON object on stdout, read by the runner
//! (`benches/e2e/report.py`). Absent phases are omitted, so a row that cannot have a figure
//! (the ceilings have no tool list) simply lacks it.

use serde::Serialize;

use super::latency::Phase;

#[derive(Debug, Default, Serialize)]
pub struct Run {
    /// `stdio`, or `http-legacy` / `http-modern`.
    pub transport: String,
    pub command: Vec<String>,
    /// The tool the calls went to (`echo` unless `--tool`).
    pub tool: String,
    /// The size of the checked call's result as the server wrote it (bytes of JSON).
    pub result_bytes: usize,
    /// From spawning the server to the first answered request (`initialize`, or the first
    /// call on modern HTTP).
    pub startup_ms: f64,
    /// Resident memory after the handshake and one call, then a short pause.
    pub rss_idle_kib: u64,
    /// The resident high-water mark after the call phases (before the 1 MiB echo).
    pub rss_peak_kib: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequential: Option<Phase>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_flight: Option<Phase>,
    /// Calls offered at fixed rates (`--rate`), one phase per rate.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paced: Vec<Paced>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub echo_1mib: Option<Throughput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools_list: Option<ToolsList>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burst: Option<Burst>,
}

/// Large echo calls, one at a time.
#[derive(Debug, Serialize)]
pub struct Throughput {
    pub calls: usize,
    pub payload_bytes: usize,
    /// Payload bytes echoed per second (each counted once, though it crosses the pipe twice).
    pub mb_per_s: f64,
    pub rss_peak_kib: u64,
}

/// Full `tools/list` listings (every page), one at a time.
#[derive(Debug, Serialize)]
pub struct ToolsList {
    pub tools: usize,
    pub pages: usize,
    pub listings: usize,
    pub p50_us: f64,
    pub p99_us: f64,
}

/// Echo calls offered at a fixed rate: what the server costs below saturation.
#[derive(Debug, Serialize)]
pub struct Paced {
    /// The rate asked for; `calls_per_s` is the rate achieved.
    pub offered_per_s: u32,
    #[serde(flatten)]
    pub phase: Phase,
}

/// `--burst N`: N calls written at once, then every answer awaited (issue 17).
#[derive(Debug, Serialize)]
pub struct Burst {
    pub requests: usize,
    /// Distinct ids answered: always `requests` in a run that succeeded.
    pub answered: usize,
    /// Answers that were JSON-RPC errors (an overloaded server may refuse some).
    pub errors: usize,
    /// From the first request written to the last answer read.
    pub seconds: f64,
    pub calls_per_s: f64,
    /// Time from the burst's start to each answer.
    pub p50_us: f64,
    pub p99_us: f64,
    pub server_cpu_us_per_call: f64,
    /// Resident memory just before the burst, and the high-water mark after it.
    pub rss_before_kib: u64,
    pub rss_peak_kib: u64,
}
