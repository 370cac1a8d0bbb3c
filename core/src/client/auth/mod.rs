//! The OAuth 2.1 client of the MCP authorization specification, for Streamable HTTP (and
//! the HTTP+SSE fallback): what a host needs to reach a protected MCP server.
//!
//! The HTTP transport asks [`OAuth`] for the bearer token of each request
//! ([`OAuth::bearer`], which refreshes a token about to expire), and hands it a 401
//! ([`OAuth::unauthorized`]: refresh, else discovery and a new authorization) or a 403
//! `insufficient_scope` ([`OAuth::forbidden`]: authorization again with the union of the
//! scopes), then sends the request once more. The protocol decisions are all here, once:
//! discovery order ([`discovery`]), client registration (pre-registered, client ID
//! metadata document, dynamic registration), PKCE S256, the `resource` parameter (RFC
//! 8707), scope selection, refresh timing, the `iss` check (RFC 9207), the
//! client-credentials grant ([`flow`]), the identity-assertion grant of SEP-990
//! ([`assertion`]). What belongs to the host stays the host's, behind [`OAuthHandler`]:
//! where tokens and the client registration are stored, how the user is sent to the
//! authorization URL and the redirect is caught, and where an identity assertion comes
//! from.
//!
//! Written on reqwest and serde rather than the `oauth2` crate: `oauth2` covers the token
//! requests only (no RFC 9728 discovery, no client ID metadata documents, no step-up), its
//! type-state client wants the endpoints known when it is built while MCP learns them
//! from a 401 at run time, and it would bring a second HTTP stack beside the transport's.

mod assertion;
pub mod cross_app;
pub mod discovery;
pub mod flow;

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::Url;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::peer::BoxFuture;
pub use assertion::{ID_JAG_TOKEN_TYPE, JWT_BEARER_GRANT_TYPE};
pub use discovery::Challenge;

/// Why a request fails while the host has yet to call [`OAuth::finish_auth`].
pub(crate) const WAITING: &str = "authorization needs the user: finish it with the code the redirect carries";

/// Authorization failed, or needs the host to finish it ([`OAuth::finish_auth`]).
#[derive(Clone, Debug, thiserror::Error)]
#[error("{message}")]
pub struct AuthError {
    pub message: String,
    /// The user was sent to the authorization URL and the flow waits for
    /// [`OAuth::finish_auth`] (the official SDKs' `UnauthorizedError`).
    pub redirected: bool,
    /// Which step failed, for the bindings' error classes (the official Python SDK's
    /// `OAuthRegistrationError`, `OAuthTokenError`, `OAuthFlowError`; the TypeScript
    /// SDK's `IssuerMismatchError`).
    pub kind: AuthErrorKind,
    /// What did not match, when `kind` is [`AuthErrorKind::IssuerMismatch`].
    pub issuer_mismatch: Option<IssuerMismatch>,
    /// The OAuth error the authorization server answered with (token endpoint,
    /// registration), as [`flow::parse_error_response`] read it.
    pub oauth_error: Option<Box<OAuthErrorResponse>>,
}

/// An OAuth error response (RFC 6749 section 5.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OAuthErrorResponse {
    pub error: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_uri: Option<String>,
}

/// An authorization server's issuer that is not the one expected: a mix-up indication,
/// fatal for the flow (the official TypeScript SDK's `IssuerMismatchError`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IssuerMismatch {
    pub check: IssuerCheck,
    /// The issuer the client expected (from the metadata's address, or the validated
    /// metadata), when it had one.
    pub expected: Option<String>,
    /// What came instead (absent: the redirect carried no `iss`). On the
    /// authorization-response path an attacker may choose it: never show it to users.
    pub received: Option<String>,
}

/// Which issuer check failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IssuerCheck {
    /// The `issuer` in fetched authorization server metadata (RFC 8414 section 3.3).
    Metadata,
    /// The redirect's `iss` (RFC 9207 section 2.4).
    AuthorizationResponse,
}

impl IssuerCheck {
    /// The official spelling (`"metadata"`, `"authorization_response"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Metadata => "metadata",
            Self::AuthorizationResponse => "authorization_response",
        }
    }
}

