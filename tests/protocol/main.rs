//! MCP itself over real pipes: an "everything" fixture as a child process, driven line by
//! line in both eras, with every message checked against the schema of the revision in
//! use and every result against its own `<Name>Result` definition.
//!
//! One behaviour suite for the three fixtures (as opendal runs one suite per service): the
//! Rust `ferrymcp-everything` by default, or the command in `FERRYMCP_FIXTURE`, e.g.
//! `FERRYMCP_FIXTURE="/abs/.venv/bin/python /abs/tests/fixtures/python/everything.py"` or
//! `FERRYMCP_FIXTURE="node /abs/everything.mjs"` (words split on whitespace; `--transport
//! stdio` is appended; paths absolute, since cargo runs tests from `tests/`). The scripted
//! session (`session.rs`) also holds the fixture's whole transcript to the Rust one's.
//!
//! No test sleeps or races a clock: each waits for the messages it expects, and what must
//! *not* arrive is checked against an answer that is written after it would have been
//! (a handler's notifications always precede its result). The `RawChild` hang guard is
//! the only timeout.

mod http_defaults;
mod http_modes;
mod legacy;
mod listen;
mod mixed;
mod modern;
mod mrtr;
mod session;

use ferrymcp_tests::raw::RawChild;
use ferrymcp_tests::schema;
use serde_json::{Value, json};

pub const EVERYTHING: &str = env!("CARGO_BIN_EXE_ferrymcp-everything");
pub const MODERN: &str = "2026-07-28";
pub const LEGACY: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

pub const TEST_IMAGE_BASE64: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
pub const TEST_AUDIO_BASE64: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// Every fixture tool, in registration (and so `tools/list`) order.
pub const TOOLS: [&str; 35] = [
    "test_simple_text",
    "test_image_content",
    "test_audio_content",
    "test_embedded_resource",
    "test_multiple_content_types",
    "test_tool_with_logging",
    "test_tool_with_progress",
    "test_error_handling",
    "test_reconnection",
    "test_sampling",
    "test_elicitation",
    "test_elicitation_sep1034_defaults",
    "test_elicitation_sep1330_enums",
    "json_schema_2020_12_tool",
    "test_custom_header",
    "test_missing_capability",
    "test_streaming_elicitation",
    "test_logging_tool",
    "test_trigger_tool_change",
    "test_trigger_prompt_change",
    "test_input_required_result_elicitation",
    "test_input_required_result_sampling",
    "test_input_required_result_list_roots",
    "test_input_required_result_request_state",
    "test_input_required_result_multiple_inputs",
    "test_input_required_result_multi_round",
    "test_input_required_result_tampered_state",
    "test_input_required_result_capabilities",
    "greet",
    "slow_compute",
    "failing_job",
    "protocol_error_job",
    "confirm_delete",
    "multi_input",
    "test_tool_with_task",
];

pub const RESOURCES: [&str; 4] =
    ["test://static-text", "test://static-binary", "test://watched-resource", "test://stateless-static-text"];

pub const PROMPTS: [&str; 5] = [
    "test_simple_prompt",
    "test_prompt_with_arguments",
    "test_prompt_with_embedded_resource",
    "test_prompt_with_image",
    "test_input_required_result_prompt",
];

/// The command of the fixture under test: `FERRYMCP_FIXTURE`, or the Rust binary.
pub fn fixture() -> Vec<String> {
    match std::env::var("FERRYMCP_FIXTURE") {
        Ok(command) if !command.trim().is_empty() => command.split_whitespace().map(str::to_owned).collect(),
        _ => vec![EVERYTHING.to_owned()],
    }
}

/// Whether the fixture under test follows the official Python SDK's conventions where
/// the official SDKs differ and core offers both (`FERRYMCP_FIXTURE_DIALECT=python`, set by
/// `scripts/test.sh` for the Python fixture): HTTP refusals before the body in plain text
/// (core's `GuardStyle::PlainText`) and an unknown `MCPServer` tool answered as an
/// `isError` result (`ServerOptions::unknown_tool_is_result`). Everything else is one
/// behaviour for every binding.
pub fn python_dialect() -> bool {
    std::env::var("FERRYMCP_FIXTURE_DIALECT").is_ok_and(|d| d == "python")
}

/// Whether the fixture under test follows the official TypeScript SDK's conventions
/// (`FERRYMCP_FIXTURE_DIALECT=typescript`, set by `bindings-node/scripts/test.sh` for the
/// Node fixture): -32601 says only `Method not found` (core's `Dialect::TypeScriptSdk`).
pub fn typescript_dialect() -> bool {
    std::env::var("FERRYMCP_FIXTURE_DIALECT").is_ok_and(|d| d == "typescript")
}

/// Whether the fixture under test is the Rust one.
pub fn fixture_is_rust() -> bool {
    fixture() == [EVERYTHING]
}

/// The fixture under test over stdio, its messages validated against `revision`.
pub fn spawn(revision: &'static str) -> RawChild {
    spawn_command(&fixture(), revision)
}

/// `command` (program and arguments) over stdio, its messages validated against `revision`.
pub fn spawn_command(command: &[String], revision: &'static str) -> RawChild {
    let mut args: Vec<&str> = command[1..].iter().map(String::as_str).collect();
    args.extend(["--transport", "stdio"]);
    let mut child = RawChild::spawn(&command[0], &args);
    child.revision = revision;
    child
}

pub fn request(id: impl Into<Value>, method: &str, params: Value) -> Value {
    let mut message = json!({"jsonrpc": "2.0", "id": id.into(), "method": method});
    if !params.is_null() {
        message["params"] = params;
    }
    message
}

pub fn notification(method: &str, params: Value) -> Value {
    let mut message = json!({"jsonrpc": "2.0", "method": method});
    if !params.is_null() {
        message["params"] = params;
    }
    message
}

