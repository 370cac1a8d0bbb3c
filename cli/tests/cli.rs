//! The `ferrymcp` binary against real servers, as a script would run it: ferrymcp's
//! fixture server (`ferrymcp-everything`, over stdio and Streamable HTTP) and, when
//! installed, the official reference server `@modelcontextprotocol/server-everything`.
//!
//! The fixture is a binary of another package (`ferrymcp-tests`), so Cargo does not build
//! it for this crate's tests alone: it is looked for next to this crate's own binary, in
//! the same target profile directory, where `cargo test --workspace --release
//! --all-targets` (CI) or `cargo build --release -p ferrymcp-tests --bin
//! ferrymcp-everything` puts it.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

const FERRYMCP: &str = env!("CARGO_BIN_EXE_ferrymcp");

fn fixture() -> PathBuf {
    let name = format!("ferrymcp-everything{}", std::env::consts::EXE_SUFFIX);
    let path = Path::new(FERRYMCP).with_file_name(name);
    assert!(
        path.exists(),
        "{path:?} is missing: build it first with `cargo build -p ferrymcp-tests --bin ferrymcp-everything` \
         in the same profile (--release) and target directory as these tests"
    );
    path
}

fn fixture_command() -> String {
    fixture().to_str().expect("a UTF-8 path").to_owned()
}

/// Runs `ferrymcp` in `dir` and returns its output.
fn ferrymcp_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(FERRYMCP).args(args).current_dir(dir).stdin(Stdio::null()).output().expect("ferrymcp runs")
}

/// Runs `ferrymcp` in an empty directory of its own, so no stray `mcp.json` is read.
fn ferrymcp(args: &[&str]) -> Output {
    ferrymcp_in(&Scratch::new().0, args)
}

/// A fresh temporary directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("ferrymcp-cli-test-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn code(output: &Output) -> i32 {
    output.status.code().expect("exited, not killed")
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(output)))
}

/// The fixture over Streamable HTTP on a port of its choosing, killed when dropped.
struct HttpFixture {
    child: Child,
    url: String,
}