/// The step of an authorization that failed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AuthErrorKind {
    /// Discovery, the redirect, the host's callbacks: anything but the two below.
    #[default]
    Flow,
    /// Client registration (RFC 7591) failed or answered no registration.
    Registration,
    /// The token endpoint refused or answered no token response.
    Token,
    /// An issuer check failed ([`AuthError::issuer_mismatch`] says which and how).
    IssuerMismatch,
}

impl AuthErrorKind {
    /// The name the bindings read (`"flow"`, `"registration"`, `"token"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Flow => "flow",
            Self::Registration => "registration",
            Self::Token => "token",
            Self::IssuerMismatch => "issuer_mismatch",
        }
    }
}

impl AuthError {
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            redirected: false,
            kind: AuthErrorKind::Flow,
            issuer_mismatch: None,
            oauth_error: None,
        }
    }

    /// A failed issuer check, said in `message` (each official SDK words its own; the
    /// bindings' typed errors read the fields).
    pub fn issuer_mismatch(
        message: impl Into<String>,
        check: IssuerCheck,
        expected: Option<&str>,
        received: Option<&str>,
    ) -> Self {
        let mismatch =
            IssuerMismatch { check, expected: expected.map(str::to_owned), received: received.map(str::to_owned) };
        Self { kind: AuthErrorKind::IssuerMismatch, issuer_mismatch: Some(mismatch), ..Self::new(message) }
    }

    /// The error's `data` when it fails a request (`{"oauth": {redirected, kind, issuer?}}`,
    /// `issuer` being `{check, expected?, received?}` for a failed issuer check), which the
    /// bindings read for their error classes.
    pub fn data(&self) -> Value {
        let mut oauth = Map::new();
        oauth.insert("redirected".into(), self.redirected.into());
        oauth.insert("kind".into(), self.kind.as_str().into());
        if let Some(mismatch) = &self.issuer_mismatch {
            let mut issuer = Map::new();
            issuer.insert("check".into(), mismatch.check.as_str().into());
            for (name, value) in [("expected", &mismatch.expected), ("received", &mismatch.received)] {
                if let Some(value) = value {
                    issuer.insert(name.into(), value.clone().into());
                }
            }
            oauth.insert("issuer".into(), issuer.into());
        }
        let mut data = Map::new();
        data.insert("oauth".into(), oauth.into());
        data.into()
    }

    pub(crate) fn of(kind: AuthErrorKind, message: impl Into<String>) -> Self {
        Self { kind, ..Self::new(message) }
    }

    fn waiting() -> Self {
        Self { redirected: true, ..Self::new(WAITING) }
    }
}

/// An OAuth token response (RFC 6749 section 5.1), as stored.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OAuthTokens {
    pub access_token: String,
    #[serde(default = "bearer")]
    pub token_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_in: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
}

fn bearer() -> String {
    "Bearer".into()
}

/// A client registration: pre-registered, from dynamic registration (the whole RFC 7591
/// response, in `extra`), or a client ID metadata document URL as the `client_id`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OAuthClientInformation {
    pub client_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_endpoint_auth_method: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// What the authorization server's redirect carried back (RFC 6749 section 4.1.2, RFC
/// 9207's `iss`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AuthorizationResponse {
    pub code: String,
    pub state: Option<String>,
    pub iss: Option<String>,
}

impl AuthorizationResponse {
    /// Reads `code`, `state` and `iss` from the redirect URL (or its query alone).
    pub fn from_redirect(url: &str) -> Result<Self, AuthError> {
        let query = match Url::parse(url) {
            Ok(url) => url.query().unwrap_or_default().to_owned(),
            Err(_) => url.trim_start_matches('?').to_owned(),
        };
        let mut response = AuthorizationResponse::default();
        let mut error = None;
        for (name, value) in form_urlencoded::parse(query.as_bytes()) {
            match &*name {
                "code" => response.code = value.into_owned(),
                "state" => response.state = Some(value.into_owned()),
                "iss" => response.iss = Some(value.into_owned()),
                "error" => error = Some(value.into_owned()),
                _ => {}
            }
        }
        if let Some(error) = error {
            return Err(AuthError::new(format!("the authorization server refused: {error}")));
        }
        if response.code.is_empty() {
            return Err(AuthError::new("the redirect carries no authorization code"));
        }
        Ok(response)
    }
}

