//! `ferrymcp bench`: load-tests a tool of any MCP server over one connection.
//!
//! A warm-up phase (its figures discarded) lets the server and the connection reach a
//! steady state; then the measured phase runs for a duration or a number of calls. The
//! figures are calls per second, latency percentiles from an HDR histogram, failures by
//! kind and, for a server this command started, its CPU time per call and peak RSS. They
//! are printed as a table, as JSON (`--json`), and optionally as an HTML page with a
//! latency chart (`--report`).

mod load;
mod process;
#[cfg(target_os = "linux")]
pub mod raw;
mod report;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use comfy_table::{Table, presets::UTF8_FULL_CONDENSED};
use ferrymcp_core::client::Client;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Value, json};

use crate::arguments::{self, Typing};
use crate::call::unknown;
use crate::cli::{BenchArgs, Driver};
use crate::exit::{Failure, Kind, Outcome, TOOL_ERROR};
pub use load::Stop;
use load::{Load, Tally};

pub struct BenchRequest {
    pub tool: String,
    pub args: Option<String>,
    pub concurrency: usize,
    pub stop: Stop,
    pub warmup: Duration,
    pub timeout: Duration,
    pub json: bool,
    pub report: Option<PathBuf>,
}

pub async fn run(client: &Client, server: &str, request: BenchRequest) -> Outcome<u8> {
    let tools = client.list_tools().await.map_err(|e| Failure::request("tools/list", e))?;
    let Some(tool) = tools.iter().find(|t| t.name == request.tool) else {
        return Err(unknown("tool", &request.tool, tools.iter().map(|t| t.name.as_str())));
    };
    let arguments = Value::Object(arguments::build(&[], request.args.as_deref(), Typing::Schema(&tool.input_schema))?);
    let load = Load {
        client,
        tool: &request.tool,
        arguments: &arguments,
        concurrency: request.concurrency,
        timeout: request.timeout,
    };
    if !request.warmup.is_zero() {
        load.run(Stop::After(request.warmup), &progress_bar("warm-up")).await;
    }
    let pid = client.child().map(|child| child.id());
    let before = pid.and_then(process::sample);
    let tally = load.run(request.stop, &progress_bar("bench")).await;
    let after = pid.and_then(process::sample);
    let figures = figures(server, &request, &tally, before.zip(after));
    if let Some(path) = &request.report {
        std::fs::write(path, report::html(&rows(&figures), &tally.latency))
            .map_err(|e| Failure::usage(format!("cannot write the report {}: {e}", path.display())))?;
    }
    if request.json {
        println!("{}", serde_json::to_string_pretty(&figures).unwrap_or_default());
    } else {
        print!("{}", table(&figures));
    }
    if let Some(why) = &tally.lost {
        return Err(Failure::new(Kind::Connect, anyhow::anyhow!("the connection was lost during the bench: {why}")));
    }
    Ok(if tally.failed() > 0 { TOOL_ERROR } else { 0 })
}

/// A bar on stderr, drawn only when stderr is a terminal.
fn progress_bar(phase: &str) -> ProgressBar {
    let target =
        if std::io::stderr().is_terminal() { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() };
    let bar = ProgressBar::with_draw_target(None, target);
    let style =
        ProgressStyle::with_template("{prefix:>8} [{elapsed_precise}] {wide_bar} {msg}").expect("a valid template");
    bar.set_style(style);
    bar.set_prefix(phase.to_owned());
    bar
}

