//! Results printed for a person: text as it is, binary content as a one-line summary,
//! `structuredContent` as indented JSON. `--json` bypasses all of this and prints the
//! result as the server sent it.

use std::fmt::Write;

use ferrymcp_core::protocol::{
    CallToolResult, ContentBlock, GetPromptResult, ReadResourceResult, ResourceContents, Role,
};

pub fn tool_result(result: &CallToolResult) -> String {
    let mut out = String::new();
    for block in &result.content {
        push_line(&mut out, &content(block));
    }
    if let Some(structured) = &result.structured_content {
        push_line(&mut out, "structuredContent:");
        push_line(&mut out, &serde_json::to_string_pretty(structured).unwrap_or_default());
    }
    out
}

pub fn resource(result: &ReadResourceResult) -> String {
    let mut out = String::new();
    let many = result.contents.len() > 1;
    for contents in &result.contents {
        if many {
            push_line(&mut out, &format!("--- {}", contents.uri()));
        }
        push_line(&mut out, &resource_contents(contents, false));
    }
    out
}

pub fn prompt(result: &GetPromptResult) -> String {
    let mut out = String::new();
    if let Some(description) = &result.description {
        push_line(&mut out, &format!("# {description}"));
    }
    for message in &result.messages {
        let role = match message.role {
            Role::User => "user",
            Role::Assistant => "assistant",
        };
        push_line(&mut out, &format!("[{role}]"));
        push_line(&mut out, &content(&message.content));
    }
    out
}

fn content(block: &ContentBlock) -> String {
    match block {
        ContentBlock::Text(text) => text.text.clone(),
        ContentBlock::Image(image) => format!("[image: {}, {}]", image.mime_type, size_of_base64(&image.data)),
        ContentBlock::Audio(audio) => format!("[audio: {}, {}]", audio.mime_type, size_of_base64(&audio.data)),
        ContentBlock::ResourceLink(link) => format!("[resource link: {} ({})]", link.uri, link.name),
        ContentBlock::Resource(embedded) => resource_contents(&embedded.resource, true),
    }
}

fn resource_contents(contents: &ResourceContents, labelled: bool) -> String {
    match contents {
        ResourceContents::Text(text) if labelled => {
            let mime = text.mime_type.as_deref().unwrap_or("text");
            format!("[resource: {} ({mime})]\n{}", text.uri, text.text)
        }
        ResourceContents::Text(text) => text.text.clone(),
        ResourceContents::Blob(blob) => format!(
            "[binary resource: {}, {}, {}]",
            blob.uri,
            blob.mime_type.as_deref().unwrap_or("unknown type"),
            size_of_base64(&blob.blob)
        ),
    }
}

/// The decoded size of base64 `data`, for a person.
fn size_of_base64(data: &str) -> String {
    let padding = data.bytes().rev().take_while(|&b| b == b'=').count();
    let bytes = (data.len() / 4 * 3).saturating_sub(padding);
    if bytes < 1024 { format!("{bytes} bytes") } else { format!("{:.1} KiB", bytes as f64 / 1024.0) }
}

fn push_line(out: &mut String, line: &str) {
    let _ = writeln!(out, "{line}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn binary_content_is_one_line_and_structured_content_is_indented() {
        let result: CallToolResult = serde_json::from_value(json!({
            "content": [{"type": "text", "text": "hi"}, {"type": "image", "data": "AAAA", "mimeType": "image/png"}],
            "structuredContent": {"a": 1}
        }))
        .unwrap();
        assert_eq!(tool_result(&result), "hi\n[image: image/png, 3 bytes]\nstructuredContent:\n{\n  \"a\": 1\n}\n");
    }
}
