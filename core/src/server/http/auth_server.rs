//! An OAuth 2.1 authorization server over a user's provider (issue 13's other half).
//!
//! The official Python SDK serves, from an `OAuthAuthorizationServerProvider`, the RFC 8414
//! metadata, `/authorize`, `/token` (authorization code with PKCE, refresh token, and the
//! SEP-990 identity-assertion grant), RFC 7591 registration and RFC 7009 revocation. The
//! endpoints' rules are here, once, for every binding: request validation, client
//! authentication, PKCE verification, grant dispatch, the error shapes and statuses, the
//! metadata document and CORS. The user's provider is an [`AuthServerProvider`] (the
//! bindings adapt a Python provider into it); core calls it as the official handlers do.
//!
//! What the provider loads (a client, a code, a token) comes back as a [`Held`]: the
//! fields core's rules read, and the binding's own object ([`Handle`]), which core hands
//! back unchanged to the calls that take it (`exchange_authorization_code` gets the very
//! code object `load_authorization_code` returned, as in the official SDK).
//!
//! [`AuthServer::handle`] answers one request as a plain [`Answer`], so the same logic is
//! served by core's own HTTP endpoint (`HttpOptions::auth_server`) and by a framework's
//! routes (the Python binding's `create_auth_routes` hands each request here).

use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use bytes::Bytes;
use http::{HeaderMap, Method, header};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::peer::BoxFuture;

/// The well-known path of the RFC 8414 metadata.
pub const AUTHORIZATION_SERVER_METADATA_PATH: &str = "/.well-known/oauth-authorization-server";
pub const AUTHORIZATION_PATH: &str = "/authorize";
pub const TOKEN_PATH: &str = "/token";
pub const REGISTRATION_PATH: &str = "/register";
pub const REVOCATION_PATH: &str = "/revoke";
/// RFC 7523's grant, SEP-990's leg 2.
pub const JWT_BEARER_GRANT_TYPE: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/// How SEP-990 support is advertised (`authorization_grant_profiles_supported`).
pub const ID_JAG_GRANT_PROFILE: &str = "urn:ietf:params:oauth:grant-profile:id-jag";
/// The largest request body read (the official SDK's default limit).
pub const MAX_BODY: usize = 4 * 1024 * 1024;

/// A binding's own object for something the provider loaded, handed back to it unchanged.
pub type Handle = Arc<dyn Any + Send + Sync>;

/// What the provider loaded: the fields core reads, and the binding's object.
#[derive(Clone)]
pub struct Held<T> {
    pub value: T,
    pub handle: Handle,
}

fn default_grant_types() -> Vec<String> {
    vec!["authorization_code".into(), "refresh_token".into()]
}

/// A registered client, as far as the endpoints' rules read it.
#[derive(Clone, Debug, Deserialize)]
pub struct ClientInfo {
    pub client_id: String,
    #[serde(default)]
    pub client_secret: Option<String>,
    #[serde(default)]
    pub client_secret_expires_at: Option<f64>,
    #[serde(default)]
    pub redirect_uris: Option<Vec<String>>,
    #[serde(default = "default_grant_types")]
    pub grant_types: Vec<String>,
    #[serde(default)]
    pub token_endpoint_auth_method: Option<String>,
    #[serde(default)]
    pub scope: Option<String>,
}

/// An authorization code the provider issued.
#[derive(Clone, Debug, Deserialize)]
pub struct AuthorizationCode {
    pub client_id: String,
    pub expires_at: f64,
    pub code_challenge: String,
    pub redirect_uri: String,
    pub redirect_uri_provided_explicitly: bool,
}

/// A refresh or access token the provider issued.
#[derive(Clone, Debug, Deserialize)]
pub struct IssuedToken {
    pub client_id: String,
    #[serde(default)]
    pub scopes: Vec<String>,
    #[serde(default)]
    pub expires_at: Option<f64>,
}

/// What `/authorize` hands the provider (the official `AuthorizationParams`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct AuthorizationParams {
    pub state: Option<String>,
    pub scopes: Option<Vec<String>>,
    pub code_challenge: String,
    pub redirect_uri: String,
    pub redirect_uri_provided_explicitly: bool,
    pub resource: Option<String>,
}

/// What the identity-assertion grant hands the provider (the official `IdentityAssertionParams`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct IdentityAssertionParams {
    pub assertion: String,
    pub scopes: Option<Vec<String>>,
    pub resource: Option<String>,
}

/// Which of the official error classes the provider raised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Authorize,
    Token,
    Registration,
}

/// A provider's failure.
#[derive(Clone, Debug, thiserror::Error)]
pub enum ProviderError {
    /// An OAuth error the provider raised on purpose (`AuthorizeError`, `TokenError`,
    /// `RegistrationError`): answered with its code and description where the official
    /// handler catches that class.
    #[error("{error}")]
    OAuth { kind: ErrorKind, error: String, description: Option<String> },
    /// Anything else (an exception, a malformed value): a server error.
    #[error("{0}")]
    Failed(String),
}

