//! mcp-load against real servers over real pipes and sockets: ferrymcp's Rust echo server
//! over stdio (calls, the 1 MiB echo and a 1000-tool listing, each answer checked by the
//! driver) and the hyper ceiling over HTTP in both modes. No figure is asserted, only that
//! every phase ran and reported its calls; and that a server answering wrongly fails the run.

use std::process::Command;

use serde_json::Value;

fn mcp_load(args: &[&str], env: &[(&str, &str)]) -> Result<Value, String> {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-load"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("mcp-load runs");
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    Ok(serde_json::from_slice(&output.stdout).expect("one JSON object"))
}

fn calls(run: &Value, phase: &str) -> u64 {
    run[phase]["calls"].as_u64().unwrap_or(0)
}

#[test]
fn stdio_phases_against_the_rust_echo_server() {
    let server = env!("CARGO_BIN_EXE_ferrymcp-echo");
    let run = mcp_load(&["stdio", "--seconds", "0.2", "--large-echo", "--", server], &[]).unwrap();
    assert_eq!(run["transport"], "stdio");
    assert!(calls(&run, "sequential") > 0 && calls(&run, "in_flight") > 0, "{run}");
    assert_eq!(run["echo_1mib"]["payload_bytes"], 1 << 20);
    assert!(run["echo_1mib"]["calls"].as_u64().unwrap() >= 5);
    assert!(run["rss_idle_kib"].as_u64().unwrap() > 0 && run["rss_peak_kib"].as_u64().unwrap() > 0);
}

#[test]
fn tools_list_counts_every_tool() {
    let server = env!("CARGO_BIN_EXE_ferrymcp-echo");
    let run =
        mcp_load(&["stdio", "--seconds", "0.1", "--tools-list", "1000", "--", server], &[("MCP_BENCH_TOOLS", "1000")])
            .unwrap();
    assert_eq!(run["tools_list"]["tools"], 1001);
    let error =
        mcp_load(&["stdio", "--seconds", "0.1", "--tools-list", "1000", "--", server], &[("MCP_BENCH_TOOLS", "10")])
            .unwrap_err();
    assert!(error.contains("listed 11 tools, expected at least 1000"), "{error}");
}

#[test]
fn a_server_that_answers_wrongly_fails_the_run() {
    // A server whose initialize gets an error: the driver must stop, naming it.
    let error = mcp_load(
        &[
            "stdio",
            "--seconds",
            "0.1",
            "--",
            "sh",
            "-c",
            "read line; echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"no\"}}'",
        ],
        &[],
    )
    .unwrap_err();
    assert!(error.contains("the server answered an error"), "{error}");
    // A server whose echo returns other text than it was given.
    let script = r#"read l; echo '{"jsonrpc":"2.0","id":1,"result":{}}'; read l; read l; echo '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"wrong"}]}}'; read l"#;
    let error = mcp_load(&["stdio", "--seconds", "0.1", "--", "sh", "-c", script], &[]).unwrap_err();
    assert!(error.contains("echo returned 5 bytes of text, expected 11"), "{error}");
}

#[test]
fn http_phases_against_the_hyper_ceiling_in_both_modes() {
    let server = env!("CARGO_BIN_EXE_http-ceiling");
    for mode in ["legacy", "modern"] {
        let run = mcp_load(&["http", "--mode", mode, "--seconds", "0.2", "--window", "8", "--", server, "{port}"], &[])
            .unwrap();
        assert_eq!(run["transport"], format!("http-{mode}"));
        assert!(calls(&run, "sequential") > 0 && calls(&run, "in_flight") > 0, "{run}");
    }
}
