//! What a server author sets for the endpoint, and the one place its defaults come from.
//!
//! Both bindings (and Rust servers) hand core only what the author set, as
//! [`HttpSettings`], with the host the server is bound to when they know it; core checks
//! the values and fills the rest here. So a Python and a Node server started the same way
//! answer the same request the same way, and a default changes in one place.
//!
//! The DNS-rebinding default follows both official SDKs (Python's `MCPServer` for hosts
//! `127.0.0.1`/`localhost`/`::1`, TypeScript's `createMcpExpressApp` with
//! `localhostHostValidation`): a server bound to loopback answers only loopback `Host`
//! names (any port) and `Origin`s whose host is one of them; a server bound elsewhere
//! answers every name, and the author lists names to restrict it. A handler mounted in
//! another web server does not know where it is bound and takes the loopback default:
//! the safe side, and what the official Python `streamable_http_app()` does with its
//! default host. Turning the protection off accepts every `Host` and `Origin`, as both
//! official SDKs do.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use super::{BearerAuth, Bus, EventStore, GuardStyle, HttpOptions, LOOPBACK_HOSTS, Routes, SessionStore};

/// The endpoint settings an author gave; `None` takes core's default.
#[derive(Clone, Default)]
pub struct HttpSettings {
    /// The endpoint's path (`/mcp`); must start with `/`.
    pub endpoint: Option<String>,
    /// Hosts answered (see [`HttpOptions::allowed_hosts`]); by default derived from the
    /// bind address.
    pub allowed_hosts: Option<Vec<String>>,
    /// Origins answered besides those of allowed hosts (see [`HttpOptions::allowed_origins`]).
    pub allowed_origins: Option<Vec<String>>,
    /// `Some(false)` accepts every `Host` and `Origin` (the lists are not consulted).
    pub dns_rebinding_protection: Option<bool>,
    /// Largest request body in bytes (4 MiB, as the official Python SDK).
    pub max_body: Option<usize>,
    pub max_sessions: Option<usize>,
    pub session_idle: Option<Duration>,
    pub keep_alive: Option<Duration>,
    pub retry: Option<Duration>,
    pub event_store: Option<Arc<dyn EventStore>>,
    /// Legacy sessions shared by replicas (see [`HttpOptions::session_store`]).
    pub session_store: Option<Arc<dyn SessionStore>>,
    /// Replicas' way to each other (see [`HttpOptions::bus`]).
    pub bus: Option<Arc<dyn Bus>>,
    pub auth: Option<BearerAuth>,
    /// Serve an OAuth authorization server's routes (see [`HttpOptions::auth_server`]).
    pub auth_server: Option<Arc<super::auth_server::AuthServer>>,
    /// Legacy clients without sessions (see [`HttpOptions::stateless`]).
    pub stateless: bool,
    /// One JSON body per request (see [`HttpOptions::json_response`]).
    pub json_response: bool,
    /// How refusals before the body look (see [`HttpOptions::guard_style`]).
    pub guard_style: GuardStyle,
    /// The application's own routes (see [`HttpOptions::routes`]).
    pub routes: Option<Arc<dyn Routes>>,
}

/// A setting core cannot serve with; the message names it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SettingsError(pub String);

/// Whether `host` (as an author writes a bind address: `127.0.0.1`, `::1`, `[::1]`,
/// `localhost`) is loopback. Names other than `localhost` are not resolved: a server is
/// judged by what its author wrote, the same way in every language.
pub fn is_loopback_host(host: &str) -> bool {
    match host.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback(),
        Err(_) => host.eq_ignore_ascii_case("localhost"),
    }
}