fn figures(
    server: &str,
    request: &BenchRequest,
    tally: &Tally,
    usage: Option<(process::Sample, process::Sample)>,
) -> Value {
    let latency = &tally.latency;
    let ms = |micros: u64| micros as f64 / 1000.0;
    let answered = tally.ok > 0;
    let percentile = |q: f64| answered.then(|| ms(latency.value_at_quantile(q)));
    let seconds = tally.elapsed.as_secs_f64();
    let calls = tally.calls();
    let cpu_per_call = usage
        .filter(|_| calls > 0)
        .map(|(before, after)| (after.cpu.saturating_sub(before.cpu)).as_secs_f64() * 1000.0 / calls as f64);
    json!({
        "server": server,
        "tool": request.tool,
        "concurrency": request.concurrency,
        "calls": calls,
        "ok": tally.ok,
        "errors": tally.failed(),
        "errorsByKind": tally.errors,
        "seconds": seconds,
        "callsPerSecond": if seconds > 0.0 { calls as f64 / seconds } else { 0.0 },
        "latencyMs": {
            "min": answered.then(|| ms(latency.min())),
            "mean": answered.then(|| latency.mean() / 1000.0),
            "p50": percentile(0.50),
            "p90": percentile(0.90),
            "p99": percentile(0.99),
            "max": answered.then(|| ms(latency.max())),
        },
        "serverProcess": {
            "cpuMsPerCall": cpu_per_call,
            "peakRssKib": usage.map(|(_, after)| after.peak_rss_kib),
        },
        "connectionLost": tally.lost,
    })
}

/// The figures as rows for a person; what could not be measured reads "n/a".
fn rows(figures: &Value) -> Vec<(&'static str, String)> {
    let number = |value: &Value, digits: usize, unit: &str| match value.as_f64() {
        Some(n) => format!("{n:.digits$}{unit}"),
        None => "n/a".to_owned(),
    };
    let latency = &figures["latencyMs"];
    let errors = match figures["errorsByKind"].as_object() {
        Some(kinds) if !kinds.is_empty() => {
            kinds.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join(", ")
        }
        _ => "none".to_owned(),
    };
    let rss = figures["serverProcess"]["peakRssKib"].as_f64().map(|kib| json!(kib / 1024.0)).unwrap_or_default();
    vec![
        ("server", figures["server"].as_str().unwrap_or_default().to_owned()),
        ("tool", figures["tool"].as_str().unwrap_or_default().to_owned()),
        ("concurrency", figures["concurrency"].to_string()),
        ("calls", format!("{} in {}", figures["calls"], number(&figures["seconds"], 2, " s"))),
        ("calls/s", number(&figures["callsPerSecond"], 0, "")),
        ("latency p50", number(&latency["p50"], 3, " ms")),
        ("latency p90", number(&latency["p90"], 3, " ms")),
        ("latency p99", number(&latency["p99"], 3, " ms")),
        ("latency max", number(&latency["max"], 3, " ms")),
        ("errors", errors),
        ("server CPU per call", number(&figures["serverProcess"]["cpuMsPerCall"], 4, " ms")),
        ("server peak RSS", number(&rss, 1, " MiB")),
    ]
}

fn table(figures: &Value) -> String {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    for (name, value) in rows(figures) {
        table.add_row([name.to_owned(), value]);
    }
    format!("{table}\n")
}

/// Refuses the raw driver's options with the core driver, naming them.
pub fn no_raw_options(args: &BenchArgs) -> Outcome<()> {
    let given = [
        ("--mode", args.mode.is_some()),
        ("--path", args.path.is_some()),
        ("--window", args.window.is_some()),
        ("--large-echo", args.large_echo),
        ("--tools-list", args.tools_list.is_some()),
        ("--rate", !args.rate.is_empty()),
        ("--burst", args.burst.is_some()),
    ];
    match given.iter().filter(|(_, set)| *set).map(|(name, _)| *name).collect::<Vec<_>>().as_slice() {
        [] => Ok(()),
        names => Err(Failure::usage(format!("these options need --driver raw: {}", names.join(", ")))),
    }
}

