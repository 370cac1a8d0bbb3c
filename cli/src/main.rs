//! `ferrymcp`: inspect, call and load-test any MCP server from a terminal or a script, and
//! bridge or gateway servers onto other transports.
//!
//! Everything MCP is ferrymcp-core's client (`Client::spawn`, `Client::connect_http`, the
//! `list_*` helpers that gather every page, `call_tool`...); this crate only parses the
//! command line, names servers the same way in every command ([`server`]), and prints
//! what it gets back: tables for a person, JSON for a script, with exit codes a script
//! can rely on ([`exit`]).

mod arguments;
mod bench;
mod call;
mod cli;
mod config;
mod exit;
mod front;
mod inspect;
mod oauth;
mod proxy;
mod render;
mod server;
mod signals;

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use ferrymcp_core::client::Client;

use cli::{Cli, Command, Driver};
use config::ConfigFile;
use exit::{Failure, Outcome};
use server::ServerSpec;

/// The gateway and bridge forward every call through a few short-lived buffers and
/// headers; mimalloc serves those from thread-local pages where glibc's malloc spent a
/// quarter of the gateway's CPU (benches/README.md, "Gateway latency at 64 in flight").
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The raw driver runs outside the async runtime: its stdio side blocks on pipes and its
    // HTTP side has a runtime of its own, as the benchmark's figures were taken with.
    if let Command::Bench(args) = &cli.command
        && args.driver == Driver::Raw
    {
        return match bench::raw_main(args) {
            Ok(code) => ExitCode::from(code),
            Err(failure) => failure.report(),
        };
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => return Failure::usage(format!("cannot start the async runtime: {e}")).report(),
    };
    match runtime.block_on(run(cli)) {
        Ok(code) => ExitCode::from(code),
        Err(failure) => failure.report(),
    }
}

async fn run(cli: Cli) -> Outcome<u8> {
    let config = config::load(cli.config.as_deref())?;
    let config = config.as_ref();
    match cli.command {
        Command::Inspect(args) => {
            let (spec, rest) = args.server.split("", 0)?;
            no_extra_words(&rest)?;
            with_client(&spec, config, async |client| inspect::run(client, args.json).await).await
        }
        Command::Call(args) => {
            let (spec, rest) = args.server.split("TOOL [KEY=VALUE]...", 1)?;
            let request =
                call::CallRequest { tool: &rest[0], pairs: &rest[1..], args: args.args.as_deref(), json: args.json };
            with_client(&spec, config, async |client| call::call(client, request).await).await
        }
        Command::Read(args) => {
            let (spec, rest) = args.server.split("URI", 1)?;
            no_extra_words(&rest[1..])?;
            with_client(&spec, config, async |client| call::read(client, &rest[0], args.json).await).await
        }
        Command::Prompt(args) => {
            let (spec, rest) = args.server.split("NAME [KEY=VALUE]...", 1)?;
            with_client(&spec, config, async |client| call::prompt(client, &rest[0], &rest[1..], args.json).await).await
        }
        Command::Bench(args) => {
            bench::no_raw_options(&args)?;
            let (spec, rest) = args.server.split("", 0)?;
            no_extra_words(&rest)?;
            let shown = server::resolve(&spec, config)?.describe();
            let Some(tool) = args.tool else {
                return Err(Failure::usage("--tool NAME is required (or --driver raw, which calls echo)"));
            };
            let request = bench::BenchRequest {
                tool,
                args: args.args,
                concurrency: usize::from(args.concurrency.unwrap_or(8)),
                stop: match args.calls {
                    Some(calls) => bench::Stop::Calls(calls),
                    None => bench::Stop::After(args.duration),
                },
                warmup: args.warmup.unwrap_or(Duration::from_secs(1)),
                timeout: args.timeout.unwrap_or(Duration::from_secs(30)),
                json: args.json,
                report: args.report,
            };
            with_client(&spec, config, async |client| bench::run(client, &shown, request).await).await
        }
        Command::Bridge(args) => {
            let (spec, rest) = args.server.split("", 0)?;
            no_extra_words(&rest)?;
            proxy::bridge(&spec, config, &args.front, &args.oauth, args.stdio).await
        }
        Command::Gateway(args) => proxy::gateway(&args.file, &args.front, args.connect_timeout).await,
    }
}

/// Connects, runs `command`, and closes the connection (stopping a started server)
/// whatever the command's outcome.
async fn with_client(
    spec: &ServerSpec,
    config: Option<&ConfigFile>,
    command: impl AsyncFnOnce(&Client) -> Outcome<u8>,
) -> Outcome<u8> {
    let client = server::open(spec, config).await?;
    let outcome = command(&client).await;
    client.close().await;
    outcome
}

fn no_extra_words(words: &[String]) -> Outcome<()> {
    match words {
        [] => Ok(()),
        extra => Err(Failure::usage(format!(
            "unexpected arguments {extra:?} (a server command line goes after --, or in one quoted string)"
        ))),
    }
}