impl HttpSettings {
    /// The endpoint's options: these settings checked, and core's defaults for the rest.
    /// `bound_to` is the host the server listens on, `None` when unknown (a handler
    /// mounted in another web server), which takes the loopback defaults.
    pub fn resolve(self, bound_to: Option<&str>) -> Result<HttpOptions, SettingsError> {
        let defaults = HttpOptions::default();
        let endpoint = self.endpoint.unwrap_or(defaults.endpoint);
        if !endpoint.starts_with('/') {
            return Err(SettingsError(format!("the endpoint path must start with '/': {endpoint:?}")));
        }
        for (name, value) in [("max_body", self.max_body), ("max_sessions", self.max_sessions)] {
            if value == Some(0) {
                return Err(SettingsError(format!("{name} must be positive")));
            }
        }
        if self.keep_alive == Some(Duration::ZERO) {
            return Err(SettingsError("keep_alive must be positive".into()));
        }
        let loopback = bound_to.is_none_or(is_loopback_host);
        let (allowed_hosts, allowed_origins) = if self.dns_rebinding_protection == Some(false) {
            (vec!["*".to_owned()], vec!["*".to_owned()])
        } else {
            let hosts = self.allowed_hosts.unwrap_or_else(|| match loopback {
                true => LOOPBACK_HOSTS.iter().map(|h| (*h).to_owned()).collect(),
                false => vec!["*".to_owned()],
            });
            (hosts, self.allowed_origins.unwrap_or_default())
        };
        if self.bus.is_some() && self.session_store.is_none() {
            return Err(SettingsError("a bus needs a session store (replicas reach sessions they share)".into()));
        }
        if self.stateless && self.session_store.is_some() {
            return Err(SettingsError("a session store has no use in stateless mode (there are no sessions)".into()));
        }
        Ok(HttpOptions {
            endpoint,
            allowed_hosts,
            allowed_origins,
            max_body: self.max_body.unwrap_or(defaults.max_body),
            max_sessions: self.max_sessions.unwrap_or(defaults.max_sessions),
            session_idle: self.session_idle.unwrap_or(defaults.session_idle),
            keep_alive: self.keep_alive.unwrap_or(defaults.keep_alive),
            retry: self.retry.unwrap_or(defaults.retry),
            event_store: self.event_store.unwrap_or(defaults.event_store),
            session_store: self.session_store,
            bus: self.bus,
            auth: self.auth,
            auth_server: self.auth_server,
            stateless: self.stateless,
            json_response: self.json_response,
            guard_style: self.guard_style,
            routes: self.routes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bind_address_decides_the_hosts_by_default() {
        for host in ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost", "LocalHost"] {
            let options = HttpSettings::default().resolve(Some(host)).unwrap();
            assert_eq!(options.allowed_hosts, LOOPBACK_HOSTS, "{host}");
        }
        for host in ["0.0.0.0", "::", "192.168.1.5", "example.com"] {
            assert_eq!(HttpSettings::default().resolve(Some(host)).unwrap().allowed_hosts, ["*"], "{host}");
        }
        assert_eq!(HttpSettings::default().resolve(None).unwrap().allowed_hosts, LOOPBACK_HOSTS);
    }

    #[test]
    fn what_the_author_set_wins_and_protection_off_opens_both_lists() {
        let listed = HttpSettings { allowed_hosts: Some(vec!["app.example.com".into()]), ..HttpSettings::default() };
        assert_eq!(listed.resolve(Some("0.0.0.0")).unwrap().allowed_hosts, ["app.example.com"]);
        let off = HttpSettings {
            dns_rebinding_protection: Some(false),
            allowed_hosts: Some(vec!["ignored".into()]),
            ..HttpSettings::default()
        };
        let off = off.resolve(Some("127.0.0.1")).unwrap();
        assert_eq!(off.allowed_hosts, ["*"]);
        assert_eq!(off.allowed_origins, ["*"]);
    }

    #[test]
    fn bad_settings_are_named() {
        let path = HttpSettings { endpoint: Some("mcp".into()), ..HttpSettings::default() };
        assert!(path.resolve(None).err().unwrap().0.contains("must start with '/'"));
        let body = HttpSettings { max_body: Some(0), ..HttpSettings::default() };
        assert!(body.resolve(None).err().unwrap().0.contains("max_body"));
        let options = HttpSettings::default().resolve(None).unwrap();
        assert_eq!((options.endpoint.as_str(), options.max_body), ("/mcp", 4 * 1024 * 1024));
    }
}
