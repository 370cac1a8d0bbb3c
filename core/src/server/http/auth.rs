//! Bearer-token authorization: the server as an OAuth 2.1 resource server.
//!
//! The user supplies a [`BearerVerifier`] (a Rust trait; the bindings adapt a Python
//! `TokenVerifier` or a JS function into it) that says what a token is: an [`AuthInfo`],
//! or a refusal. The policy is here, once, for every binding, and answers as the official
//! Python SDK's `RequireAuthMiddleware` does: no token, an unknown token or an expired one
//! is 401 `invalid_token` ("Authentication required", or the verifier's own reason when it
//! gave one); a token without one of the required scopes is 403 `insufficient_scope`
//! ("Required scope: X", plus the `scope` attribute the MCP specification asks for in
//! scope challenges); each with a JSON body `{error, error_description}` and a
//! `WWW-Authenticate` challenge naming the protected resource metadata (RFC 9728), which
//! this endpoint also serves, at `/.well-known/oauth-protected-resource` followed by the
//! resource's path. The accepted [`AuthInfo`] goes with the request to its handler.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http::request::Parts;
use http::{HeaderValue, Method, Response, StatusCode, header};
use serde_json::{Value, json};

use super::HttpOptions;
use super::reply::{self, ResponseBody};
use crate::peer::BoxFuture;
use crate::server::AuthInfo;

pub const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// The official Python SDK's description of every 401 it decides itself.
const AUTHENTICATION_REQUIRED: &str = "Authentication required";

/// Why a verifier did not accept a token.
#[derive(Clone, Debug, thiserror::Error)]
pub enum AuthError {
    /// The verifier does not know the token (Python's `None`): 401 `invalid_token`.
    #[error("the token was refused")]
    Refused,
    /// The token is unknown, expired, or for another audience, for this reason (401).
    #[error("{0}")]
    InvalidToken(String),
    /// The verifier itself judged the token short of a scope (403 `insufficient_scope`).
    #[error("{message}")]
    InsufficientScope { message: String, scope: String },
    /// The verifier failed (raised, timed out): 500 `server_error`.
    #[error("{0}")]
    Failed(String),
}

/// Says what a bearer token is.
pub trait BearerVerifier: Send + Sync + 'static {
    fn verify(&self, token: &str) -> BoxFuture<Result<AuthInfo, AuthError>>;
}

/// What the endpoint requires and advertises.
#[derive(Clone)]
pub struct BearerAuth {
    pub verifier: Arc<dyn BearerVerifier>,
    /// Scopes every accepted token must carry (403 naming the first one missing).
    pub required_scopes: Vec<String>,
    /// The authorization servers that issue tokens for this resource.
    pub authorization_servers: Vec<String>,
    /// Listed in the metadata when given.
    pub scopes_supported: Option<Vec<String>>,
    /// The resource's canonical URL; `http://{Host}{endpoint}` when `None`.
    pub resource: Option<String>,
    /// Serve the protected resource metadata and name it in challenges (the official
    /// Python SDK does only when `resource_server_url` is set).
    pub serve_metadata: bool,
    /// Accept only tokens issued for this resource (`AuthInfo::resource`, the RFC 8707
    /// indicator, compared as URLs); others are refused as unknown (401).
    pub audience: Option<String>,
}

impl BearerAuth {
    fn resource(&self, options: &HttpOptions, parts: &Parts) -> String {
        self.resource.clone().unwrap_or_else(|| format!("{}{}", origin(parts), options.endpoint))
    }

    /// The path of the resource, as it follows the well-known prefix.
    fn resource_path<'a>(&'a self, options: &'a HttpOptions) -> &'a str {
        resource_path(self.resource.as_deref(), &options.endpoint)
    }

    fn metadata_url(&self, options: &HttpOptions, parts: &Parts) -> Option<String> {
        if !self.serve_metadata {
            return None;
        }
        let base = match &self.resource {
            Some(resource) => split_resource(resource).0.to_owned(),
            None => origin(parts),
        };
        Some(format!("{base}{METADATA_PATH}{}", self.resource_path(options)))
    }
}

