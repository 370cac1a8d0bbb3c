//! The JSON-RPC frames the driver sends, and the one reply shape it reads.
//!
//! Frames are formatted from pre-escaped JSON strings, so building one costs a `format!`
//! and nothing else, the same for every server. Modern (2026-07-28) requests carry the
//! `_meta` every stateless request needs; legacy ones rely on the session's handshake.

use serde::Deserialize;
use serde_json::value::RawValue;

use super::Result;

pub const LEGACY_VERSION: &str = "2025-11-25";
pub const MODERN_VERSION: &str = "2026-07-28";

/// The `_meta` members of a 2026-07-28 request (without the braces).
const MODERN_META: &str = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"ferrymcp-bench-raw","version":"0.1.0"}"#;

/// Which era a request is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Era {
    Legacy,
    Modern,
}

pub fn initialize(id: u64) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":"{LEGACY_VERSION}","capabilities":{{}},"clientInfo":{{"name":"ferrymcp-bench-raw","version":"0.1.0"}}}}}}"#
    )
}

pub fn initialized() -> &'static str {
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
}

/// The tool a run calls: its name and its arguments, both already written as JSON, so a
/// frame costs one `format!` whatever the tool.
#[derive(Clone, Debug)]
pub struct Call {
    pub name_json: String,
    pub args_json: String,
}

impl Call {
    /// `echo` with `{"text": text_json}` (`text_json` is the text already written as a JSON
    /// string): the frame is byte for byte the one the driver always sent.
    pub fn echo(text_json: &str) -> Call {
        Call { name_json: r#""echo""#.into(), args_json: format!(r#"{{"text":{text_json}}}"#) }
    }

    /// Any tool, with its arguments as a JSON object (checked, and written compactly).
    pub fn tool(name: &str, args: &str) -> Result<Call> {
        let args: serde_json::Value =
            serde_json::from_str(args).map_err(|e| format!("--args is not valid JSON: {e}"))?;
        if !args.is_object() {
            return Err("--args must be a JSON object".into());
        }
        Ok(Call { name_json: serde_json::to_string(name)?, args_json: serde_json::to_string(&args)? })
    }

    pub fn is_echo(&self) -> bool {
        self.name_json == r#""echo""#
    }
}

/// `tools/call echo`; `text_json` is the argument already written as a JSON string.
pub fn echo(id: u64, text_json: &str, era: Era) -> String {
    call(id, &Call::echo(text_json), era)
}

/// `tools/call` of `call`'s tool with its arguments.
pub fn call(id: u64, call: &Call, era: Era) -> String {
    let Call { name_json, args_json } = call;
    match era {
        Era::Legacy => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":{name_json},"arguments":{args_json}}}}}"#
        ),
        Era::Modern => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":{name_json},"arguments":{args_json},"_meta":{{{MODERN_META}}}}}}}"#
        ),
    }
}

/// `tools/list`, from the first page or from `cursor_json` (a JSON string).
pub fn tools_list(id: u64, cursor_json: Option<&str>) -> String {
    match cursor_json {
        None => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#),
        Some(cursor) => {
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{"cursor":{cursor}}}}}"#)
        }
    }
}

/// A reply as the driver reads it: the id, and the raw result or error.
#[derive(Deserialize)]
pub struct Reply<'a> {
    pub id: Option<u64>,
    #[serde(borrow)]
    pub result: Option<&'a RawValue>,
    #[serde(borrow)]
    pub error: Option<&'a RawValue>,
}

impl<'a> Reply<'a> {
    /// Parses one frame; `Ok(None)` for a notification or a server-to-client request.
    pub fn parse(frame: &'a [u8]) -> Result<Option<Reply<'a>>> {
        let reply: Reply = serde_json::from_slice(frame)?;
        if let Some(error) = reply.error {
            return Err(format!("the server answered an error: {}", error.get()).into());
        }
        Ok(reply.result.is_some().then_some(reply))
    }
}

/// Checks that an echo result carries `expected` back as its first text content.
pub fn check_echo(result: &RawValue, expected: &str) -> Result<()> {
    #[derive(Deserialize)]
    struct CallResult {
        content: Vec<Content>,
    }
    #[derive(Deserialize)]
    struct Content {
        text: Option<String>,
    }
    let parsed: CallResult = serde_json::from_str(result.get())?;
    match parsed.content.first().and_then(|c| c.text.as_deref()) {
        Some(text) if text == expected => Ok(()),
        Some(text) => Err(format!("echo returned {} bytes of text, expected {}", text.len(), expected.len()).into()),
        None => Err(format!("echo returned no text content: {}", truncated(result.get())).into()),
    }
}

/// Checks that a tool's result is not a tool error (`isError: true`); returns its size in
/// bytes as written by the server.
pub fn check_result(result: &RawValue) -> Result<usize> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct CallResult {
        #[serde(default)]
        is_error: bool,
    }
    let parsed: CallResult = serde_json::from_str(result.get())?;
    if parsed.is_error {
        return Err(format!("the tool answered an error: {}", truncated(result.get())).into());
    }
    Ok(result.get().len())
}

/// One page of a `tools/list` result: how many tools, and the next cursor as JSON.
pub fn tools_page(result: &RawValue) -> Result<(usize, Option<String>)> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Page<'a> {
        tools: Vec<&'a RawValue>,
        #[serde(borrow)]
        next_cursor: Option<&'a RawValue>,
    }
    let page: Page = serde_json::from_str(result.get())?;
    Ok((page.tools.len(), page.next_cursor.filter(|c| c.get() != "null").map(|c| c.get().to_owned())))
}

fn truncated(text: &str) -> &str {
    &text[..text.char_indices().nth(200).map_or(text.len(), |(i, _)| i)]
}