/// The user's authorization server, as the official `OAuthAuthorizationServerProvider`.
/// A token the provider issues is its JSON (the official `OAuthToken` as dumped).
pub trait AuthServerProvider: Send + Sync + 'static {
    fn get_client(&self, client_id: String) -> BoxFuture<Result<Option<Held<ClientInfo>>, ProviderError>>;
    /// Stores a registration (the whole `OAuthClientInformationFull` as JSON) and gives
    /// it back as the binding's model dumps it (the registration answer).
    fn register_client(&self, client: Value) -> BoxFuture<Result<Value, ProviderError>>;
    /// The URL to redirect the user agent to.
    fn authorize(&self, client: Handle, params: AuthorizationParams) -> BoxFuture<Result<String, ProviderError>>;
    fn load_authorization_code(
        &self,
        client: Handle,
        code: String,
    ) -> BoxFuture<Result<Option<Held<AuthorizationCode>>, ProviderError>>;
    fn exchange_authorization_code(&self, client: Handle, code: Handle) -> BoxFuture<Result<Value, ProviderError>>;
    fn load_refresh_token(
        &self,
        client: Handle,
        token: String,
    ) -> BoxFuture<Result<Option<Held<IssuedToken>>, ProviderError>>;
    fn exchange_refresh_token(
        &self,
        client: Handle,
        token: Handle,
        scopes: Vec<String>,
    ) -> BoxFuture<Result<Value, ProviderError>>;
    fn load_access_token(&self, token: String) -> BoxFuture<Result<Option<Held<IssuedToken>>, ProviderError>>;
    fn revoke_token(&self, token: Handle) -> BoxFuture<Result<(), ProviderError>>;
    fn exchange_identity_assertion(
        &self,
        client: Handle,
        params: IdentityAssertionParams,
    ) -> BoxFuture<Result<Value, ProviderError>>;
}

/// What the server advertises and serves (the official `create_auth_routes` arguments).
#[derive(Clone, Debug, Default)]
pub struct AuthServerOptions {
    pub issuer_url: String,
    pub service_documentation_url: Option<String>,
    /// Serve `/register` (`ClientRegistrationOptions.enabled`).
    pub registration_enabled: bool,
    /// A registered secret's lifetime in seconds (none: it never expires).
    pub client_secret_expiry_seconds: Option<i64>,
    /// Scopes a registration may ask for; also the metadata's `scopes_supported`.
    pub valid_scopes: Option<Vec<String>>,
    /// A registration without a scope gets these.
    pub default_scopes: Option<Vec<String>>,
    /// Serve `/revoke`.
    pub revocation_enabled: bool,
    /// Accept the identity-assertion (jwt-bearer) grant and advertise it.
    pub identity_assertion_enabled: bool,
}

/// One answer: status, headers, body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Bytes,
}

impl Answer {
    fn json(status: u16, body: &Value) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: Bytes::from(body.to_string()),
        }
    }

    fn text(status: u16, text: &'static str) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), "text/plain; charset=utf-8".into())],
            body: Bytes::from_static(text.as_bytes()),
        }
    }

    fn header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push((name.to_owned(), value.into()));
        self
    }

    fn no_store(self) -> Self {
        self.header("cache-control", "no-store").header("pragma", "no-cache")
    }
}

/// The request as the endpoints read it.
pub struct AuthRequest<'a> {
    pub method: &'a Method,
    pub path: &'a str,
    pub query: Option<&'a str>,
    pub headers: &'a HeaderMap,
    pub body: Bytes,
}

/// The authorization server: options, provider, and the metadata document built once.
pub struct AuthServer {
    options: AuthServerOptions,
    provider: Arc<dyn AuthServerProvider>,
    metadata: Value,
}

/// Why the options cannot be served (the official `validate_issuer_url`'s refusals).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct AuthServerError(pub String);

impl AuthServer {
    pub fn new(options: AuthServerOptions, provider: Arc<dyn AuthServerProvider>) -> Result<Self, AuthServerError> {
        let issuer = reqwest::Url::parse(&options.issuer_url)
            .map_err(|e| AuthServerError(format!("Issuer URL is not a URL: {e}")))?;
        let loopback = matches!(issuer.host_str(), Some("localhost" | "127.0.0.1" | "[::1]"));
        if issuer.scheme() != "https" && !loopback {
            return Err(AuthServerError("Issuer URL must be HTTPS".into()));
        }
        if issuer.fragment().is_some() {
            return Err(AuthServerError("Issuer URL must not have a fragment".into()));
        }
        if issuer.query().is_some() {
            return Err(AuthServerError("Issuer URL must not have a query string".into()));
        }
        let metadata = metadata(&options);
        Ok(Self { options, provider, metadata })
    }

    /// The RFC 8414 document served.
    pub fn metadata(&self) -> &Value {
        &self.metadata
    }

