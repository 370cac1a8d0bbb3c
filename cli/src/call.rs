//! `ferrymcp call`, `read` and `prompt`: one request, its result printed.
//!
//! `call` lists the tools first: the tool's `inputSchema` types the `key=value` arguments,
//! and a name the server does not have is a usage error that lists the names it does
//! have, instead of whatever error the server would give. `prompt` does the same with
//! prompts.

use ferrymcp_core::client::Client;
use ferrymcp_core::peer::RequestOptions;
use serde::Serialize;
use serde_json::Value;

use crate::arguments::{self, Typing};
use crate::exit::{Failure, Outcome, TOOL_ERROR};
use crate::render;

pub struct CallRequest<'a> {
    pub tool: &'a str,
    pub pairs: &'a [String],
    pub args: Option<&'a str>,
    pub json: bool,
}

pub async fn call(client: &Client, request: CallRequest<'_>) -> Outcome<u8> {
    let tools = client.list_tools().await.map_err(|e| Failure::request("tools/list", e))?;
    let Some(tool) = tools.iter().find(|t| t.name == request.tool) else {
        return Err(unknown("tool", request.tool, tools.iter().map(|t| t.name.as_str())));
    };
    let arguments = arguments::build(request.pairs, request.args, Typing::Schema(&tool.input_schema))?;
    let result = client
        .call_tool(request.tool, Value::Object(arguments), RequestOptions::default())
        .await
        .map_err(|e| Failure::request(&format!("calling {}", request.tool), e))?;
    let failed = result.is_error == Some(true);
    if request.json {
        print_json(&result);
    } else {
        print!("{}", render::tool_result(&result));
    }
    if failed {
        eprintln!("ferrymcp: the tool {:?} reported an error (isError)", request.tool);
        return Ok(TOOL_ERROR);
    }
    Ok(0)
}

pub async fn read(client: &Client, uri: &str, json: bool) -> Outcome<u8> {
    let result = client.read_resource(uri).await.map_err(|e| Failure::request(&format!("reading {uri}"), e))?;
    if json {
        print_json(&result);
    } else {
        print!("{}", render::resource(&result));
    }
    Ok(0)
}

pub async fn prompt(client: &Client, name: &str, pairs: &[String], json: bool) -> Outcome<u8> {
    let prompts = client.list_prompts().await.map_err(|e| Failure::request("prompts/list", e))?;
    if !prompts.iter().any(|p| p.name == name) {
        return Err(unknown("prompt", name, prompts.iter().map(|p| p.name.as_str())));
    }
    let arguments = arguments::build(pairs, None, Typing::Strings)?;
    let result = client
        .get_prompt(name, Value::Object(arguments))
        .await
        .map_err(|e| Failure::request(&format!("getting the prompt {name}"), e))?;
    if json {
        print_json(&result);
    } else {
        print!("{}", render::prompt(&result));
    }
    Ok(0)
}

/// "unknown tool "x"; the server has: a, b" (exit code 2).
pub fn unknown<'a>(what: &str, name: &str, existing: impl Iterator<Item = &'a str>) -> Failure {
    let existing: Vec<&str> = existing.collect();
    let listed = if existing.is_empty() { "none".to_owned() } else { existing.join(", ") };
    Failure::usage(format!("unknown {what} {name:?}; the server has {} {what}s: {listed}", existing.len()))
}

fn print_json(value: &impl Serialize) {
    println!("{}", serde_json::to_string_pretty(value).unwrap_or_default());
}
