//! The SERVER argument, named the same way in every command, and connecting to it.
//!
//! In this order: an `http://` or `https://` URL is a Streamable HTTP endpoint; a name
//! found in the `mcp.json` file is that entry; anything else is a command line started
//! over stdio, given after `--` as separate words or as one string split like a POSIX
//! shell would.
//!
//! A command typed on this command line inherits this process's whole environment (the
//! person who typed it is the host); an `mcp.json` entry gets the official clients' short
//! default environment plus its `env`, as Claude Desktop would start it.

use ferrymcp_core::client::child::{ChildCommand, EnvInheritance};
use ferrymcp_core::client::http::HttpClientOptions;
use ferrymcp_core::client::{Client, ClientCallbacks, ClientError, ClientOptions};
use ferrymcp_core::host::config::Transport;
use serde_json::json;

use crate::config::{ConfigFile, ServerEntry};
use crate::exit::{Failure, Kind, Outcome};

/// How the server was named on the command line.
#[derive(Clone, Debug)]
pub enum ServerSpec {
    /// One word: a URL, an `mcp.json` name or a quoted command line.
    Word(String),
    /// The words after `--`.
    Command(Vec<String>),
}

/// Where the server is.
#[derive(Clone)]
pub enum Target {
    Http(HttpClientOptions),
    Process { command: ChildCommand, shown: String },
}

impl Target {
    /// How the server is named in messages.
    pub fn describe(&self) -> String {
        match self {
            Target::Http(http) => http.url.clone(),
            Target::Process { shown, .. } => shown.clone(),
        }
    }
}

pub fn resolve(spec: &ServerSpec, config: Option<&ConfigFile>) -> Outcome<Target> {
    let words = match spec {
        ServerSpec::Command(words) if words.len() > 1 => words.clone(),
        ServerSpec::Command(words) => split(&words[0])?,
        ServerSpec::Word(word) if is_url(word) => return Ok(Target::Http(HttpClientOptions::new(word.as_str()))),
        ServerSpec::Word(word) => match config.and_then(|c| c.servers.get(word)) {
            Some(entry) => return from_entry(word, entry),
            None => split(word)?,
        },
    };
    Ok(command_target(&words, EnvInheritance::All))
}

fn is_url(word: &str) -> bool {
    word.starts_with("http://") || word.starts_with("https://")
}

fn split(line: &str) -> Outcome<Vec<String>> {
    match shlex::split(line) {
        Some(words) if !words.is_empty() => Ok(words),
        Some(_) => Err(Failure::usage("the server command is empty")),
        None => Err(Failure::usage(format!("cannot split the server command {line:?} (unbalanced quotes?)"))),
    }
}

fn command_target(words: &[String], inheritance: EnvInheritance) -> Target {
    let command = ChildCommand::new(&words[0]).args(&words[1..]).inherit_env(inheritance);
    let shown = shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "));
    Target::Process { command, shown }
}

pub fn from_entry(name: &str, entry: &ServerEntry) -> Outcome<Target> {
    match entry.transport(name).map_err(|e| Failure::usage(e.to_string()))? {
        Transport::Http(http) => Ok(Target::Http(http)),
        Transport::Stdio(command) => Ok(Target::Process { command, shown: format!("{name} (mcp.json)") }),
    }
}

/// Resolves `spec` and connects, running the handshake. Any failure is exit code 3, with
/// what was tried; a single word that was neither a URL nor an `mcp.json` name also lists
/// the names the file has, in case it was a typo.
pub async fn open(spec: &ServerSpec, config: Option<&ConfigFile>) -> Outcome<Client> {
    let target = resolve(spec, config)?;
    let shown = target.describe();
    connect(target).await.map_err(|e| {
        let mut message = format!("cannot connect to {shown}: {e}");
        let names: Vec<&str> = config.map(|c| c.servers.keys().map(String::as_str).collect()).unwrap_or_default();
        if matches!(spec, ServerSpec::Word(word) if !word.contains(' ') && !names.contains(&word.as_str()))
            && !names.is_empty()
        {
            message.push_str(&format!(" (the servers named in mcp.json are: {})", names.join(", ")));
        }
        Failure::new(Kind::Connect, anyhow::anyhow!(message))
    })
}

async fn connect(target: Target) -> Result<Client, ClientError> {
    connect_with(target, ClientCallbacks::default()).await
}

/// Connects to `target` with `callbacks` answering its requests and notifications.
pub async fn connect_with(target: Target, callbacks: ClientCallbacks) -> Result<Client, ClientError> {
    let options = ClientOptions {
        info: json!({"name": "ferrymcp-cli", "version": env!("CARGO_PKG_VERSION")}),
        ..ClientOptions::default()
    };
    match target {
        Target::Http(http) => Client::connect_http(http, options, callbacks).await,
        Target::Process { command, .. } => Client::spawn(command, options, callbacks).await,
    }
}