    /// The paths served, with the methods each answers (as the official routes).
    pub fn routes(&self) -> Vec<(&'static str, &'static [&'static str])> {
        let mut routes: Vec<(&'static str, &'static [&'static str])> = vec![
            (AUTHORIZATION_SERVER_METADATA_PATH, &["GET", "OPTIONS"]),
            (AUTHORIZATION_PATH, &["GET", "POST"]),
            (TOKEN_PATH, &["POST", "OPTIONS"]),
        ];
        if self.options.registration_enabled {
            routes.push((REGISTRATION_PATH, &["POST", "OPTIONS"]));
        }
        if self.options.revocation_enabled {
            routes.push((REVOCATION_PATH, &["POST", "OPTIONS"]));
        }
        routes
    }

    /// Whether `path` is one of the server's.
    pub fn serves(&self, path: &str) -> bool {
        self.routes().iter().any(|(served, _)| *served == path)
    }

    /// Answers one request to one of [`Self::routes`] (`None`: not one of its paths).
    pub async fn handle(&self, request: AuthRequest<'_>) -> Option<Answer> {
        let routes = self.routes();
        let (path, methods) = routes.into_iter().find(|(path, _)| *path == request.path)?;
        let cors = !matches!(path, AUTHORIZATION_PATH);
        let origin = request.headers.contains_key(header::ORIGIN);
        let preflight_request = request.headers.contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
        if cors && request.method == Method::OPTIONS && origin && preflight_request {
            return Some(preflight(methods));
        }
        if !methods.iter().any(|m| *m == request.method.as_str()) {
            return Some(Answer::text(405, "Method Not Allowed").header("allow", methods.join(", ")));
        }
        if request.body.len() > MAX_BODY {
            return Some(Answer::text(413, "Request Entity Too Large"));
        }
        let answer = match path {
            AUTHORIZATION_SERVER_METADATA_PATH => {
                Answer::json(200, &self.metadata).header("cache-control", "public, max-age=3600")
            }
            AUTHORIZATION_PATH => self.authorize(&request).await,
            TOKEN_PATH => self.token(&request).await,
            REGISTRATION_PATH => self.register(&request).await,
            _ => self.revoke(&request).await,
        };
        Some(if cors && origin { answer.header("access-control-allow-origin", "*") } else { answer })
    }
}

/// A CORS preflight's answer (Starlette's `CORSMiddleware` as the official routes set it:
/// every origin, the route's methods, the `mcp-protocol-version` header).
fn preflight(methods: &[&str]) -> Answer {
    Answer::text(200, "OK")
        .header("access-control-allow-origin", "*")
        .header("access-control-allow-methods", methods.join(", "))
        .header("access-control-max-age", "600")
        .header(
            "access-control-allow-headers",
            "Accept, Accept-Language, Content-Language, Content-Type, mcp-protocol-version",
        )
}

/// The RFC 8414 document (the official `build_metadata`).
fn metadata(options: &AuthServerOptions) -> Value {
    let base = options.issuer_url.trim_end_matches('/');
    let mut grant_types = vec!["authorization_code", "refresh_token"];
    if options.identity_assertion_enabled {
        grant_types.push(JWT_BEARER_GRANT_TYPE);
    }
    let mut document = Map::new();
    document.insert("issuer".into(), json!(options.issuer_url));
    document.insert("authorization_endpoint".into(), json!(format!("{base}{AUTHORIZATION_PATH}")));
    document.insert("token_endpoint".into(), json!(format!("{base}{TOKEN_PATH}")));
    if options.registration_enabled {
        document.insert("registration_endpoint".into(), json!(format!("{base}{REGISTRATION_PATH}")));
    }
    if let Some(scopes) = &options.valid_scopes {
        document.insert("scopes_supported".into(), json!(scopes));
    }
    document.insert("response_types_supported".into(), json!(["code"]));
    document.insert("grant_types_supported".into(), json!(grant_types));
    document
        .insert("token_endpoint_auth_methods_supported".into(), json!(["client_secret_post", "client_secret_basic"]));
    if let Some(url) = &options.service_documentation_url {
        document.insert("service_documentation".into(), json!(url));
    }
    if options.revocation_enabled {
        document.insert("revocation_endpoint".into(), json!(format!("{base}{REVOCATION_PATH}")));
        document.insert(
            "revocation_endpoint_auth_methods_supported".into(),
            json!(["client_secret_post", "client_secret_basic"]),
        );
    }
    document.insert("code_challenge_methods_supported".into(), json!(["S256"]));
    if options.identity_assertion_enabled {
        document.insert("authorization_grant_profiles_supported".into(), json!([ID_JAG_GRANT_PROFILE]));
    }
    Value::Object(document)
}

/// A URL as pydantic's `AnyUrl` writes it (an empty path is `/`), or `None` when it is not one.
fn normalized_url(text: &str) -> Option<String> {
    reqwest::Url::parse(text).ok().map(String::from)
}

/// A form's fields, the last value of a repeated name winning (Starlette's `FormData`).
type Form = HashMap<String, String>;

fn parse_form(text: &[u8]) -> Form {
    form_urlencoded::parse(text).into_owned().collect()
}

/// The request's form body (empty unless it is `application/x-www-form-urlencoded`).
fn form_body(request: &AuthRequest<'_>) -> Form {
    let is_form = request
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("application/x-www-form-urlencoded"));
    if is_form { parse_form(&request.body) } else { Form::new() }
}

/// The pydantic-style description of missing or wrong fields (`field: message` per line).
struct Invalid(Vec<String>);

impl Invalid {
    fn new() -> Self {
        Self(Vec::new())
    }

    fn required<'a>(&mut self, form: &'a Form, name: &str) -> Option<&'a str> {
        let value = form.get(name).map(String::as_str);
        if value.is_none() {
            self.0.push(format!("{name}: Field required"));
        }
        value
    }

    fn url(&mut self, form: &Form, name: &str) -> Option<String> {
        let value = form.get(name)?;
        let url = normalized_url(value);
        if url.is_none() {
            self.0.push(format!("{name}: Input should be a valid URL"));
        }
        url
    }

    fn description(&self) -> Option<String> {
        (!self.0.is_empty()).then(|| self.0.join("\n"))
    }
}

