//! `mcp.json`: the server list of Claude Desktop and the official clients.
//!
//! `{"mcpServers": {"name": {"command": "...", "args": [...], "env": {...}}}` for a server
//! started over stdio, `{"url": "...", "headers": {...}}` for one over HTTP. VS Code's
//! `"servers"` key and `"type"` are read too; fields no transport uses (`disabled`...) are
//! ignored, as the clients that wrote the file ignore what they do not know.

use std::path::Path;

use crate::exit::{Failure, Outcome};

/// The file looked for when `--config` is not given.
pub const DEFAULT_FILE: &str = "mcp.json";

/// The file as core reads it (`ferrymcp_core::host::config`, shared with the client
/// groups of the bindings).
pub use ferrymcp_core::host::config::{McpConfig as ConfigFile, ServerEntry};

/// Reads `--config FILE`, or `./mcp.json` when it exists; `None` when neither applies.
pub fn load(explicit: Option<&Path>) -> Outcome<Option<ConfigFile>> {
    let path = match explicit {
        Some(path) => path,
        None if Path::new(DEFAULT_FILE).is_file() => Path::new(DEFAULT_FILE),
        None => return Ok(None),
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read the config file {}: {e}", path.display())))?;
    let file = ConfigFile::parse(&text).map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
    Ok(Some(file))
}