/// The host's side: storage, and sending the user to the authorization server.
pub trait OAuthHandler: Send + Sync {
    fn tokens(&self) -> BoxFuture<Result<Option<OAuthTokens>, AuthError>>;
    fn save_tokens(&self, tokens: OAuthTokens) -> BoxFuture<Result<(), AuthError>>;
    fn client_information(&self) -> BoxFuture<Result<Option<OAuthClientInformation>, AuthError>>;
    fn save_client_information(&self, info: OAuthClientInformation) -> BoxFuture<Result<(), AuthError>>;
    /// Sends the user to `url`. `Some` with what the redirect carried when the host caught
    /// it (the official Python SDK's redirect and callback handlers); `None` when the host
    /// finishes later with [`OAuth::finish_auth`] (the TypeScript SDK's way).
    fn authorize(&self, url: String) -> BoxFuture<Result<Option<AuthorizationResponse>, AuthError>>;
    /// The stored tokens (`"tokens"`), registration (`"client"`) or everything (`"all"`)
    /// are no good any more.
    fn invalidate(&self, _what: &'static str) -> BoxFuture<Result<(), AuthError>> {
        Box::pin(async { Ok(()) })
    }
    /// The `state` parameter of the next authorization request when the host chooses it
    /// (the TypeScript SDK's `state()`); `None`: core draws a random one.
    fn state(&self) -> Option<BoxFuture<Result<String, AuthError>>> {
        None
    }
    /// Keeps the PKCE verifier of the authorization just started, so that
    /// [`OAuth::finish_auth`] on another [`OAuth`] (a new connection) can finish it.
    fn save_code_verifier(&self, _verifier: String) -> BoxFuture<Result<(), AuthError>> {
        Box::pin(async { Ok(()) })
    }
    /// The verifier [`Self::save_code_verifier`] kept; read only when this [`OAuth`]
    /// did not start the authorization being finished.
    fn code_verifier(&self) -> BoxFuture<Result<Option<String>, AuthError>> {
        Box::pin(async { Ok(None) })
    }
    /// What discovery found, to keep: `authorization_server_url`, `resource_metadata_url`,
    /// `resource_metadata`, `authorization_server_metadata` (the TypeScript SDK's
    /// `saveDiscoveryState`).
    fn save_discovery_state(&self, _state: Value) -> BoxFuture<Result<(), AuthError>> {
        Box::pin(async { Ok(()) })
    }
    /// What [`Self::save_discovery_state`] kept, used instead of discovering again (a new
    /// connection, or finishing an authorization another connection started) unless a
    /// challenge names other metadata; the same checks apply.
    fn discovery_state(&self) -> BoxFuture<Result<Option<Value>, AuthError>> {
        Box::pin(async { Ok(None) })
    }
    /// A fresh assertion for the identity-assertion grants ([`Grant::IdentityAssertion`],
    /// [`Grant::DiscoveredIdentityAssertion`]): the ID-JAG the enterprise identity provider
    /// issues for the request's `audience` and `resource`. Asked for once per token
    /// request, after the authorization server's metadata has been checked, and never
    /// kept: an ID-JAG is single-use.
    fn assertion(&self, _request: AssertionRequest) -> BoxFuture<Result<String, AuthError>> {
        Box::pin(async {
            Err(AuthError::new("the identity-assertion grant needs an assertion provider; this host gives none"))
        })
    }
}

/// What an identity assertion is asked for ([`OAuthHandler::assertion`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AssertionRequest {
    /// The authorization server's issuer: the ID-JAG's `aud`.
    pub audience: String,
    /// The MCP server's resource identifier: the ID-JAG's `resource` claim.
    pub resource: String,
    /// The scopes the token request asks for, if any.
    pub scope: Option<String>,
}