fn now() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

/// `['a', 'b']`: a list as the official messages print it (Python's `repr`).
fn python_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|item| format!("'{item}'")).collect();
    format!("[{}]", quoted.join(", "))
}

/// `base` with `params` added to its query (the official `construct_redirect_uri`).
pub fn construct_redirect_uri(base: &str, params: &[(&str, &str)]) -> String {
    let Ok(mut url) = reqwest::Url::parse(base) else { return base.to_owned() };
    let existing: Vec<(String, String)> = url.query_pairs().into_owned().collect();
    let mut serializer = form_urlencoded::Serializer::new(String::new());
    serializer.extend_pairs(existing);
    serializer.extend_pairs(params.iter().copied());
    let query = serializer.finish();
    url.set_query((!query.is_empty()).then_some(query.as_str()));
    url.into()
}

/// The S256 challenge of a PKCE verifier (RFC 7636 §4.2).
pub fn pkce_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// The official `validate_redirect_uri`: the requested URI when registered; without one,
/// the only registered URI.
fn validate_redirect_uri(client: &ClientInfo, requested: Option<&str>) -> Result<String, String> {
    let registered: Vec<String> =
        client.redirect_uris.iter().flatten().map(|uri| normalized_url(uri).unwrap_or_else(|| uri.clone())).collect();
    match requested {
        Some(uri) if registered.iter().any(|r| r == uri) => Ok(uri.to_owned()),
        Some(uri) => Err(format!("Redirect URI '{uri}' not registered for client")),
        None if registered.len() == 1 => Ok(registered[0].clone()),
        None => Err("redirect_uri must be specified unless the client has exactly one registered URI".into()),
    }
}

/// The official `validate_scope`: every requested scope among the client's.
fn validate_scope(client: &ClientInfo, requested: Option<&str>) -> Result<Option<Vec<String>>, String> {
    let Some(requested) = requested else { return Ok(None) };
    let allowed: Vec<&str> = client.scope.as_deref().map(|s| s.split(' ').collect()).unwrap_or_default();
    let scopes: Vec<String> = requested.split(' ').map(str::to_owned).collect();
    if let Some(scope) = scopes.iter().find(|scope| !allowed.contains(&scope.as_str())) {
        return Err(format!("Client was not registered with scope {scope}"));
    }
    Ok(Some(scopes))
}

/// An OAuth error body (`error`, `error_description` when given).
fn error_body(error: &str, description: Option<&str>) -> Value {
    let mut body = Map::new();
    body.insert("error".into(), json!(error));
    if let Some(description) = description {
        body.insert("error_description".into(), json!(description));
    }
    Value::Object(body)
}

fn token_error(error: &str, description: impl Into<String>) -> Answer {
    Answer::json(400, &error_body(error, Some(&description.into()))).no_store()
}

/// A provider failure that is not one of the OAuth errors the endpoint answers.
fn server_failure(what: &str, error: &ProviderError) -> Answer {
    tracing::error!("the authorization server provider failed in {what}: {error}");
    Answer::text(500, "Internal Server Error")
}

/// Client authentication at `/token` and `/revoke` (the official `ClientAuthenticator`):
/// the authenticated client, or why not.
async fn authenticate(
    provider: &dyn AuthServerProvider,
    request: &AuthRequest<'_>,
    form: &Form,
) -> Result<Result<Held<ClientInfo>, String>, ProviderError> {
    let Some(client_id) = form.get("client_id").filter(|id| !id.is_empty()) else {
        return Ok(Err("Missing client_id".into()));
    };
    let Some(client) = provider.get_client(client_id.clone()).await? else {
        return Ok(Err("Invalid client_id".into()));
    };
    let info = &client.value;
    let method = info.token_endpoint_auth_method.as_deref();
    let presented: Option<String> = match method {
        Some("client_secret_basic") => {
            let header = request.headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or("");
            let Some(encoded) = header.strip_prefix("Basic ") else {
                return Ok(Err("Missing or invalid Basic authentication in Authorization header".into()));
            };
            let decoded = STANDARD.decode(encoded).ok().and_then(|bytes| String::from_utf8(bytes).ok());
            let Some((id, secret)) = decoded.as_deref().and_then(|d| d.split_once(':')) else {
                return Ok(Err("Invalid Basic authentication header".into()));
            };
            let unquote =
                |text: &str| percent_decode(text).ok_or_else(|| "Invalid Basic authentication header".to_owned());
            let (id, secret) = match (unquote(id), unquote(secret)) {
                (Ok(id), Ok(secret)) => (id, secret),
                (Err(why), _) | (_, Err(why)) => return Ok(Err(why)),
            };
            if &id != client_id {
                return Ok(Err("Client ID mismatch in Basic auth".into()));
            }
            Some(secret)
        }
        Some("client_secret_post") => form.get("client_secret").cloned(),
        Some("none") => None,
        other => {
            let shown = other.unwrap_or("None");
            return Ok(Err(format!("Unsupported auth method: {shown}")));
        }
    };
    let stored = info.client_secret.as_deref().filter(|s| !s.is_empty());
    if method != Some("none") && stored.is_none() {
        return Ok(Err("Client is registered for secret-based authentication but has no stored secret".into()));
    }
    if let Some(stored) = stored {
        let Some(presented) = presented.filter(|p| !p.is_empty()) else {
            return Ok(Err("Client secret is required".into()));
        };
        if !constant_time_eq(stored.as_bytes(), presented.as_bytes()) {
            return Ok(Err("Invalid client_secret".into()));
        }
        if info.client_secret_expires_at.is_some_and(|at| at != 0.0 && at < now().floor()) {
            return Ok(Err("Client secret has expired".into()));
        }
    }
    Ok(Ok(client))
}