/// `ferrymcp bench --driver raw`: checks the options, runs the raw driver (blocking, outside
/// any runtime) and prints its one JSON object. Exit 0 with the figures, 2 for a usage
/// error, 4 when the run failed (the message says why).
pub fn raw_main(args: &BenchArgs) -> Outcome<u8> {
    debug_assert!(args.driver == Driver::Raw);
    let core_only = [
        ("--concurrency (use --window)", args.concurrency.is_some()),
        ("--calls", args.calls.is_some()),
        ("--warmup", args.warmup.is_some()),
        ("--timeout", args.timeout.is_some()),
        ("--report", args.report.is_some()),
    ];
    let refused: Vec<&str> = core_only.iter().filter(|(_, set)| *set).map(|(name, _)| *name).collect();
    if !refused.is_empty() {
        return Err(Failure::usage(format!("these options do not apply with --driver raw: {}", refused.join(", "))));
    }
    if args.server.command.is_empty() || !args.server.words.is_empty() {
        return Err(Failure::usage("--driver raw starts the server itself: give its command after --"));
    }
    let other_tool = args.tool.as_deref().is_some_and(|t| t != "echo");
    if args.args.is_some() && args.tool.is_none() {
        return Err(Failure::usage("--args needs --tool NAME with --driver raw (echo's arguments are its own)"));
    }
    if args.mode.is_some()
        && (args.large_echo
            || args.tools_list.is_some()
            || !args.rate.is_empty()
            || args.burst.is_some()
            || args.args.is_some()
            || other_tool)
    {
        return Err(Failure::usage(
            "--large-echo, --tools-list, --rate, --burst, --tool and --args are measured over stdio only (drop --mode)",
        ));
    }
    if args.tools_list.is_some() && !args.rate.is_empty() {
        return Err(Failure::usage("--tools-list times listings only: run --rate separately"));
    }
    if args.burst.is_some() && (args.tools_list.is_some() || !args.rate.is_empty() || args.large_echo) {
        return Err(Failure::usage("--burst runs on its own: drop --tools-list, --rate and --large-echo"));
    }
    if (other_tool || args.args.is_some()) && (args.large_echo || args.tools_list.is_some()) {
        return Err(Failure::usage("--large-echo and --tools-list call echo and tools/list: drop --tool and --args"));
    }
    if args.mode.is_none() && args.path.is_some() {
        return Err(Failure::usage("--path applies over HTTP only (with --mode legacy|modern)"));
    }
    raw_run(args)
}

#[cfg(target_os = "linux")]
fn raw_run(args: &BenchArgs) -> Outcome<u8> {
    use crate::cli::HttpMode;
    let options = raw::RawOptions {
        http: args.mode.map(|mode| match mode {
            HttpMode::Legacy => raw::messages::Era::Legacy,
            HttpMode::Modern => raw::messages::Era::Modern,
        }),
        path: args.path.clone().unwrap_or_else(|| "/mcp".into()),
        duration: args.duration,
        window: usize::from(args.window.unwrap_or(64)),
        large_echo: args.large_echo,
        tools_list: args.tools_list,
        rates: args.rate.clone(),
        call: match (&args.tool, &args.args) {
            (Some(tool), Some(json)) => {
                raw::messages::Call::tool(tool, json).map_err(|e| Failure::usage(e.to_string()))?
            }
            (Some(tool), None) if tool != "echo" => {
                raw::messages::Call::tool(tool, "{}").map_err(|e| Failure::usage(e.to_string()))?
            }
            _ => raw::messages::Call::echo(r#""hello world""#),
        },
        burst: args.burst.map(|n| n as usize),
        command: args.server.command.clone(),
    };
    match raw::run(&options) {
        Ok(run) => {
            println!("{}", serde_json::to_string(&run).unwrap_or_default());
            Ok(0)
        }
        Err(e) => Err(Failure::new(Kind::Protocol, anyhow::anyhow!("{}: {e}", options.command.join(" ")))),
    }
}

#[cfg(not(target_os = "linux"))]
fn raw_run(_args: &BenchArgs) -> Outcome<u8> {
    Err(Failure::usage("--driver raw reads the server's counters from /proc: it runs on Linux only"))
}