/// Which grant gets the tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Grant {
    /// Authorization code with PKCE, the user in the loop.
    AuthorizationCode,
    /// Machine to machine (the `io.modelcontextprotocol/oauth-client-credentials`
    /// extension): the registration's own credentials, no user.
    ClientCredentials,
    /// SEP-990 (Enterprise-Managed Authorization): the RFC 7523 `jwt-bearer` grant with an
    /// identity assertion (an ID-JAG) from [`OAuthHandler::assertion`], by a pre-registered
    /// confidential client. The authorization server is configuration: its metadata is
    /// read from `issuer`'s own well-known URL, and the MCP server is never asked which
    /// authorization server to use (see [`assertion`]).
    IdentityAssertion {
        /// The authorization server's issuer, compared character for character with the
        /// `issuer` its metadata names (RFC 8414 section 3.3).
        issuer: String,
        /// The MCP server whose canonical URI is the `resource` asked for; `None`: the
        /// server the connection reaches.
        server_url: Option<String>,
    },
    /// SEP-990 as the TypeScript SDK's `CrossAppAccessProvider` runs it: the same
    /// `jwt-bearer` grant and client, with the authorization server the MCP server's
    /// protected resource metadata names (RFC 9728, required: without it there is no
    /// resource to name in the assertion), discovered and checked as for the other grants.
    /// The assertion is asked for that server's issuer and the metadata's resource, with
    /// the scopes the request selected. The identity provider decides whether it issues an
    /// assertion for that audience; [`Grant::IdentityAssertion`] is the variant that never
    /// lets the resource server name the audience.
    DiscoveredIdentityAssertion,
}

impl Grant {
    /// Whether tokens come without a user, so an expiring one is replaced before the
    /// next request.
    fn unattended(&self) -> bool {
        matches!(self, Self::ClientCredentials | Self::IdentityAssertion { .. } | Self::DiscoveredIdentityAssertion)
    }

    /// Whether a refresh token is used. Not with an identity assertion: the identity
    /// provider decides how long access lasts by issuing the next assertion, or not.
    fn refreshes(&self) -> bool {
        !matches!(self, Self::IdentityAssertion { .. } | Self::DiscoveredIdentityAssertion)
    }
}

/// How a client authorizes.
#[derive(Clone)]
pub struct OAuthOptions {
    /// The client's metadata (RFC 7591: `redirect_uris`, `client_name`, `grant_types`,
    /// `token_endpoint_auth_method`, `scope`...), sent for dynamic registration.
    pub client_metadata: Value,
    /// The HTTPS URL of this client's metadata document, used as its `client_id` where
    /// the authorization server supports client ID metadata documents.
    pub client_metadata_url: Option<String>,
    pub grant: Grant,
    /// How long before expiry a token is refreshed (at most half its lifetime).
    pub refresh_margin: Duration,
    /// Scopes asked for on top of those the server names (the challenge's, else the
    /// protected resource metadata's, else the client metadata's `scope`): what a user
    /// asks for beyond the server's minimum. Space-separated.
    pub extra_scope: Option<String>,
    pub handler: Arc<dyn OAuthHandler>,
}

impl OAuthOptions {
    pub fn new(client_metadata: Value, handler: Arc<dyn OAuthHandler>) -> Self {
        Self {
            client_metadata,
            client_metadata_url: None,
            grant: Grant::AuthorizationCode,
            refresh_margin: Duration::from_secs(30),
            extra_scope: None,
            handler,
        }
    }
}

/// What was learnt about the server and its authorization server.
#[derive(Clone, Debug, Default)]
struct Discovered {
    /// The `resource` parameter (RFC 8707).
    resource: Option<String>,
    /// `scopes_supported` of the protected resource metadata.
    resource_scopes: Option<String>,
    issuer: Option<String>,
    metadata: Value,
}

impl std::fmt::Debug for OAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuth").field("grant", &self.options.grant).finish_non_exhaustive()
    }
}

