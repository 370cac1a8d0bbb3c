//! OAuth for a protected remote server (`bridge --stdio URL --oauth`): core's OAuth 2.1
//! client ([`ferrymcp_core::client::auth`]) does the protocol; this module is the host's
//! side of it ([`OAuthHandler`]): where tokens and the client registration are kept (in
//! memory, or a token store file written with mode 0600), and how the user gets to the
//! authorization URL (printed on stderr, opened in a browser with `--open`) and back (a
//! loopback listener on 127.0.0.1 that catches the redirect, RFC 8252 section 7.3).
//! Stdout is never written: it is the MCP stream.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::Args;
use ferrymcp_core::client::auth::{
    AuthError, AuthorizationResponse, Grant, OAuth, OAuthClientInformation, OAuthHandler, OAuthOptions, OAuthTokens,
};
use ferrymcp_core::peer::BoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::cli::parse_duration;
use crate::exit::{Failure, Outcome};

#[derive(Args, Default)]
pub struct OAuthArgs {
    /// Authorize with OAuth 2.1 (authorization code with PKCE): the authorization URL is
    /// printed on stderr, the user approves in a browser, and the redirect is caught on
    /// 127.0.0.1. The client registers itself (dynamic registration) unless --client-id.
    #[arg(long, help_heading = "OAuth (bridge --stdio to an https:// server)")]
    pub oauth: bool,
    /// Authorize with the client-credentials grant (machine to machine, no user); needs
    /// --client-id and --client-secret (or --client-secret-env).
    #[arg(long, conflicts_with = "oauth", help_heading = "OAuth (bridge --stdio to an https:// server)")]
    pub client_credentials: bool,
    /// A pre-registered client ID (instead of dynamic registration).
    #[arg(long, value_name = "ID", help_heading = "OAuth (bridge --stdio to an https:// server)")]
    pub client_id: Option<String>,
    /// The pre-registered client's secret.
    #[arg(
        long,
        value_name = "SECRET",
        requires = "client_id",
        conflicts_with = "client_secret_env",
        help_heading = "OAuth (bridge --stdio to an https:// server)"
    )]
    pub client_secret: Option<String>,
    /// The pre-registered client's secret, held by environment variable VAR.
    #[arg(
        long,
        value_name = "VAR",
        requires = "client_id",
        help_heading = "OAuth (bridge --stdio to an https:// server)"
    )]
    pub client_secret_env: Option<String>,
    /// A scope to ask for besides those the server names (repeatable, or space-separated);
    /// at dynamic registration these are the scopes registered, so name every one needed.
    #[arg(long = "scope", value_name = "SCOPE", help_heading = "OAuth (bridge --stdio to an https:// server)")]
    pub scopes: Vec<String>,
    /// The port of the redirect listener on 127.0.0.1 (the redirect URI is
    /// http://127.0.0.1:N/callback) [default: one the system picks].
    #[arg(long, value_name = "N", help_heading = "OAuth (bridge --stdio to an https:// server)")]
    pub redirect_port: Option<u16>,
    /// Also open the authorization URL in the default browser.
    #[arg(long, help_heading = "OAuth (bridge --stdio to an https:// server)")]
    pub open: bool,
    /// Keep the tokens and the client registration in FILE (JSON, mode 0600), so the next
    /// run reuses them, refreshing an expired token, instead of asking the user again.
    #[arg(long, value_name = "FILE", help_heading = "OAuth (bridge --stdio to an https:// server)")]
    pub token_store: Option<PathBuf>,
    /// How long to wait for the user to approve in the browser.
    #[arg(
        long,
        default_value = "5m",
        value_parser = parse_duration,
        value_name = "D",
        help_heading = "OAuth (bridge --stdio to an https:// server)"
    )]
    pub auth_timeout: Duration,
}

