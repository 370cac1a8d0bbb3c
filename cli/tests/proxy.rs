//! `ferrymcp bridge` and `ferrymcp gateway` as real processes, driven by real clients:
//! ferrymcp-core's own and the official Python and TypeScript SDKs' (installed by
//! scripts/test.sh; missing, they skip the test outside CI and fail it in CI). The upstream is
//! ferrymcp's fixture server (`ferrymcp-everything`, found as in `cli.rs`), over stdio
//! behind the HTTP bridge and the gateway, over Streamable HTTP behind `bridge --stdio`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ferrymcp_core::client::child::ChildCommand;
use ferrymcp_core::client::http::HttpClientOptions;
use ferrymcp_core::client::{Client, ClientCallbacks, ClientOptions, EraPreference, InputCallback};
use ferrymcp_core::peer::{Progress, RequestOptions};
use serde_json::{Value, json};

const FERRYMCP: &str = env!("CARGO_BIN_EXE_ferrymcp");

/// The JSON-RPC code every front answers `prompts/get` of an unknown prompt with (invalid
/// params, as the official servers answer it).
const UNKNOWN_PROMPT: i64 = -32602;

fn fixture() -> PathBuf {
    let name = format!("ferrymcp-everything{}", std::env::consts::EXE_SUFFIX);
    let path = Path::new(FERRYMCP).with_file_name(name);
    assert!(path.exists(), "{path:?} is missing: `cargo build --release -p ferrymcp-tests --bin ferrymcp-everything`");
    path
}

/// A process that prints `listening on URL` first on stdout, killed when dropped; its
/// stderr is kept for the test to read.
struct Listening {
    child: Child,
    url: String,
    stderr: Option<ChildStderr>,
}

impl Listening {
    fn start(program: &Path, args: &[&str]) -> Self {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the process starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let Some(url) = line.trim().strip_prefix("listening on ") else {
            let mut stderr = String::new();
            child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
            panic!("{program:?} {args:?} printed {line:?}; stderr: {stderr}");
        };
        Listening { url: url.to_owned(), stderr: child.stderr.take(), child }
    }

