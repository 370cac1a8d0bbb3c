//! Finding the authorization server of an MCP server, as the MCP authorization
//! specification orders it: the `WWW-Authenticate` challenge of a 401 or 403 (its
//! `resource_metadata`, `scope` and `error`), the protected resource metadata (RFC 9728:
//! the challenge's URL, else the path-aware well-known URL, else the root one), then the
//! authorization server's metadata (RFC 8414 and OpenID Connect discovery, in the
//! specification's order for issuers with and without a path). A server without protected
//! resource metadata is a 2025-03-26 server: its own origin is the authorization server,
//! with the default endpoints when it publishes no metadata either.

use reqwest::Url;
use serde_json::Value;

use super::AuthError;

/// The parameters of a `Bearer` challenge (RFC 6750 section 3, RFC 9728 section 5.1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Challenge {
    pub resource_metadata: Option<String>,
    pub scope: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

impl Challenge {
    /// Reads the `Bearer` challenge of a `WWW-Authenticate` value; other schemes and
    /// unknown parameters are ignored.
    pub fn parse(header: &str) -> Self {
        let mut challenge = Challenge::default();
        let rest = header.trim_start();
        let Some(params) = rest.get(..6).filter(|s| s.eq_ignore_ascii_case("bearer")).map(|_| &rest[6..]) else {
            return challenge;
        };
        for (name, value) in auth_params(params) {
            match name.to_ascii_lowercase().as_str() {
                "resource_metadata" => challenge.resource_metadata = Some(value),
                "scope" => challenge.scope = Some(value),
                "error" => challenge.error = Some(value),
                "error_description" => challenge.error_description = Some(value),
                _ => {}
            }
        }
        challenge
    }
}

/// `name=value` and `name="quoted \" value"` pairs separated by commas.
fn auth_params(mut text: &str) -> Vec<(String, String)> {
    let mut params = Vec::new();
    loop {
        text = text.trim_start_matches([' ', '\t', ',']);
        let Some(eq) = text.find('=') else { return params };
        let name = text[..eq].trim().to_owned();
        text = text[eq + 1..].trim_start();
        let value;
        if let Some(quoted) = text.strip_prefix('"') {
            let mut out = String::new();
            let mut chars = quoted.char_indices();
            let mut end = quoted.len();
            while let Some((at, c)) = chars.next() {
                match c {
                    '\\' => out.extend(chars.next().map(|(_, c)| c)),
                    '"' => {
                        end = at + 1;
                        break;
                    }
                    c => out.push(c),
                }
            }
            value = out;
            text = &quoted[end.min(quoted.len())..];
        } else {
            let end = text.find(',').unwrap_or(text.len());
            value = text[..end].trim().to_owned();
            text = &text[end..];
        }
        params.push((name, value));
    }
}

/// Where to look for the protected resource metadata of `server`, in order.
pub fn resource_metadata_urls(server: &Url, challenge: &Challenge) -> Vec<Url> {
    let mut urls = Vec::new();
    if let Some(url) = challenge.resource_metadata.as_deref().and_then(|u| Url::parse(u).ok()) {
        urls.push(url);
    }
    let path = server.path().trim_end_matches('/');
    if !path.is_empty() {
        urls.extend(server.join(&format!("/.well-known/oauth-protected-resource{path}")).ok());
    }
    urls.extend(server.join("/.well-known/oauth-protected-resource").ok());
    urls
}

