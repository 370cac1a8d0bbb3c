//! Bearer-token authorization: the server as an OAuth 2.1 resource server.
//!
//! The user supplies a [`BearerVerifier`] (a Rust trait; the bindings adapt a Python
//! callable or a JS function into it). A request without a valid `Authorization: Bearer`
//! token is answered 401 with a `WWW-Authenticate` challenge that points at the protected
//! resource metadata (RFC 9728), which this endpoint also serves, at
//! `/.well-known/oauth-protected-resource` and at that path followed by the endpoint's.

use std::sync::Arc;

use bytes::Bytes;
use http::request::Parts;
use http::{HeaderValue, Method, Response, StatusCode, header};
use serde_json::json;

use super::HttpOptions;
use super::reply::{self, ResponseBody, refuse};
use crate::peer::BoxFuture;
use crate::wire::ErrorCode;

pub const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// Why a token was refused; the text goes into `error_description`.
#[derive(Clone, Debug, thiserror::Error)]
pub enum AuthError {
    /// The token is unknown, expired, or for another audience (401 `invalid_token`).
    #[error("{0}")]
    InvalidToken(String),
    /// The token is valid but lacks a scope (403 `insufficient_scope`).
    #[error("{message}")]
    InsufficientScope { message: String, scope: String },
}

/// Checks bearer tokens.
pub trait BearerVerifier: Send + Sync + 'static {
    fn verify(&self, token: &str) -> BoxFuture<Result<(), AuthError>>;
}

/// What the endpoint requires and advertises.
#[derive(Clone)]
pub struct BearerAuth {
    pub verifier: Arc<dyn BearerVerifier>,
    /// The authorization servers that issue tokens for this resource.
    pub authorization_servers: Vec<String>,
    pub scopes_supported: Vec<String>,
    /// The resource's canonical URL; `http://{Host}{endpoint}` when `None`.
    pub resource: Option<String>,
}

impl BearerAuth {
    fn resource(&self, options: &HttpOptions, parts: &Parts) -> String {
        self.resource.clone().unwrap_or_else(|| format!("{}{}", origin(parts), options.endpoint))
    }

    fn metadata_url(&self, options: &HttpOptions, parts: &Parts) -> String {
        match &self.resource {
            Some(resource) => {
                let (base, path) = split_resource(resource);
                format!("{base}{METADATA_PATH}{path}")
            }
            None => format!("{}{METADATA_PATH}{}", origin(parts), options.endpoint),
        }
    }
}

fn origin(parts: &Parts) -> String {
    let host = parts.headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("localhost");
    format!("http://{host}")
}

/// `https://a.example/mcp` -> (`https://a.example`, `/mcp`).
fn split_resource(resource: &str) -> (&str, &str) {
    let after_scheme = resource.find("://").map_or(0, |i| i + 3);
    match resource[after_scheme..].find('/') {
        Some(i) => resource.split_at(after_scheme + i),
        None => (resource, ""),
    }
}

/// The protected resource metadata, for a GET of its well-known path.
pub(crate) fn metadata(options: &HttpOptions, parts: &Parts) -> Option<Response<ResponseBody>> {
    let auth = options.auth.as_ref()?;
    let path = parts.uri.path();
    if !(path == METADATA_PATH || path.strip_prefix(METADATA_PATH) == Some(options.endpoint.as_str())) {
        return None;
    }
    if parts.method != Method::GET {
        return Some(reply::method_not_allowed("GET"));
    }
    let document = json!({
        "resource": auth.resource(options, parts),
        "authorization_servers": auth.authorization_servers,
        "scopes_supported": auth.scopes_supported,
        "bearer_methods_supported": ["header"],
    });
    Some(reply::json(StatusCode::OK, Bytes::from(document.to_string())))
}

/// Lets the request through, or answers 401/403 with the challenge.
pub(crate) async fn check(options: &HttpOptions, parts: &Parts) -> Result<(), Response<ResponseBody>> {
    let Some(auth) = &options.auth else { return Ok(()) };
    let token = parts
        .headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' ').filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer")))
        .map(|(_, token)| token.trim())
        .filter(|token| !token.is_empty());
    let outcome = match token {
        None => Err(None),
        Some(token) => auth.verifier.verify(token).await.map_err(Some),
    };
    let Err(error) = outcome else { return Ok(()) };
    let metadata = auth.metadata_url(options, parts);
    let (status, challenge, message) = match &error {
        None => (
            StatusCode::UNAUTHORIZED,
            format!("Bearer resource_metadata=\"{metadata}\""),
            "Unauthorized: a bearer token is required".to_owned(),
        ),
        Some(AuthError::InvalidToken(why)) => (
            StatusCode::UNAUTHORIZED,
            format!(
                "Bearer error=\"invalid_token\", error_description={}, resource_metadata=\"{metadata}\"",
                quoted(why)
            ),
            format!("Unauthorized: {why}"),
        ),
        Some(AuthError::InsufficientScope { message, scope }) => (
            StatusCode::FORBIDDEN,
            format!("Bearer error=\"insufficient_scope\", scope={}, resource_metadata=\"{metadata}\"", quoted(scope)),
            format!("Forbidden: {message}"),
        ),
    };
    let mut reply = refuse(status, ErrorCode::CONNECTION_CLOSED, message);
    let challenge = HeaderValue::from_str(&challenge).unwrap_or_else(|_| HeaderValue::from_static("Bearer"));
    reply.headers_mut().insert(header::WWW_AUTHENTICATE, challenge);
    Err(reply)
}

/// An RFC 9110 quoted-string (header-safe: control characters dropped).
fn quoted(text: &str) -> String {
    let inner: String = text
        .chars()
        .filter(|c| !c.is_control())
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect();
    format!("\"{inner}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_urls_split_and_challenges_quote() {
        assert_eq!(split_resource("https://a.example/mcp"), ("https://a.example", "/mcp"));
        assert_eq!(split_resource("https://a.example"), ("https://a.example", ""));
        assert_eq!(quoted("say \"hi\"\n"), "\"say \\\"hi\\\"\"");
    }
}
