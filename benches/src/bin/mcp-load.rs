//! mcp-load: the end-to-end load driver of the SDK benchmark (issue 7). It starts one
//! server fresh, measures it, and prints one JSON object (`driver::report::Run`).
//!
//! ```text
//! mcp-load stdio [--seconds S] [--window N] [--large-echo] [--tools-list N] -- CMD ARGS...
//! mcp-load http --mode legacy|modern [--path /mcp] [--seconds S] [--window N] -- CMD ARGS...
//! ```
//!
//! `--tools-list N` measures full `tools/list` listings instead of calls, and fails unless
//! the server lists at least N tools. For HTTP, `{port}` in CMD ARGS becomes a free port
//! (also passed as `PORT`). `MCP_LOAD_SERVER_STDERR=inherit` shows the server's stderr.

use std::process::{ExitCode, Stdio};
use std::thread;
use std::time::Duration;

use ferrymcp_benches::driver::Result;
use ferrymcp_benches::driver::http;
use ferrymcp_benches::driver::messages::Era;
use ferrymcp_benches::driver::procfs;
use ferrymcp_benches::driver::report::Run;
use ferrymcp_benches::driver::stdio::StdioServer;

const USAGE: &str = "usage: mcp-load stdio [--seconds S] [--window N] [--large-echo] [--tools-list N] -- CMD...\n       mcp-load http --mode legacy|modern [--path /mcp] [--seconds S] [--window N] -- CMD...";

/// The command line, parsed.
struct Options {
    transport: String,
    seconds: f64,
    window: usize,
    large_echo: bool,
    tools_list: Option<usize>,
    era: Era,
    path: String,
    command: Vec<String>,
}

fn main() -> ExitCode {
    let options = match parse(std::env::args().skip(1).collect()) {
        Ok(options) => options,
        Err(problem) => {
            eprintln!("mcp-load: {problem}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let outcome = match options.transport.as_str() {
        "stdio" => stdio(&options),
        _ => http(&options),
    };
    match outcome {
        Ok(run) => {
            println!("{}", serde_json::to_string(&run).expect("a run serialises"));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("mcp-load: {}: {e}", options.command.join(" "));
            ExitCode::FAILURE
        }
    }
}

fn parse(args: Vec<String>) -> std::result::Result<Options, String> {
    let split = args.iter().position(|a| a == "--").ok_or("missing `-- CMD`")?;
    let (flags, command) = (&args[..split], args[split + 1..].to_vec());
    let mut flags = flags.iter();
    let transport =
        flags.next().filter(|t| *t == "stdio" || *t == "http").ok_or("the first argument is stdio or http")?.clone();
    let mut options = Options {
        transport,
        seconds: 2.0,
        window: 64,
        large_echo: false,
        tools_list: None,
        era: Era::Legacy,
        path: "/mcp".into(),
        command,
    };
    while let Some(flag) = flags.next() {
        let mut value = || flags.next().cloned().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--seconds" => options.seconds = value()?.parse().map_err(|_| "--seconds takes a number")?,
            "--window" => options.window = value()?.parse().map_err(|_| "--window takes a count")?,
            "--large-echo" => options.large_echo = true,
            "--tools-list" => options.tools_list = Some(value()?.parse().map_err(|_| "--tools-list takes a count")?),
            "--path" => options.path = value()?,
            "--mode" => {
                options.era = match value()?.as_str() {
                    "legacy" => Era::Legacy,
                    "modern" => Era::Modern,
                    other => return Err(format!("unknown mode {other:?}")),
                }
            }
            other => return Err(format!("unknown flag {other:?}")),
        }
    }
    if options.command.is_empty() {
        return Err("no server command after --".into());
    }
    Ok(options)
}

fn server_stderr() -> Stdio {
    match std::env::var("MCP_LOAD_SERVER_STDERR").as_deref() {
        Ok("inherit") => Stdio::inherit(),
        _ => Stdio::null(),
    }
}

fn stdio(options: &Options) -> Result<Run> {
    let duration = Duration::from_secs_f64(options.seconds);
    let (mut server, startup) = StdioServer::start(&options.command, server_stderr())?;
    let outcome = stdio_phases(&mut server, options, duration);
    server.close();
    let mut run = outcome?;
    run.transport = "stdio".into();
    run.command = options.command.clone();
    run.startup_ms = startup.as_secs_f64() * 1e3;
    Ok(run)
}

fn stdio_phases(server: &mut StdioServer, options: &Options, duration: Duration) -> Result<Run> {
    server.checked_echo("hello world")?;
    thread::sleep(Duration::from_millis(200));
    let mut run = Run { rss_idle_kib: procfs::sample(server.pid())?.rss_kib, ..Run::default() };
    if let Some(expected) = options.tools_list {
        let list = server.tools_list(duration)?;
        if list.tools < expected {
            return Err(format!("the server listed {} tools, expected at least {expected}", list.tools).into());
        }
        run.tools_list = Some(list);
        run.rss_peak_kib = procfs::sample(server.pid())?.hwm_kib;
        return Ok(run);
    }
    let text = serde_json::to_string("hello world")?;
    server.in_flight(&text, options.window, duration / 4)?;
    run.sequential = Some(server.sequential(&text, duration)?);
    run.in_flight = Some(server.in_flight(&text, options.window, duration)?);
    run.rss_peak_kib = procfs::sample(server.pid())?.hwm_kib;
    if options.large_echo {
        run.echo_1mib = Some(server.large_echo(1 << 20, 5, duration / 2)?);
    }
    Ok(run)
}

fn http(options: &Options) -> Result<Run> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let duration = Duration::from_secs_f64(options.seconds);
    runtime.block_on(http::run(&options.command, &options.path, options.era, options.window, duration, server_stderr()))
}
