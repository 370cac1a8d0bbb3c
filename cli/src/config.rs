//! `mcp.json`: the server list of Claude Desktop and the official clients.
//!
//! `{"mcpServers": {"name": {"command": "...", "args": [...], "env": {...}}}` for a server
//! started over stdio, `{"url": "...", "headers": {...}}` for one over HTTP. VS Code's
//! `"servers"` key is read too; fields this command has no use for (`type`, `disabled`...)
//! are ignored, as the clients that wrote the file ignore what they do not know.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::exit::{Failure, Outcome};

/// The file looked for when `--config` is not given.
pub const DEFAULT_FILE: &str = "mcp.json";

#[derive(Debug, Deserialize)]
pub struct ConfigFile {
    #[serde(rename = "mcpServers", alias = "servers", default)]
    pub servers: BTreeMap<String, ServerEntry>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct ServerEntry {
    pub command: Option<String>,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    pub cwd: Option<PathBuf>,
    pub url: Option<String>,
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
}

/// Reads `--config FILE`, or `./mcp.json` when it exists; `None` when neither applies.
pub fn load(explicit: Option<&Path>) -> Outcome<Option<ConfigFile>> {
    let path = match explicit {
        Some(path) => path,
        None if Path::new(DEFAULT_FILE).is_file() => Path::new(DEFAULT_FILE),
        None => return Ok(None),
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read the config file {}: {e}", path.display())))?;
    let file = serde_json::from_str(&text).map_err(|e| {
        Failure::usage(format!("{} is not an mcp.json file ({{\"mcpServers\": {{...}}}}): {e}", path.display()))
    })?;
    Ok(Some(file))
}