fn origin(parts: &Parts) -> String {
    let host = parts.headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("localhost");
    format!("http://{host}")
}

/// `https://a.example/mcp` -> (`https://a.example`, `/mcp`); a bare `/` path is none
/// (RFC 9728 §3.1, as the official SDK builds it).
fn split_resource(resource: &str) -> (&str, &str) {
    let after_scheme = resource.find("://").map_or(0, |i| i + 3);
    let end = resource.find(['?', '#']).unwrap_or(resource.len());
    let resource = &resource[..end];
    match resource[after_scheme..].find('/') {
        Some(i) => {
            let (base, path) = resource.split_at(after_scheme + i);
            (base, if path == "/" { "" } else { path })
        }
        None => (resource, ""),
    }
}

/// Whether two resource URLs name the same resource: scheme and host in any case, the
/// default port written or not, a trailing slash aside.
fn same_resource(a: &str, b: &str) -> bool {
    fn canonical(url: &str) -> Option<String> {
        let uri: http::Uri = url.parse().ok()?;
        let scheme = uri.scheme_str()?.to_ascii_lowercase();
        let authority = uri.authority()?;
        let default = match scheme.as_str() {
            "http" => 80,
            "https" => 443,
            _ => return None,
        };
        let port = authority.port_u16().filter(|p| *p != default).map(|p| format!(":{p}")).unwrap_or_default();
        let path = uri.path_and_query().map_or("", |p| p.as_str());
        Some(format!("{scheme}://{}{port}{}", authority.host().to_ascii_lowercase(), path.trim_end_matches('/')))
    }
    canonical(a).is_some_and(|a| Some(a) == canonical(b))
}

/// The protected resource metadata, for a GET of its well-known path.
/// The path of the resource a bearer-protected endpoint at `endpoint` names: that of
/// `resource` (the resource server URL) when given, else the endpoint's.
fn resource_path<'a>(resource: Option<&'a str>, endpoint: &'a str) -> &'a str {
    match resource {
        Some(resource) => split_resource(resource).1,
        None => endpoint,
    }
}

/// Where an endpoint at `endpoint` serves its protected resource metadata (RFC 9728):
/// [`METADATA_PATH`] followed by the resource's path.
pub fn metadata_path(resource: Option<&str>, endpoint: &str) -> String {
    format!("{METADATA_PATH}{}", resource_path(resource, endpoint))
}

pub(crate) fn metadata(options: &HttpOptions, parts: &Parts) -> Option<Response<ResponseBody>> {
    let auth = options.auth.as_ref().filter(|auth| auth.serve_metadata)?;
    let path = parts.uri.path();
    if !(path == METADATA_PATH || path.strip_prefix(METADATA_PATH) == Some(auth.resource_path(options))) {
        return None;
    }
    let mut reply = match parts.method {
        Method::GET => {
            let mut document = json!({
                "resource": auth.resource(options, parts),
                "authorization_servers": auth.authorization_servers,
                "bearer_methods_supported": ["header"],
            });
            if let Some(scopes) = &auth.scopes_supported {
                document["scopes_supported"] = json!(scopes);
            }
            let mut reply = reply::json(StatusCode::OK, Bytes::from(document.to_string()));
            reply.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=3600"));
            reply
        }
        Method::OPTIONS => {
            let mut reply = reply::empty(StatusCode::OK);
            reply.headers_mut().insert(header::ACCESS_CONTROL_ALLOW_METHODS, HeaderValue::from_static("GET, OPTIONS"));
            reply
                .headers_mut()
                .insert(header::ACCESS_CONTROL_ALLOW_HEADERS, HeaderValue::from_static("mcp-protocol-version"));
            reply
        }
        _ => return Some(reply::method_not_allowed("GET")),
    };
    // Browsers' clients read it cross-origin (the official SDK allows every origin).
    reply.headers_mut().insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    Some(reply)
}

/// A refusal: its status, `error` code, description and (403) the scopes to ask for.
struct Refusal {
    status: StatusCode,
    error: &'static str,
    description: String,
    scope: Option<String>,
}

