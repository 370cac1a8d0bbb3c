//! MCP tools and tool results in the shapes of the LLM APIs hosts use.
//!
//! - [`tool_definitions`]: a list of MCP tools as the `tools` parameter of OpenAI Chat
//!   Completions (`{"type": "function", "function": {name, description, parameters}}`),
//!   OpenAI Responses (`{"type": "function", name, description, parameters, "strict":
//!   false}`; Responses makes tools strict unless told, and MCP schemas are rarely strict
//!   schemas) and Anthropic Messages (`{name, description, input_schema}`).
//! - [`tool_result`]: a `CallToolResult` as the items to append to the conversation:
//!   Chat Completions, a `tool` message (text; the images in a `user` message after it,
//!   since a `tool` message carries text only); Responses, a `function_call_output` item
//!   (a string, or `input_text`/`input_image` parts when there are images); Anthropic, a
//!   `tool_result` block (text and image blocks, `is_error`) for the next `user` message.
//!
//! Content that an API cannot carry is described in text rather than dropped: audio, a
//! binary resource, a resource link. `structuredContent` is added as its JSON text unless
//! a text block already holds exactly that JSON (servers are asked to send both). A result
//! with `isError` is said to be an error in its first text (OpenAI has no error flag).
//! Everything here is plain data conversion, so every binding emits the same bytes.

use std::str::FromStr;

use serde_json::{Map, Value, json};

/// The LLM API to shape for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LlmApi {
    /// OpenAI Chat Completions (and the many APIs compatible with it).
    OpenAiChat,
    /// OpenAI Responses.
    OpenAiResponses,
    /// Anthropic Messages.
    Anthropic,
}

impl FromStr for LlmApi {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "openai" | "openai-chat" | "chat" => Ok(Self::OpenAiChat),
            "openai-responses" | "responses" => Ok(Self::OpenAiResponses),
            "anthropic" => Ok(Self::Anthropic),
            other => {
                Err(format!("unknown LLM API {other:?} (known: \"openai-chat\", \"openai-responses\", \"anthropic\")"))
            }
        }
    }
}

/// The text the error prefix says.
const ERROR_NOTE: &str = "The tool reported an error.";

/// `tools` (MCP tool definitions, each with its name as the model should call it) as the
/// API's `tools` parameter.
pub fn tool_definitions(api: LlmApi, tools: &[Value]) -> Value {
    Value::Array(tools.iter().map(|tool| tool_definition(api, tool)).collect())
}

fn tool_definition(api: LlmApi, tool: &Value) -> Value {
    let name = tool.get("name").cloned().unwrap_or(json!(""));
    let description = tool.get("description").and_then(Value::as_str).map(str::to_owned);
    let mut schema = match tool.get("inputSchema") {
        Some(Value::Object(schema)) => schema.clone(),
        _ => Map::new(),
    };
    // OpenAI refuses an object schema without `properties`.
    schema.entry("type").or_insert(json!("object"));
    schema.entry("properties").or_insert(json!({}));
    let schema = Value::Object(schema);
    let mut out = Map::new();
    match api {
        LlmApi::OpenAiChat => {
            let mut function = Map::new();
            function.insert("name".into(), name);
            if let Some(description) = description {
                function.insert("description".into(), json!(description));
            }
            function.insert("parameters".into(), schema);
            out.insert("type".into(), json!("function"));
            out.insert("function".into(), Value::Object(function));
        }
        LlmApi::OpenAiResponses => {
            out.insert("type".into(), json!("function"));
            out.insert("name".into(), name);
            if let Some(description) = description {
                out.insert("description".into(), json!(description));
            }
            out.insert("parameters".into(), schema);
            out.insert("strict".into(), json!(false));
        }
        LlmApi::Anthropic => {
            out.insert("name".into(), name);
            if let Some(description) = description {
                out.insert("description".into(), json!(description));
            }
            out.insert("input_schema".into(), schema);
        }
    }
    Value::Object(out)
}

/// One piece of a result: text, or an image as base64 with its MIME type.
enum Part {
    Text(String),
    Image { mime: String, data: String },
}

fn parts(result: &Value) -> Vec<Part> {
    let mut parts = Vec::new();
    if result.get("isError").and_then(Value::as_bool) == Some(true) {
        parts.push(Part::Text(ERROR_NOTE.into()));
    }
    let content = result.get("content").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let str_of = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    let mut texts = Vec::new();
    for block in content {
        match block.get("type").and_then(Value::as_str).unwrap_or_default() {
            "text" => {
                texts.push(str_of(block, "text"));
                parts.push(Part::Text(str_of(block, "text")));
            }
            "image" => parts.push(Part::Image { mime: str_of(block, "mimeType"), data: str_of(block, "data") }),
            "audio" => parts.push(Part::Text(format!("[audio: {}]", str_of(block, "mimeType")))),
            "resource" => {
                let resource = block.get("resource").cloned().unwrap_or(Value::Null);
                let uri = str_of(&resource, "uri");
                match resource.get("text").and_then(Value::as_str) {
                    Some(text) => parts.push(Part::Text(format!("[resource {uri}]\n{text}"))),
                    None => {
                        let mime = str_of(&resource, "mimeType");
                        parts.push(Part::Text(format!("[resource {uri} ({mime}): binary, not shown]")))
                    }
                }
            }
            "resource_link" => {
                let (uri, name) = (str_of(block, "uri"), str_of(block, "name"));
                parts.push(Part::Text(format!("[resource link: {name} {uri}]")))
            }
            other => parts.push(Part::Text(format!("[{other} content]"))),
        }
    }
    if let Some(structured) = result.get("structuredContent").filter(|v| !v.is_null()) {
        let echoed = texts.iter().any(|t| serde_json::from_str::<Value>(t).ok().as_ref() == Some(structured));
        if !echoed {
            parts.push(Part::Text(structured.to_string()));
        }
    }
    parts
}