/// `%XX` decoding (Python's `unquote`: `+` stays); `None` when the bytes are not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    percent_encoding::percent_decode_str(text).decode_utf8().ok().map(Into::into)
}

/// Equality in time independent of where the inputs differ (the official
/// `hmac.compare_digest`), by `subtle`.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    use subtle::ConstantTimeEq;
    bool::from(a.ct_eq(b))
}

/// `n` random bytes as hex (the official `secrets.token_hex(n)`).
fn random_hex(n: usize) -> Result<String, getrandom::Error> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A random (version 4) UUID, as the official `uuid4()` client ids: `uuid`'s builder over
/// bytes from `getrandom`, so no random source fails by a panic (`Uuid::new_v4` would).
fn uuid4() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(uuid::Builder::from_random_bytes(bytes).into_uuid().hyphenated().to_string())
}

impl AuthServer {
    /// `/authorize` (GET query or POST form; RFC 6749 §4.1.1 with PKCE S256).
    async fn authorize(&self, request: &AuthRequest<'_>) -> Answer {
        let params = if request.method == Method::GET {
            parse_form(request.query.unwrap_or("").as_bytes())
        } else {
            form_body(request)
        };
        let mut attempt = Attempt { server: self, params: &params, client: None, redirect_uri: None };
        match self.authorize_checked(&params, &mut attempt).await {
            Ok(answer) => answer,
            Err((error, description, load_client)) => attempt.error(&error, description.as_deref(), load_client).await,
        }
    }

    async fn authorize_checked(
        &self,
        params: &Form,
        attempt: &mut Attempt<'_>,
    ) -> Result<Answer, (String, Option<String>, bool)> {
        let mut invalid = Invalid::new();
        let client_id = invalid.required(params, "client_id");
        let redirect_uri = invalid.url(params, "redirect_uri");
        let mut unsupported_response_type = false;
        match params.get("response_type").map(String::as_str) {
            None => invalid.0.push("response_type: Field required".into()),
            Some("code") => {}
            Some(_) => {
                unsupported_response_type = true;
                invalid.0.push("response_type: Input should be 'code'".into());
            }
        }
        let code_challenge = invalid.required(params, "code_challenge");
        if params.get("code_challenge_method").is_some_and(|m| m != "S256") {
            invalid.0.push("code_challenge_method: Input should be 'S256'".into());
        }
        if let Some(description) = invalid.description() {
            let error = if unsupported_response_type { "unsupported_response_type" } else { "invalid_request" };
            return Err((error.into(), Some(description), true));
        }
        let (client_id, code_challenge) = (client_id.unwrap_or_default(), code_challenge.unwrap_or_default());
        let client = match self.provider.get_client(client_id.to_owned()).await {
            Ok(Some(client)) => client,
            Ok(None) => {
                return Err(("invalid_request".into(), Some(format!("Client ID '{client_id}' not found")), false));
            }
            Err(e) => {
                tracing::error!("the authorization server provider failed in get_client: {e}");
                return Err(("server_error".into(), Some("An unexpected error occurred".into()), false));
            }
        };
        attempt.client = Some(client.clone());
        let redirect = validate_redirect_uri(&client.value, redirect_uri.as_deref())
            .map_err(|why| ("invalid_request".to_owned(), Some(why), true))?;
        attempt.redirect_uri = Some(redirect.clone());
        let scopes = validate_scope(&client.value, params.get("scope").map(String::as_str))
            .map_err(|why| ("invalid_scope".to_owned(), Some(why), true))?;
        let authorization = AuthorizationParams {
            state: params.get("state").cloned(),
            scopes,
            code_challenge: code_challenge.to_owned(),
            redirect_uri: redirect,
            redirect_uri_provided_explicitly: redirect_uri.is_some(),
            resource: params.get("resource").cloned(),
        };
        match self.provider.authorize(client.handle.clone(), authorization).await {
            Ok(location) => Ok(Answer { status: 302, headers: vec![], body: Bytes::new() }
                .header("location", location)
                .header("cache-control", "no-store")),
            Err(ProviderError::OAuth { kind: ErrorKind::Authorize, error, description }) => {
                Err((error, description, true))
            }
            Err(e) => {
                tracing::error!("the authorization server provider failed in authorize: {e}");
                Err(("server_error".into(), Some("An unexpected error occurred".into()), true))
            }
        }
    }

    /// `/token`: client authentication, then the grant (RFC 6749 §4.1.3 and §6, RFC 7523).
    async fn token(&self, request: &AuthRequest<'_>) -> Answer {
        let form = form_body(request);
        let client = match authenticate(&*self.provider, request, &form).await {
            Ok(Ok(client)) => client,
            Ok(Err(why)) => {
                return Answer::json(401, &error_body("invalid_client", Some(&why))).no_store();
            }
            Err(e) => return server_failure("get_client", &e),
        };
        match self.grant(&form, &client).await {
            Ok(Ok(tokens)) => Answer::json(200, &tokens).no_store(),
            Ok(Err(answer)) => answer,
            Err(ProviderError::OAuth { kind: ErrorKind::Token, error, description }) => {
                Answer::json(400, &error_body(&error, description.as_deref())).no_store()
            }
            Err(e) => server_failure("a token request", &e),
        }
    }

