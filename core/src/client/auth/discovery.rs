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

/// Which document a discovery URL serves: RFC 8414 authorization server metadata or an
/// OpenID Connect provider configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetadataKind {
    OAuth,
    Oidc,
}

impl MetadataKind {
    /// The official spelling (`"oauth"`, `"oidc"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::OAuth => "oauth",
            Self::Oidc => "oidc",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::OAuth => "OAuth",
            Self::Oidc => "OpenID provider",
        }
    }
}

/// Where to look for the metadata of the authorization server `issuer`, in the order the
/// MCP specification gives (RFC 8414 first, then OpenID Connect discovery: for an issuer
/// with a path, inserted before the path and then appended after it).
pub fn discovery_urls(issuer: &Url) -> Vec<(Url, MetadataKind)> {
    let path = issuer.path().strip_suffix('/').unwrap_or(issuer.path());
    let at = |p: String, kind| issuer.join(&p).ok().map(|url| (url, kind));
    let urls = if issuer.path() == "/" {
        vec![
            at("/.well-known/oauth-authorization-server".into(), MetadataKind::OAuth),
            at("/.well-known/openid-configuration".into(), MetadataKind::Oidc),
        ]
    } else {
        vec![
            at(format!("/.well-known/oauth-authorization-server{path}"), MetadataKind::OAuth),
            at(format!("/.well-known/openid-configuration{path}"), MetadataKind::Oidc),
            at(format!("{path}/.well-known/openid-configuration"), MetadataKind::Oidc),
        ]
    };
    urls.into_iter().flatten().collect()
}

/// One GET of a metadata document, with the `MCP-Protocol-Version` the official clients
/// send; `None` when no answer came (the official client, in a browser's CORS terms, takes
/// an unreachable document for an absent one, never for an error).
async fn get_metadata(http: &super::Http, url: &Url, protocol_version: &str) -> Option<reqwest::Response> {
    let request = http
        .get(url.clone())
        .header(reqwest::header::ACCEPT, "application/json")
        .header(crate::protocol::headers::PROTOCOL_VERSION_HEADER, protocol_version);
    http.send(request).await.ok()
}

/// The JSON object a metadata document answered with.
async fn json_object(response: reqwest::Response, url: &Url) -> Result<Value, AuthError> {
    let body = response.bytes().await.map_err(|e| AuthError::new(format!("GET {url} failed: {e}")))?;
    match serde_json::from_slice::<Value>(&body) {
        Ok(value @ Value::Object(_)) => Ok(value),
        _ => Err(AuthError::new(format!("{url} answered no JSON object"))),
    }
}

/// The authorization server's metadata: the first of [`discovery_urls`] that answers. A
/// 4xx (or no answer) means "not here", a 5xx is an error; `None` when no URL answers.
pub async fn discover_authorization_server_metadata(
    http: &super::Http,
    issuer: &Url,
    protocol_version: &str,
) -> Result<Option<Value>, AuthError> {
    for (url, kind) in discovery_urls(issuer) {
        let Some(response) = get_metadata(http, &url, protocol_version).await else { continue };
        let status = response.status().as_u16();
        if !response.status().is_success() {
            if status < 500 {
                continue;
            }
            let label = kind.label();
            return Err(AuthError::new(format!("HTTP {status} trying to load {label} metadata from {url}")));
        }
        return json_object(response, &url).await.map(Some);
    }
    Ok(None)
}

/// A well-known document of `server`: at `metadata_url` when given, else path-aware
/// (`/.well-known/{name}{path}`, the server's query kept), falling back to the root one
/// when that answers nothing or a 4xx and the server has a path.
async fn well_known(
    http: &super::Http,
    server: &Url,
    name: &str,
    metadata_url: Option<&Url>,
    protocol_version: &str,
) -> Option<reqwest::Response> {
    if let Some(url) = metadata_url {
        return get_metadata(http, url, protocol_version).await;
    }
    let path = server.path().strip_suffix('/').unwrap_or(server.path());
    let mut url = server.join(&format!("/.well-known/{name}{path}")).ok()?;
    url.set_query(server.query());
    let response = get_metadata(http, &url, protocol_version).await;
    let fall_back = match &response {
        None => true,
        Some(r) => !r.status().is_success() && r.status().as_u16() < 500 && server.path() != "/",
    };
    if !fall_back {
        return response;
    }
    let root = server.join(&format!("/.well-known/{name}")).ok()?;
    get_metadata(http, &root, protocol_version).await
}

/// The protected resource metadata of `server` (RFC 9728) and where it was found: at
/// `metadata_url` (the challenge's) when given, else the path-aware well-known URL, then
/// the root one. An absent document (404, or no answer) and any other failure are errors.
pub async fn discover_protected_resource_metadata(
    http: &super::Http,
    server: &Url,
    metadata_url: Option<&Url>,
    protocol_version: &str,
) -> Result<(Url, Value), AuthError> {
    let response = well_known(http, server, "oauth-protected-resource", metadata_url, protocol_version).await;
    let response = match response {
        Some(response) if response.status().as_u16() != 404 => response,
        _ => return Err(AuthError::new("Resource server does not implement OAuth 2.0 Protected Resource Metadata.")),
    };
    if !response.status().is_success() {
        let status = response.status().as_u16();
        return Err(AuthError::new(format!(
            "HTTP {status} trying to load well-known OAuth protected resource metadata."
        )));
    }
    let url = response.url().clone();
    Ok((url.clone(), json_object(response, &url).await?))
}

