//! `ferrymcp bridge --stdio URL` to an OAuth-protected server, as real processes: the
//! official Python SDK as the protected MCP server and its own authorization server
//! (`tests/http_client/official_python_oauth.py`, under uvicorn), the bridge as a child
//! process spoken to in JSON-RPC on its stdio, and the user's browser step done by this
//! test: it reads the authorization URL the bridge prints on stderr, follows it to the
//! authorization server's redirect and delivers that to the bridge's loopback listener.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

const FERRYMCP: &str = env!("CARGO_BIN_EXE_ferrymcp");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_owned()
}

/// The Python with the official SDK (FERRYMCP_PYTHON, else the repository's `.venv`);
/// `None` outside CI when it is missing.
fn python_with_mcp() -> Option<PathBuf> {
    let python =
        std::env::var_os("FERRYMCP_PYTHON").map(PathBuf::from).unwrap_or_else(|| root().join(".venv/bin/python"));
    let works = Command::new(&python).args(["-c", "import mcp, uvicorn"]).output().is_ok_and(|o| o.status.success());
    if works {
        return Some(python);
    }
    assert!(std::env::var_os("CI").is_none(), "{python:?} cannot import mcp and uvicorn");
    eprintln!("skipped: {python:?} cannot import mcp and uvicorn (set FERRYMCP_PYTHON or create .venv)");
    None
}

/// The official SDK's protected server and authorization server, access tokens living
/// `token_seconds`; killed when dropped.
struct AuthServer {
    child: Child,
    port: u16,
}

impl AuthServer {
    fn start(python: &Path, token_seconds: u64) -> Self {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let script = root().join("tests/http_client/official_python_oauth.py");
        let child = Command::new(python)
            .arg(script)
            .args([port.to_string(), token_seconds.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut server = AuthServer { child, port };
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(server.child.try_wait().unwrap().is_none(), "the authorization server exited");
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }
}

impl Drop for AuthServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A GET with HTTP/1.1 over a plain socket: the status code and the Location header.
fn get(url: &str) -> (u16, Option<String>, String) {
    let rest = url.strip_prefix("http://").expect("an http:// URL");
    let (authority, target) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut stream = TcpStream::connect(authority).unwrap();
    write!(stream, "GET {target} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let location = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("location").then(|| value.trim().to_owned())
    });
    (status, location, body.to_owned())
}

/// `ferrymcp bridge --stdio URL ARGS...`, spoken to in JSON-RPC lines.
struct Bridge {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    stderr: BufReader<std::process::ChildStderr>,
    next: u64,
}

impl Bridge {
    fn start(url: &str, args: &[&str]) -> Self {
        let mut child = Command::new(FERRYMCP)
            .args(["bridge", "--stdio", url])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        Bridge {
            stdin: child.stdin.take(),
            stdout: BufReader::new(child.stdout.take().unwrap()),
            stderr: BufReader::new(child.stderr.take().unwrap()),
            child,
            next: 0,
        }
    }

    /// The authorization URL the bridge prints on stderr (the line after its prompt).
    fn authorization_url(&mut self) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            assert_ne!(self.stderr.read_line(&mut line).unwrap(), 0, "stderr ended without an authorization URL");
            if line.starts_with("http://") {
                return line.trim().to_owned();
            }
            assert!(line.contains("to authorize, open this URL"), "unexpected stderr: {line}");
        }
    }

    fn send(&mut self, message: Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            assert_ne!(self.stdout.read_line(&mut line).unwrap(), 0, "stdout ended before the answer to {method}");
            let message: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON on stdout ({e}): {line}"));
            if message["id"] == json!(id) {
                return message;
            }
        }
    }

    fn initialize(&mut self) {
        let params = json!({
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "oauth-test", "version": "1"},
        });
        let answer = self.request("initialize", params);
        assert_eq!(answer["result"]["serverInfo"]["name"], "oauth-peer", "{answer}");
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }

    fn text(&mut self, tool: &str, arguments: Value) -> String {
        let answer = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        answer["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("{answer}")).to_owned()
    }

    /// Closes stdin (the host goes away) and returns the exit code and the rest of stderr.
    fn finish(mut self) -> (i32, String) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        let mut rest = String::new();
        self.stderr.read_to_string(&mut rest).unwrap();
        (status.code().unwrap_or(-1), rest)
    }
}

