//! `mcp.json`: the server list of Claude Desktop, Cursor and VS Code.
//!
//! `{"mcpServers": {"name": {"command": "...", "args": [...], "env": {...}, "cwd": "..."}}}`
//! for a server started over stdio, `{"url": "...", "headers": {...}}` for one over HTTP
//! (Streamable HTTP, falling back to the legacy HTTP+SSE transport). VS Code's `"servers"`
//! key and its `"type"` (`stdio`, `http`, `sse`) are read too. Fields no transport uses
//! (`disabled`, `envFile`, ...) are ignored, as the applications that wrote the file ignore
//! what they do not know; a `type` that is none of these is refused, naming it.
//!
//! A server started from the file gets the official clients' short default environment
//! plus its `env` (as Claude Desktop starts it), not the whole environment of the host.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use crate::client::child::{ChildCommand, EnvInheritance};
use crate::client::http::HttpClientOptions;
use crate::client::{Client, ClientCallbacks, ClientError, ClientOptions};

/// A file that cannot be read or is not an `mcp.json` file, or an entry that names no way
/// to connect.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

/// An `mcp.json` file: its servers by name, in name order.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct McpConfig {
    #[serde(rename = "mcpServers", alias = "servers", default)]
    pub servers: BTreeMap<String, ServerEntry>,
}

/// One server of the file, as written.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ServerEntry {
    /// VS Code's `type`: `stdio`, `http` (or `streamable-http`), `sse`.
    #[serde(rename = "type")]
    pub kind: Option<String>,
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

/// How to reach one server.
#[derive(Clone)]
pub enum Transport {
    Stdio(ChildCommand),
    Http(HttpClientOptions),
}

impl McpConfig {
    /// Parses the text of an `mcp.json` file.
    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let value = serde_json::from_str(text)
            .map_err(|e| ConfigError(format!("not an mcp.json file ({{\"mcpServers\": {{...}}}}): {e}")))?;
        Self::from_value(value)
    }

    /// Reads a JSON value shaped like an `mcp.json` file (an object).
    pub fn from_value(value: Value) -> Result<Self, ConfigError> {
        let not =
            |e: &dyn std::fmt::Display| ConfigError(format!("not an mcp.json file ({{\"mcpServers\": {{...}}}}): {e}"));
        if !value.is_object() {
            return Err(not(&"not a JSON object"));
        }
        serde_json::from_value(value).map_err(|e| not(&e))
    }

    /// Reads and parses `path`.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError(format!("cannot read the config file {}: {e}", path.display())))?;
        Self::parse(&text).map_err(|ConfigError(e)| ConfigError(format!("{}: {e}", path.display())))
    }
}

impl ServerEntry {
    /// The transport this entry names; `name` is only for messages.
    pub fn transport(&self, name: &str) -> Result<Transport, ConfigError> {
        let kind = self.kind.as_deref();
        let http = match kind {
            Some("stdio") => false,
            Some("http" | "streamable-http" | "streamableHttp" | "sse") => true,
            Some(other) => {
                return Err(ConfigError(format!(
                    "mcp.json server {name:?} has \"type\": {other:?} (known: \"stdio\", \"http\", \"sse\")"
                )));
            }
            None => self.url.is_some(),
        };
        if http {
            let Some(url) = &self.url else {
                return Err(ConfigError(format!("mcp.json server {name:?} has no \"url\"")));
            };
            let mut options = HttpClientOptions::new(url.as_str());
            options.headers.extend(self.headers.iter().map(|(k, v)| (k.clone(), v.clone())));
            return Ok(Transport::Http(options));
        }
        let Some(program) = &self.command else {
            return Err(ConfigError(format!("mcp.json server {name:?} has neither \"command\" nor \"url\"")));
        };
        let mut command = ChildCommand::new(program).args(&self.args).inherit_env(EnvInheritance::Default);
        for (key, value) in &self.env {
            command = command.env(key, value);
        }
        if let Some(cwd) = &self.cwd {
            command = command.current_dir(cwd);
        }
        Ok(Transport::Stdio(command))
    }
}

impl Transport {
    /// Connects and runs the handshake.
    pub async fn connect(self, options: ClientOptions, callbacks: ClientCallbacks) -> Result<Client, ClientError> {
        match self {
            Transport::Http(http) => Client::connect_http(http, options, callbacks).await,
            Transport::Stdio(command) => Client::spawn(command, options, callbacks).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_desktop_and_vs_code_files_are_read() {
        let claude = McpConfig::parse(
            r#"{"mcpServers": {"a": {"command": "x", "args": ["1"], "env": {"K": "V"}},
            "b": {"url": "http://127.0.0.1:1/mcp", "headers": {"Authorization": "Bearer t"}}}}"#,
        )
        .unwrap();
        assert!(matches!(claude.servers["a"].transport("a"), Ok(Transport::Stdio(_))));
        let Ok(Transport::Http(http)) = claude.servers["b"].transport("b") else { panic!("http") };
        assert_eq!(http.headers, vec![("Authorization".to_owned(), "Bearer t".to_owned())]);
        let vscode =
            McpConfig::parse(r#"{"servers": {"c": {"type": "sse", "url": "http://h/sse"}, "d": {"type": "ws"}}}"#)
                .unwrap();
        assert!(matches!(vscode.servers["c"].transport("c"), Ok(Transport::Http(_))));
        let error = vscode.servers["d"].transport("d").err().unwrap().to_string();
        assert!(error.contains("\"ws\""), "{error}");
        let error = McpConfig::parse(r#"{"mcpServers": {"e": {}}}"#).unwrap().servers["e"].transport("e");
        assert!(error.err().unwrap().to_string().contains("neither \"command\" nor \"url\""));
        assert!(McpConfig::parse("[]").is_err());
    }
}