/// The 2026-07-28 `_meta` of a request from a client with these capabilities.
pub fn meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "ferrymcp-protocol-tests", "version": "1.0.0"},
    })
}

/// `params` with the 2026-07-28 `_meta` added.
pub fn modern(mut params: Value, capabilities: Value) -> Value {
    if params.is_null() {
        params = json!({});
    }
    params["_meta"] = meta(capabilities);
    params
}

/// The capabilities of a client that can do everything.
pub fn all_caps() -> Value {
    json!({"sampling": {}, "elicitation": {}, "roots": {"listChanged": true}})
}

/// What the server wrote up to and including the response to one request.
pub struct Exchange {
    pub revision: &'static str,
    /// Every message before the response (notifications, server requests).
    pub before: Vec<Value>,
    pub response: Value,
}

impl Exchange {
    /// The result, checked against `definition` (or against `InputRequiredResult` when it
    /// says so).
    pub fn result(&self, definition: &str) -> &Value {
        let result = self.response.get("result").unwrap_or_else(|| panic!("expected a result: {}", self.response));
        let definition =
            if result.get("resultType") == Some(&json!("input_required")) { "InputRequiredResult" } else { definition };
        schema::assert_valid(self.revision, definition, result);
        if self.revision != MODERN {
            assert!(result.get("resultType").is_none(), "a legacy result carries resultType: {result}");
        }
        result
    }

    /// A complete 2026 (or legacy) result: never `input_required`.
    pub fn complete(&self, definition: &str) -> &Value {
        let result = self.result(definition);
        if self.revision == MODERN {
            assert_eq!(result["resultType"], "complete", "{result}");
            let info = &result["_meta"]["io.modelcontextprotocol/serverInfo"];
            assert_eq!(info["name"], "mcp-conformance-test-server", "{result}");
        }
        result
    }

    /// An `input_required` result.
    pub fn input_required(&self) -> &Value {
        let result = self.result("InputRequiredResult");
        assert_eq!(result["resultType"], "input_required", "{result}");
        for absent in ["ttlMs", "cacheScope", "content"] {
            assert!(result.get(absent).is_none(), "input_required carries {absent}: {result}");
        }
        result
    }

    /// The error, which must have this code; checked against the 2026 definition of that
    /// code when the revision is 2026-07-28.
    pub fn error(&self, code: i64) -> &Value {
        let error = self.response.get("error").unwrap_or_else(|| panic!("expected error {code}: {}", self.response));
        assert_eq!(error["code"], code, "{}", self.response);
        assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()), "{}", self.response);
        if self.revision == MODERN {
            match code {
                -32021 => schema::assert_valid(MODERN, "MissingRequiredClientCapabilityError", &self.response),
                -32022 => schema::assert_valid(MODERN, "UnsupportedProtocolVersionError", &self.response),
                -32600 => schema::assert_valid(MODERN, "InvalidRequestError", error),
                -32601 => schema::assert_valid(MODERN, "MethodNotFoundError", error),
                -32602 => schema::assert_valid(MODERN, "InvalidParamsError", error),
                -32603 => schema::assert_valid(MODERN, "InternalError", error),
                _ => {}
            }
        }
        error
    }

    /// The messages before the response with this method.
    pub fn sent(&self, method: &str) -> Vec<&Value> {
        self.before.iter().filter(|m| m["method"] == method).collect()
    }
}

/// Reads until the response to `id`; anything else before it is kept in `before`.
pub async fn until_response(child: &mut RawChild, id: &Value) -> Exchange {
    let mut before = Vec::new();
    loop {
        let message = child.recv().await;
        if message.get("method").is_none() {
            assert_eq!(&message["id"], id, "a response to another request arrived: {message}");
            return Exchange { revision: child.revision, before, response: message };
        }
        before.push(message);
    }
}

/// Sends a request and reads up to its response.
pub async fn exchange(child: &mut RawChild, message: Value) -> Exchange {
    child.send(&message).await;
    until_response(child, &message["id"]).await
}

/// Sends a request, expecting nothing before its response.
pub async fn ask(child: &mut RawChild, id: impl Into<Value>, method: &str, params: Value) -> Exchange {
    let exchange = exchange(child, request(id, method, params)).await;
    assert!(exchange.before.is_empty(), "unexpected messages before the answer: {:?}", exchange.before);
    exchange
}

/// The text of a `CallToolResult` whose first content is text.
pub fn text(result: &Value) -> &str {
    assert_eq!(result["content"][0]["type"], "text", "{result}");
    result["content"][0]["text"].as_str().unwrap()
}

/// Opens a legacy session at `version` with these client capabilities; returns the
/// `InitializeResult`.
pub async fn initialize(child: &mut RawChild, version: &str, capabilities: Value) -> Value {
    let params = json!({
        "protocolVersion": version,
        "capabilities": capabilities,
        "clientInfo": {"name": "ferrymcp-protocol-tests", "version": "1.0.0"},
    });
    let answer = ask(child, "init", "initialize", params).await;
    let result = answer.result("InitializeResult").clone();
    child.send(&notification("notifications/initialized", Value::Null)).await;
    result
}

/// A legacy process with an initialized session at `version`.
pub async fn legacy_session(version: &'static str, capabilities: Value) -> RawChild {
    let mut child = spawn(version);
    let result = initialize(&mut child, version, capabilities).await;
    assert_eq!(result["protocolVersion"], version);
    child
}

/// Ends the process the way a client does (stdin closed) and checks it exits cleanly.
pub async fn finish(mut child: RawChild) {
    child.close_stdin();
    assert!(child.stdout_closed().await, "the server wrote more after its last answer");
    assert!(child.wait().await.success());
}