    fn bridge(extra: &[&str]) -> Self {
        let fixture = fixture();
        let mut args = vec!["bridge", "--port", "0"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--", fixture.to_str().unwrap()]);
        Listening::start(Path::new(FERRYMCP), &args)
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Answers every elicitation with `response`, recording the messages asked.
fn answering(response: &str, asked: Arc<Mutex<Vec<String>>>) -> ClientCallbacks {
    let response = response.to_owned();
    let elicitation: InputCallback = Arc::new(move |params: Value| {
        asked.lock().unwrap().push(params["message"].as_str().unwrap_or_default().to_owned());
        let answer = json!({"action": "accept", "content": {"response": response}});
        Box::pin(async move { Ok(answer) })
    });
    ClientCallbacks { elicitation: Some(elicitation), ..ClientCallbacks::default() }
}

fn options(era: EraPreference) -> ClientOptions {
    ClientOptions { era, ..ClientOptions::default() }
}

fn text(result: &ferrymcp_core::protocol::CallToolResult) -> String {
    let value = serde_json::to_value(result).unwrap();
    value["content"][0]["text"].as_str().unwrap_or_default().to_owned()
}

/// What every client of a bridged fixture must see: the fixture's identity, its tools, a
/// call, progress reaching the client, and elicitation answered by the client.
async fn check_the_bridged_fixture(client: &Client, asked: &Mutex<Vec<String>>) {
    assert_eq!(client.server().info["name"], "mcp-conformance-test-server");
    assert!(client.server().capabilities.get("tools").is_some());
    let tools = client.list_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "test_elicitation") && tools.len() > 20, "{} tools", tools.len());
    let simple = client.call_tool("test_simple_text", json!({}), RequestOptions::default()).await.unwrap();
    assert_eq!(text(&simple), "This is a simple text response for testing.");

    let progress = Arc::new(Mutex::new(Vec::new()));
    let seen = progress.clone();
    let on_progress = Arc::new(move |p: Progress| seen.lock().unwrap().push(p.progress));
    let options = RequestOptions::default().on_progress(on_progress);
    let progressed = client.call_tool("test_tool_with_progress", json!({}), options).await.unwrap();
    assert_ne!(progressed.is_error, Some(true));
    assert_eq!(*progress.lock().unwrap(), [0.0, 50.0, 100.0]);

    let arguments = json!({"message": "Your answer?"});
    let elicited = client.call_tool("test_elicitation", arguments, RequestOptions::default()).await.unwrap();
    assert!(text(&elicited).contains(r#"action=accept, content={"response":"from rust"}"#), "{}", text(&elicited));
    assert!(asked.lock().unwrap().iter().any(|m| m == "Your answer?"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_http_bridge_forwards_everything_in_both_eras() {
    let bridge = Listening::bridge(&[]);
    for era in [EraPreference::Legacy, EraPreference::Auto] {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let http = HttpClientOptions::new(bridge.url.as_str());
        let client = Client::connect_http(http, options(era), answering("from rust", asked.clone())).await.unwrap();
        assert_eq!(client.server().modern, era == EraPreference::Auto);
        check_the_bridged_fixture(&client, &asked).await;
        client.close().await;
    }
}

/// The status line's code of a bare `initialize` POST.
fn status_without_token(url: &str) -> u16 {
    let authority = url.strip_prefix("http://").unwrap().split('/').next().unwrap();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let mut stream = TcpStream::connect(authority).unwrap();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut line = String::new();
    BufReader::new(stream).read_line(&mut line).unwrap();
    line.split_whitespace().nth(1).and_then(|code| code.parse().ok()).unwrap_or_else(|| panic!("{line:?}"))
}

#[tokio::test(flavor = "multi_thread")]
async fn the_http_bridge_requires_its_bearer_token() {
    let bridge = Listening::bridge(&["--bearer-token", "s3cret"]);
    assert_eq!(status_without_token(&bridge.url), 401);
    let mut http = HttpClientOptions::new(bridge.url.as_str());
    http.headers.push(("Authorization".into(), "Bearer wrong".into()));
    let refused = Client::connect_http(http.clone(), ClientOptions::default(), ClientCallbacks::default()).await;
    assert!(refused.is_err());
    http.headers[0].1 = "Bearer s3cret".into();
    let client = Client::connect_http(http, ClientOptions::default(), ClientCallbacks::default()).await.unwrap();
    assert!(client.list_tools().await.unwrap().iter().any(|t| t.name == "test_simple_text"));
    client.close().await;
}

/// The official Python SDK's interpreter: `FERRYMCP_PYTHON`, else the workspace's
/// `.venv`; `None` (with the reason printed) when it has no `mcp`, a failure under CI.
fn python_with_mcp() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let python =
        std::env::var_os("FERRYMCP_PYTHON").map(PathBuf::from).unwrap_or_else(|| root.join(".venv/bin/python"));
    let works = Command::new(&python).args(["-c", "import mcp"]).output().is_ok_and(|o| o.status.success());
    if works {
        return Some(python);
    }
    let reason = format!("{python:?} cannot import mcp (set FERRYMCP_PYTHON or create {:?})", root.join(".venv"));
    assert!(std::env::var_os("CI").is_none(), "{reason}");
    eprintln!("skipped: {reason}");
    None
}

/// The official Python client against `server` (an HTTP front's URL, or a stdio server's
/// command line as a JSON array, launched by the SDK), in both eras, the upstream's tools
/// under `prefix`: the server's name, tools, a call, progress, elicitation and an error.
fn check_the_official_python_client(python: &Path, server: &str, prefix: &str, name: &str) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/bridge_client.py");
    for mode in ["legacy", "auto"] {
        let output = Command::new(python).arg(&script).args([server, mode, prefix]).output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{mode}: {stdout}\n{}", String::from_utf8_lossy(&output.stderr));
        let seen: Value = serde_json::from_str(stdout.lines().last().unwrap_or_default()).unwrap();
        assert_eq!(seen["server"], name, "{mode}");
        assert_eq!(seen["protocol"], if mode == "legacy" { "2025-11-25" } else { "2026-07-28" }, "{mode}");
        assert!(seen["tools"].as_array().unwrap().iter().any(|t| *t == format!("{prefix}test_simple_text")), "{mode}");
        assert_eq!(seen["simple"], "This is a simple text response for testing.", "{mode}");
        assert_eq!(seen["progress"], json!([0.0, 50.0, 100.0]), "{mode}");
        assert_eq!(seen["asked"], json!(["Your answer?"]), "{mode}");
        assert_eq!(seen["elicited"], r#"User response: action=accept, content={"response":"from python"}"#, "{mode}");
        assert_eq!(seen["error"], UNKNOWN_PROMPT, "{mode}: the code of getting a prompt that does not exist");
    }
}

#[test]
fn the_http_bridge_serves_the_official_python_client_in_both_eras() {
    let Some(python) = python_with_mcp() else { return };
    let bridge = Listening::bridge(&[]);
    check_the_official_python_client(&python, &bridge.url, "", "mcp-conformance-test-server");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_stdio_bridge_forwards_a_remote_http_server() {
    let fixture = fixture();
    let upstream = Listening::start(&fixture, &["--transport", "http", "--port", "0"]);
    for era in [EraPreference::Legacy, EraPreference::Auto] {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let command = ChildCommand::new(FERRYMCP).args(["bridge", "--stdio", upstream.url.as_str()]);
        let client = Client::spawn(command, options(era), answering("from rust", asked.clone())).await.unwrap();
        check_the_bridged_fixture(&client, &asked).await;
        client.close().await;
    }
}

/// Reads the gateway's stderr lines as they come.
fn lines(stderr: ChildStderr) -> Arc<Mutex<Vec<String>>> {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            sink.lock().unwrap().push(line);
        }
    });
    lines
}

/// Waits (up to 20 s) for a stderr line that passes `find`, and returns what it gives.
async fn wait_for<T>(lines: &Mutex<Vec<String>>, find: impl Fn(&str) -> Option<T>) -> T {
    for _ in 0..200 {
        if let Some(found) = lines.lock().unwrap().iter().find_map(|l| find(l)) {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("not seen on stderr: {:?}", lines.lock().unwrap());
}

fn connected_pid(line: &str, name: &str) -> Option<u32> {
    let rest = line.strip_prefix(&format!("ferrymcp gateway: {name}: connected (pid "))?;
    rest.trim_end_matches(')').parse().ok()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_gateway_namespaces_routes_and_reconnects() {
    let dir = std::env::temp_dir().join(format!("ferrymcp-gateway-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("mcp.json");
    let servers = json!({"mcpServers": {
        "alpha": {"command": fixture()},
        "beta": {"command": fixture(), "args": ["--transport", "stdio"]},
        "broken": {"command": "/nonexistent/ferrymcp-no-such-server"},
    }});
    std::fs::write(&config, servers.to_string()).unwrap();
    let mut gateway = Listening::start(Path::new(FERRYMCP), &["gateway", config.to_str().unwrap(), "--port", "0"]);
    let stderr = lines(gateway.stderr.take().unwrap());
    let alpha = wait_for(&stderr, |l| connected_pid(l, "alpha")).await;
    wait_for(&stderr, |l| l.contains("broken:").then_some(())).await;

    let changes = Arc::new(Mutex::new(0));
    let counted = changes.clone();
    let mut callbacks = ClientCallbacks::default();
    let on_change = Arc::new(move |_: &str, _: Value| *counted.lock().unwrap() += 1);
    callbacks.set_notification_handler("notifications/tools/list_changed", on_change).unwrap();
    let http = HttpClientOptions::new(gateway.url.as_str());
    let client = Client::connect_http(http, options(EraPreference::Legacy), callbacks).await.unwrap();
    assert_eq!(client.server().info["name"], "ferrymcp-gateway");

    let names: Vec<String> = client.list_tools().await.unwrap().into_iter().map(|t| t.name).collect();
    let (of_alpha, of_beta) =
        (names.iter().filter(|n| n.starts_with("alpha__")), names.iter().filter(|n| n.starts_with("beta__")));
    assert_eq!(of_alpha.count(), of_beta.count());
    assert!(
        names.contains(&"alpha__test_simple_text".to_owned()) && names.contains(&"beta__test_elicitation".to_owned())
    );
    assert!(names.iter().all(|n| n.starts_with("alpha__") || n.starts_with("beta__")), "{names:?}");
    let called = client.call_tool("beta__test_simple_text", json!({}), RequestOptions::default()).await.unwrap();
    assert_eq!(text(&called), "This is a simple text response for testing.");
    let unknown = client.call_tool("gamma__test_simple_text", json!({}), RequestOptions::default()).await;
    assert!(unknown.is_err(), "{unknown:?}");
    let read = client.read_resource("test://static-text").await.unwrap();
    assert!(serde_json::to_string(&read).unwrap().contains("static text resource"));

    // A list change an upstream announces reaches the front's clients.
    *changes.lock().unwrap() = 0;
    let triggered = client.call_tool("beta__test_trigger_tool_change", json!({}), RequestOptions::default()).await;
    assert_eq!(text(&triggered.unwrap()), "Mutation triggered");
    for _ in 0..100 {
        if *changes.lock().unwrap() >= 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(*changes.lock().unwrap() >= 1, "the upstream's tools/list_changed was not passed on");
    *changes.lock().unwrap() = 0;

    // alpha dies: its tools leave, then come back with the new process.
    Command::new("kill").args(["-9", &alpha.to_string()]).status().unwrap();
    let again = wait_for(&stderr, |l| connected_pid(l, "alpha").filter(|pid| *pid != alpha)).await;
    assert_ne!(again, alpha);
    let called = client.call_tool("alpha__test_simple_text", json!({}), RequestOptions::default()).await.unwrap();
    assert_eq!(text(&called), "This is a simple text response for testing.");
    assert!(client.list_tools().await.unwrap().len() == names.len());
    for _ in 0..100 {
        if *changes.lock().unwrap() >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(*changes.lock().unwrap() >= 2, "tools/list_changed when alpha left and came back");
    client.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// `node` with the official TypeScript SDKs installed in tests/interop (scripts/test.sh
/// installs them with npm); `None` (with the reason printed) when missing, a failure under CI.
fn node_with_official_sdks() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let modules = root.join("tests/interop/node_modules/@modelcontextprotocol");
    if modules.join("client").exists() && modules.join("sdk").exists() {
        return Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/node/proxy_client.mjs"));
    }
    let reason = format!("{modules:?} lacks client and sdk (`npm install --prefix tests/interop`)");
    assert!(std::env::var_os("CI").is_none(), "{reason}");
    eprintln!("skipped: {reason}");
    None
}

/// The official TypeScript clients (v1; v2 in both eras) against `server` (an HTTP front's
/// URL, or a stdio server's command line as a JSON array, launched by the SDK), the
/// upstream's tools under `prefix`: tools, a call, progress, elicitation and an error.
fn check_the_official_typescript_clients(script: &Path, server: &str, prefix: &str) {
    for (kind, era) in [("v1", "legacy"), ("v2-legacy", "legacy"), ("v2-modern", "modern")] {
        let output = Command::new("node").arg(script).args([server, kind, prefix]).output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{kind}: {stdout}\n{}", String::from_utf8_lossy(&output.stderr));
        let seen: Value = serde_json::from_str(stdout.lines().last().unwrap_or_default()).unwrap();
        assert_eq!(seen["era"], era, "{kind}");
        assert!(seen["tools"].as_array().unwrap().iter().any(|t| *t == format!("{prefix}test_simple_text")), "{kind}");
        assert_eq!(seen["simple"], "This is a simple text response for testing.", "{kind}");
        if server.starts_with("http") {
            assert_eq!(seen["progress"], json!([0, 50, 100]), "{kind}");
        } else {
            // Over stdio the official TypeScript clients (v1 and v2) drop the progress that
            // comes in the same read as the response: they run a notification's handler in a
            // microtask but settle the response at once, which removes the progress handler
            // first. They do it with the fixture launched directly too, so what the bridge
            // forwarded is checked as far as the client kept it: in order and exact.
            let progress = seen["progress"].as_array().unwrap();
            assert_eq!(progress[..], json!([0, 50, 100]).as_array().unwrap()[..progress.len()], "{kind}");
        }
        assert_eq!(seen["asked"], json!(["Your answer?"]), "{kind}");
        assert_eq!(
            seen["elicited"], r#"User response: action=accept, content={"response":"from typescript"}"#,
            "{kind}"
        );
        assert_eq!(seen["error"], UNKNOWN_PROMPT, "{kind}: the code of getting a prompt that does not exist");
    }
}

/// The stdio bridge (`bridge --stdio URL`) launched by the official clients as their stdio
/// server, in front of the fixture over Streamable HTTP.
#[test]
fn the_stdio_bridge_serves_the_official_python_and_typescript_clients_in_both_eras() {
    let fixture = fixture();
    let upstream = Listening::start(&fixture, &["--transport", "http", "--port", "0"]);
    let command = json!([FERRYMCP, "bridge", "--stdio", upstream.url]).to_string();
    if let Some(script) = node_with_official_sdks() {
        check_the_official_typescript_clients(&script, &command, "");
    }
    if let Some(python) = python_with_mcp() {
        check_the_official_python_client(&python, &command, "", "mcp-conformance-test-server");
    }
}

#[test]
fn the_http_bridge_serves_the_official_typescript_clients_in_both_eras() {
    let Some(script) = node_with_official_sdks() else { return };
    let bridge = Listening::bridge(&[]);
    check_the_official_typescript_clients(&script, &bridge.url, "");
}

#[test]
fn the_gateway_serves_the_official_typescript_and_python_clients_in_both_eras() {
    let dir = std::env::temp_dir().join(format!("ferrymcp-gateway-clients-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("mcp.json");
    std::fs::write(&config, json!({"mcpServers": {"alpha": {"command": fixture()}}}).to_string()).unwrap();
    let gateway = Listening::start(Path::new(FERRYMCP), &["gateway", config.to_str().unwrap(), "--port", "0"]);
    if let Some(script) = node_with_official_sdks() {
        check_the_official_typescript_clients(&script, &gateway.url, "alpha__");
    }
    if let Some(python) = python_with_mcp() {
        check_the_official_python_client(&python, &gateway.url, "alpha__", "ferrymcp-gateway");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The official reference server (`@modelcontextprotocol/server-everything`, installed in
/// tests/interop by scripts/test.sh): its path, or `None` (a failure under CI).
fn reference_server() -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/interop/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    if path.exists() {
        return Some(path.to_str().unwrap().to_owned());
    }
    assert!(std::env::var_os("CI").is_none(), "CI must install {path:?}: run scripts/test.sh");
    eprintln!("skipped: {path:?} is not installed (scripts/test.sh installs it with npm)");
    None
}

/// Finds the reference server's echo tool (under whatever prefix), calls it, returns its name.
async fn echo(client: &Client) -> String {
    let tools = client.list_tools().await.unwrap();
    let name = tools.iter().map(|t| t.name.clone()).find(|n| n.ends_with("echo")).expect("an echo tool");
    let result = client.call_tool(&name, json!({"message": "through"}), RequestOptions::default()).await.unwrap();
    assert!(text(&result).contains("through"), "{}", text(&result));
    name
}

#[tokio::test(flavor = "multi_thread")]
async fn bridge_and_gateway_in_front_of_the_official_reference_server() {
    let Some(server) = reference_server() else { return };
    // bridge: the stdio reference server over HTTP, both eras on the front.
    let bridge =
        Listening::start(Path::new(FERRYMCP), &["bridge", "--port", "0", "--", "node", server.as_str(), "stdio"]);
    for era in [EraPreference::Legacy, EraPreference::Auto] {
        let http = HttpClientOptions::new(bridge.url.as_str());
        let client = Client::connect_http(http, options(era), ClientCallbacks::default()).await.unwrap();
        assert_eq!(echo(&client).await, "echo");
        client.close().await;
    }
    // gateway: the reference server and the fixture behind one endpoint.
    let dir = std::env::temp_dir().join(format!("ferrymcp-gateway-reference-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("mcp.json");
    let servers = json!({"mcpServers": {
        "reference": {"command": "node", "args": [server, "stdio"]},
        "fixture": {"command": fixture()},
    }});
    std::fs::write(&config, servers.to_string()).unwrap();
    let mut gateway = Listening::start(Path::new(FERRYMCP), &["gateway", config.to_str().unwrap(), "--port", "0"]);
    let stderr = lines(gateway.stderr.take().unwrap());
    wait_for(&stderr, |l| connected_pid(l, "reference")).await;
    wait_for(&stderr, |l| connected_pid(l, "fixture")).await;
    for era in [EraPreference::Legacy, EraPreference::Auto] {
        let http = HttpClientOptions::new(gateway.url.as_str());
        let client = Client::connect_http(http, options(era), ClientCallbacks::default()).await.unwrap();
        assert_eq!(echo(&client).await, "reference__echo");
        client.close().await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether process `pid` still runs (a zombie does not count).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| stat.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')))
}

/// Sends `signal` to `child` and waits (up to 20 s) for its exit code.
fn stop_with(child: &mut Child, signal: &str) -> Option<i32> {
    Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().unwrap();
    for _ in 0..200 {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("still running 20 s after SIG{signal}");
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread")]
async fn the_gateway_stops_on_sigint_and_sigterm_and_ends_its_upstreams() {
    let dir = std::env::temp_dir().join(format!("ferrymcp-gateway-signals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("mcp.json");
    std::fs::write(
        &config,
        json!({"mcpServers": {"a": {"command": fixture()}, "b": {"command": fixture()}}}).to_string(),
    )
    .unwrap();
    for (signal, expected) in [("INT", 130), ("TERM", 0)] {
        let mut gateway = Listening::start(Path::new(FERRYMCP), &["gateway", config.to_str().unwrap(), "--port", "0"]);
        let stderr = lines(gateway.stderr.take().unwrap());
        let a = wait_for(&stderr, |l| connected_pid(l, "a")).await;
        let b = wait_for(&stderr, |l| connected_pid(l, "b")).await;
        // A client connected (a legacy session with its SSE stream open) does not hold it up.
        let http = HttpClientOptions::new(gateway.url.as_str());
        let client =
            Client::connect_http(http, options(EraPreference::Legacy), ClientCallbacks::default()).await.unwrap();
        assert!(!client.list_tools().await.unwrap().is_empty());
        assert!(running(a) && running(b));
        assert_eq!(stop_with(&mut gateway.child, signal), Some(expected), "SIG{signal}");
        assert!(!running(a) && !running(b), "SIG{signal}: the upstream processes were not ended");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn the_bridge_stops_on_sigint_and_sigterm() {
    for (signal, expected) in [("INT", 130), ("TERM", 0)] {
        let mut bridge = Listening::bridge(&[]);
        assert_eq!(stop_with(&mut bridge.child, signal), Some(expected), "SIG{signal}");
    }
    let upstream = Listening::start(&fixture(), &["--transport", "http", "--port", "0"]);
    for (signal, expected) in [("INT", 130), ("TERM", 0)] {
        let mut child = Command::new(FERRYMCP)
            .args(["bridge", "--stdio", upstream.url.as_str()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        writeln!(child.stdin.as_mut().unwrap(), "{ping}").unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        assert!(line.contains(r#""id":1"#), "{line}");
        assert_eq!(stop_with(&mut child, signal), Some(expected), "--stdio, SIG{signal}");
    }
}

/// A server named in an mcp.json works in `bridge` as in every other command: by URL
/// (`bridge --stdio NAME`) and by command (`bridge --port 0 NAME`).
#[tokio::test(flavor = "multi_thread")]
async fn the_bridge_takes_a_server_named_in_mcp_json() {
    let upstream = Listening::start(&fixture(), &["--transport", "http", "--port", "0"]);
    let dir = std::env::temp_dir().join(format!("ferrymcp-bridge-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("mcp.json");
    let servers = json!({"mcpServers": {"remote": {"url": upstream.url}, "local": {"command": fixture()}}});
    std::fs::write(&config, servers.to_string()).unwrap();
    let config = config.to_str().unwrap();

    let command = ChildCommand::new(FERRYMCP).args(["--config", config, "bridge", "--stdio", "remote"]);
    let client = Client::spawn(command, options(EraPreference::Auto), ClientCallbacks::default()).await.unwrap();
    let called = client.call_tool("test_simple_text", json!({}), RequestOptions::default()).await.unwrap();
    assert_eq!(text(&called), "This is a simple text response for testing.");
    client.close().await;

    let bridge = Listening::start(Path::new(FERRYMCP), &["--config", config, "bridge", "--port", "0", "local"]);
    let http = HttpClientOptions::new(bridge.url.as_str());
    let client = Client::connect_http(http, options(EraPreference::Auto), ClientCallbacks::default()).await.unwrap();
    let called = client.call_tool("test_simple_text", json!({}), RequestOptions::default()).await.unwrap();
    assert_eq!(text(&called), "This is a simple text response for testing.");
    client.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The hand-written upstream (see `python/verbatim_server.py`) and its two answers.
fn verbatim_server() -> (String, String, Value) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/verbatim_server.py");
    // The texts the script writes, as Python holds them.
    let literal = |name: &str| -> String {
        let output = Command::new("python3")
            .args(["-c", &format!("import runpy; print(runpy.run_path({script:?})[{name:?}])")])
            .output()
            .expect("python3 runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap().trim_end_matches('\n').to_owned()
    };
    let error: Value = serde_json::from_str(&literal("ERROR")).unwrap();
    (script.to_str().unwrap().to_owned(), literal("RESULT"), error)
}

/// Calls `tool` through `client`: its result's JSON text as it arrived, or the error.
async fn call_raw(client: &Client, tool: &str) -> Result<String, ferrymcp_core::client::ClientError> {
    let params = json!({"name": tool, "arguments": {}});
    let Value::Object(params) = params else { unreachable!() };
    client.request_raw("tools/call", params, RequestOptions::default()).await.map(|raw| raw.get().to_owned())
}

/// Checks the upstream's error arrived as the same JSON-RPC error: code, message, data.
fn check_same_error(outcome: Result<String, ferrymcp_core::client::ClientError>, expected: &Value) {
    let error = outcome.expect_err("the upstream answered an error");
    let rpc = error.rpc().unwrap_or_else(|| panic!("not a JSON-RPC error: {error}"));
    assert_eq!(rpc.code, expected["code"].as_i64().unwrap());
    assert_eq!(rpc.message, expected["message"].as_str().unwrap());
    let data: Value = serde_json::from_str(rpc.data.as_ref().expect("data").get()).unwrap();
    assert_eq!(data, expected["data"]);
}

/// A bridge and a gateway (its one server named `v`) in front of the verbatim server
/// `script`, the gateway's upstream connected; and the directory of the gateway's mcp.json
/// (`tag` names it), for the caller to remove.
async fn verbatim_fronts(script: &str, tag: &str) -> (Listening, Listening, PathBuf) {
    let bridge = Listening::start(Path::new(FERRYMCP), &["bridge", "--port", "0", "--", "python3", script]);
    let dir = std::env::temp_dir().join(format!("ferrymcp-gateway-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("mcp.json");
    std::fs::write(&config, json!({"mcpServers": {"v": {"command": "python3", "args": [script]}}}).to_string())
        .unwrap();
    let mut gateway = Listening::start(Path::new(FERRYMCP), &["gateway", config.to_str().unwrap(), "--port", "0"]);
    let stderr = lines(gateway.stderr.take().unwrap());
    wait_for(&stderr, |l| connected_pid(l, "v")).await;
    (bridge, gateway, dir)
}

#[tokio::test(flavor = "multi_thread")]
async fn proxies_pass_a_result_on_byte_for_byte_and_an_error_as_the_same_error() {
    let (script, result, error) = verbatim_server();
    let (bridge, gateway, dir) = verbatim_fronts(&script, "verbatim").await;
    for (front, prefix) in [(&bridge, ""), (&gateway, "v__")] {
        let http = HttpClientOptions::new(front.url.as_str());
        // A legacy front client: a 2026-07-28 result is stamped (`resultType`, `_meta`),
        // which this legacy upstream's results lack.
        let client =
            Client::connect_http(http, options(EraPreference::Legacy), ClientCallbacks::default()).await.unwrap();
        assert_eq!(call_raw(&client, &format!("{prefix}verbatim")).await.unwrap(), result, "through {}", front.url);
        check_same_error(call_raw(&client, &format!("{prefix}fail")).await, &error);
        client.close().await;
    }
    // A 2026-07-28 front client gets the same result, stamped, and the same error.
    let http = HttpClientOptions::new(gateway.url.as_str());
    let client = Client::connect_http(http, options(EraPreference::Auto), ClientCallbacks::default()).await.unwrap();
    assert!(client.server().modern);
    let stamped: Value = serde_json::from_str(&call_raw(&client, "v__verbatim").await.unwrap()).unwrap();
    let mut expected: Value = serde_json::from_str(&result).unwrap();
    expected["resultType"] = json!("complete");
    assert_eq!(stamped["resultType"], expected["resultType"]);
    assert_eq!(stamped["structuredContent"], expected["structuredContent"]);
    assert_eq!(stamped["content"], expected["content"]);
    assert!(stamped["_meta"]["io.modelcontextprotocol/serverInfo"].is_object(), "{stamped}");
    check_same_error(call_raw(&client, "v__fail").await, &error);
    client.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The frame the upstream got for a call of its `frame` tool (`tool`, prefixed for the
/// gateway) made with `params` (a JSON object's text, sent as written).
async fn upstream_frame(client: &Client, tool: &str, params: &str) -> Value {
    let params = params.replace("TOOL", tool);
    let members = ferrymcp_core::wire::members_in_order(&params).unwrap();
    let raw = client.request_raw_members("tools/call", &members, RequestOptions::default()).await.unwrap();
    let result: Value = serde_json::from_str(raw.get()).unwrap();
    let line = result["content"][0]["text"].as_str().unwrap().to_owned();
    let frame: Value = serde_json::from_str(&line).unwrap();
    json!({"line": line, "params": frame["params"]})
}

#[tokio::test(flavor = "multi_thread")]
async fn proxies_pass_a_2026_client_s_params_on_as_written_without_the_front_hop_s_meta() {
    let (script, _, _) = verbatim_server();
    let (bridge, gateway, dir) = verbatim_fronts(&script, "params").await;
    for (front, prefix) in [(&bridge, ""), (&gateway, "v__")] {
        let http = HttpClientOptions::new(front.url.as_str());
        let client =
            Client::connect_http(http, options(EraPreference::Auto), ClientCallbacks::default()).await.unwrap();
        assert!(client.server().modern);
        let tool = format!("{prefix}frame");
        // The arguments arrive as the client wrote them (spaces, `1.50`, an escape), the
        // name without the gateway's prefix, and no `_meta`: the front hop's keys (the
        // client's version, capabilities and info) are not the upstream's.
        let arguments = r#"{"z": 1.50, "a": "caf\u00e9"}"#;
        let sent = upstream_frame(&client, &tool, &format!(r#"{{"name": "TOOL", "arguments": {arguments}}}"#)).await;
        let line = sent["line"].as_str().unwrap();
        assert!(line.contains(&format!(r#""arguments":{arguments}"#)), "through {}: {line}", front.url);
        assert_eq!(sent["params"]["name"], "frame", "{line}");
        assert!(sent["params"].get("_meta").is_none(), "{line}");
        // A `_meta` key of the client's own is passed on, the front hop's are not.
        let sent =
            upstream_frame(&client, &tool, r#"{"name": "TOOL", "arguments": {}, "_meta": {"app/k": [1]}}"#).await;
        assert_eq!(sent["params"]["_meta"], json!({"app/k": [1]}), "through {}", front.url);
        assert_eq!(sent["params"]["name"], "frame");
        client.close().await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}