/// A flow waiting for the host's [`OAuth::finish_auth`].
#[derive(Clone, Debug)]
struct Pending {
    verifier: String,
    state: String,
    redirect_uri: String,
    scope: Option<String>,
}

#[derive(Default)]
struct State {
    discovered: Option<Discovered>,
    tokens: Option<OAuthTokens>,
    /// When the current tokens expire.
    expires_at: Option<Instant>,
    /// The scopes the last authorization asked for.
    scope: Option<String>,
    pending: Option<Pending>,
    loaded: bool,
}

/// The HTTP client of the authorization requests: the state's own, or the host's.
pub struct Http {
    client: reqwest::Client,
    exchange: Option<crate::client::http::HttpExchange>,
}

impl Http {
    pub fn get(&self, url: Url) -> reqwest::RequestBuilder {
        self.client.get(url)
    }

    pub fn post(&self, url: Url) -> reqwest::RequestBuilder {
        self.client.post(url)
    }

    pub async fn send(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<reqwest::Response, crate::client::http::SendError> {
        crate::client::http::send(self.exchange.as_ref(), request).await
    }
}

/// One client's OAuth state for one MCP server; shared by every request of a connection.
pub struct OAuth {
    options: OAuthOptions,
    /// For the authorization requests: the connection's TLS settings, no redirects.
    http: std::sync::Mutex<reqwest::Client>,
    /// The host's HTTP client, when the connection sends through one (see
    /// [`Exchange`](crate::client::http::Exchange)): the authorization requests go there too.
    exchange: std::sync::Mutex<Option<crate::client::http::HttpExchange>>,
    server: std::sync::Mutex<Option<Url>>,
    /// The authorization server that issued the registration this client made.
    registered_at: std::sync::Mutex<Option<String>>,
    state: tokio::sync::Mutex<State>,
}

impl OAuth {
    pub fn new(options: OAuthOptions) -> Result<Arc<Self>, AuthError> {
        if options.grant == Grant::AuthorizationCode && redirect_uri(&options.client_metadata).is_none() {
            return Err(AuthError::new("client_metadata.redirect_uris must name the redirect URI"));
        }
        let http = crate::client::http::http_client(&crate::tls::ClientTls::default())
            .map_err(|e| AuthError::new(format!("no HTTP client: {e}")))?
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| AuthError::new(format!("no HTTP client: {e}")))?;
        Ok(Arc::new(Self {
            options,
            http: std::sync::Mutex::new(http),
            exchange: std::sync::Mutex::new(None),
            server: std::sync::Mutex::new(None),
            registered_at: std::sync::Mutex::new(None),
            state: tokio::sync::Mutex::new(State::default()),
        }))
    }

    /// Ties this state to the MCP server at `server`, reached with `tls` (a connection
    /// does it; a host that finishes an authorization before any connection of this state,
    /// with [`Self::finish_auth`], does it first).
    pub fn bind(&self, server: &Url, tls: &crate::tls::ClientTls) -> std::io::Result<()> {
        let http = crate::client::http::http_client(tls)?.redirect(reqwest::redirect::Policy::none());
        *self.http.lock().unwrap() = http.build().map_err(std::io::Error::other)?;
        *self.server.lock().unwrap() = Some(server.clone());
        Ok(())
    }

    /// Sends the authorization requests through the host's HTTP client (`None`: the
    /// state's own).
    pub fn bind_exchange(&self, exchange: Option<crate::client::http::HttpExchange>) {
        *self.exchange.lock().unwrap() = exchange;
    }

    fn http(&self) -> Http {
        Http { client: self.http.lock().unwrap().clone(), exchange: self.exchange.lock().unwrap().clone() }
    }

    fn server(&self) -> Result<Url, AuthError> {
        self.server.lock().unwrap().clone().ok_or_else(|| AuthError::new("OAuth is not tied to a server yet"))
    }