    /// The grant's tokens, a refusal, or the provider's error.
    async fn grant(&self, form: &Form, client: &Held<ClientInfo>) -> Result<Result<Value, Answer>, ProviderError> {
        let mut invalid = Invalid::new();
        let grant_type = form.get("grant_type").map(String::as_str);
        match grant_type {
            Some("authorization_code") => {
                invalid.required(form, "code");
                invalid.url(form, "redirect_uri");
                invalid.required(form, "code_verifier");
            }
            Some("refresh_token") => {
                invalid.required(form, "refresh_token");
            }
            Some(JWT_BEARER_GRANT_TYPE) => {
                invalid.required(form, "assertion");
            }
            Some(other) => invalid.0.push(format!(
                "Input tag '{other}' found using 'grant_type' does not match any of the expected tags: \
                 'authorization_code', 'refresh_token', '{JWT_BEARER_GRANT_TYPE}'"
            )),
            None => invalid.0.push("Unable to extract tag using discriminator 'grant_type'".into()),
        }
        if grant_type.is_some() {
            invalid.required(form, "client_id");
        }
        if let Some(description) = invalid.description() {
            return Ok(Err(token_error("invalid_request", description)));
        }
        let grant_type = grant_type.unwrap_or_default();
        let client_id = form.get("client_id").map(String::as_str).unwrap_or_default();
        let info = &client.value;
        if !info.grant_types.iter().any(|g| g == grant_type) {
            return Ok(Err(token_error(
                "unsupported_grant_type",
                format!("Unsupported grant type (supported grant types are {})", python_list(&info.grant_types)),
            )));
        }
        let text = |name: &str| form.get(name).cloned().unwrap_or_default();
        let scopes_of = |scope: Option<&String>| {
            scope.filter(|s| !s.is_empty()).map(|s| s.split(' ').map(str::to_owned).collect::<Vec<_>>())
        };
        match grant_type {
            "authorization_code" => {
                let code = self.provider.load_authorization_code(client.handle.clone(), text("code")).await?;
                let Some(code) = code.filter(|code| code.value.client_id == client_id) else {
                    return Ok(Err(token_error("invalid_grant", "authorization code does not exist")));
                };
                if code.value.expires_at < now() {
                    return Ok(Err(token_error("invalid_grant", "authorization code has expired")));
                }
                let expected = code.value.redirect_uri_provided_explicitly.then(|| {
                    normalized_url(&code.value.redirect_uri).unwrap_or_else(|| code.value.redirect_uri.clone())
                });
                let given = form.get("redirect_uri").and_then(|uri| normalized_url(uri));
                if given != expected {
                    return Ok(Err(token_error(
                        "invalid_request",
                        "redirect_uri did not match the one used when creating auth code",
                    )));
                }
                if pkce_challenge(&text("code_verifier")) != code.value.code_challenge {
                    return Ok(Err(token_error("invalid_grant", "incorrect code_verifier")));
                }
                self.provider.exchange_authorization_code(client.handle.clone(), code.handle).await.map(Ok)
            }
            "refresh_token" => {
                let token = self.provider.load_refresh_token(client.handle.clone(), text("refresh_token")).await?;
                let Some(token) = token.filter(|token| token.value.client_id == client_id) else {
                    return Ok(Err(token_error("invalid_grant", "refresh token does not exist")));
                };
                if token.value.expires_at.is_some_and(|at| at != 0.0 && at < now()) {
                    return Ok(Err(token_error("invalid_grant", "refresh token has expired")));
                }
                let scopes = scopes_of(form.get("scope")).unwrap_or_else(|| token.value.scopes.clone());
                if let Some(scope) = scopes.iter().find(|scope| !token.value.scopes.contains(scope)) {
                    return Ok(Err(token_error(
                        "invalid_scope",
                        format!("cannot request scope `{scope}` not provided by refresh token"),
                    )));
                }
                self.provider.exchange_refresh_token(client.handle.clone(), token.handle, scopes).await.map(Ok)
            }
            _ => {
                if !self.options.identity_assertion_enabled {
                    return Ok(Err(token_error(
                        "unsupported_grant_type",
                        "The JWT bearer grant is not supported by this authorization server",
                    )));
                }
                if info.client_secret.as_deref().is_none_or(str::is_empty) {
                    return Ok(Err(token_error(
                        "unauthorized_client",
                        "The JWT bearer grant requires a confidential client",
                    )));
                }
                let params = IdentityAssertionParams {
                    assertion: text("assertion"),
                    scopes: scopes_of(form.get("scope")),
                    resource: form.get("resource").cloned(),
                };
                self.provider.exchange_identity_assertion(client.handle.clone(), params).await.map(Ok)
            }
        }
    }

