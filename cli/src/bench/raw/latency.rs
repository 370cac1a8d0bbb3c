//! Summaries of a timed phase: calls per second and latency percentiles, plus the server's
//! CPU time per call from the `/proc` samples taken around the phase.

use std::time::Duration;

use serde::Serialize;

use super::procfs::Sample;

/// What one timed phase (sequential, or N in flight) measured.
#[derive(Debug, Serialize)]
pub struct Phase {
    pub calls: usize,
    pub seconds: f64,
    pub calls_per_s: f64,
    pub p50_us: f64,
    pub p99_us: f64,
    pub server_cpu_us_per_call: f64,
}

impl Phase {
    pub fn new(mut latencies: Vec<Duration>, elapsed: Duration, before: Sample, after: Sample) -> Phase {
        latencies.sort_unstable();
        let calls = latencies.len();
        let seconds = elapsed.as_secs_f64();
        Phase {
            calls,
            seconds,
            calls_per_s: calls as f64 / seconds,
            p50_us: percentile(&latencies, 0.50),
            p99_us: percentile(&latencies, 0.99),
            server_cpu_us_per_call: (after.cpu_seconds - before.cpu_seconds) * 1e6 / calls.max(1) as f64,
        }
    }
}

/// The nearest-rank percentile of sorted latencies, in microseconds.
pub fn percentile(sorted: &[Duration], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1].as_secs_f64() * 1e6
}