fn joined_text(parts: &[Part]) -> String {
    let texts: Vec<&str> = parts
        .iter()
        .filter_map(|p| match p {
            Part::Text(text) => Some(text.as_str()),
            Part::Image { .. } => None,
        })
        .collect();
    texts.join("\n")
}

fn data_url(mime: &str, data: &str) -> String {
    format!("data:{mime};base64,{data}")
}

/// The items to append to the conversation for the answer to tool call `call_id`, whose
/// MCP result is `result` (see the module doc).
pub fn tool_result(api: LlmApi, call_id: &str, result: &Value) -> Value {
    let parts = parts(result);
    let has_images = parts.iter().any(|p| matches!(p, Part::Image { .. }));
    match api {
        LlmApi::OpenAiChat => {
            let mut items = vec![json!({"role": "tool", "tool_call_id": call_id, "content": joined_text(&parts)})];
            if has_images {
                let mut content =
                    vec![json!({"type": "text", "text": format!("The images tool call {call_id} returned:")})];
                for part in &parts {
                    if let Part::Image { mime, data } = part {
                        content.push(json!({"type": "image_url", "image_url": {"url": data_url(mime, data)}}));
                    }
                }
                items.push(json!({"role": "user", "content": content}));
            }
            Value::Array(items)
        }
        LlmApi::OpenAiResponses => {
            let output = if has_images {
                let items = parts.iter().map(|part| match part {
                    Part::Text(text) => json!({"type": "input_text", "text": text}),
                    Part::Image { mime, data } => json!({"type": "input_image", "image_url": data_url(mime, data)}),
                });
                Value::Array(items.collect())
            } else {
                json!(joined_text(&parts))
            };
            json!([{"type": "function_call_output", "call_id": call_id, "output": output}])
        }
        LlmApi::Anthropic => {
            let content: Vec<Value> = parts
                .iter()
                .map(|part| match part {
                    Part::Text(text) => json!({"type": "text", "text": text}),
                    Part::Image { mime, data } => {
                        json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}})
                    }
                })
                .collect();
            let mut block = json!({"type": "tool_result", "tool_use_id": call_id, "content": content});
            if result.get("isError").and_then(Value::as_bool) == Some(true) {
                block["is_error"] = json!(true);
            }
            json!([block])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool() -> Value {
        json!({"name": "add", "description": "Adds", "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}}}})
    }

    #[test]
    fn definitions_take_each_api_shape() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "number"}}});
        assert_eq!(
            tool_definitions(LlmApi::OpenAiChat, &[tool()]),
            json!([{"type": "function", "function": {"name": "add", "description": "Adds", "parameters": schema}}])
        );
        assert_eq!(
            tool_definitions(LlmApi::OpenAiResponses, &[tool()]),
            json!([{"type": "function", "name": "add", "description": "Adds", "parameters": schema, "strict": false}])
        );
        assert_eq!(
            tool_definitions(LlmApi::Anthropic, &[json!({"name": "x", "inputSchema": {"type": "object"}})]),
            json!([{"name": "x", "input_schema": {"type": "object", "properties": {}}}])
        );
    }

    #[test]
    fn results_carry_text_images_structure_and_errors() {
        let result = json!({"content": [{"type": "text", "text": "hi"}, {"type": "image", "mimeType": "image/png", "data": "AAA"}],
            "structuredContent": {"n": 1}, "isError": true});
        let chat = tool_result(LlmApi::OpenAiChat, "c1", &result);
        assert_eq!(
            chat[0],
            json!({"role": "tool", "tool_call_id": "c1", "content": "The tool reported an error.\nhi\n{\"n\":1}"})
        );
        assert_eq!(
            chat[1]["content"][1],
            json!({"type": "image_url", "image_url": {"url": "data:image/png;base64,AAA"}})
        );
        let responses = tool_result(LlmApi::OpenAiResponses, "c1", &result);
        assert_eq!(responses[0]["output"][2], json!({"type": "input_image", "image_url": "data:image/png;base64,AAA"}));
        let anthropic = tool_result(LlmApi::Anthropic, "c1", &result);
        assert_eq!(anthropic[0]["is_error"], json!(true));
        assert_eq!(anthropic[0]["content"][2]["source"]["media_type"], "image/png");
        let echoed = json!({"content": [{"type": "text", "text": "{\"n\": 1}"}], "structuredContent": {"n": 1}});
        assert_eq!(tool_result(LlmApi::OpenAiResponses, "c2", &echoed)[0]["output"], json!("{\"n\": 1}"));
    }
}