    /// The access token for the next request, refreshed first when it is about to expire;
    /// `None` before any authorization (the server's 401 starts it).
    pub async fn bearer(&self) -> Result<Option<String>, AuthError> {
        let mut state = self.state.lock().await;
        self.load(&mut state).await?;
        let Some(tokens) = state.tokens.clone() else { return Ok(None) };
        if self.expiring(&state) {
            if self.options.grant.refreshes()
                && tokens.refresh_token.is_some()
                && self.refresh(&mut state).await.is_ok()
            {
                return Ok(state.tokens.as_ref().map(|t| t.access_token.clone()));
            }
            if self.options.grant.unattended() {
                self.authorize(&mut state, Challenge::default()).await?;
                return Ok(state.tokens.as_ref().map(|t| t.access_token.clone()));
            }
        }
        Ok(Some(tokens.access_token))
    }

    /// The server answered 401 to a request sent with `sent` (the token, if any): refresh,
    /// else authorize anew. Returns when a new token is ready.
    pub async fn unauthorized(&self, challenge: Challenge, sent: Option<&str>) -> Result<(), AuthError> {
        let mut state = self.state.lock().await;
        self.load(&mut state).await?;
        let current = state.tokens.as_ref().map(|t| t.access_token.as_str());
        if current.is_some() && current != sent {
            // Another request already got a new token.
            return Ok(());
        }
        if state.pending.is_some() {
            // The user is already on their way to the authorization server (a request
            // that followed the first one, such as the era probe's fallback): one trip.
            return Err(AuthError::waiting());
        }
        if let Grant::IdentityAssertion { .. } = self.options.grant {
            // The resource server is never asked anything: not where to authorize, not
            // which scopes (SEP-990 as the official SDK does it).
            return self.authorize(&mut state, Challenge::default()).await;
        }
        if challenge.resource_metadata.is_some() || state.discovered.is_none() {
            state.discovered = Some(self.discover(&state, &challenge).await?);
        }
        let refreshable =
            self.options.grant.refreshes() && state.tokens.as_ref().is_some_and(|t| t.refresh_token.is_some());
        if sent.is_some() && refreshable && self.refresh(&mut state).await.is_ok() {
            return Ok(());
        }
        self.authorize(&mut state, challenge).await
    }

    /// The server answered 403: with `insufficient_scope`, authorize again asking for the
    /// scopes already granted and those the challenge names. Anything else is final.
    pub async fn forbidden(&self, challenge: Challenge, sent: Option<&str>) -> Result<(), AuthError> {
        if challenge.error.as_deref() != Some("insufficient_scope") {
            return Err(AuthError::new("the server refused the request (HTTP 403)"));
        }
        let mut state = self.state.lock().await;
        let current = state.tokens.as_ref().map(|t| t.access_token.as_str());
        if current.is_some() && current != sent {
            return Ok(());
        }
        if let Grant::IdentityAssertion { .. } = self.options.grant {
            // The configured scopes and the challenged ones; where the metadata lives is
            // configuration, whatever the challenge names.
            let scope = union(self.configured_scope().as_deref(), challenge.scope.as_deref());
            return self.authorize(&mut state, Challenge { scope, ..Challenge::default() }).await;
        }
        if challenge.resource_metadata.is_some() || state.discovered.is_none() {
            state.discovered = Some(self.discover(&state, &challenge).await?);
        }
        let granted = state.tokens.as_ref().and_then(|t| t.scope.clone()).or_else(|| state.scope.clone());
        let scope = union(granted.as_deref(), challenge.scope.as_deref());
        let challenge = Challenge { scope, ..challenge };
        self.authorize(&mut state, challenge).await
    }

    /// Completes an authorization the host finished itself: the code (or the whole
    /// redirect URL) the authorization server sent back.
    pub async fn finish_auth(&self, code_or_redirect: &str) -> Result<(), AuthError> {
        let response = if code_or_redirect.contains("code=") {
            AuthorizationResponse::from_redirect(code_or_redirect)?
        } else {
            AuthorizationResponse { code: code_or_redirect.to_owned(), ..AuthorizationResponse::default() }
        };
        let mut state = self.state.lock().await;
        let pending = match state.pending.take() {
            Some(pending) => pending,
            None => self.pending_elsewhere(&mut state, &response).await?,
        };
        self.exchange(&mut state, pending, response, false).await
    }