impl HttpFixture {
    fn start() -> Self {
        let mut child = Command::new(fixture())
            .args(["--transport", "http", "--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the fixture starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url =
            line.trim().strip_prefix("listening on ").unwrap_or_else(|| panic!("unexpected: {line:?}")).to_owned();
        HttpFixture { child, url }
    }
}

impl Drop for HttpFixture {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn assert_lists_the_fixture(inventory: &Value) {
    let tools: Vec<&str> = inventory["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    for name in ["test_simple_text", "test_error_handling", "greet", "test_tool_with_task"] {
        assert!(tools.contains(&name), "{name} missing from {tools:?}");
    }
    assert_eq!(inventory["serverInfo"]["name"], "mcp-conformance-test-server");
    assert!(inventory["protocolVersion"].is_string() && inventory["capabilities"]["tools"].is_object());
    assert_eq!(inventory["resourceTemplates"][0]["uriTemplate"], "test://template/{id}/data");
    assert!(inventory["prompts"].as_array().unwrap().iter().any(|p| p["name"] == "test_prompt_with_arguments"));
}

#[test]
fn inspect_over_stdio_as_text_and_json() {
    let text = ferrymcp(&["inspect", "--", &fixture_command()]);
    assert_eq!(code(&text), 0, "{}", stderr(&text));
    let out = stdout(&text);
    for expected in ["mcp-conformance-test-server 1.0.0", "test_simple_text", "greet", "name*", "test://static-text"] {
        assert!(out.contains(expected), "{expected:?} not in:\n{out}");
    }

    let listed = ferrymcp(&["inspect", &fixture_command(), "--json"]);
    assert_eq!(code(&listed), 0, "{}", stderr(&listed));
    let inventory = json(&listed);
    assert_lists_the_fixture(&inventory);
    // Every tool of the text form is in the JSON form.
    let count = inventory["tools"].as_array().unwrap().len();
    assert!(out.contains(&format!("Tools ({count})")), "{out}");
}

#[test]
fn inspect_over_http() {
    let server = HttpFixture::start();
    let text = ferrymcp(&["inspect", &server.url]);
    assert_eq!(code(&text), 0, "{}", stderr(&text));
    assert!(stdout(&text).contains("test_error_handling"));
    let listed = ferrymcp(&["inspect", &server.url, "--json"]);
    assert_eq!(code(&listed), 0, "{}", stderr(&listed));
    assert_lists_the_fixture(&json(&listed));
}

#[test]
fn call_with_pairs_and_with_args() {
    let pairs = ferrymcp(&["call", "greet", "name=Ada", "--", &fixture_command()]);
    assert_eq!((code(&pairs), stdout(&pairs).as_str()), (0, "Hello, Ada!\n"), "{}", stderr(&pairs));
    // The schema says string: 42 stays the string "42" (a number would fail validation).
    let typed = ferrymcp(&["call", &fixture_command(), "greet", "name=42"]);
    assert_eq!((code(&typed), stdout(&typed).as_str()), (0, "Hello, 42!\n"), "{}", stderr(&typed));
    let args = ferrymcp(&["call", &fixture_command(), "greet", "--args", r#"{"name": "Bob"}"#, "--json"]);
    assert_eq!(code(&args), 0, "{}", stderr(&args));
    let result = json(&args);
    assert_eq!(result["content"][0]["text"], "Hello, Bob!");
}

#[test]
fn call_over_http_and_binary_content_as_a_summary() {
    let server = HttpFixture::start();
    let output = ferrymcp(&["call", &server.url, "test_multiple_content_types"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let out = stdout(&output);
    assert!(out.starts_with("Multiple content types test:\n[image: image/png, "), "{out}");
    assert!(out.contains("test://mixed-content-resource"), "{out}");
}

#[test]
fn a_tool_error_exits_1() {
    let output = ferrymcp(&["call", &fixture_command(), "test_error_handling"]);
    assert_eq!(code(&output), 1);
    assert!(stdout(&output).contains("intentionally returns an error"));
    assert!(stderr(&output).contains("isError"));
}

#[test]
fn an_unknown_tool_exits_2_listing_the_tools() {
    let output = ferrymcp(&["call", &fixture_command(), "no_such_tool"]);
    assert_eq!(code(&output), 2);
    let message = stderr(&output);
    assert!(message.contains("unknown tool \"no_such_tool\""), "{message}");
    assert!(message.contains("greet") && message.contains("test_simple_text"), "{message}");
}

#[test]
fn a_json_rpc_error_exits_4() {
    let output = ferrymcp(&["call", &fixture_command(), "protocol_error_job"]);
    assert_eq!(code(&output), 4, "{}", stderr(&output));
    assert!(stderr(&output).contains("the server answered with error -32603"), "{}", stderr(&output));
    let missing = ferrymcp(&["read", &fixture_command(), "test://nope"]);
    assert_eq!(code(&missing), 4, "{}", stderr(&missing));
}

#[test]
fn a_server_that_does_not_exist_exits_3() {
    let output = ferrymcp(&["inspect", "--", "/nonexistent/mcp-server", "--flag"]);
    assert_eq!(code(&output), 3);
    let message = stderr(&output);
    assert!(message.contains("could not start") && message.contains("/nonexistent/mcp-server"), "{message}");
    let refused = ferrymcp(&["inspect", "http://127.0.0.1:9/mcp"]);
    assert_eq!(code(&refused), 3, "{}", stderr(&refused));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(code(&ferrymcp(&["call", &fixture_command()])), 2);
    assert_eq!(code(&ferrymcp(&["call", &fixture_command(), "greet", "name"])), 2);
    assert_eq!(code(&ferrymcp(&["bench", "--tool", "greet", "--calls", "0", "--", "x"])), 2);
    assert_eq!(code(&ferrymcp(&["frobnicate"])), 2);
}

#[test]
fn a_short_request_state_key_is_a_usage_error_before_any_upstream_starts() {
    let scratch = Scratch::new();
    let config = serde_json::json!({"mcpServers": {"everything": {"command": fixture_command(), "args": []}}});
    let file = scratch.0.join("mcp.json");
    std::fs::write(&file, config.to_string()).unwrap();
    let runs: [&[&str]; 2] =
        [&["bridge", "--port", "0", "--", &fixture_command()], &["gateway", file.to_str().unwrap(), "--port", "0"]];
    for args in runs {
        let output = Command::new(FERRYMCP)
            .args(args)
            .env("FERRYMCP_STATE_KEY", "too-short")
            .current_dir(&scratch.0)
            .stdin(Stdio::null())
            .output()
            .expect("ferrymcp runs");
        assert_eq!(code(&output), 2, "{args:?}: {}", stderr(&output));
        assert!(stderr(&output).contains("FERRYMCP_STATE_KEY"), "{args:?}: {}", stderr(&output));
    }
}

#[test]
fn a_server_named_in_mcp_json() {
    let scratch = Scratch::new();
    let dir = &scratch.0;
    let config = serde_json::json!({"mcpServers": {
        "everything": {"command": fixture_command(), "args": [], "env": {"RUST_LOG": "off"}},
    }});
    std::fs::write(dir.join("mcp.json"), config.to_string()).unwrap();
    // ./mcp.json by default...
    let output = ferrymcp_in(dir, &["call", "everything", "greet", "name=Config"]);
    assert_eq!((code(&output), stdout(&output).as_str()), (0, "Hello, Config!\n"), "{}", stderr(&output));
    // ...or --config FILE from anywhere; a name it does not have lists those it has.
    let path = dir.join("mcp.json");
    let elsewhere = ferrymcp(&["--config", path.to_str().unwrap(), "inspect", "everything", "--json"]);
    assert_eq!(code(&elsewhere), 0, "{}", stderr(&elsewhere));
    assert_lists_the_fixture(&json(&elsewhere));
    let typo = ferrymcp(&["--config", path.to_str().unwrap(), "inspect", "everythin"]);
    assert_eq!(code(&typo), 3);
    assert!(stderr(&typo).contains("the servers named in mcp.json are: everything"), "{}", stderr(&typo));
}

#[test]
fn read_and_prompt() {
    let read = ferrymcp(&["read", "test://static-text", "--", &fixture_command()]);
    assert_eq!(code(&read), 0, "{}", stderr(&read));
    assert_eq!(stdout(&read), "This is the content of the static text resource.\n");
    let template = ferrymcp(&["read", &fixture_command(), "test://template/7/data", "--json"]);
    assert_eq!(code(&template), 0, "{}", stderr(&template));
    assert!(json(&template)["contents"][0]["text"].as_str().unwrap().contains("Data for ID: 7"));

    let prompt = ferrymcp(&["prompt", &fixture_command(), "test_prompt_with_arguments", "arg1=x", "arg2=3"]);
    assert_eq!(code(&prompt), 0, "{}", stderr(&prompt));
    assert!(stdout(&prompt).contains("[user]\nPrompt with arguments: arg1='x', arg2='3'"), "{}", stdout(&prompt));
    let unknown = ferrymcp(&["prompt", &fixture_command(), "nope"]);
    assert_eq!(code(&unknown), 2);
    assert!(stderr(&unknown).contains("test_simple_prompt"), "{}", stderr(&unknown));
}

#[test]
fn bench_counts_every_call_and_writes_a_report() {
    let scratch = Scratch::new();
    let report = scratch.0.join("bench.html");
    let output = ferrymcp(&[
        "bench",
        "--tool",
        "greet",
        "--args",
        r#"{"name": "load"}"#,
        "--calls",
        "200",
        "--concurrency",
        "8",
        "--warmup",
        "0s",
        "--json",
        "--report",
        report.to_str().unwrap(),
        "--",
        &fixture_command(),
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let figures = json(&output);
    assert_eq!(figures["calls"], 200);
    assert_eq!(figures["ok"], 200);
    assert_eq!(figures["errors"], 0);
    assert_eq!(figures["errorsByKind"], serde_json::json!({}));
    assert!(figures["callsPerSecond"].as_f64().unwrap() > 0.0);
    let latency = &figures["latencyMs"];
    let at = |key: &str| latency[key].as_f64().unwrap_or_else(|| panic!("latencyMs.{key} in {figures}"));
    assert!(at("p50") <= at("p90") && at("p90") <= at("p99") && at("p99") <= at("max"), "{figures}");
    if cfg!(target_os = "linux") {
        assert!(figures["serverProcess"]["peakRssKib"].as_u64().unwrap() > 0, "{figures}");
        assert!(figures["serverProcess"]["cpuMsPerCall"].as_f64().is_some(), "{figures}");
    }
    let page = std::fs::read_to_string(&report).unwrap();
    assert!(page.contains("<svg") && page.contains("greet"), "{page}");
}

#[test]
fn bench_counts_tool_errors_by_kind() {
    let server = HttpFixture::start();
    let output = ferrymcp(&[
        "bench",
        &server.url,
        "--tool",
        "test_error_handling",
        "--calls",
        "20",
        "-c",
        "4",
        "--warmup",
        "0s",
        "--json",
    ]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let figures = json(&output);
    assert_eq!(figures["errorsByKind"], serde_json::json!({"isError": 20}));
    assert_eq!(figures["serverProcess"]["peakRssKib"], Value::Null, "not a child of the bench");
}

/// The official reference server, installed by scripts/test.sh (npm) before the tests.
#[test]
fn inspect_call_and_bench_the_official_reference_server() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/interop/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    if !path.exists() {
        assert!(std::env::var_os("CI").is_none(), "CI must install {path:?}: run scripts/test.sh");
        eprintln!("skipped: {path:?} is not installed (scripts/test.sh installs it with npm)");
        return;
    }
    let output = ferrymcp(&["inspect", "--json", "--", "node", path.to_str().unwrap(), "stdio"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let inventory = json(&output);
    let tools: Vec<&str> = inventory["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(tools.contains(&"echo"), "{tools:?}");
    let text = ferrymcp(&["call", "echo", "message=hi", "--", "node", path.to_str().unwrap(), "stdio"]);
    assert_eq!(code(&text), 0, "{}", stderr(&text));
    assert!(stdout(&text).contains("hi"), "{}", stdout(&text));
    // read and prompt: a static document, a prompt with an argument.
    let reference = ["--", "node", path.to_str().unwrap(), "stdio"];
    let uri = "demo://resource/static/document/features.md";
    let read = ferrymcp(&[&["read", "--json", uri][..], &reference].concat());
    assert_eq!(code(&read), 0, "{}", stderr(&read));
    let contents = json(&read);
    assert_eq!(contents["contents"][0]["uri"], uri, "{contents}");
    assert!(contents["contents"][0]["text"].as_str().unwrap().starts_with("# Everything Server"), "{contents}");
    let prompt = ferrymcp(&[&["prompt", "args-prompt", "city=Paris"][..], &reference].concat());
    assert_eq!(code(&prompt), 0, "{}", stderr(&prompt));
    assert!(stdout(&prompt).contains("[user]\nWhat's weather in Paris?"), "{}", stdout(&prompt));

    // bench: every call counted, the local server process measured.
    let server = ["--", "node", path.to_str().unwrap(), "stdio"];
    let mut args = vec!["bench", "--tool", "echo", "--args", r#"{"message":"load"}"#, "--calls", "100", "-c", "8"];
    args.extend_from_slice(&["--warmup", "0s", "--json"]);
    args.extend_from_slice(&server);
    let output = ferrymcp(&args);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let figures = json(&output);
    assert_eq!((figures["calls"].as_u64(), figures["ok"].as_u64()), (Some(100), Some(100)), "{figures}");
    assert!(figures["serverProcess"]["peakRssKib"].as_u64().unwrap_or(0) > 0, "{figures}");
}

/// The benchmark's Rust echo server (`ferrymcp-benches`), looked for like the fixture.
fn echo_server() -> String {
    let name = format!("ferrymcp-echo{}", std::env::consts::EXE_SUFFIX);
    let path = Path::new(FERRYMCP).with_file_name(name);
    assert!(
        path.exists(),
        "{path:?} is missing: build it first with `cargo build -p ferrymcp-benches --bin ferrymcp-echo` \
         in the same profile (--release) and target directory as these tests"
    );
    path.to_str().expect("a UTF-8 path").to_owned()
}

/// A raw-driver phase ran and its figures are sane (no figure is asserted beyond that).
fn assert_phase(run: &Value, phase: &str) {
    assert_phase_figures(&run[phase], phase);
}

/// The figures of one phase (sequential, in flight, or one paced rate) are sane.
fn assert_phase_figures(p: &Value, phase: &str) {
    let calls = p["calls"].as_u64().unwrap_or(0);
    let rate = p["calls_per_s"].as_f64().unwrap_or(0.0);
    let (p50, p99) = (p["p50_us"].as_f64().unwrap_or(0.0), p["p99_us"].as_f64().unwrap_or(0.0));
    assert!(calls > 0 && rate > 0.0, "{phase}: {p}");
    assert!(p50 > 0.0 && p50 <= p99, "{phase}: {p}");
    assert!(p["server_cpu_us_per_call"].as_f64().is_some_and(|cpu| cpu >= 0.0), "{phase}: {p}");
}

#[cfg(target_os = "linux")]
#[test]
fn bench_raw_driver_over_stdio_prints_one_run() {
    let server = echo_server();
    let rates = ["--rate", "500,2000"];
    let args = ["bench", "--driver", "raw", "-d", "0.2s", "--window", "16", "--large-echo", rates[0], rates[1], "--"];
    let output = ferrymcp(&[&args[..], &[server.as_str()]].concat());
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let run = json(&output);
    assert_eq!(run["transport"], "stdio");
    assert_eq!(run["command"], serde_json::json!([server]));
    assert!(run["startup_ms"].as_f64().is_some_and(|ms| ms > 0.0), "{run}");
    assert!(run["rss_idle_kib"].as_u64().unwrap() > 0 && run["rss_peak_kib"].as_u64().unwrap() > 0, "{run}");
    assert_phase(&run, "sequential");
    assert_phase(&run, "in_flight");
    // One paced phase per offered rate, in order.
    let paced = run["paced"].as_array().expect("paced phases");
    assert_eq!(paced.iter().map(|p| p["offered_per_s"].as_u64().unwrap()).collect::<Vec<_>>(), [500, 2000], "{run}");
    for p in paced {
        assert_phase_figures(p, "paced");
    }
    assert_eq!(run["echo_1mib"]["payload_bytes"], 1 << 20);
    assert!(run["echo_1mib"]["calls"].as_u64().unwrap() >= 5 && run["echo_1mib"]["mb_per_s"].as_f64().unwrap() > 0.0);
}

/// The arguments of the benchmark's `report` tool (benches/peers/report-args.json).
fn report_args() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../benches/peers/report-args.json");
    std::fs::read_to_string(path).expect("the report tool's arguments")
}

#[cfg(target_os = "linux")]
#[test]
fn bench_raw_driver_calls_another_tool_with_its_arguments() {
    let server = echo_server();
    let args = report_args();
    let output = ferrymcp(&[
        "bench", "--driver", "raw", "-d", "0.2s", "--window", "8", "--tool", "report", "--args", &args, "--", &server,
    ]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let run = json(&output);
    assert_eq!(run["tool"], "report");
    // 64 KiB of text plus the structured result, as the server wrote them.
    assert!(run["result_bytes"].as_u64().unwrap() > 65536, "{run}");
    assert_phase(&run, "sequential");
    assert_phase(&run, "in_flight");
    // Arguments the tool's schema refuses: the checked call fails the run, naming why.
    let output = ferrymcp(&[
        "bench",
        "--driver",
        "raw",
        "-d",
        "0.1s",
        "--tool",
        "report",
        "--args",
        r#"{"ref":"x"}"#,
        "--",
        &server,
    ]);
    assert_eq!(code(&output), 4);
    assert!(stderr(&output).contains("answered an error"), "{}", stderr(&output));
}

#[cfg(target_os = "linux")]
#[test]
fn bench_raw_driver_bursts_and_counts_every_answer() {
    let server = echo_server();
    let output = ferrymcp(&["bench", "--driver", "raw", "--burst", "3000", "--", &server]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let run = json(&output);
    let burst = &run["burst"];
    assert_eq!(
        (burst["requests"].as_u64(), burst["answered"].as_u64(), burst["errors"].as_u64()),
        (Some(3000), Some(3000), Some(0)),
        "{run}"
    );
    assert!(burst["rss_peak_kib"].as_u64().unwrap() >= burst["rss_before_kib"].as_u64().unwrap(), "{run}");
    assert!(run.get("sequential").is_none(), "{run}");
    // A server that answers one id twice (and never the other) fails the run.
    let script = r#"read l; echo '{"jsonrpc":"2.0","id":1,"result":{}}'; read l; read l; echo '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hello world"}]}}'; read a; read b; echo '{"jsonrpc":"2.0","id":3,"result":{}}'; echo '{"jsonrpc":"2.0","id":3,"result":{}}'; read l"#;
    let output = ferrymcp(&["bench", "--driver", "raw", "--burst", "2", "--", "sh", "-c", script]);
    assert_eq!(code(&output), 4);
    assert!(stderr(&output).contains("id 3 was answered twice"), "{}", stderr(&output));
}

#[cfg(target_os = "linux")]
#[test]
fn bench_raw_driver_lists_tools_and_fails_on_too_few() {
    let server = echo_server();
    let listing = |tools: &str| {
        Command::new(FERRYMCP)
            .args(["bench", "--driver", "raw", "-d", "0.1s", "--tools-list", "1000", "--", &server])
            .env("MCP_BENCH_TOOLS", tools)
            .stdin(Stdio::null())
            .output()
            .expect("ferrymcp runs")
    };
    let output = listing("1000");
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let run = json(&output);
    assert_eq!(run["tools_list"]["tools"], 1002);
    assert!(run["tools_list"]["listings"].as_u64().unwrap() > 0 && run.get("sequential").is_none(), "{run}");
    let output = listing("10");
    assert_eq!(code(&output), 4);
    assert!(stderr(&output).contains("listed 12 tools, expected at least 1000"), "{}", stderr(&output));
}

#[cfg(target_os = "linux")]
#[test]
fn bench_raw_driver_over_http_in_both_modes() {
    let server = echo_server();
    for mode in ["legacy", "modern"] {
        let output = ferrymcp(&[
            "bench", "--driver", "raw", "--mode", mode, "-d", "0.2s", "--window", "8", "--", &server, "http", "{port}",
        ]);
        assert_eq!(code(&output), 0, "{mode}: {}", stderr(&output));
        let run = json(&output);
        assert_eq!(run["transport"], format!("http-{mode}"));
        // `{port}` became the free port the server was started on.
        assert!(run["command"][2].as_str().unwrap().parse::<u16>().is_ok(), "{run}");
        assert!(run["rss_idle_kib"].as_u64().unwrap() > 0, "{run}");
        assert_phase(&run, "sequential");
        assert_phase(&run, "in_flight");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn bench_raw_driver_stops_on_a_wrong_answer() {
    // The echo returns other text than it was given: the run fails, naming why.
    let script = r#"read l; echo '{"jsonrpc":"2.0","id":1,"result":{}}'; read l; read l; echo '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"wrong"}]}}'; read l"#;
    let output = ferrymcp(&["bench", "--driver", "raw", "-d", "0.1s", "--", "sh", "-c", script]);
    assert_eq!(code(&output), 4);
    assert!(stderr(&output).contains("echo returned 5 bytes of text, expected 11"), "{}", stderr(&output));
}

#[test]
fn bench_driver_options_are_checked() {
    let server = echo_server();
    let cases: [(&[&str], &str); 13] = [
        (&["bench", "--driver", "raw", "--args", "{}", "--", &server], "--args needs --tool NAME"),
        (&["bench", "--driver", "raw", "--tool", "add", "--mode", "legacy", "--", &server], "stdio only"),
        (
            &["bench", "--driver", "raw", "--tool", "add", "--args", "[1]", "--", &server],
            "--args must be a JSON object",
        ),
        (&["bench", "--driver", "raw", "--tool", "add", "--large-echo", "--", &server], "drop --tool and --args"),
        (&["bench", "--driver", "raw", "--burst", "10", "--rate", "100", "--", &server], "--burst runs on its own"),
        (&["bench", "--tool", "echo", "--burst", "10", "--", &server], "need --driver raw: --burst"),
        (&["bench", "--tool", "echo", "--window", "4", "--", &server], "need --driver raw: --window"),
        (&["bench", "--driver", "raw", "--mode", "legacy", "--large-echo", "--", &server], "stdio only"),
        (&["bench", "--tool", "echo", "--rate", "100", "--", &server], "need --driver raw: --rate"),
        (&["bench", "--driver", "raw", "--mode", "legacy", "--rate", "100", "--", &server], "stdio only"),
        (&["bench", "--driver", "raw", "--tools-list", "5", "--rate", "100", "--", &server], "run --rate separately"),
        (&["bench", "--driver", "raw", "--rate", "0", "--", &server], "--rate"),
        (&["bench", "--", &server], "--tool NAME is required"),
    ];
    for (args, expected) in cases {
        let output = ferrymcp(args);
        assert_eq!(code(&output), 2, "{args:?}");
        assert!(stderr(&output).contains(expected), "{args:?}: {}", stderr(&output));
    }
}
