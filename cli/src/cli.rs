//! The command line: subcommands, their options and their `--help` (with examples).
//!
//! Every command names its server the same way (see [`crate::server`]): as the first
//! positional word, or as a command after `--`, in which case the positional words start
//! with what follows SERVER (`ferrymcp call greet name=Ada -- python server.py`).

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::exit::{Failure, Outcome};
use crate::exit_codes;
use crate::front::HttpFrontArgs;
use crate::server::ServerSpec;

/// How SERVER is named, a literal so `concat!` can put it in every `--help`.
macro_rules! server_help {
    () => {
        "SERVER is one of:
  an http:// or https:// URL   Streamable HTTP (or the older HTTP+SSE)
  a name from mcp.json         --config FILE, default ./mcp.json when it exists
  a command line               one quoted string, or the words after --, run over stdio

"
    };
}

#[derive(Parser)]
#[command(
    name = "ferrymcp",
    version,
    about = "Inspect, call and load-test any MCP server (over stdio or Streamable HTTP).",
    after_help = concat!(
        server_help!(),
        "Examples:\n",
        "  ferrymcp inspect -- python server.py\n",
        "  ferrymcp call http://127.0.0.1:8000/mcp add a=1 b=2\n",
        "  ferrymcp bench weather --tool forecast --args '{\"city\":\"Oslo\"}' --concurrency 16\n\n",
        exit_codes!()
    )
)]
pub struct Cli {
    /// The mcp.json file SERVER names are looked up in [default: ./mcp.json when it exists].
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// The server's identity, protocol era, capabilities, and all its tools, resources,
    /// resource templates and prompts.
    #[command(
        override_usage = "ferrymcp inspect [OPTIONS] SERVER\n       ferrymcp inspect [OPTIONS] -- COMMAND...",
        after_help = concat!(
            server_help!(),
            "Examples:\n",
            "  ferrymcp inspect -- python server.py\n",
            "  ferrymcp inspect \"npx -y @modelcontextprotocol/server-everything\"\n",
            "  ferrymcp inspect http://127.0.0.1:8000/mcp --json | jq '.tools[].name'\n",
            "  ferrymcp inspect --config ~/mcp.json filesystem\n\n",
            exit_codes!()
        )
    )]
    Inspect(InspectArgs),
    /// Calls a tool and prints its result.
    #[command(
        override_usage = "ferrymcp call [OPTIONS] SERVER TOOL [KEY=VALUE]...\n       \
                          ferrymcp call [OPTIONS] TOOL [KEY=VALUE]... -- COMMAND...",
        after_help = concat!(
            server_help!(),
            "KEY=VALUE values are read as JSON when they parse (n=3, ok=true, tags='[\"a\"]'), else as\n",
            "strings; a property the tool's inputSchema types as string always gets the string.\n",
            "Pairs are laid over the --args object.\n\n",
            "Examples:\n",
            "  ferrymcp call greet name=Ada -- python server.py\n",
            "  ferrymcp call http://127.0.0.1:8000/mcp add a=1 b=2\n",
            "  ferrymcp call weather forecast --args '{\"city\": \"Oslo\", \"days\": 3}' --json\n\n",
            exit_codes!()
        )
    )]
    Call(CallArgs),
    /// Reads a resource and prints its contents.
    #[command(
        override_usage = "ferrymcp read [OPTIONS] SERVER URI\n       ferrymcp read [OPTIONS] URI -- COMMAND...",
        after_help = concat!(
            server_help!(),
            "Examples:\n",
            "  ferrymcp read file:///etc/hosts -- python server.py\n",
            "  ferrymcp read http://127.0.0.1:8000/mcp config://app --json\n\n",
            exit_codes!()
        )
    )]
    Read(ReadArgs),
    /// Gets a prompt with its arguments and prints its messages.
    #[command(
        override_usage = "ferrymcp prompt [OPTIONS] SERVER NAME [KEY=VALUE]...\n       \
                          ferrymcp prompt [OPTIONS] NAME [KEY=VALUE]... -- COMMAND...",
        after_help = concat!(
            server_help!(),
            "Prompt arguments are always strings.\n\n",
            "Examples:\n",
            "  ferrymcp prompt review code='fn main() {}' -- python server.py\n",
            "  ferrymcp prompt http://127.0.0.1:8000/mcp summarize topic=MCP --json\n\n",
            exit_codes!()
        )
    )]
    Prompt(PromptArgs),
    /// Load-tests a tool over one connection with many calls in flight: calls/s, latency
    /// percentiles, errors by kind, and the server process's CPU and memory.
    #[command(
        override_usage = "ferrymcp bench [OPTIONS] --tool NAME SERVER\n       \
                          ferrymcp bench [OPTIONS] --tool NAME -- COMMAND...",
        after_help = concat!(
            server_help!(),
            "The progress bar is drawn on stderr when it is a terminal. The server's CPU time per call\n",
            "and peak RSS are measured (Linux) when bench started it; otherwise they read n/a.\n",
            "Errors are counted by kind: JSON-RPC <code>, isError, timeout, transport.\n\n",
            "Examples:\n",
            "  ferrymcp bench --tool echo --args '{\"text\":\"hi\"}' -- python server.py\n",
            "  ferrymcp bench http://127.0.0.1:8000/mcp --tool add --args '{\"a\":1,\"b\":2}' -c 32 -d 30s\n",
            "  ferrymcp bench --tool echo --calls 10000 --json --report bench.html -- ./server\n\n",
            "The raw driver (--driver raw) is the project's own benchmark driver (benches/e2e): it\n",
            "starts the server given after --, writes JSON-RPC by hand (no client library cost),\n",
            "calls its `echo` tool ({\"text\": ...}; over stdio, --tool and --args name another) one\n",
            "at a time for --duration, then --window in flight (--burst N: N at once instead), and\n",
            "prints one JSON object: startup_ms, rss_idle_kib, rss_peak_kib, and per phase calls,\n",
            "calls_per_s, p50/p99 latency and the server's CPU per call (Linux only).\n",
            "Over HTTP (--mode), {port} in the command becomes a free port (also passed as PORT).\n",
            "FERRYMCP_BENCH_SERVER_STDERR=inherit shows the server's stderr.\n",
            "  ferrymcp bench --driver raw -d 2s --large-echo -- ./ferrymcp-echo\n",
            "  ferrymcp bench --driver raw -d 2s --tools-list 1000 -- python server.py\n",
            "  ferrymcp bench --driver raw -d 2s --rate 1000,25000 -- node server.mjs\n",
            "  ferrymcp bench --driver raw -d 2s --tool add --args '{\"a\":1,\"b\":2}' -- ./server\n",
            "  ferrymcp bench --driver raw --burst 10000 -- ./server\n",
            "  ferrymcp bench --driver raw --mode modern -d 2s --window 64 -- ./server --port {port}\n\n",
            "Exit codes: 0 every call succeeded, 1 some calls failed, 2 usage error,\n",
            "3 the server could not be started or the connection was lost, 4 protocol error.\n",
            "With --driver raw: 0 the JSON was printed, 2 usage error, 4 the run failed (the message says why)."
        )
    )]
    Bench(BenchArgs),
    /// Serves a server on another transport, forwarding everything both ways: a stdio
    /// server over Streamable HTTP, or (--stdio) a remote HTTP server on this process's
    /// stdio.
    #[command(
        override_usage = "ferrymcp bridge [OPTIONS] --port N SERVER\n       \
                          ferrymcp bridge [OPTIONS] --port N -- COMMAND...\n       \
                          ferrymcp bridge --stdio URL",
        after_help = concat!(
            server_help!(),
            "The clients see the server's own serverInfo, capabilities and instructions; requests,\n",
            "notifications, progress, cancellation, and the server's requests to the client\n",
            "(sampling, elicitation, roots) pass through. Over HTTP both protocol eras are served\n",
            "on the one endpoint, whose URL is printed on stdout once listening.\n\n",
            "Examples:\n",
            "  ferrymcp bridge --port 8000 -- python server.py\n",
            "  ferrymcp bridge --port 8000 --bearer-token-env MCP_TOKEN \"npx -y @modelcontextprotocol/server-everything\"\n",
            "  ferrymcp bridge --stdio https://example.com/mcp      (in a stdio-only host's config)\n",
            "  ferrymcp bridge --stdio https://example.com/mcp --oauth --token-store ~/.ferrymcp-tokens.json\n",
            "  ferrymcp bridge --stdio https://example.com/mcp --oauth --client-id ID --redirect-port 8765 --open\n",
            "  ferrymcp bridge --stdio https://example.com/mcp --client-credentials --client-id ID \\\n",
            "      --client-secret-env MCP_SECRET --scope mcp:tools\n\n",
            "OAuth (--oauth): on the server's 401 the authorization server is discovered, the client\n",
            "registered (unless --client-id), and the authorization URL printed on stderr (opened\n",
            "with --open); the redirect is caught on http://127.0.0.1:N/callback. With --token-store\n",
            "the tokens are kept (mode 0600) and refreshed on the next run. Stdout stays the MCP stream.\n\n",
            "Exit codes: 0 the stdio client went away (or, over HTTP, a stop signal), 2 usage error,\n",
            "3 the server could not be reached or closed the connection, 4 the server's handshake\n",
            "was malformed, 5 OAuth failed (refused, not approved within --auth-timeout, token store\n",
            "unwritable), 130 after SIGINT."
        )
    )]
    Bridge(BridgeArgs),
    /// Serves every server of an mcp.json file behind one Streamable HTTP endpoint, their
    /// tools and prompts named SERVER__NAME.
    #[command(
        override_usage = "ferrymcp gateway [OPTIONS] --port N CONFIG.json",
        after_help = concat!(
            "Tools and prompts are offered as SERVER__NAME (the server's name in the file, two\n",
            "underscores, the upstream's name); resource URIs are left as they are and routed to the\n",
            "server that listed them. Lists are gathered from every connected server (every page).\n",
            "Servers are connected at once, each within --connect-timeout; one that fails is reported\n",
            "on stderr and left out, and retried with backoff (1s doubling to 30s), as is one whose\n",
            "connection ends; clients are told the lists changed when a server comes or goes.\n\n",
            "Examples:\n",
            "  ferrymcp gateway ~/mcp.json --port 8000\n",
            "  ferrymcp gateway servers.json --port 0 --bearer-token-env MCP_TOKEN\n"
        )
    )]
    Gateway(GatewayArgs),
}