impl OAuthArgs {
    fn any_given(&self) -> Option<&'static str> {
        [
            (self.client_id.is_some(), "--client-id"),
            (!self.scopes.is_empty(), "--scope"),
            (self.redirect_port.is_some(), "--redirect-port"),
            (self.open, "--open"),
            (self.token_store.is_some(), "--token-store"),
        ]
        .into_iter()
        .find_map(|(given, name)| given.then_some(name))
    }

    fn secret(&self) -> Outcome<Option<String>> {
        match (&self.client_secret, &self.client_secret_env) {
            (Some(secret), _) => Ok(Some(secret.clone())),
            (None, Some(var)) => match std::env::var(var) {
                Ok(secret) if !secret.is_empty() => Ok(Some(secret)),
                _ => Err(Failure::usage(format!("--client-secret-env: ${var} is not set (or empty)"))),
            },
            (None, None) => Ok(None),
        }
    }

    /// The OAuth state for the server at `url`, `None` without --oauth or
    /// --client-credentials. Binds the redirect listener for the authorization code.
    pub async fn build(&self, url: Option<&str>) -> Outcome<Option<Arc<OAuth>>> {
        if !self.oauth && !self.client_credentials {
            return match self.any_given() {
                Some(option) => Err(Failure::usage(format!("{option} needs --oauth or --client-credentials"))),
                None => Ok(None),
            };
        }
        let Some(url) = url else {
            return Err(Failure::usage("--oauth and --client-credentials are for an http(s):// server"));
        };
        let secret = self.secret()?;
        if self.client_credentials && (self.client_id.is_none() || secret.is_none()) {
            return Err(Failure::usage(
                "--client-credentials needs --client-id and --client-secret (or --client-secret-env)",
            ));
        }
        if self.client_credentials && (self.redirect_port.is_some() || self.open) {
            return Err(Failure::usage("--redirect-port and --open are for --oauth (no user takes part otherwise)"));
        }
        let store = Store::open(self.token_store.clone(), url)?;
        let preregistered = self.client_id.clone().map(|client_id| OAuthClientInformation {
            client_id,
            client_secret: secret.clone(),
            token_endpoint_auth_method: Some(if secret.is_some() { "client_secret_basic" } else { "none" }.into()),
            ..OAuthClientInformation::default()
        });
        let scope = self.scopes.iter().flat_map(|s| s.split_whitespace()).collect::<Vec<_>>().join(" ");
        let (grant, listener, metadata) = if self.client_credentials {
            let metadata = json!({
                "client_name": "ferrymcp bridge",
                "grant_types": ["client_credentials"],
                "token_endpoint_auth_method": "client_secret_basic",
            });
            (Grant::ClientCredentials, None, metadata)
        } else {
            // Without --redirect-port, the port a stored registration was made for, if free.
            let stored_port = store.redirect_port().filter(|_| self.redirect_port.is_none());
            let listener = match stored_port {
                Some(port) => TcpListener::bind(("127.0.0.1", port)).await.ok(),
                None => None,
            };
            let listener = match listener {
                Some(listener) => listener,
                None => {
                    let port = self.redirect_port.unwrap_or(0);
                    TcpListener::bind(("127.0.0.1", port)).await.map_err(|e| {
                        Failure::usage(format!(
                            "cannot listen for the OAuth redirect on 127.0.0.1:{port}: {e} (--redirect-port)"
                        ))
                    })?
                }
            };
            let port = listener.local_addr().map_err(|e| Failure::usage(e.to_string()))?.port();
            let redirect = format!("http://127.0.0.1:{port}/callback");
            // A registration made for another redirect URI (an earlier run's port) would be
            // refused by the authorization server: register again.
            store.forget_client_unless_it_allows(&redirect);
            // The registration's `scope` is what the client may ask for: --scope when
            // given, else the authorization server's default.
            let mut metadata = json!({
                "client_name": "ferrymcp bridge",
                "redirect_uris": [redirect],
                "grant_types": ["authorization_code", "refresh_token"],
                "response_types": ["code"],
                "token_endpoint_auth_method": "none",
            });
            if !scope.is_empty() {
                metadata["scope"] = json!(scope);
            }
            (Grant::AuthorizationCode, Some(listener), metadata)
        };
        let handler = Arc::new(Handler {
            store,
            preregistered,
            listener: listener.map(|l| Arc::new(tokio::sync::Mutex::new(l))),
            open: self.open,
            timeout: self.auth_timeout,
        });
        let mut options = OAuthOptions::new(metadata, handler);
        options.grant = grant;
        options.extra_scope = (!scope.is_empty()).then_some(scope);
        OAuth::new(options).map(Some).map_err(|e| Failure::usage(format!("OAuth: {e}")))
    }
}