    /// `/register`: RFC 7591 dynamic client registration.
    async fn register(&self, request: &AuthRequest<'_>) -> Answer {
        let refuse =
            |description: String| Answer::json(400, &error_body("invalid_client_metadata", Some(&description)));
        let mut metadata = match serde_json::from_slice::<Value>(&request.body) {
            Ok(Value::Object(metadata)) => metadata,
            Ok(_) => return refuse("Input should be an object".into()),
            Err(e) => return refuse(format!("Invalid JSON: {e}")),
        };
        if let Err(why) = check_client_metadata(&mut metadata) {
            return refuse(why);
        }
        let method = metadata.get("token_endpoint_auth_method").and_then(Value::as_str).map(str::to_owned);
        let method = method.unwrap_or_else(|| "client_secret_post".into());
        metadata.insert("token_endpoint_auth_method".into(), json!(method));
        if method == "private_key_jwt" {
            return refuse("token_endpoint_auth_method 'private_key_jwt' is not supported".into());
        }
        let (client_secret, client_id) = match ((method != "none").then(|| random_hex(32)).transpose(), uuid4()) {
            (Ok(secret), Ok(id)) => (secret, id),
            (Err(e), _) | (_, Err(e)) => {
                return server_failure("registration", &ProviderError::Failed(format!("no random bytes: {e}")));
            }
        };
        let scope = metadata.get("scope").and_then(Value::as_str).map(str::to_owned);
        match (&scope, &self.options.default_scopes, &self.options.valid_scopes) {
            (None, Some(defaults), _) => {
                metadata.insert("scope".into(), json!(defaults.join(" ")));
            }
            (Some(scope), _, Some(valid)) => {
                let mut invalid: Vec<&str> =
                    scope.split_whitespace().filter(|s| !valid.iter().any(|v| v == s)).collect();
                invalid.dedup();
                if !invalid.is_empty() {
                    return refuse(format!("Requested scopes are not valid: {}", invalid.join(", ")));
                }
            }
            _ => {}
        }
        let listed = |key: &str, item: &str| {
            metadata.get(key).and_then(Value::as_array).is_some_and(|items| items.iter().any(|i| i == item))
        };
        if !listed("grant_types", "authorization_code") {
            return refuse("grant_types must include 'authorization_code'".into());
        }
        if listed("grant_types", JWT_BEARER_GRANT_TYPE) {
            return refuse(format!(
                "grant_types must not include '{JWT_BEARER_GRANT_TYPE}'; \
                 the identity-assertion grant requires a pre-registered client"
            ));
        }
        if !listed("response_types", "code") {
            return refuse("response_types must include 'code' for authorization_code grant".into());
        }
        let issued_at = now().floor() as i64;
        let expires_at = client_secret
            .as_ref()
            .map(|_| self.options.client_secret_expiry_seconds.map_or(0, |seconds| issued_at + seconds));
        metadata.insert("client_id".into(), json!(client_id));
        metadata.insert("client_id_issued_at".into(), json!(issued_at));
        metadata.insert("client_secret".into(), json!(client_secret));
        metadata.insert("client_secret_expires_at".into(), json!(expires_at));
        match self.provider.register_client(Value::Object(metadata)).await {
            Ok(registered) => Answer::json(201, &registered),
            Err(ProviderError::OAuth { kind: ErrorKind::Registration, error, description }) => {
                Answer::json(400, &json!({"error": error, "error_description": description}))
            }
            Err(e) => server_failure("register_client", &e),
        }
    }

    /// `/revoke`: RFC 7009.
    async fn revoke(&self, request: &AuthRequest<'_>) -> Answer {
        let form = form_body(request);
        let client = match authenticate(&*self.provider, request, &form).await {
            Ok(Ok(client)) => client,
            Ok(Err(why)) => return Answer::json(401, &error_body("unauthorized_client", Some(&why))),
            Err(e) => return server_failure("get_client", &e),
        };
        let mut invalid = Invalid::new();
        let token = invalid.required(&form, "token").map(str::to_owned);
        let hint = form.get("token_type_hint").map(String::as_str);
        if hint.is_some_and(|h| h != "access_token" && h != "refresh_token") {
            invalid.0.push("token_type_hint: Input should be 'access_token' or 'refresh_token'".into());
        }
        invalid.required(&form, "client_id");
        invalid.required(&form, "client_secret");
        if let Some(description) = invalid.description() {
            return Answer::json(400, &error_body("invalid_request", Some(&description)));
        }
        let token = token.unwrap_or_default();
        let refresh_first = hint == Some("refresh_token");
        let mut found = None;
        for refresh in if refresh_first { [true, false] } else { [false, true] } {
            let loaded = if refresh {
                self.provider.load_refresh_token(client.handle.clone(), token.clone()).await
            } else {
                self.provider.load_access_token(token.clone()).await
            };
            match loaded {
                Ok(Some(held)) => {
                    found = Some(held);
                    break;
                }
                Ok(None) => {}
                Err(e) => return server_failure("loading the token to revoke", &e),
            }
        }
        if let Some(held) = found.filter(|held| held.value.client_id == client.value.client_id) {
            if let Err(e) = self.provider.revoke_token(held.handle).await {
                return server_failure("revoke_token", &e);
            }
        }
        Answer { status: 200, headers: vec![], body: Bytes::new() }.no_store()
    }
}