/// SERVER as the first positional word, or a command after `--`.
#[derive(Args)]
pub struct ServerWords {
    /// SERVER (unless given after --), then the command's own words.
    #[arg(value_name = "WORDS")]
    pub words: Vec<String>,
    /// The server's command line, started over stdio.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

impl ServerWords {
    /// The server and the words that follow it; `names` are what the command expects after
    /// SERVER (for messages), `at_least` how many of them are required.
    pub fn split(self, names: &str, at_least: usize) -> Outcome<(ServerSpec, Vec<String>)> {
        let (spec, rest) = if self.command.is_empty() {
            let mut words = self.words.into_iter();
            let Some(first) = words.next() else {
                return Err(Failure::usage(format!("missing SERVER (expected SERVER {names}, or {names} -- COMMAND)")));
            };
            (ServerSpec::Word(first), words.collect::<Vec<_>>())
        } else {
            (ServerSpec::Command(self.command), self.words)
        };
        if rest.len() < at_least {
            return Err(Failure::usage(format!("missing arguments: expected SERVER {names}")));
        }
        Ok((spec, rest))
    }
}

#[derive(Args)]
pub struct InspectArgs {
    #[command(flatten)]
    pub server: ServerWords,
    /// Print one JSON object with everything (every page of every list).
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct CallArgs {
    #[command(flatten)]
    pub server: ServerWords,
    /// The arguments as a JSON object; KEY=VALUE pairs are laid over it.
    #[arg(long, value_name = "JSON")]
    pub args: Option<String>,
    /// Print the raw result as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct ReadArgs {
    #[command(flatten)]
    pub server: ServerWords,
    /// Print the raw result as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct PromptArgs {
    #[command(flatten)]
    pub server: ServerWords,
    /// Print the raw result as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct BenchArgs {
    #[command(flatten)]
    pub server: ServerWords,
    /// The tool to call (required with the core driver; the raw driver calls `echo` unless
    /// given another tool, over stdio).
    #[arg(long, value_name = "NAME")]
    pub tool: Option<String>,
    /// The tool's arguments as a JSON object.
    #[arg(long, value_name = "JSON")]
    pub args: Option<String>,
    /// Calls in flight at once, over the one connection [default: 8].
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub concurrency: Option<u16>,
    /// How long to measure (e.g. 10s, 500ms, 2m).
    #[arg(short, long, default_value = "10s", value_parser = parse_duration, conflicts_with = "calls")]
    pub duration: Duration,
    /// Measure this many calls instead of a duration.
    #[arg(short = 'n', long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub calls: Option<u64>,
    /// Load before measuring, figures discarded (0s for none) [default: 1s].
    #[arg(long, value_parser = parse_duration)]
    pub warmup: Option<Duration>,
    /// A call not answered within this long counts as a timeout [default: 30s].
    #[arg(long, value_parser = parse_duration)]
    pub timeout: Option<Duration>,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained HTML page with the figures and a latency chart.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// The client: `core` (ferrymcp-core's client, any tool) or `raw` (hand-written
    /// JSON-RPC calling `echo`, so the figures measure the server only; prints one JSON run).
    #[arg(long, value_enum, default_value_t = Driver::Core, help_heading = "Raw driver")]
    pub driver: Driver,
    /// Raw driver over Streamable HTTP: `legacy` (a session) or `modern` (stateless
    /// 2026-07-28 requests). Without it the raw driver uses stdio.
    #[arg(long, value_enum, value_name = "MODE", help_heading = "Raw driver")]
    pub mode: Option<HttpMode>,
    /// Raw driver over HTTP: the endpoint's path [default: /mcp].
    #[arg(long, value_name = "PATH", help_heading = "Raw driver")]
    pub path: Option<String>,

    /// Raw driver: calls in flight in the concurrent phase [default: 64].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..), help_heading = "Raw driver")]
    pub window: Option<u16>,
    /// Raw driver over stdio: also echo 1 MiB payloads, one at a time (MB/s).
    #[arg(long, help_heading = "Raw driver")]
    pub large_echo: bool,
    /// Raw driver over stdio: time full `tools/list` listings instead of calls, and fail
    /// unless the server lists at least N tools.
    #[arg(long, value_name = "N", help_heading = "Raw driver")]
    pub tools_list: Option<usize>,
    /// Raw driver over stdio: after the other phases, also offer echo calls at these fixed
    /// rates (calls/s, comma-separated), one phase of --duration each, below saturation:
    /// the server's CPU per call when it mostly waits.
    #[arg(long, value_name = "N,N", value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..), help_heading = "Raw driver")]
    pub rate: Vec<u32>,
    /// Raw driver over stdio: instead of the timed phases, write N calls at once and wait
    /// for every answer (each id once, within 120 s): time, answers, errors, peak RSS.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000), help_heading = "Raw driver")]
    pub burst: Option<u64>,
}

/// Which client `ferrymcp bench` drives the server with.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Driver {
    Core,
    Raw,
}

/// The Streamable HTTP era of the raw driver.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HttpMode {
    Legacy,
    Modern,
}