/// Runs the bridge to completion with no stdin (for failures) and returns its exit code
/// and stderr.
fn run(url: &str, args: &[&str]) -> (i32, String) {
    let output = Command::new(FERRYMCP).args(["bridge", "--stdio", url]).args(args).stdin(Stdio::null()).output();
    let output = output.unwrap();
    assert!(output.stdout.is_empty(), "stdout is the MCP stream: {:?}", String::from_utf8_lossy(&output.stdout));
    (output.status.code().unwrap_or(-1), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn the_authorization_code_flow_then_a_second_run_refreshes_from_the_token_store() {
    let Some(python) = python_with_mcp() else { return };
    // Access tokens live 2 s, so the second run finds its stored token expired.
    let server = AuthServer::start(&python, 2);
    let scratch = std::env::temp_dir().join(format!("ferrymcp-oauth-test-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let store = scratch.join("tokens.json");
    let store_arg = store.to_str().unwrap();
    // Registered with both scopes; the server names `mcp`, --scope adds `notes:write`.
    let args = ["--oauth", "--token-store", store_arg, "--scope", "mcp", "--scope", "notes:write"];

    let mut bridge = Bridge::start(&server.url(), &args);
    let url = bridge.authorization_url();
    assert!(url.contains("code_challenge_method=S256"), "{url}");
    assert!(url.contains("scope=mcp+notes%3Awrite"), "--scope adds to what the server names: {url}");
    // The user approves: the authorization server redirects to the bridge's listener.
    let (status, location, _) = get(&url);
    assert_eq!(status, 302, "{url}");
    let location = location.expect("the authorization server redirects");
    assert!(location.starts_with("http://127.0.0.1:") && location.contains("/callback?code="), "{location}");
    let (status, _, page) = get(&location);
    assert_eq!(status, 200);
    assert!(page.contains("You can close this window"), "{page}");

    bridge.initialize();
    assert_eq!(bridge.text("whoami", json!({})), "mcp notes:write");
    assert_eq!(bridge.text("write_note", json!({"text": "hi"})), "noted: hi");
    let seen: Value = serde_json::from_str(&bridge.text("stats", json!({}))).unwrap();
    assert_eq!((seen["registrations"].as_u64(), seen["authorizations"].as_u64()), (Some(1), Some(1)), "{seen}");
    let (code, stderr) = bridge.finish();
    assert_eq!(code, 0, "{stderr}");

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&store).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the token store is the user's alone");
    }
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(&store).unwrap()).unwrap();
    assert_eq!(stored["server"], server.url());
    assert!(stored["tokens"]["refresh_token"].is_string() && stored["client"]["client_id"].is_string(), "{stored}");
    // Dynamic registration asked for the --scope scopes, which the server registered.
    assert_eq!(stored["client"]["scope"], "mcp notes:write", "{stored}");

    // The stored access token expires (the authorization server's clock: 2 s); the next
    // run refreshes it with the stored registration, and nobody is asked again.
    std::thread::sleep(Duration::from_millis(2100));
    let mut bridge = Bridge::start(&server.url(), &args);
    bridge.initialize();
    assert_eq!(bridge.text("whoami", json!({})), "mcp notes:write");
    let seen: Value = serde_json::from_str(&bridge.text("stats", json!({}))).unwrap();
    assert_eq!((seen["registrations"].as_u64(), seen["authorizations"].as_u64()), (Some(1), Some(1)), "{seen}");
    assert!(seen["refreshes"].as_u64() >= Some(1), "{seen}");
    let (code, stderr) = bridge.finish();
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("to authorize"), "asked the user again: {stderr}");
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn oauth_failures_and_misuse_have_their_exit_codes() {
    // Usage (2), caught before anything is reached.
    let (code, stderr) = run("http://127.0.0.1:9/mcp", &["--client-credentials", "--client-id", "x"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--client-credentials needs --client-id and --client-secret"), "{stderr}");
    let (code, stderr) = run("http://127.0.0.1:9/mcp", &["--token-store", "t.json"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--token-store needs --oauth or --client-credentials"), "{stderr}");

    let Some(python) = python_with_mcp() else { return };
    let server = AuthServer::start(&python, 3600);
    // A client the authorization server does not know: the token endpoint refuses (5).
    let args = ["--client-credentials", "--client-id", "nobody", "--client-secret", "wrong"];
    let (code, stderr) = run(&server.url(), &args);
    assert_eq!(code, 5, "{stderr}");
    assert!(stderr.contains("cannot authorize with"), "{stderr}");
    // Nobody approves within --auth-timeout (5).
    let (code, stderr) = run(&server.url(), &["--oauth", "--auth-timeout", "1s"]);
    assert_eq!(code, 5, "{stderr}");
    assert!(stderr.contains("to authorize, open this URL") && stderr.contains("--auth-timeout"), "{stderr}");
}
