//! The HTTP front of `bridge` and `gateway`: core's Streamable HTTP endpoint (both
//! protocol eras on one path) with core's Origin/Host checks at their defaults, the
//! allowed hosts given, and an optional static bearer token.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use ferrymcp_core::peer::BoxFuture;
use ferrymcp_core::server::AuthInfo;
use ferrymcp_core::server::Server;
use ferrymcp_core::server::http::{
    AuthError, BearerAuth, BearerVerifier, HttpHandler, HttpServer, HttpSettings, ServeOptions, serve,
};

use crate::exit::{Failure, Kind, Outcome};

#[derive(Args)]
pub struct HttpFrontArgs {
    /// The port to listen on (0: one the system picks; the address is printed).
    #[arg(long, value_name = "N")]
    pub port: Option<u16>,
    /// The address to listen on. Bound to loopback, only loopback Host names and Origins
    /// are answered (DNS-rebinding protection); elsewhere every Host unless --allowed-host.
    #[arg(long, default_value = "127.0.0.1", value_name = "HOST")]
    pub host: String,
    /// The endpoint's path.
    #[arg(long, default_value = "/mcp", value_name = "PATH")]
    pub path: String,
    /// Require `Authorization: Bearer TOKEN` (401 without it).
    #[arg(long, value_name = "TOKEN", conflicts_with = "bearer_token_env")]
    pub bearer_token: Option<String>,
    /// Require the bearer token held by environment variable VAR.
    #[arg(long, value_name = "VAR")]
    pub bearer_token_env: Option<String>,
    /// A Host name to answer (repeatable); replaces the default list.
    #[arg(long = "allowed-host", value_name = "H")]
    pub allowed_hosts: Vec<String>,
}

impl HttpFrontArgs {
    fn token(&self) -> Outcome<Option<String>> {
        match (&self.bearer_token, &self.bearer_token_env) {
            (Some(token), _) => Ok(Some(token.clone())),
            (None, Some(var)) => match std::env::var(var) {
                Ok(token) if !token.is_empty() => Ok(Some(token)),
                _ => Err(Failure::usage(format!("--bearer-token-env: ${var} is not set (or empty)"))),
            },
            (None, None) => Ok(None),
        }
    }

    /// Serves `server` on the endpoint these options describe and prints its URL on stdout.
    pub async fn serve(&self, server: Server) -> Outcome<HttpServer> {
        let Some(port) = self.port else { return Err(Failure::usage("--port is required (0 picks a free one)")) };
        let settings = HttpSettings {
            endpoint: Some(self.path.clone()),
            allowed_hosts: (!self.allowed_hosts.is_empty()).then(|| self.allowed_hosts.clone()),
            auth: self.token()?.map(|token| BearerAuth {
                verifier: Arc::new(StaticToken(token)),
                required_scopes: Vec::new(),
                authorization_servers: Vec::new(),
                scopes_supported: None,
                resource: None,
                serve_metadata: false,
                audience: None,
            }),
            ..HttpSettings::default()
        };
        let options = settings.resolve(Some(&self.host)).map_err(|e| Failure::usage(e.0))?;
        let addr = resolve_addr(&self.host, port).await?;
        // On SIGINT/SIGTERM, requests in flight get a few seconds to finish (a terminal's
        // Ctrl-C must not wait out the default half minute).
        let serve_options = ServeOptions { addr, shutdown_grace: Duration::from_secs(5), ..ServeOptions::default() };
        let served = serve(HttpHandler::new(server, options), serve_options).await;
        let served =
            served.map_err(|e| Failure::new(Kind::Connect, anyhow::anyhow!("cannot listen on {addr}: {e}")))?;
        println!("listening on http://{}{}", served.local_addr(), self.path);
        Ok(served)
    }
}

async fn resolve_addr(host: &str, port: u16) -> Outcome<SocketAddr> {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let mut addrs =
        tokio::net::lookup_host((bare, port)).await.map_err(|e| Failure::usage(format!("--host {host}: {e}")))?;
    addrs.next().ok_or_else(|| Failure::usage(format!("--host {host}: no address")))
}

/// One token, compared in constant time (over the expected token's length, whatever was
/// presented).
struct StaticToken(String);

impl BearerVerifier for StaticToken {
    fn verify(&self, token: &str) -> BoxFuture<Result<AuthInfo, AuthError>> {
        let accepted = constant_time_eq(self.0.as_bytes(), token.as_bytes());
        let outcome = match accepted {
            true => Ok(AuthInfo { token: token.to_owned(), client_id: "ferrymcp".into(), ..AuthInfo::default() }),
            false => Err(AuthError::InvalidToken("Invalid token".into())),
        };
        Box::pin(std::future::ready(outcome))
    }
}

fn constant_time_eq(expected: &[u8], given: &[u8]) -> bool {
    let mut difference = u8::from(expected.len() != given.len());
    for (i, byte) in expected.iter().enumerate() {
        difference |= byte ^ given.get(i).copied().unwrap_or(!byte);
    }
    difference == 0
}

#[cfg(test)]
mod tests {
    use super::constant_time_eq;

    #[test]
    fn tokens_compare_whole() {
        assert!(constant_time_eq(b"secret", b"secret"));
        for other in [&b"secreT"[..], b"secre", b"secret!", b""] {
            assert!(!constant_time_eq(b"secret", other), "{other:?}");
        }
    }
}
