//! Cross-app access (Enterprise-Managed Authorization, SEP-990) as standalone steps, the
//! two requests an application makes itself when it holds the user's ID token:
//!
//! 1. [`request_jwt_authorization_grant`]: the RFC 8693 token exchange at the enterprise
//!    identity provider's token endpoint, trading the user's OpenID Connect ID token
//!    (`subject_token_type` [`ID_TOKEN_TYPE`]) for an ID-JAG (`requested_token_type`
//!    [`ID_JAG_TOKEN_TYPE`]) addressed to the MCP authorization server (`audience`) for the
//!    MCP server (`resource`); [`discover_and_request_jwt_auth_grant`] first reads the
//!    identity provider's RFC 8414 / OpenID Connect metadata for its token endpoint.
//! 2. [`exchange_jwt_auth_grant`]: the RFC 7523 `jwt-bearer` grant at the MCP authorization
//!    server's token endpoint, the ID-JAG as `assertion`, for an access token.
//!
//! The connection-driven form of step 2 (the configured authorization server's metadata
//! checked, a fresh assertion per request) is [`super::Grant::IdentityAssertion`]; these
//! functions are the official TypeScript SDK's `crossAppAccess` helpers, its wording kept in
//! the errors. Token endpoints must be `https` unless on a loopback host.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use reqwest::Url;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use serde_json::Value;

use super::discovery::discover_authorization_server_metadata;
use super::{AuthError, AuthErrorKind, Http, ID_JAG_TOKEN_TYPE, JWT_BEARER_GRANT_TYPE, OAuthTokens};

/// RFC 8693 section 2.1: the token exchange grant.
pub const TOKEN_EXCHANGE_GRANT_TYPE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";

/// RFC 8693 section 3: an OpenID Connect ID token as the subject token.
pub const ID_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:id_token";

/// The token exchange at the identity provider (step 1).
#[derive(Clone, Debug, Default)]
pub struct JwtAuthGrantRequest {
    /// The MCP authorization server's issuer, the ID-JAG's audience.
    pub audience: String,
    /// The MCP server the ID-JAG is for (RFC 8707).
    pub resource: String,
    /// The user's OpenID Connect ID token at the identity provider.
    pub id_token: String,
    /// This client at the identity provider.
    pub client_id: String,
    /// Sent only when present and not empty (a public client sends none).
    pub client_secret: Option<String>,
    pub scope: Option<String>,
}

/// What the identity provider issued (step 1's answer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JwtAuthGrant {
    /// The ID-JAG (the exchange response's `access_token`).
    pub jwt_auth_grant: String,
    pub expires_in: Option<u64>,
    pub scope: Option<String>,
}

/// How the client authenticates at the MCP authorization server in step 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClientAuth {
    #[default]
    ClientSecretBasic,
    ClientSecretPost,
    None,
}

impl ClientAuth {
    /// From the RFC 7591 name; `None` for a method core cannot perform.
    pub fn parse(method: &str) -> Option<Self> {
        match method {
            "client_secret_basic" => Some(Self::ClientSecretBasic),
            "client_secret_post" => Some(Self::ClientSecretPost),
            "none" => Some(Self::None),
            _ => None,
        }
    }
}

impl Http {
    /// An HTTP client of its own for the standalone requests: default TLS, no redirects
    /// (a token endpoint that redirects is refused, not followed with the secret).
    pub fn standalone() -> Result<Self, AuthError> {
        let client = crate::client::http::http_client(&crate::tls::ClientTls::default())
            .map_err(|e| AuthError::new(format!("no HTTP client: {e}")))?
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| AuthError::new(format!("no HTTP client: {e}")))?;
        Ok(Self { client, exchange: None })
    }
}

/// A token endpoint, `https` or on a loopback host (an ID token, a client secret and an
/// ID-JAG never travel in clear over a network).
pub fn secure_token_endpoint(endpoint: &str) -> Result<Url, AuthError> {
    let url = Url::parse(endpoint).map_err(|e| AuthError::new(format!("Invalid token endpoint {endpoint:?}: {e}")))?;
    let host = url.host_str().unwrap_or_default().trim_start_matches('[').trim_end_matches(']');
    let loopback =
        host.eq_ignore_ascii_case("localhost") || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
    if url.scheme() != "https" && !loopback {
        return Err(AuthError::new(format!(
            "Token endpoint {url} must use https (loopback hosts are exempt); refusing to send credentials"
        )));
    }
    Ok(url)
}