/// Where to look for the metadata of the authorization server `issuer`, in the order the
/// MCP specification gives (RFC 8414 first, then OpenID Connect discovery).
pub fn authorization_server_metadata_urls(issuer: &Url) -> Vec<Url> {
    let path = issuer.path().trim_end_matches('/');
    let at = |p: String| issuer.join(&p).ok();
    if path.is_empty() {
        [at("/.well-known/oauth-authorization-server".into()), at("/.well-known/openid-configuration".into())]
            .into_iter()
            .flatten()
            .collect()
    } else {
        [
            at(format!("/.well-known/oauth-authorization-server{path}")),
            at(format!("/.well-known/openid-configuration{path}")),
            at(format!("{path}/.well-known/openid-configuration")),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

/// The first of `urls` that answers 200 with a JSON object; `None` when none does (a 4xx
/// is the usual "not here"; a network error is an error).
pub async fn first_json(http: &super::Http, urls: &[Url]) -> Result<Option<(Url, Value)>, AuthError> {
    for url in urls {
        let response = http
            .send(http.get(url.clone()).header(reqwest::header::ACCEPT, "application/json"))
            .await
            .map_err(|e| AuthError::new(format!("GET {url} failed: {e}")))?;
        if !response.status().is_success() {
            continue;
        }
        let Ok(body) = response.bytes().await else { continue };
        if let Ok(value @ Value::Object(_)) = serde_json::from_slice::<Value>(&body) {
            return Ok(Some((url.clone(), value)));
        }
    }
    Ok(None)
}

/// The canonical URI of an MCP server (RFC 8707 / MCP: scheme and host lowercase, no
/// fragment; the path as given).
pub fn canonical_resource(server: &Url) -> String {
    let mut url = server.clone();
    url.set_fragment(None);
    url.set_query(None);
    let text = url.to_string();
    if url.path() == "/" && !server.as_str().ends_with('/') { text.trim_end_matches('/').to_owned() } else { text }
}

/// Whether the `resource` a server's metadata names covers `server` (the same origin, and
/// a path that is a prefix of the server's at a segment boundary).
pub fn resource_covers(resource: &str, server: &Url) -> bool {
    let Ok(resource) = Url::parse(resource) else { return false };
    if resource.origin() != server.origin() {
        return false;
    }
    let prefix = resource.path().trim_end_matches('/');
    let path = server.path();
    path == prefix || path.starts_with(&format!("{prefix}/")) || prefix.is_empty()
}

/// Issuers compare as strings, with one trailing slash forgiven (`https://as` and
/// `https://as/`) only where the issuer URL came without a path.
pub fn same_issuer(a: &str, b: &str) -> bool {
    a == b || a.trim_end_matches('/') == b.trim_end_matches('/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenge_parameters() {
        let c = Challenge::parse(
            r#"Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp", error_description="no \"way\"""#,
        );
        assert_eq!(c.error.as_deref(), Some("insufficient_scope"));
        assert_eq!(c.scope.as_deref(), Some("a b"));
        assert_eq!(c.resource_metadata.as_deref(), Some("https://x/.well-known/oauth-protected-resource/mcp"));
        assert_eq!(Challenge::parse("Basic realm=x"), Challenge::default());
        assert_eq!(Challenge::parse("bearer scope=read").scope.as_deref(), Some("read"));
    }

    #[test]
    fn discovery_order() {
        let server = Url::parse("http://h:1/mcp").unwrap();
        let urls: Vec<String> =
            resource_metadata_urls(&server, &Challenge::default()).iter().map(ToString::to_string).collect();
        assert_eq!(
            urls,
            ["http://h:1/.well-known/oauth-protected-resource/mcp", "http://h:1/.well-known/oauth-protected-resource"]
        );
        let issuer = Url::parse("http://a/tenant1").unwrap();
        let urls: Vec<String> = authorization_server_metadata_urls(&issuer).iter().map(ToString::to_string).collect();
        assert_eq!(
            urls,
            [
                "http://a/.well-known/oauth-authorization-server/tenant1",
                "http://a/.well-known/openid-configuration/tenant1",
                "http://a/tenant1/.well-known/openid-configuration"
            ]
        );
        let root = Url::parse("http://a").unwrap();
        assert_eq!(authorization_server_metadata_urls(&root).len(), 2);
    }

    #[test]
    fn resources() {
        let server = Url::parse("http://h:1/mcp").unwrap();
        assert_eq!(canonical_resource(&server), "http://h:1/mcp");
        assert!(resource_covers("http://h:1/mcp", &server));
        assert!(resource_covers("http://h:1", &server));
        assert!(!resource_covers("http://h:1/other", &server));
        assert!(!resource_covers("http://evil:1/mcp", &server));
    }
}
