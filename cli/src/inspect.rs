//! `ferrymcp inspect`: who the server is and everything it offers.
//!
//! Lists are asked for only when the server declares the capability (a server without
//! `prompts` would answer `prompts/list` with "method not found"), and every page is
//! gathered by core's `list_*`. The text form is tables for a person; `--json` is one
//! object with the same facts, the items as the server described them.

use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};
use ferrymcp_core::client::Client;
use ferrymcp_core::protocol::{Prompt, Resource, ResourceTemplate, Tool};
use serde_json::{Value, json};

use crate::exit::{Failure, Outcome};

/// What `inspect` found.
struct Inventory {
    tools: Vec<Tool>,
    resources: Vec<Resource>,
    templates: Vec<ResourceTemplate>,
    prompts: Vec<Prompt>,
}

pub async fn run(client: &Client, json_output: bool) -> Outcome<u8> {
    let inventory = gather(client).await?;
    if json_output {
        println!("{}", serde_json::to_string_pretty(&as_json(client, &inventory)).unwrap_or_default());
    } else {
        print!("{}", as_text(client, &inventory));
    }
    Ok(0)
}

async fn gather(client: &Client) -> Outcome<Inventory> {
    let declared = |capability: &str| client.server().capabilities.get(capability).is_some();
    let failed = |what: &'static str| move |e| Failure::request(what, e);
    let tools = if declared("tools") { client.list_tools().await.map_err(failed("tools/list"))? } else { vec![] };
    let (resources, templates) = if declared("resources") {
        (
            client.list_resources().await.map_err(failed("resources/list"))?,
            client.list_resource_templates().await.map_err(failed("resources/templates/list"))?,
        )
    } else {
        (vec![], vec![])
    };
    let prompts =
        if declared("prompts") { client.list_prompts().await.map_err(failed("prompts/list"))? } else { vec![] };
    Ok(Inventory { tools, resources, templates, prompts })
}

fn as_json(client: &Client, inventory: &Inventory) -> Value {
    let server = client.server();
    json!({
        "serverInfo": server.info,
        "protocolVersion": server.protocol_version,
        "era": era(client),
        "capabilities": server.capabilities,
        "instructions": server.instructions,
        "tools": inventory.tools,
        "resources": inventory.resources,
        "resourceTemplates": inventory.templates,
        "prompts": inventory.prompts,
    })
}

fn era(client: &Client) -> &'static str {
    if client.server().modern { "modern" } else { "legacy" }
}

fn as_text(client: &Client, inventory: &Inventory) -> String {
    let server = client.server();
    let text = |key: &str| server.info.get(key).and_then(Value::as_str).unwrap_or("?").to_owned();
    let mut out = format!("{} {}\n", text("name"), text("version"));
    out += &format!("protocol:      {} ({})\n", server.protocol_version, era(client));
    out += &format!("capabilities:  {}\n", capabilities(&server.capabilities));
    if let Some(instructions) = server.instructions.as_deref().filter(|i| !i.is_empty()) {
        out += &format!("instructions:  {}\n", instructions.trim());
    }
    let tools = inventory
        .tools
        .iter()
        .map(|t| vec![t.name.clone(), opt(&t.title), short(&t.description), tool_arguments(&t.input_schema)]);
    out += &section("Tools", &["Name", "Title", "Description", "Arguments (* required)"], tools);
    let resources = inventory
        .resources
        .iter()
        .map(|r| vec![r.name.clone(), opt(&r.title), r.uri.clone(), opt(&r.mime_type), short(&r.description)]);
    out += &section("Resources", &["Name", "Title", "URI", "MIME type", "Description"], resources);
    let templates = inventory
        .templates
        .iter()
        .map(|r| vec![r.name.clone(), opt(&r.title), r.uri_template.clone(), opt(&r.mime_type), short(&r.description)]);
    out += &section("Resource templates", &["Name", "Title", "URI template", "MIME type", "Description"], templates);
    let prompts = inventory.prompts.iter().map(|p| {
        let arguments = p.arguments.iter().flatten().map(|a| marked(&a.name, a.required == Some(true)));
        vec![p.name.clone(), opt(&p.title), short(&p.description), arguments.collect::<Vec<_>>().join(", ")]
    });
    out += &section("Prompts", &["Name", "Title", "Description", "Arguments (* required)"], prompts);
    out
}

/// `tools (listChanged), resources (subscribe, listChanged), ...`.
fn capabilities(capabilities: &Value) -> String {
    let Some(map) = capabilities.as_object().filter(|m| !m.is_empty()) else { return "none".into() };
    let named = map.iter().map(|(name, value)| {
        let flags: Vec<&str> = value
            .as_object()
            .map(|o| o.iter().filter(|(_, v)| **v == Value::Bool(true)).map(|(k, _)| k.as_str()).collect())
            .unwrap_or_default();
        if flags.is_empty() { name.clone() } else { format!("{name} ({})", flags.join(", ")) }
    });
    named.collect::<Vec<_>>().join(", ")
}

/// The property names of an input schema, required ones marked.
fn tool_arguments(schema: &serde_json::Map<String, Value>) -> String {
    let required: Vec<&str> =
        schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let properties = schema.get("properties").and_then(Value::as_object).into_iter().flatten();
    properties.map(|(name, _)| marked(name, required.contains(&name.as_str()))).collect::<Vec<_>>().join(", ")
}

fn marked(name: &str, required: bool) -> String {
    if required { format!("{name}*") } else { name.to_owned() }
}

fn opt(value: &Option<String>) -> String {
    value.clone().unwrap_or_default()
}

/// A description's first line, cut to fit a table cell.
fn short(description: &Option<String>) -> String {
    const MAX: usize = 60;
    let line = description.as_deref().unwrap_or_default().lines().next().unwrap_or_default().trim();
    if line.chars().count() <= MAX {
        return line.to_owned();
    }
    let cut: String = line.chars().take(MAX - 1).collect();
    format!("{}…", cut.trim_end())
}

fn section(title: &str, header: &[&str], rows: impl Iterator<Item = Vec<String>>) -> String {
    let rows: Vec<Vec<String>> = rows.collect();
    if rows.is_empty() {
        return format!("\n{title}: none\n");
    }
    // A column no item fills (titles, often) is left out.
    let used: Vec<usize> = (0..header.len()).filter(|&i| rows.iter().any(|row| !row[i].is_empty())).collect();
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header(used.iter().map(|&i| header[i]));
    for row in rows.iter() {
        table.add_row(used.iter().map(|&i| row[i].as_str()));
    }
    format!("\n{title} ({})\n{table}\n", rows.len())
}