    /// An authorization another [`OAuth`] started (an earlier connection with the same
    /// handler): its verifier as the handler kept it, discovery done anew.
    async fn pending_elsewhere(
        &self,
        state: &mut State,
        response: &AuthorizationResponse,
    ) -> Result<Pending, AuthError> {
        let verifier = self
            .options
            .handler
            .code_verifier()
            .await?
            .ok_or_else(|| AuthError::new("no authorization is waiting to be finished"))?;
        if state.discovered.is_none() {
            state.discovered = Some(self.discover(state, &Challenge::default()).await?);
        }
        Ok(Pending {
            verifier,
            // The `state` check belongs to whoever kept it (the TypeScript SDK leaves it
            // to the host's callback handler).
            state: response.state.clone().unwrap_or_default(),
            redirect_uri: redirect_uri(&self.options.client_metadata).unwrap_or_default().to_owned(),
            scope: None,
        })
    }

    async fn load(&self, state: &mut State) -> Result<(), AuthError> {
        if state.loaded {
            return Ok(());
        }
        let tokens = self.options.handler.tokens().await?;
        state.expires_at = tokens.as_ref().and_then(|t| t.expires_in).map(|s| Instant::now() + Duration::from_secs(s));
        state.tokens = tokens;
        state.loaded = true;
        Ok(())
    }

    fn expiring(&self, state: &State) -> bool {
        let (Some(at), Some(tokens)) = (state.expires_at, &state.tokens) else { return false };
        let lifetime = Duration::from_secs(tokens.expires_in.unwrap_or_default());
        let margin = self.options.refresh_margin.min(lifetime / 2);
        at.saturating_duration_since(Instant::now()) <= margin
    }

    async fn store(&self, state: &mut State, mut tokens: OAuthTokens) -> Result<(), AuthError> {
        if tokens.refresh_token.is_none() {
            tokens.refresh_token = state.tokens.as_ref().and_then(|t| t.refresh_token.clone());
        }
        state.expires_at = tokens.expires_in.map(|s| Instant::now() + Duration::from_secs(s));
        self.options.handler.save_tokens(tokens.clone()).await?;
        state.tokens = Some(tokens);
        Ok(())
    }
}

/// Whether a request failed because its authorization did (the HTTP transport marks the
/// error with `data.oauth`).
pub fn is_auth_failure(error: &crate::wire::ErrorObject) -> bool {
    let data = error.data.as_ref().and_then(|data| data.parse_owned::<Value>().ok());
    data.is_some_and(|data| data.get("oauth").is_some())
}

impl OAuth {
    /// The scopes the client metadata asks for (`scope`, space-separated).
    fn configured_scope(&self) -> Option<String> {
        let scope = self.options.client_metadata.get("scope").and_then(Value::as_str)?;
        (!scope.trim().is_empty()).then(|| scope.to_owned())
    }
}

/// The first redirect URI of the client metadata.
fn redirect_uri(metadata: &Value) -> Option<&str> {
    metadata.get("redirect_uris")?.as_array()?.first()?.as_str()
}

/// The scopes of `a` and then those of `b` not in `a`, space-separated.
fn union(a: Option<&str>, b: Option<&str>) -> Option<String> {
    let mut scopes: Vec<&str> = Vec::new();
    for scope in a.into_iter().chain(b).flat_map(str::split_whitespace) {
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    (!scopes.is_empty()).then(|| scopes.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_union_keeps_order_once() {
        assert_eq!(union(Some("a b"), Some("b c")).as_deref(), Some("a b c"));
        assert_eq!(union(None, None), None);
    }

    #[test]
    fn redirect_carries_code_state_and_issuer() {
        let r = AuthorizationResponse::from_redirect("http://localhost/cb?code=x&state=s&iss=http%3A%2F%2Fa").unwrap();
        assert_eq!((r.code.as_str(), r.state.as_deref(), r.iss.as_deref()), ("x", Some("s"), Some("http://a")));
        assert!(AuthorizationResponse::from_redirect("http://localhost/cb?error=access_denied").is_err());
    }
}