/// What the token store file holds: for which server, the registration and the tokens
/// (with when they were saved, as `expires_in` counts from then).
#[derive(Clone, Default, Serialize, Deserialize)]
struct Stored {
    server: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    client: Option<OAuthClientInformation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tokens: Option<OAuthTokens>,
    #[serde(default, rename = "savedAt")]
    saved_at: u64,
}

/// The tokens and registration, in memory and (with a path) in the file.
struct Store {
    path: Option<PathBuf>,
    stored: Mutex<Stored>,
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or_default()
}

impl Store {
    /// Reads `path` if it exists; what it holds for another server is not used (and is
    /// replaced on the first save).
    fn open(path: Option<PathBuf>, server: &str) -> Outcome<Self> {
        let mut stored = Stored { server: server.to_owned(), ..Stored::default() };
        if let Some(path) = &path {
            match std::fs::read_to_string(path) {
                Ok(text) => {
                    let found: Stored = serde_json::from_str(&text).map_err(|e| {
                        Failure::usage(format!(
                            "--token-store {}: not a ferrymcp token store ({e}); delete it to start over",
                            path.display()
                        ))
                    })?;
                    if found.server == server {
                        stored = found;
                    } else {
                        eprintln!(
                            "ferrymcp: {} holds tokens for {}, not {server}: authorizing anew (it will be replaced)",
                            path.display(),
                            found.server
                        );
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(Failure::usage(format!("--token-store {}: {e}", path.display()))),
            }
        }
        Ok(Store { path, stored: Mutex::new(stored) })
    }

    /// The port of the stored registration's loopback redirect URI.
    fn redirect_port(&self) -> Option<u16> {
        let stored = self.stored.lock().unwrap();
        let uri = stored.client.as_ref()?.extra.get("redirect_uris")?.get(0)?.as_str()?.to_owned();
        let rest = uri.strip_prefix("http://127.0.0.1:")?;
        rest.split('/').next()?.parse().ok()
    }

    fn forget_client_unless_it_allows(&self, redirect: &str) {
        let mut stored = self.stored.lock().unwrap();
        let allows = stored.client.as_ref().is_some_and(|c| {
            c.extra.get("redirect_uris").and_then(|r| r.as_array()).is_some_and(|r| r.iter().any(|u| u == redirect))
        });
        if !allows {
            stored.client = None;
        }
    }

    /// The stored tokens, `expires_in` counted from now.
    fn tokens(&self) -> Option<OAuthTokens> {
        let stored = self.stored.lock().unwrap();
        let mut tokens = stored.tokens.clone()?;
        let elapsed = now().saturating_sub(stored.saved_at);
        tokens.expires_in = tokens.expires_in.map(|s| s.saturating_sub(elapsed));
        Some(tokens)
    }

    fn update(&self, change: impl FnOnce(&mut Stored)) -> Result<(), AuthError> {
        let snapshot = {
            let mut stored = self.stored.lock().unwrap();
            change(&mut stored);
            stored.clone()
        };
        match &self.path {
            Some(path) => write_private(path, &snapshot)
                .map_err(|e| AuthError::new(format!("cannot write the token store {}: {e}", path.display()))),
            None => Ok(()),
        }
    }
}

/// Writes `stored` to a new file beside `path` (mode 0600 from its creation) and renames
/// it over `path`, so a reader never sees half a file.
fn write_private(path: &Path, stored: &Stored) -> std::io::Result<()> {
    let text = serde_json::to_vec_pretty(stored).map_err(std::io::Error::other)?;
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(format!(".{}.tmp", std::process::id()));
    let temporary = path.with_file_name(name);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = (|| {
        use std::io::Write;
        let mut file = options.open(&temporary)?;
        file.write_all(&text)?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

struct Handler {
    store: Store,
    /// --client-id (and secret): used instead of any stored or dynamic registration.
    preregistered: Option<OAuthClientInformation>,
    /// The redirect listener (authorization code only).
    listener: Option<Arc<tokio::sync::Mutex<TcpListener>>>,
    open: bool,
    timeout: Duration,
}

impl OAuthHandler for Handler {
    fn tokens(&self) -> BoxFuture<Result<Option<OAuthTokens>, AuthError>> {
        let tokens = self.store.tokens();
        Box::pin(async move { Ok(tokens) })
    }

    fn save_tokens(&self, tokens: OAuthTokens) -> BoxFuture<Result<(), AuthError>> {
        let saved = self.store.update(|s| {
            s.tokens = Some(tokens);
            s.saved_at = now();
        });
        Box::pin(async move { saved })
    }

    fn client_information(&self) -> BoxFuture<Result<Option<OAuthClientInformation>, AuthError>> {
        let client = self.preregistered.clone().or_else(|| self.store.stored.lock().unwrap().client.clone());
        Box::pin(async move { Ok(client) })
    }

    fn save_client_information(&self, info: OAuthClientInformation) -> BoxFuture<Result<(), AuthError>> {
        let saved = self.store.update(|s| s.client = Some(info));
        Box::pin(async move { saved })
    }

    fn invalidate(&self, what: &'static str) -> BoxFuture<Result<(), AuthError>> {
        let saved = self.store.update(|s| {
            if what != "client" {
                s.tokens = None;
            }
            if what != "tokens" {
                s.client = None;
            }
        });
        Box::pin(async move { saved })
    }

    fn authorize(&self, url: String) -> BoxFuture<Result<Option<AuthorizationResponse>, AuthError>> {
        let (listener, open, timeout) = (self.listener.clone(), self.open, self.timeout);
        Box::pin(async move {
            let Some(listener) = listener else {
                return Err(AuthError::new("no redirect listener (the client-credentials grant has no user)"));
            };
            eprintln!("ferrymcp: to authorize, open this URL in a browser:\n{url}");
            if open && let Err(e) = open_browser(&url) {
                eprintln!("ferrymcp: could not open a browser ({e}); open the URL above yourself");
            }
            let listener = listener.lock().await;
            match tokio::time::timeout(timeout, catch_redirect(&listener)).await {
                Ok(response) => response.map(Some),
                Err(_) => Err(AuthError::new(format!(
                    "nobody completed the authorization within {timeout:?} (--auth-timeout)"
                ))),
            }
        })
    }
}

/// Answers requests on the listener until one to /callback carries the authorization
/// server's answer (a code, or an error, which fails the authorization).
async fn catch_redirect(listener: &TcpListener) -> Result<AuthorizationResponse, AuthError> {
    loop {
        let (mut stream, _) =
            listener.accept().await.map_err(|e| AuthError::new(format!("the redirect listener failed: {e}")))?;
        let Some(target) = request_target(&mut stream).await else { continue };
        let Some(query) = target.strip_prefix("/callback") else {
            let _ = respond(&mut stream, "404 Not Found", "Not the OAuth redirect.").await;
            continue;
        };
        let answer = AuthorizationResponse::from_redirect(query);
        let page = match &answer {
            Ok(_) => "Authorized: ferrymcp has the code. You can close this window.".to_owned(),
            Err(e) => format!("Authorization failed: {e}."),
        };
        let _ = respond(&mut stream, "200 OK", &page).await;
        return answer;
    }
}

/// The request target of a GET (the head read up to its end, at most 16 KiB).
async fn request_target(stream: &mut tokio::net::TcpStream) -> Option<String> {
    let mut head = Vec::new();
    let mut buffer = [0u8; 2048];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buffer)).await.ok()?.ok()?;
        if read == 0 || head.len() > 16 * 1024 {
            return None;
        }
        head.extend_from_slice(&buffer[..read]);
    }
    let line = String::from_utf8_lossy(&head).lines().next()?.to_owned();
    let mut words = line.split(' ');
    match (words.next(), words.next()) {
        (Some("GET"), Some(target)) => Some(target.to_owned()),
        _ => None,
    }
}

async fn respond(stream: &mut tokio::net::TcpStream, status: &str, text: &str) -> std::io::Result<()> {
    let body = format!("<!doctype html><title>ferrymcp</title><p>{text}</p>\n");
    let head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    stream.shutdown().await
}

/// Opens `url` with the platform's opener (its output kept off stdout, the MCP stream).
fn open_browser(url: &str) -> std::io::Result<()> {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        // Not `cmd /C start`, which would split the URL at its `&`s.
        let mut command = std::process::Command::new("rundll32");
        command.arg("url.dll,FileProtocolHandler");
        command
    } else {
        std::process::Command::new("xdg-open")
    };
    command.arg(url).stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null());
    command.stderr(std::process::Stdio::null()).spawn().map(drop)
}