#[derive(Args)]
pub struct BridgeArgs {
    #[command(flatten)]
    pub server: ServerWords,
    /// Serve on this process's stdin/stdout instead of HTTP.
    #[arg(long)]
    pub stdio: bool,
    #[command(flatten)]
    pub front: HttpFrontArgs,
    #[command(flatten)]
    pub oauth: crate::oauth::OAuthArgs,
}

#[derive(Args)]
pub struct GatewayArgs {
    /// The mcp.json file of the servers ({"mcpServers": {NAME: {command, args, env, cwd} | {url, headers}}}).
    #[arg(value_name = "CONFIG.json")]
    pub file: PathBuf,
    /// How long connecting to one server may take.
    #[arg(long, default_value = "30s", value_parser = parse_duration)]
    pub connect_timeout: Duration,
    #[command(flatten)]
    pub front: HttpFrontArgs,
}

/// `10s`, `500ms`, `2m`, `1.5s`; a bare number is seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().map_err(|_| format!("{text:?} is not a duration such as 10s or 500ms"))?;
    let seconds = match unit {
        "" | "s" => number,
        "ms" => number / 1000.0,
        "m" | "min" => number * 60.0,
        "h" => number * 3600.0,
        _ => return Err(format!("unknown unit {unit:?} in {text:?} (use ms, s, m or h)")),
    };
    Duration::try_from_secs_f64(seconds).map_err(|e| format!("{text:?}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("10s"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_duration("ten").is_err() && parse_duration("3d").is_err());
    }
}