impl Refusal {
    fn invalid_token(description: impl Into<String>) -> Self {
        Self { status: StatusCode::UNAUTHORIZED, error: "invalid_token", description: description.into(), scope: None }
    }

    /// The JSON body, and the `WWW-Authenticate` challenge (none on a 500) naming the
    /// protected resource metadata when there is one.
    fn answer(&self, metadata_url: Option<&str>) -> (String, Option<String>) {
        let refused = answer(self.status, self.error, &self.description, self.scope.as_deref(), metadata_url);
        (refused.body, refused.www_authenticate)
    }
}

/// A refusal as sent: the JSON body `{error, error_description}` and, on a 401 or 403,
/// the `WWW-Authenticate` challenge.
fn answer(
    status: StatusCode,
    error: &str,
    description: &str,
    scope: Option<&str>,
    metadata_url: Option<&str>,
) -> Refused {
    let body = json!({"error": error, "error_description": description}).to_string();
    let challenged = status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN;
    let www_authenticate = challenged.then(|| {
        let mut challenge = format!("Bearer error={}, error_description={}", quoted(error), quoted(description));
        if let Some(scope) = scope {
            challenge.push_str(&format!(", scope={}", quoted(scope)));
        }
        if let Some(metadata) = metadata_url {
            challenge.push_str(&format!(", resource_metadata={}", quoted(metadata)));
        }
        challenge
    });
    Refused { status: status.as_u16(), www_authenticate, body }
}

/// How an OAuth error of the resource server is answered (the official
/// `bearerAuthChallengeResponse`): `invalid_token` 401 and `insufficient_scope` 403 with
/// their challenge (`scope`: the scopes to ask for), `server_error` 500, any other code 400.
pub fn challenge(error: &str, description: &str, scope: Option<&str>, resource_metadata_url: Option<&str>) -> Refused {
    let status = match error {
        "invalid_token" => StatusCode::UNAUTHORIZED,
        "insufficient_scope" => StatusCode::FORBIDDEN,
        "server_error" => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::BAD_REQUEST,
    };
    answer(status, error, description, scope, resource_metadata_url)
}

/// The policy: the request's accepted token, or the refusal.
async fn judge(auth: &BearerAuth, token: Option<&str>) -> Result<AuthInfo, Refusal> {
    let Some(token) = token else {
        return Err(Refusal::invalid_token(AUTHENTICATION_REQUIRED));
    };
    let info = match auth.verifier.verify(token).await {
        Ok(info) => info,
        Err(AuthError::Refused) => return Err(Refusal::invalid_token(AUTHENTICATION_REQUIRED)),
        Err(AuthError::InvalidToken(why)) => return Err(Refusal::invalid_token(why)),
        Err(AuthError::InsufficientScope { message, scope }) => {
            return Err(Refusal {
                status: StatusCode::FORBIDDEN,
                error: "insufficient_scope",
                description: message,
                scope: Some(scope),
            });
        }
        Err(AuthError::Failed(why)) => {
            // The reason stays in the log: it is the server's, not the client's, business.
            tracing::warn!("bearer token verification failed: {why}");
            let description = "Internal Server Error".to_owned();
            return Err(Refusal {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                error: "server_error",
                description,
                scope: None,
            });
        }
    };
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    let foreign = auth
        .audience
        .as_deref()
        .is_some_and(|audience| !info.resource.as_deref().is_some_and(|r| same_resource(r, audience)));
    if info.is_expired(now) || foreign {
        return Err(Refusal::invalid_token(AUTHENTICATION_REQUIRED));
    }
    if let Some(missing) = info.missing_scope(&auth.required_scopes) {
        return Err(Refusal {
            status: StatusCode::FORBIDDEN,
            error: "insufficient_scope",
            description: format!("Required scope: {missing}"),
            scope: Some(auth.required_scopes.join(" ")),
        });
    }
    Ok(info)
}

/// The bearer token of a request (`Authorization: Bearer <token>`, scheme in any case).
fn bearer_token(parts: &Parts) -> Option<&str> {
    token_of(parts.headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()))
}