/// RFC 8414 metadata alone at `authorization_server` (path-aware, then the root): the
/// TypeScript SDK's deprecated `discoverOAuthMetadata`. `None` for a 404 or no answer.
pub async fn discover_oauth_metadata(
    http: &super::Http,
    authorization_server: &Url,
    protocol_version: &str,
) -> Result<Option<Value>, AuthError> {
    let response = well_known(http, authorization_server, "oauth-authorization-server", None, protocol_version).await;
    let Some(response) = response.filter(|r| r.status().as_u16() != 404) else { return Ok(None) };
    if !response.status().is_success() {
        let status = response.status().as_u16();
        return Err(AuthError::new(format!("HTTP {status} trying to load well-known OAuth metadata")));
    }
    let url = response.url().clone();
    json_object(response, &url).await.map(Some)
}

/// What [`discover_oauth_server_info`] learnt about an MCP server's authorization server.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OAuthServerInfo {
    /// The protected resource metadata's first authorization server, else the MCP
    /// server's origin (a 2025-03-26 server is its own authorization server).
    pub authorization_server_url: String,
    pub authorization_server_metadata: Option<Value>,
    pub resource_metadata: Option<Value>,
}

/// Protected resource metadata (its absence or failure tolerated), then the authorization
/// server's metadata.
pub async fn discover_oauth_server_info(
    http: &super::Http,
    server: &Url,
    resource_metadata_url: Option<&Url>,
    protocol_version: &str,
) -> Result<OAuthServerInfo, AuthError> {
    let resource_metadata =
        discover_protected_resource_metadata(http, server, resource_metadata_url, protocol_version).await.ok();
    let named = resource_metadata
        .as_ref()
        .and_then(|(_, prm)| prm.pointer("/authorization_servers/0"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let authorization_server_url = match named {
        Some(url) => url,
        None => server.join("/").map_err(|e| AuthError::new(e.to_string()))?.to_string(),
    };
    let issuer = Url::parse(&authorization_server_url)
        .map_err(|e| AuthError::new(format!("Invalid URL {authorization_server_url:?}: {e}")))?;
    let authorization_server_metadata = discover_authorization_server_metadata(http, &issuer, protocol_version).await?;
    Ok(OAuthServerInfo {
        authorization_server_url,
        authorization_server_metadata,
        resource_metadata: resource_metadata.map(|(_, prm)| prm),
    })
}

/// The RFC 8707 resource indicator to send for `server`, given the protected resource
/// metadata's `resource` (`None`: no metadata, no indicator): that `resource`, when it
/// covers the server; anything else is refused.
pub fn select_resource(server: &Url, resource: Option<&str>) -> Result<Option<String>, AuthError> {
    let Some(resource) = resource else { return Ok(None) };
    if !resource_covers(resource, server) {
        let mut expected = server.clone();
        expected.set_fragment(None);
        return Err(AuthError::new(format!(
            "Protected resource {resource} does not match expected {expected} (or origin)"
        )));
    }
    Ok(Some(resource.to_owned()))
}

/// Whether `value` is an `https` URL with a path (what a client ID metadata document URL
/// must be).
pub fn is_https_url(value: &str) -> bool {
    Url::parse(value).is_ok_and(|url| url.scheme() == "https" && url.path() != "/")
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
        let issuer = Url::parse("http://a/tenant1").unwrap();
        let urls: Vec<String> = discovery_urls(&issuer).iter().map(|(url, _)| url.to_string()).collect();
        assert_eq!(
            urls,
            [
                "http://a/.well-known/oauth-authorization-server/tenant1",
                "http://a/.well-known/openid-configuration/tenant1",
                "http://a/tenant1/.well-known/openid-configuration"
            ]
        );
        let root = Url::parse("http://a").unwrap();
        let kinds: Vec<&str> = discovery_urls(&root).iter().map(|(_, kind)| kind.as_str()).collect();
        assert_eq!(kinds, ["oauth", "oidc"]);
        let trailing = Url::parse("http://a/tenant1/").unwrap();
        assert_eq!(discovery_urls(&trailing)[2].0.as_str(), "http://a/tenant1/.well-known/openid-configuration");
    }

    #[test]
    fn resources() {
        let server = Url::parse("http://h:1/mcp").unwrap();
        assert_eq!(canonical_resource(&server), "http://h:1/mcp");
        assert!(resource_covers("http://h:1/mcp", &server));
        assert!(resource_covers("http://h:1", &server));
        assert!(!resource_covers("http://h:1/other", &server));
        assert!(!resource_covers("http://evil:1/mcp", &server));
        assert_eq!(select_resource(&server, None).unwrap(), None);
        assert_eq!(select_resource(&server, Some("http://h:1")).unwrap().as_deref(), Some("http://h:1"));
        let refused = select_resource(&Url::parse("http://h:1/mcp#x").unwrap(), Some("http://h:1/other")).unwrap_err();
        assert_eq!(
            refused.message,
            "Protected resource http://h:1/other does not match expected http://h:1/mcp (or origin)"
        );
    }

    #[test]
    fn https_urls() {
        assert!(is_https_url("https://client.example/metadata.json"));
        assert!(!is_https_url("https://client.example/"));
        assert!(!is_https_url("https://client.example"));
        assert!(!is_https_url("http://client.example/metadata.json"));
        assert!(!is_https_url("not a url"));
    }
}
