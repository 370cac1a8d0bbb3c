//! `ferrymcp bench --driver raw`: the end-to-end load driver of the project's own SDK
//! benchmark (`benches/e2e`, issue 7), formerly the `mcp-load` binary.
//!
//! It speaks raw JSON-RPC, with no SDK on the client side (not even core's client), so the
//! client costs the same whichever server it measures: frames are formatted from
//! pre-escaped strings and replies are read as borrowed envelopes. Each run starts the
//! server fresh, as a child process, calls its `echo` tool one at a time and with a window
//! of calls in flight, and reads the child's CPU time and memory from `/proc`, which is less
//! noisy than wall time on a shared machine. The stdio and Streamable HTTP sides live in
//! their own files; what they report (one JSON object) is in [`report`]. Linux only.

pub mod http;
pub mod latency;
pub mod messages;
pub mod procfs;
pub mod report;
pub mod stdio;

use std::process::Stdio;
use std::thread;
use std::time::Duration;

use messages::{Call, Era};
use report::Run;
use stdio::StdioServer;

/// Every failure of a run ends it with a message; the runner records the run as failed.
pub type Error = Box<dyn std::error::Error + Send + Sync>;
pub type Result<T> = std::result::Result<T, Error>;

/// What to run: the options of `ferrymcp bench --driver raw`.
pub struct RawOptions {
    /// `None` for stdio, else Streamable HTTP in this era.
    pub http: Option<Era>,
    pub path: String,
    pub duration: Duration,
    pub window: usize,
    pub large_echo: bool,
    pub tools_list: Option<usize>,
    /// Offered rates (calls/s) of the paced phases, stdio only.
    pub rates: Vec<u32>,
    /// The tool and arguments every call sends (`echo` of "hello world" by default).
    pub call: Call,
    /// `--burst N`: instead of the timed phases, N calls at once and every answer (stdio).
    pub burst: Option<usize>,
    /// The server's command line; over HTTP `{port}` in it becomes a free port (also `PORT`).
    pub command: Vec<String>,
}

/// How long a burst may take before the server is killed and the run fails.
const BURST_LIMIT: Duration = Duration::from_secs(120);

/// Runs every phase against a freshly started server; the caller prints the [`Run`].
/// Blocking (stdio runs on this thread, HTTP on its own two-worker runtime): call it
/// outside any async runtime.
pub fn run(options: &RawOptions) -> Result<Run> {
    match options.http {
        None => run_stdio(options),
        Some(era) => {
            let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
            runtime.block_on(http::run(
                &options.command,
                &options.path,
                era,
                options.window,
                options.duration,
                server_stderr(),
            ))
        }
    }
}

/// `FERRYMCP_BENCH_SERVER_STDERR=inherit` shows the server's stderr (hidden by default).
fn server_stderr() -> Stdio {
    match std::env::var("FERRYMCP_BENCH_SERVER_STDERR").as_deref() {
        Ok("inherit") => Stdio::inherit(),
        _ => Stdio::null(),
    }
}

fn run_stdio(options: &RawOptions) -> Result<Run> {
    let (mut server, startup) = StdioServer::start(&options.command, server_stderr())?;
    let outcome = stdio_phases(&mut server, options);
    server.close();
    let mut run = outcome?;
    run.transport = "stdio".into();
    run.command = options.command.clone();
    run.startup_ms = startup.as_secs_f64() * 1e3;
    Ok(run)
}

fn stdio_phases(server: &mut StdioServer, options: &RawOptions) -> Result<Run> {
    let duration = options.duration;
    let call = &options.call;
    let result_bytes = if call.is_echo() {
        server.checked_echo("hello world")?;
        0
    } else {
        server.checked_call(call)?
    };
    thread::sleep(Duration::from_millis(200));
    let mut run = Run {
        tool: serde_json::from_str(&call.name_json)?,
        result_bytes,
        rss_idle_kib: procfs::sample(server.pid())?.rss_kib,
        ..Run::default()
    };
    if let Some(expected) = options.tools_list {
        let list = server.tools_list(duration)?;
        if list.tools < expected {
            return Err(format!("the server listed {} tools, expected at least {expected}", list.tools).into());
        }
        run.tools_list = Some(list);
        run.rss_peak_kib = procfs::sample(server.pid())?.hwm_kib;
        return Ok(run);
    }
    if let Some(requests) = options.burst {
        let burst = server.burst(call, requests, BURST_LIMIT)?;
        run.rss_peak_kib = burst.rss_peak_kib;
        run.burst = Some(burst);
        return Ok(run);
    }
    server.in_flight(call, options.window, duration / 4)?;
    run.sequential = Some(server.sequential(call, duration)?);
    run.in_flight = Some(server.in_flight(call, options.window, duration)?);
    run.rss_peak_kib = procfs::sample(server.pid())?.hwm_kib;
    for &rate in &options.rates {
        run.paced
            .push(report::Paced { offered_per_s: rate, phase: server.paced(call, rate, options.window, duration)? });
    }
    if options.large_echo {
        run.echo_1mib = Some(server.large_echo(1 << 20, 5, duration / 2)?);
    }
    Ok(run)
}