/// The shape checks of a registration request (the official `OAuthClientMetadata` model):
/// the defaults it fills in, or what is wrong.
fn check_client_metadata(metadata: &mut Map<String, Value>) -> Result<(), String> {
    let mut problems = Vec::new();
    match metadata.get("redirect_uris") {
        None => problems.push("redirect_uris: Field required".to_owned()),
        Some(Value::Null) => {}
        Some(Value::Array(uris)) if uris.is_empty() => {
            problems.push("redirect_uris: List should have at least 1 item after validation, not 0".into())
        }
        Some(Value::Array(uris)) => {
            for (i, uri) in uris.iter().enumerate() {
                if uri.as_str().and_then(normalized_url).is_none() {
                    problems.push(format!("redirect_uris.{i}: Input should be a valid URL"));
                }
            }
        }
        Some(_) => problems.push("redirect_uris: Input should be a valid list".into()),
    }
    for (key, default) in [("grant_types", default_grant_types()), ("response_types", vec!["code".into()])] {
        match metadata.get(key) {
            None | Some(Value::Null) => {
                metadata.insert(key.into(), json!(default));
            }
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => {}
            Some(_) => problems.push(format!("{key}: Input should be a valid list of strings")),
        }
    }
    match metadata.get("token_endpoint_auth_method") {
        None | Some(Value::Null) => {}
        Some(Value::String(method))
            if ["none", "client_secret_post", "client_secret_basic", "private_key_jwt"].contains(&method.as_str()) => {}
        Some(_) => problems.push(
            "token_endpoint_auth_method: Input should be 'none', 'client_secret_post', 'client_secret_basic' \
             or 'private_key_jwt'"
                .into(),
        ),
    }
    if metadata.get("scope").is_some_and(|s| !s.is_null() && !s.is_string()) {
        problems.push("scope: Input should be a valid string".into());
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n")) }
}

/// The error path of `/authorize` (RFC 6749 §4.1.2.1): a redirect back to the client
/// when its client and redirect URI are known, else a 400 JSON body to the user agent.
struct Attempt<'a> {
    server: &'a AuthServer,
    params: &'a Form,
    client: Option<Held<ClientInfo>>,
    redirect_uri: Option<String>,
}

impl Attempt<'_> {
    async fn error(&mut self, error: &str, description: Option<&str>, load_client: bool) -> Answer {
        if self.client.is_none() && load_client {
            if let Some(id) = self.params.get("client_id").filter(|id| !id.is_empty()) {
                self.client = self.server.provider.get_client(id.clone()).await.ok().flatten();
            }
        }
        if self.redirect_uri.is_none() {
            if let Some(client) = &self.client {
                let requested = match self.params.get("redirect_uri") {
                    None => Some(None),
                    Some(uri) => normalized_url(uri).map(Some),
                };
                if let Some(requested) = requested {
                    self.redirect_uri = validate_redirect_uri(&client.value, requested.as_deref()).ok();
                }
            }
        }
        let state = self.params.get("state").map(String::as_str);
        let mut fields: Vec<(&str, &str)> = vec![("error", error)];
        if let Some(description) = description {
            fields.push(("error_description", description));
        }
        if let Some(state) = state {
            fields.push(("state", state));
        }
        match (&self.redirect_uri, &self.client) {
            (Some(redirect), Some(_)) => Answer { status: 302, headers: vec![], body: Bytes::new() }
                .header("location", construct_redirect_uri(redirect, &fields))
                .header("cache-control", "no-store"),
            _ => {
                let body: Map<String, Value> = fields.iter().map(|(k, v)| ((*k).to_owned(), json!(v))).collect();
                Answer::json(400, &Value::Object(body)).header("cache-control", "no-store")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(redirect_uris: &[&str], scope: Option<&str>) -> ClientInfo {
        serde_json::from_value(json!({"client_id": "c", "redirect_uris": redirect_uris, "scope": scope})).unwrap()
    }

    #[test]
    fn redirect_uris_and_scopes_are_checked_as_the_official_client_model_does() {
        let one = client(&["http://localhost:3000"], Some("a b"));
        // pydantic's URL form: a bare origin gets its `/`.
        assert_eq!(validate_redirect_uri(&one, None).unwrap(), "http://localhost:3000/");
        assert_eq!(validate_redirect_uri(&one, Some("http://localhost:3000/")).unwrap(), "http://localhost:3000/");
        assert!(validate_redirect_uri(&one, Some("http://localhost:3001/")).is_err());
        let two = client(&["http://a.example/cb", "http://b.example/cb"], None);
        assert!(validate_redirect_uri(&two, None).unwrap_err().contains("exactly one"));
        assert_eq!(validate_scope(&one, Some("b a")).unwrap(), Some(vec!["b".into(), "a".into()]));
        assert_eq!(validate_scope(&one, None).unwrap(), None);
        assert_eq!(validate_scope(&one, Some("c")).unwrap_err(), "Client was not registered with scope c");
        assert!(validate_scope(&two, Some("a")).is_err());
    }

    #[test]
    fn basic_credentials_decode_and_compare() {
        assert_eq!(percent_decode("a%3Ab%20c+d").as_deref(), Some("a:b c+d"));
        assert_eq!(percent_decode("100%").as_deref(), Some("100%"));
        assert_eq!(percent_decode("%ff"), None);
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"secret", b"secret2"));
        assert_eq!(python_list(&["a".into(), "b".into()]), "['a', 'b']");
        let id = uuid4().unwrap();
        assert_eq!((id.len(), &id[14..15]), (36, "4"));
        assert_eq!(random_hex(32).unwrap().len(), 64);
    }
}