/// The token of an `Authorization` header value (`Bearer <token>`, scheme in any case).
fn token_of(authorization: Option<&str>) -> Option<&str> {
    authorization
        .and_then(|v| v.split_once(' ').filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer")))
        .map(|(_, token)| token.trim())
        .filter(|token| !token.is_empty())
}

/// A token accepted before the request reached core (a framework's middleware, such as
/// the official `requireBearerAuth`): put in the request's extensions, it goes with the
/// request to its handlers when the endpoint checks no tokens itself.
#[derive(Clone, Debug)]
pub struct Authorized(pub Arc<AuthInfo>);

/// A refusal of [`authorize`]: the response to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub status: u16,
    /// The `WWW-Authenticate` challenge (none on a 500).
    pub www_authenticate: Option<String>,
    /// The JSON body `{error, error_description}`.
    pub body: String,
}

/// The bearer policy of core's endpoints, for a check made in front of one (a framework
/// middleware, the official `requireBearerAuth`): the `Authorization` header's token as
/// the verifier says and the policy accepts it, or the refusal to answer, its challenge
/// naming `resource_metadata_url` when given.
pub async fn authorize(
    auth: &BearerAuth,
    authorization: Option<&str>,
    resource_metadata_url: Option<&str>,
) -> Result<AuthInfo, Refused> {
    let refusal = match judge(auth, token_of(authorization)).await {
        Ok(info) => return Ok(info),
        Err(refusal) => refusal,
    };
    let (body, challenge) = refusal.answer(resource_metadata_url);
    Err(Refused { status: refusal.status.as_u16(), www_authenticate: challenge, body })
}

/// Lets the request through with its accepted token (`None` when the endpoint needs
/// none), or answers the refusal with its challenge.
pub(crate) async fn check(
    options: &HttpOptions,
    parts: &Parts,
) -> Result<Option<Arc<AuthInfo>>, Response<ResponseBody>> {
    let Some(auth) = &options.auth else {
        return Ok(parts.extensions.get::<Authorized>().map(|accepted| accepted.0.clone()));
    };
    let refusal = match judge(auth, bearer_token(parts)).await {
        Ok(info) => return Ok(Some(Arc::new(info))),
        Err(refusal) => refusal,
    };
    let (body, challenge) = refusal.answer(auth.metadata_url(options, parts).as_deref());
    let mut reply = reply::json(refusal.status, Bytes::from(body));
    if let Some(challenge) = challenge {
        let challenge = HeaderValue::from_str(&challenge).unwrap_or_else(|_| HeaderValue::from_static("Bearer"));
        reply.headers_mut().insert(header::WWW_AUTHENTICATE, challenge);
    }
    Err(reply)
}

/// An RFC 9110 quoted-string (header-safe: control characters dropped).
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars().filter(|c| !c.is_control()) {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// A verifier's answer given as JSON (how the bindings hand it over): `null` refuses the
/// token, anything else must be an `AuthInfo`.
pub fn auth_info_from_json(value: Value) -> Result<AuthInfo, AuthError> {
    if value.is_null() {
        return Err(AuthError::Refused);
    }
    serde_json::from_value(value)
        .map_err(|e| AuthError::Failed(format!("the token verifier returned a malformed AuthInfo: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_urls_split_and_challenges_quote() {
        assert_eq!(split_resource("https://a.example/mcp"), ("https://a.example", "/mcp"));
        assert_eq!(split_resource("https://a.example"), ("https://a.example", ""));
        assert_eq!(split_resource("https://a.example/"), ("https://a.example", ""));
        assert_eq!(split_resource("https://a.example/mcp?x=1"), ("https://a.example", "/mcp"));
        assert_eq!(quoted("say \"hi\"\n"), "\"say \\\"hi\\\"\"");
        assert!(same_resource("HTTPS://A.example:443/mcp/", "https://a.example/mcp"));
        assert!(!same_resource("https://a.example/other", "https://a.example/mcp"));
        assert!(!same_resource("not a url", "https://a.example/mcp"));
    }
}