/// Step 1 at `token_endpoint`: the RFC 8693 exchange of the ID token for an ID-JAG.
pub async fn request_jwt_authorization_grant(
    http: &Http,
    token_endpoint: &str,
    request: &JwtAuthGrantRequest,
) -> Result<JwtAuthGrant, AuthError> {
    let url = secure_token_endpoint(token_endpoint)?;
    let mut form = vec![
        ("grant_type", TOKEN_EXCHANGE_GRANT_TYPE.to_owned()),
        ("requested_token_type", ID_JAG_TOKEN_TYPE.to_owned()),
        ("audience", request.audience.clone()),
        ("resource", request.resource.clone()),
        ("subject_token", request.id_token.clone()),
        ("subject_token_type", ID_TOKEN_TYPE.to_owned()),
        ("client_id", request.client_id.clone()),
    ];
    if let Some(secret) = request.client_secret.as_ref().filter(|s| !s.is_empty()) {
        form.push(("client_secret", secret.clone()));
    }
    if let Some(scope) = request.scope.as_ref().filter(|s| !s.is_empty()) {
        form.push(("scope", scope.clone()));
    }
    let body = post_form(http, url, form, None, "Token exchange").await?;
    let issued = body.get("issued_token_type").and_then(Value::as_str);
    if issued != Some(ID_JAG_TOKEN_TYPE) {
        return Err(AuthError::of(
            AuthErrorKind::Token,
            format!(
                "Invalid token exchange response: issued_token_type is {}, not {ID_JAG_TOKEN_TYPE}",
                issued.map_or_else(|| "missing".to_owned(), |t| format!("{t:?}"))
            ),
        ));
    }
    let Some(grant) = body.get("access_token").and_then(Value::as_str) else {
        return Err(AuthError::of(AuthErrorKind::Token, "Invalid token exchange response: no access_token string"));
    };
    Ok(JwtAuthGrant {
        jwt_auth_grant: grant.to_owned(),
        expires_in: body.get("expires_in").and_then(Value::as_u64),
        scope: body.get("scope").and_then(Value::as_str).map(str::to_owned),
    })
}

/// Step 1 with the identity provider at `idp_url`: its token endpoint from its metadata
/// (RFC 8414, then OpenID Connect discovery), then [`request_jwt_authorization_grant`].
pub async fn discover_and_request_jwt_auth_grant(
    http: &Http,
    idp_url: &str,
    request: &JwtAuthGrantRequest,
) -> Result<JwtAuthGrant, AuthError> {
    let idp = Url::parse(idp_url).map_err(|e| AuthError::new(format!("Invalid IdP URL {idp_url:?}: {e}")))?;
    let version = crate::protocol::ProtocolVersion::LATEST_LEGACY.as_str();
    let metadata = discover_authorization_server_metadata(http, &idp, version).await?;
    let Some(endpoint) = metadata.as_ref().and_then(|m| m.get("token_endpoint")).and_then(Value::as_str) else {
        return Err(AuthError::new(format!("Failed to discover token endpoint for IdP: {idp_url}")));
    };
    request_jwt_authorization_grant(http, endpoint, request).await
}

/// Step 2 at `token_endpoint`: the RFC 7523 `jwt-bearer` grant with the ID-JAG.
pub async fn exchange_jwt_auth_grant(
    http: &Http,
    token_endpoint: &str,
    jwt_auth_grant: &str,
    client_id: &str,
    client_secret: Option<&str>,
    auth: ClientAuth,
) -> Result<OAuthTokens, AuthError> {
    let url = secure_token_endpoint(token_endpoint)?;
    let mut form = vec![("grant_type", JWT_BEARER_GRANT_TYPE.to_owned()), ("assertion", jwt_auth_grant.to_owned())];
    let secret = client_secret.filter(|s| !s.is_empty());
    let mut basic = None;
    match auth {
        ClientAuth::ClientSecretBasic => {
            let secret =
                secret.ok_or_else(|| AuthError::new("client_secret_basic authentication requires a client_secret"))?;
            basic = Some(STANDARD.encode(format!("{client_id}:{secret}")));
            // The id in the body too, as core's other grants send it: the official Python
            // authorization server (and core's) require it there.
            form.push(("client_id", client_id.to_owned()));
        }
        ClientAuth::ClientSecretPost => {
            form.push(("client_id", client_id.to_owned()));
            if let Some(secret) = secret {
                form.push(("client_secret", secret.to_owned()));
            }
        }
        ClientAuth::None => form.push(("client_id", client_id.to_owned())),
    }
    let body = post_form(http, url, form, basic, "JWT grant exchange").await?;
    serde_json::from_value(body)
        .map_err(|e| AuthError::of(AuthErrorKind::Token, format!("Invalid token response: {e}")))
}

/// POSTs `form`, and answers the JSON object of a 2xx; an OAuth error answer becomes
/// `"{what} failed: error - description"`, anything else `"{what} failed with status N: body"`.
async fn post_form(
    http: &Http,
    url: Url,
    form: Vec<(&'static str, String)>,
    basic: Option<String>,
    what: &str,
) -> Result<Value, AuthError> {
    let body = form_urlencoded::Serializer::new(String::new()).extend_pairs(form).finish();
    let mut request = http
        .post(url.clone())
        .header(ACCEPT, "application/json")
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(body);
    if let Some(pair) = basic {
        request = request.header(AUTHORIZATION, format!("Basic {pair}"));
    }
    let response = http.send(request).await.map_err(|e| AuthError::new(format!("POST {url} failed: {e}")))?;
    let status = response.status();
    let bytes = response.bytes().await.unwrap_or_default();
    let json = serde_json::from_slice::<Value>(&bytes).ok();
    if !status.is_success() {
        let error = json.as_ref().and_then(|j| j.get("error")).and_then(Value::as_str);
        let message = match error {
            Some(error) => match json.as_ref().and_then(|j| j.get("error_description")).and_then(Value::as_str) {
                Some(description) => format!("{what} failed: {error} - {description}"),
                None => format!("{what} failed: {error}"),
            },
            None => format!(
                "{what} failed with status {}: {}",
                status.as_u16(),
                json.map_or_else(|| "{}".to_owned(), |j| j.to_string())
            ),
        };
        return Err(AuthError::of(AuthErrorKind::Token, message));
    }
    match json {
        Some(value @ Value::Object(_)) => Ok(value),
        _ => Err(AuthError::of(AuthErrorKind::Token, format!("{what}: {url} answered no JSON object"))),
    }
}
