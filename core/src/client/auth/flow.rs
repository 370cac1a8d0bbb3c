//! The steps of an authorization: discovery into [`Discovered`], client registration,
//! the authorization request with PKCE S256 and `state`, the checks on the redirect
//! (`state`, RFC 9207 `iss`), and the token endpoint's three grants (authorization code,
//! refresh token, client credentials) with the client authentication the registration
//! and the server's metadata call for (`client_secret_basic`, `client_secret_post`,
//! `none`).
//!
//! The requests themselves are public free functions ([`start_authorization`],
//! [`exchange_authorization`], [`refresh_authorization`], [`register_client`],
//! [`request_token`], [`select_client_auth_method`], [`parse_error_response`]): the
//! official TypeScript SDK's standalone OAuth functions, which the bindings expose, and
//! the steps the connection's flow below is made of, so both do one thing one way.

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use reqwest::Url;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::AuthErrorKind::{Registration, Token};
use super::discovery::{
    Challenge, canonical_resource, discover_authorization_server_metadata, discover_protected_resource_metadata,
    same_issuer, select_resource,
};
use super::{
    AuthError, AuthErrorKind, AuthorizationResponse, Discovered, Grant, Http, IssuerCheck, OAuth,
    OAuthClientInformation, OAuthErrorResponse, OAuthTokens, Pending, State, redirect_uri,
};
use crate::protocol::ProtocolVersion;

/// The `MCP-Protocol-Version` of the discovery requests the connection's flow makes.
const DISCOVERY_VERSION: &str = ProtocolVersion::LATEST_LEGACY.as_str();

impl OAuth {
    /// Protected resource metadata, then the authorization server's metadata; what the
    /// handler kept from an earlier discovery when the challenge names no other metadata.
    pub(super) async fn discover(&self, _state: &State, challenge: &Challenge) -> Result<Discovered, AuthError> {
        if let Grant::IdentityAssertion { issuer, server_url } = &self.options.grant {
            return self.discover_configured(issuer, server_url.as_deref()).await;
        }
        let server = self.server()?;
        if challenge.resource_metadata.is_none()
            && let Some(kept) = self.options.handler.discovery_state().await?
            && let (Some(issuer), Some(metadata)) =
                (kept["authorization_server_url"].as_str(), kept.get("authorization_server_metadata"))
        {
            let prm = kept.get("resource_metadata").filter(|prm| prm.is_object()).cloned();
            if prm.is_none() {
                self.needs_resource_metadata()?;
            }
            return judge(&server, prm, issuer.to_owned(), metadata.clone());
        }
        let http = self.http();
        let Some((prm_url, prm)) = resource_metadata(&http, &server, challenge).await else {
            self.needs_resource_metadata()?;
            // A 2025-03-26 server: it is its own authorization server.
            let origin = server.join("/").map_err(|e| AuthError::new(e.to_string()))?;
            let metadata = discover_authorization_server_metadata(&http, &origin, DISCOVERY_VERSION)
                .await?
                .unwrap_or_else(|| default_endpoints(&origin));
            let issuer = origin.as_str().trim_end_matches('/').to_owned();
            let kept = json!({"authorization_server_url": issuer, "authorization_server_metadata": metadata});
            self.options.handler.save_discovery_state(kept).await?;
            return judge(&server, None, issuer, metadata);
        };
        let issuer = prm
            .pointer("/authorization_servers/0")
            .and_then(Value::as_str)
            .ok_or_else(|| AuthError::new("the protected resource metadata names no authorization server"))?
            .to_owned();
        let issuer_url = Url::parse(&issuer).map_err(|e| AuthError::new(format!("bad issuer {issuer:?}: {e}")))?;
        let metadata = discover_authorization_server_metadata(&http, &issuer_url, DISCOVERY_VERSION)
            .await?
            .ok_or_else(|| AuthError::new(format!("the authorization server {issuer} publishes no metadata")))?;
        let discovered = judge(&server, Some(prm.clone()), issuer.clone(), metadata.clone())?;
        let kept = json!({
            "authorization_server_url": issuer,
            "resource_metadata_url": prm_url.as_str(),
            "resource_metadata": prm,
            "authorization_server_metadata": metadata,
        });
        self.options.handler.save_discovery_state(kept).await?;
        Ok(discovered)
    }

    /// The grant that names the protected resource metadata's `resource` in its assertion
    /// cannot go on without that metadata (the TypeScript SDK's words).
    fn needs_resource_metadata(&self) -> Result<(), AuthError> {
        if self.options.grant == Grant::DiscoveredIdentityAssertion {
            return Err(AuthError::new(
                "Resource URL not available \u{2014} server may not implement RFC 9728 Protected Resource Metadata \
                 (required for Cross-App Access)",
            ));
        }
        Ok(())
    }

    /// Gets new tokens with the configured grant.
    pub(super) async fn authorize(&self, state: &mut State, challenge: Challenge) -> Result<(), AuthError> {
        if state.discovered.is_none() {
            state.discovered = Some(self.discover(state, &challenge).await?);
        }
        let discovered = state.discovered.clone().unwrap_or_default();
        let scope = self.select_scope(&discovered, &challenge);
        match self.options.grant {
            Grant::ClientCredentials => {
                let info = self.options.handler.client_information().await?.ok_or_else(|| {
                    AuthError::new("the client-credentials grant needs the client's registration (client_id, secret)")
                })?;
                let mut form = vec![("grant_type", "client_credentials".to_owned())];
                form.extend(scope.clone().map(|s| ("scope", s)));
                let endpoint = token_endpoint(&authorization_server(&discovered)?, Some(&discovered.metadata))?;
                let (http, resource) = (self.http(), discovered.resource.as_deref());
                let tokens =
                    request_token(&http, &endpoint, form, Some(&info), &supported(&discovered), resource).await?;
                state.scope = scope;
                self.store(state, tokens).await
            }
            Grant::AuthorizationCode => self.authorization_code(state, &discovered, scope).await,
            Grant::DiscoveredIdentityAssertion => {
                let tokens = self.present_assertion(&discovered, scope.clone()).await?;
                state.scope = scope;
                self.store(state, tokens).await
            }
            Grant::IdentityAssertion { .. } => {
                // The scopes the client was configured with, or (a step-up) the union the
                // caller put in the challenge: never the resource server's suggestions.
                let scope = challenge.scope.clone().or_else(|| self.configured_scope());
                let tokens = self.present_assertion(&discovered, scope.clone()).await?;
                state.scope = scope;
                self.store(state, tokens).await
            }
        }
    }

    /// The challenge's scopes, else those the resource metadata lists, else the client's
    /// own; with the options' `extra_scope` added, and `offline_access` where the
    /// authorization server offers it (for a refresh token).
    fn select_scope(&self, discovered: &Discovered, challenge: &Challenge) -> Option<String> {
        let scope = challenge
            .scope
            .clone()
            .or_else(|| discovered.resource_scopes.clone())
            .or_else(|| self.options.client_metadata.get("scope").and_then(Value::as_str).map(str::to_owned))
            .filter(|s| !s.trim().is_empty());
        let scope = match &self.options.extra_scope {
            Some(extra) => super::union(scope.as_deref(), Some(extra)),
            None => scope,
        };
        let offers_offline = discovered
            .metadata
            .get("scopes_supported")
            .and_then(Value::as_array)
            .is_some_and(|s| s.iter().any(|s| s == "offline_access"));
        if offers_offline && self.options.grant == Grant::AuthorizationCode {
            return super::union(scope.as_deref(), Some("offline_access"));
        }
        scope
    }

    async fn authorization_code(
        &self,
        state: &mut State,
        discovered: &Discovered,
        scope: Option<String>,
    ) -> Result<(), AuthError> {
        let methods = discovered.metadata.get("code_challenge_methods_supported").and_then(Value::as_array);
        if !methods.is_some_and(|m| m.iter().any(|m| m == "S256")) {
            return Err(AuthError::new("the authorization server does not support PKCE with S256; refusing to go on"));
        }
        let info = self.client(discovered, scope.as_deref()).await?;
        let endpoint = endpoint(discovered, "authorization_endpoint")?;
        let redirect = redirect_uri(&self.options.client_metadata).unwrap_or_default().to_owned();
        let (verifier, challenge) = pkce();
        let nonce = match self.options.handler.state() {
            Some(chosen) => chosen.await?,
            None => random(),
        };
        self.options.handler.save_code_verifier(verifier.clone()).await?;
        let request = AuthorizationRequest {
            client_id: &info.client_id,
            redirect_uri: &redirect,
            state: Some(&nonce),
            scope: scope.as_deref(),
            resource: discovered.resource.as_deref(),
        };
        let url = authorization_url(endpoint, &request, &challenge);
        state.scope = scope.clone();
        let pending = Pending { verifier, state: nonce, redirect_uri: redirect, scope };
        state.pending = Some(pending.clone());
        let answer = self.options.handler.authorize(url.to_string()).await;
        if answer.is_err() {
            state.pending = None;
        }
        match answer? {
            Some(response) => {
                state.pending = None;
                self.exchange(state, pending, response, true).await
            }
            None => Err(AuthError::waiting()),
        }
    }

    /// Checks the redirect and trades its code for tokens.
    pub(super) async fn exchange(
        &self,
        state: &mut State,
        pending: Pending,
        response: AuthorizationResponse,
        state_required: bool,
    ) -> Result<(), AuthError> {
        match &response.state {
            Some(got) if *got != pending.state => {
                return Err(AuthError::new("the redirect's state is not the one sent (a forged redirect?)"));
            }
            None if state_required => return Err(AuthError::new("the redirect carries no state")),
            _ => {}
        }
        let discovered = state.discovered.clone().unwrap_or_default();
        let advertised =
            discovered.metadata.get("authorization_response_iss_parameter_supported").and_then(Value::as_bool);
        match (&response.iss, &discovered.issuer) {
            (Some(iss), Some(issuer)) if iss != issuer => {
                let message = format!("the redirect's iss {iss} is not the authorization server {issuer} (RFC 9207)");
                return Err(AuthError::issuer_mismatch(
                    message,
                    IssuerCheck::AuthorizationResponse,
                    Some(issuer),
                    Some(iss),
                ));
            }
            // The server promises `iss` (RFC 9207 section 2.4): its absence is a stripped
            // parameter.
            (None, issuer) if advertised == Some(true) => {
                let message = "the redirect carries no iss although the server promises it (RFC 9207)";
                return Err(AuthError::issuer_mismatch(
                    message,
                    IssuerCheck::AuthorizationResponse,
                    issuer.as_deref(),
                    None,
                ));
            }
            _ => {}
        }
        let info = self.client(&discovered, None).await?;
        let code = AuthorizationCode {
            code: &response.code,
            code_verifier: &pending.verifier,
            redirect_uri: &pending.redirect_uri,
        };
        let tokens = exchange_authorization(
            &self.http(),
            &authorization_server(&discovered)?,
            Some(&discovered.metadata),
            Some(&info),
            &code,
            discovered.resource.as_deref(),
        )
        .await?;
        state.scope = pending.scope;
        self.store(state, tokens).await
    }

    /// Trades the refresh token for new tokens.
    pub(super) async fn refresh(&self, state: &mut State) -> Result<(), AuthError> {
        let refresh = state.tokens.as_ref().and_then(|t| t.refresh_token.clone());
        let refresh = refresh.ok_or_else(|| AuthError::new("no refresh token"))?;
        if state.discovered.is_none() {
            state.discovered = Some(self.discover(state, &Challenge::default()).await?);
        }
        let discovered = state.discovered.clone().unwrap_or_default();
        let info = self.client(&discovered, None).await?;
        let answer = refresh_authorization(
            &self.http(),
            &authorization_server(&discovered)?,
            Some(&discovered.metadata),
            Some(&info),
            &refresh,
            discovered.resource.as_deref(),
        )
        .await;
        match answer {
            Ok(tokens) => self.store(state, tokens).await,
            Err(e) => {
                self.options.handler.invalidate("tokens").await?;
                Err(e)
            }
        }
    }

    /// The client's registration: the stored one, else a client ID metadata document URL
    /// where the server takes one, else dynamic registration (RFC 7591) for `scope` (the
    /// one about to be asked for) when the client metadata names none.
    async fn client(&self, discovered: &Discovered, scope: Option<&str>) -> Result<OAuthClientInformation, AuthError> {
        let issuer = discovered.issuer.clone();
        let registered_at = self.registered_at.lock().unwrap().clone();
        let moved = registered_at.is_some() && registered_at != issuer;
        if moved {
            // SEP-2352: a registration belongs to the authorization server that made it.
            self.options.handler.invalidate("client").await?;
        } else if let Some(info) = self.options.handler.client_information().await? {
            return Ok(info);
        }
        let cimd = discovered.metadata.get("client_id_metadata_document_supported").and_then(Value::as_bool);
        let info = match (&self.options.client_metadata_url, cimd) {
            (Some(url), Some(true)) => OAuthClientInformation {
                client_id: url.clone(),
                token_endpoint_auth_method: Some("none".into()),
                ..OAuthClientInformation::default()
            },
            _ => self.register(discovered, scope).await?,
        };
        self.options.handler.save_client_information(info.clone()).await?;
        *self.registered_at.lock().unwrap() = issuer;
        Ok(info)
    }

    /// Dynamic registration for `scope` when the client metadata names no scope of its own
    /// (as both official clients do: a server that limits a client to the scopes it
    /// registered with would refuse the authorization otherwise).
    async fn register(
        &self,
        discovered: &Discovered,
        scope: Option<&str>,
    ) -> Result<OAuthClientInformation, AuthError> {
        if discovered.metadata.get("registration_endpoint").and_then(Value::as_str).is_none() {
            return Err(AuthError::new(
                "the authorization server has no registration endpoint: give the client's registration \
                 (client information) or a client metadata URL",
            ));
        }
        let metadata = &self.options.client_metadata;
        let scope = scope.filter(|_| metadata.get("scope").is_none());
        let server = authorization_server(discovered)?;
        let registration = register_client(&self.http(), &server, Some(&discovered.metadata), metadata, scope).await?;
        serde_json::from_value(registration)
            .map_err(|e| AuthError::of(Registration, format!("client registration answered no registration: {e}")))
    }

    /// A POST to the token endpoint, the client authenticated as its registration says.
    pub(super) async fn token_request(
        &self,
        discovered: &Discovered,
        info: &OAuthClientInformation,
        form: Vec<(&'static str, String)>,
    ) -> Result<OAuthTokens, AuthError> {
        let endpoint = token_endpoint(&authorization_server(discovered)?, Some(&discovered.metadata))?;
        request_token(&self.http(), &endpoint, form, Some(info), &supported(discovered), None).await
    }
}

/// The protected resource metadata: the challenge's, else the well-known ones (core goes
/// on to them when the challenge's URL fails); `None` when there is none.
async fn resource_metadata(http: &Http, server: &Url, challenge: &Challenge) -> Option<(Url, Value)> {
    let named = challenge.resource_metadata.as_deref().and_then(|u| Url::parse(u).ok());
    if let Some(url) = &named
        && let Ok(found) = discover_protected_resource_metadata(http, server, Some(url), DISCOVERY_VERSION).await
    {
        return Some(found);
    }
    discover_protected_resource_metadata(http, server, None, DISCOVERY_VERSION).await.ok()
}

/// The authorization server's URL, as discovery named it.
fn authorization_server(discovered: &Discovered) -> Result<Url, AuthError> {
    let issuer = discovered.issuer.as_deref().unwrap_or_default();
    Url::parse(issuer).map_err(|e| AuthError::new(format!("bad issuer {issuer:?}: {e}")))
}

/// `token_endpoint_auth_methods_supported` of the authorization server's metadata.
fn supported(discovered: &Discovered) -> Vec<String> {
    let methods = discovered.metadata.get("token_endpoint_auth_methods_supported").and_then(Value::as_array);
    methods.map(|m| m.iter().filter_map(Value::as_str).map(str::to_owned).collect()).unwrap_or_default()
}

/// What the documents of a discovery say, checked: the resource metadata's `resource`
/// covers the server, the authorization server's metadata names its issuer. No resource
/// metadata: a 2025-03-26 server, its own resource.
fn judge(server: &Url, prm: Option<Value>, issuer: String, metadata: Value) -> Result<Discovered, AuthError> {
    let Some(prm) = prm else {
        return Ok(Discovered {
            resource: Some(canonical_resource(server)),
            resource_scopes: None,
            issuer: Some(issuer),
            metadata,
        });
    };
    let resource = match select_resource(server, prm.get("resource").and_then(Value::as_str))? {
        Some(resource) => resource,
        None => canonical_resource(server),
    };
    if let Some(named) = metadata.get("issuer").and_then(Value::as_str)
        && !same_issuer(named, &issuer)
    {
        let message =
            format!("the authorization server metadata names issuer {named}, not {issuer} (RFC 8414 section 3.3)");
        return Err(AuthError::issuer_mismatch(message, IssuerCheck::Metadata, Some(&issuer), Some(named)));
    }
    let resource_scopes = prm
        .get("scopes_supported")
        .and_then(Value::as_array)
        .map(|scopes| scopes.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" "));
    Ok(Discovered { resource: Some(resource), resource_scopes, issuer: Some(issuer), metadata })
}

pub(super) fn endpoint(discovered: &Discovered, name: &str) -> Result<Url, AuthError> {
    let text = discovered
        .metadata
        .get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| AuthError::new(format!("the authorization server metadata has no {name}")))?;
    Url::parse(text).map_err(|e| AuthError::new(format!("bad {name} {text:?}: {e}")))
}

/// The 2025-03-26 defaults for a server that publishes no metadata.
fn default_endpoints(origin: &Url) -> Value {
    let at = |path: &str| origin.join(path).map(String::from).unwrap_or_default();
    json!({
        "issuer": origin.as_str().trim_end_matches('/'),
        "authorization_endpoint": at("/authorize"),
        "token_endpoint": at("/token"),
        "registration_endpoint": at("/register"),
        "code_challenge_methods_supported": ["S256"],
    })
}

/// 32 random bytes, base64url: a PKCE verifier (43 characters) or a `state`.
fn random() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the OS has a random source");
    URL_SAFE_NO_PAD.encode(bytes)
}

/// RFC 6749 section 2.3.1: the client id and secret are form-encoded before Basic.
fn form_encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// What the authorization URL asks for.
#[derive(Clone, Copy, Debug, Default)]
pub struct AuthorizationRequest<'a> {
    pub client_id: &'a str,
    pub redirect_uri: &'a str,
    pub state: Option<&'a str>,
    pub scope: Option<&'a str>,
    /// The RFC 8707 resource indicator.
    pub resource: Option<&'a str>,
}

/// A PKCE pair: a fresh verifier and its S256 challenge.
pub fn pkce() -> (String, String) {
    let verifier = random();
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    (verifier, challenge)
}

/// Sets `name` in the query of `url`: in place of its first occurrence, the others
/// dropped, else at the end.
fn set_param(url: &mut Url, name: &str, value: &str) {
    let mut pairs: Vec<(String, String)> = url.query_pairs().into_owned().collect();
    match pairs.iter().position(|(n, _)| n == name) {
        Some(at) => {
            pairs[at].1 = value.to_owned();
            let mut first = true;
            pairs.retain(|(n, _)| n != name || std::mem::replace(&mut first, false));
        }
        None => pairs.push((name.to_owned(), value.to_owned())),
    }
    url.query_pairs_mut().clear().extend_pairs(pairs);
}

/// The authorization request's URL at `endpoint` (PKCE S256), its parameters set over any
/// of the same name the endpoint carries. A scope with `offline_access` (an OpenID Connect
/// scope) adds `prompt=consent`, which OpenID Connect requires for it.
pub fn authorization_url(mut endpoint: Url, request: &AuthorizationRequest, code_challenge: &str) -> Url {
    set_param(&mut endpoint, "response_type", "code");
    set_param(&mut endpoint, "client_id", request.client_id);
    set_param(&mut endpoint, "code_challenge", code_challenge);
    set_param(&mut endpoint, "code_challenge_method", "S256");
    set_param(&mut endpoint, "redirect_uri", request.redirect_uri);
    if let Some(state) = request.state.filter(|s| !s.is_empty()) {
        set_param(&mut endpoint, "state", state);
    }
    if let Some(scope) = request.scope.filter(|s| !s.is_empty()) {
        set_param(&mut endpoint, "scope", scope);
        if scope.contains("offline_access") {
            endpoint.query_pairs_mut().append_pair("prompt", "consent");
        }
    }
    if let Some(resource) = request.resource.filter(|s| !s.is_empty()) {
        set_param(&mut endpoint, "resource", resource);
    }
    endpoint
}

/// Starts an authorization at the authorization server `server`: its metadata's
/// authorization endpoint (checked for the `code` response type and, where it lists
/// challenge methods, S256), else `/authorize` on the server; a fresh PKCE pair. Answers
/// the URL to send the user to and the code verifier to keep.
pub fn start_authorization(
    server: &Url,
    metadata: Option<&Value>,
    request: &AuthorizationRequest,
) -> Result<(Url, String), AuthError> {
    let endpoint = match metadata {
        Some(metadata) => {
            let text = metadata.get("authorization_endpoint").and_then(Value::as_str).unwrap_or_default();
            let endpoint = Url::parse(text).map_err(|e| AuthError::new(format!("Invalid URL {text:?}: {e}")))?;
            let listed = |field: &str| metadata.get(field).and_then(Value::as_array);
            if !listed("response_types_supported").is_some_and(|types| types.iter().any(|t| t == "code")) {
                return Err(AuthError::new("Incompatible auth server: does not support response type code"));
            }
            if listed("code_challenge_methods_supported").is_some_and(|methods| !methods.iter().any(|m| m == "S256")) {
                return Err(AuthError::new("Incompatible auth server: does not support code challenge method S256"));
            }
            endpoint
        }
        None => server.join("/authorize").map_err(|e| AuthError::new(e.to_string()))?,
    };
    let (verifier, challenge) = pkce();
    Ok((authorization_url(endpoint, request, &challenge), verifier))
}

/// What the redirect brought back, to trade at the token endpoint.
#[derive(Clone, Copy, Debug)]
pub struct AuthorizationCode<'a> {
    pub code: &'a str,
    pub code_verifier: &'a str,
    pub redirect_uri: &'a str,
}

/// The form of the authorization code grant (RFC 6749 section 4.1.3, PKCE's verifier).
pub fn authorization_code_form(code: &AuthorizationCode) -> Vec<(&'static str, String)> {
    vec![
        ("grant_type", "authorization_code".to_owned()),
        ("code", code.code.to_owned()),
        ("code_verifier", code.code_verifier.to_owned()),
        ("redirect_uri", code.redirect_uri.to_owned()),
    ]
}

/// The token endpoint: the metadata's, else `/token` on the authorization server.
pub fn token_endpoint(server: &Url, metadata: Option<&Value>) -> Result<Url, AuthError> {
    match metadata.and_then(|m| m.get("token_endpoint")).and_then(Value::as_str) {
        Some(text) => Url::parse(text).map_err(|e| AuthError::new(format!("bad token_endpoint {text:?}: {e}"))),
        None => server.join("/token").map_err(|e| AuthError::new(e.to_string())),
    }
}

/// How the client authenticates at the token endpoint, given the methods the server
/// supports (empty: its metadata lists none): the registration's method where the server
/// supports it, else `client_secret_basic` (RFC 8414's default), `client_secret_post`,
/// `none`, in that order, as far as the client has a secret.
pub fn select_client_auth_method(info: &OAuthClientInformation, supported: &[String]) -> &'static str {
    const METHODS: [&str; 3] = ["client_secret_basic", "client_secret_post", "none"];
    let has = |method: &str| supported.iter().any(|m| m == method);
    let registered = info.token_endpoint_auth_method.as_deref();
    if let Some(method) = METHODS.into_iter().find(|m| Some(*m) == registered)
        && (supported.is_empty() || has(method))
    {
        return method;
    }
    let secret = info.client_secret.is_some();
    if supported.is_empty() {
        return if secret { "client_secret_basic" } else { "none" };
    }
    if secret && has("client_secret_basic") {
        "client_secret_basic"
    } else if secret && has("client_secret_post") {
        "client_secret_post"
    } else if has("none") || !secret {
        "none"
    } else {
        "client_secret_post"
    }
}

/// The OAuth error of a failed answer's body (RFC 6749 section 5.2); a body that is none
/// becomes a `server_error` whose description says so and quotes it (with the HTTP status
/// when known).
pub fn parse_error_response(status: Option<u16>, body: &str) -> OAuthErrorResponse {
    let parsed = serde_json::from_str::<Value>(body).map_err(|e| e.to_string()).and_then(|value| {
        let text = |name: &str| match value.get(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("{name} is not a string")),
        };
        let error = text("error")?.ok_or_else(|| "no error code".to_owned())?;
        if !value.is_object() {
            return Err("not a JSON object".to_owned());
        }
        Ok(OAuthErrorResponse { error, error_description: text("error_description")?, error_uri: text("error_uri")? })
    });
    parsed.unwrap_or_else(|reason| {
        let status = status.map(|s| format!("HTTP {s}: ")).unwrap_or_default();
        OAuthErrorResponse {
            error: "server_error".to_owned(),
            error_description: Some(format!("{status}Invalid OAuth error response: {reason}. Raw body: {body}")),
            error_uri: None,
        }
    })
}

/// A failed answer as an [`AuthError`] of `kind`, its OAuth error kept.
fn refusal(kind: AuthErrorKind, what: &str, status: u16, body: &[u8]) -> AuthError {
    let oauth = parse_error_response(Some(status), &String::from_utf8_lossy(body));
    let detail = match &oauth.error_description {
        Some(description) => format!("{}: {description}", oauth.error),
        None => oauth.error.clone(),
    };
    AuthError {
        oauth_error: Some(Box::new(oauth)),
        ..AuthError::of(kind, format!("{what} answered HTTP {status}: {detail}"))
    }
}

/// A POST of `form` to the token endpoint, with the `resource` indicator and the client
/// authenticated as [`select_client_auth_method`] chooses among `supported` (no `info`:
/// no client authentication).
pub async fn request_token<N: AsRef<str> + From<&'static str>>(
    http: &Http,
    endpoint: &Url,
    mut form: Vec<(N, String)>,
    info: Option<&OAuthClientInformation>,
    supported: &[String],
    resource: Option<&str>,
) -> Result<OAuthTokens, AuthError> {
    if let Some(resource) = resource {
        form.retain(|(name, _)| name.as_ref() != "resource");
        form.push(("resource".into(), resource.to_owned()));
    }
    let mut request = http.post(endpoint.clone()).header(ACCEPT, "application/json");
    if let Some(info) = info {
        match (select_client_auth_method(info, supported), &info.client_secret) {
            ("client_secret_basic", Some(secret)) => {
                let pair = format!("{}:{}", form_encode(&info.client_id), form_encode(secret));
                request = request.header(AUTHORIZATION, format!("Basic {}", STANDARD.encode(pair)));
                // The secret only in the header; the id in the body too, as the official
                // Python client sends it (its authorization server requires it there).
                form.push(("client_id".into(), info.client_id.clone()));
            }
            ("client_secret_basic", None) => {
                return Err(AuthError::new("client_secret_basic authentication requires a client_secret"));
            }
            ("client_secret_post", secret) => {
                form.push(("client_id".into(), info.client_id.clone()));
                form.extend(secret.clone().filter(|s| !s.is_empty()).map(|s| ("client_secret".into(), s)));
            }
            _ => form.push(("client_id".into(), info.client_id.clone())),
        }
    }
    let body = form_urlencoded::Serializer::new(String::new()).extend_pairs(form).finish();
    let response = http
        .send(request.header(CONTENT_TYPE, "application/x-www-form-urlencoded").body(body))
        .await
        .map_err(|e| AuthError::new(format!("POST {endpoint} failed: {e}")))?;
    let status = response.status();
    let body = response.bytes().await.unwrap_or_default();
    if !status.is_success() {
        return Err(refusal(Token, &format!("the token endpoint {endpoint}"), status.as_u16(), &body));
    }
    serde_json::from_slice(&body)
        .map_err(|e| AuthError::of(Token, format!("the token endpoint {endpoint} answered no token response: {e}")))
}

/// Trades an authorization code for tokens at the authorization server `server`.
pub async fn exchange_authorization(
    http: &Http,
    server: &Url,
    metadata: Option<&Value>,
    info: Option<&OAuthClientInformation>,
    code: &AuthorizationCode<'_>,
    resource: Option<&str>,
) -> Result<OAuthTokens, AuthError> {
    let endpoint = token_endpoint(server, metadata)?;
    request_token(http, &endpoint, authorization_code_form(code), info, &supported_by(metadata), resource).await
}

/// Trades a refresh token for tokens; the answer keeps the refresh token when the server
/// issues no new one.
pub async fn refresh_authorization(
    http: &Http,
    server: &Url,
    metadata: Option<&Value>,
    info: Option<&OAuthClientInformation>,
    refresh_token: &str,
    resource: Option<&str>,
) -> Result<OAuthTokens, AuthError> {
    let endpoint = token_endpoint(server, metadata)?;
    let form = vec![("grant_type", "refresh_token".to_owned()), ("refresh_token", refresh_token.to_owned())];
    let mut tokens = request_token(http, &endpoint, form, info, &supported_by(metadata), resource).await?;
    if tokens.refresh_token.is_none() {
        tokens.refresh_token = Some(refresh_token.to_owned());
    }
    Ok(tokens)
}

/// `token_endpoint_auth_methods_supported` of `metadata` (empty when it lists none).
pub fn supported_by(metadata: Option<&Value>) -> Vec<String> {
    let methods = metadata.and_then(|m| m.get("token_endpoint_auth_methods_supported")).and_then(Value::as_array);
    methods.map(|m| m.iter().filter_map(Value::as_str).map(str::to_owned).collect()).unwrap_or_default()
}

/// Dynamic client registration (RFC 7591) at the metadata's registration endpoint (a
/// server whose metadata names none does not register clients), else `/register` on the
/// authorization server; `scope`, when given, replaces the client metadata's. Answers the
/// registration as the server sent it.
pub async fn register_client(
    http: &Http,
    server: &Url,
    metadata: Option<&Value>,
    client_metadata: &Value,
    scope: Option<&str>,
) -> Result<Value, AuthError> {
    let endpoint = match metadata {
        Some(metadata) => {
            let Some(text) = metadata.get("registration_endpoint").and_then(Value::as_str) else {
                return Err(AuthError::new("Incompatible auth server: does not support dynamic client registration"));
            };
            Url::parse(text).map_err(|e| AuthError::new(format!("bad registration_endpoint {text:?}: {e}")))?
        }
        None => server.join("/register").map_err(|e| AuthError::new(e.to_string()))?,
    };
    let mut body = client_metadata.clone();
    if let (Value::Object(fields), Some(scope)) = (&mut body, scope) {
        fields.insert("scope".into(), scope.into());
    }
    let request = http.post(endpoint.clone()).header(CONTENT_TYPE, "application/json");
    let response = http
        .send(request.header(ACCEPT, "application/json").body(serde_json::to_vec(&body).unwrap_or_default()))
        .await
        .map_err(|e| AuthError::new(format!("POST {endpoint} failed: {e}")))?;
    let status = response.status();
    let body = response.bytes().await.unwrap_or_default();
    if !status.is_success() {
        return Err(refusal(Registration, &format!("client registration at {endpoint}"), status.as_u16(), &body));
    }
    let registration = serde_json::from_slice::<Value>(&body)
        .ok()
        .filter(|v| serde_json::from_value::<OAuthClientInformation>(v.clone()).is_ok());
    registration.ok_or_else(|| {
        AuthError::of(Registration, format!("client registration at {endpoint} answered no registration"))
    })
}

/// Whether two authorization server identifiers name one server: compared as parsed URLs
/// (so the spelling of scheme, host or default port does not matter), else as written, a
/// single trailing `/` forgiven either way.
pub fn issuers_match(a: &str, b: &str) -> bool {
    let (x, y) = match (Url::parse(a), Url::parse(b)) {
        (Ok(x), Ok(y)) => (x.to_string(), y.to_string()),
        _ => (a.to_owned(), b.to_owned()),
    };
    x == y || x.strip_suffix('/') == Some(y.as_str()) || y.strip_suffix('/') == Some(x.as_str())
}

/// The client information a host stored, presented to the authorization server `issuer`
/// (the TypeScript SDK 1.32 stamps what it stores with `issuer`): as stored when unstamped
/// or stamped for this server (a stamp that is no string is dropped), refused when stamped
/// for another; `None` when nothing is stored.
pub fn stored_client_information(stored: Value, issuer: &str) -> Result<Option<Value>, AuthError> {
    let Value::Object(mut fields) = stored else { return Ok(None) };
    match fields.get("issuer") {
        Some(Value::String(stamp)) if !issuers_match(stamp, issuer) => Err(AuthError::new(format!(
            "OAuth client information is bound to authorization server {stamp} and is not presented to {issuer}. \
             Clear the stored client information, or correct `expectedIssuer`, if the authorization server has moved."
        ))),
        Some(Value::String(_)) | Some(Value::Null) | None => Ok(Some(Value::Object(fields))),
        Some(_) => {
            fields.remove("issuer");
            Ok(Some(Value::Object(fields)))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn client(secret: Option<&str>, method: Option<&str>) -> OAuthClientInformation {
        OAuthClientInformation {
            client_id: "c".into(),
            client_secret: secret.map(str::to_owned),
            token_endpoint_auth_method: method.map(str::to_owned),
            ..OAuthClientInformation::default()
        }
    }

    fn methods(list: &[&str]) -> Vec<String> {
        list.iter().map(|m| (*m).to_owned()).collect()
    }

    #[test]
    fn client_auth_method() {
        assert_eq!(select_client_auth_method(&client(Some("s"), None), &[]), "client_secret_basic");
        assert_eq!(select_client_auth_method(&client(None, None), &[]), "none");
        let post = methods(&["client_secret_post"]);
        assert_eq!(
            select_client_auth_method(&client(Some("s"), Some("client_secret_basic")), &post),
            "client_secret_post"
        );
        assert_eq!(
            select_client_auth_method(&client(Some("s"), Some("client_secret_basic")), &[]),
            "client_secret_basic"
        );
        assert_eq!(
            select_client_auth_method(&client(Some("s"), None), &methods(&["private_key_jwt"])),
            "client_secret_post"
        );
        assert_eq!(select_client_auth_method(&client(None, None), &methods(&["client_secret_basic"])), "none");
        assert_eq!(select_client_auth_method(&client(Some("s"), Some("private_key_jwt")), &[]), "client_secret_basic");
    }

    #[test]
    fn error_bodies() {
        let parsed = parse_error_response(Some(400), r#"{"error":"invalid_grant","error_description":"gone"}"#);
        assert_eq!((parsed.error.as_str(), parsed.error_description.as_deref()), ("invalid_grant", Some("gone")));
        let bad = parse_error_response(Some(500), "oops");
        assert_eq!(bad.error, "server_error");
        let description = bad.error_description.unwrap();
        assert!(description.starts_with("HTTP 500: Invalid OAuth error response: "), "{description}");
        assert!(description.ends_with(". Raw body: oops"), "{description}");
        assert!(parse_error_response(None, r#"{"error":3}"#).error_description.unwrap().starts_with("Invalid"));
    }

    #[test]
    fn authorization_urls() {
        let request = AuthorizationRequest {
            client_id: "c",
            redirect_uri: "http://localhost/cb",
            state: Some("s"),
            scope: Some("read offline_access"),
            resource: Some("http://h/mcp"),
        };
        let endpoint = Url::parse("http://a/authorize?client_id=old&x=1").unwrap();
        let url = authorization_url(endpoint, &request, "ch");
        let pairs: Vec<(String, String)> = url.query_pairs().into_owned().collect();
        let names: Vec<&str> = pairs.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "client_id",
                "x",
                "response_type",
                "code_challenge",
                "code_challenge_method",
                "redirect_uri",
                "state",
                "scope",
                "prompt",
                "resource"
            ]
        );
        assert_eq!(pairs[0].1, "c");
        let server = Url::parse("http://a/").unwrap();
        let refusing = json!({"authorization_endpoint": "http://a/az", "response_types_supported": ["token"]});
        let error = start_authorization(&server, Some(&refusing), &request).unwrap_err();
        assert_eq!(error.message, "Incompatible auth server: does not support response type code");
        let (url, verifier) = start_authorization(&server, None, &request).unwrap();
        assert_eq!((url.path(), verifier.len()), ("/authorize", 43));
    }

    #[test]
    fn stamped_client_information() {
        assert!(issuers_match("HTTP://AS.example:80", "http://as.example/"));
        assert!(issuers_match("not a url/", "not a url"));
        assert!(!issuers_match("http://a/t1", "http://a/t2"));
        assert_eq!(stored_client_information(Value::Null, "http://a").unwrap(), None);
        let stamped = json!({"client_id": "c", "issuer": "http://a"});
        assert_eq!(stored_client_information(stamped.clone(), "http://a/").unwrap(), Some(stamped.clone()));
        let refused = stored_client_information(stamped, "http://b").unwrap_err();
        assert!(refused.message.starts_with("OAuth client information is bound to authorization server http://a and"));
        let odd = stored_client_information(json!({"client_id": "c", "issuer": 3}), "http://b").unwrap();
        assert_eq!(odd, Some(json!({"client_id": "c"})));
    }

    #[test]
    fn token_endpoints_and_forms() {
        let server = Url::parse("http://a/tenant").unwrap();
        assert_eq!(token_endpoint(&server, None).unwrap().as_str(), "http://a/token");
        let named = json!({"token_endpoint": "http://b/t"});
        assert_eq!(token_endpoint(&server, Some(&named)).unwrap().as_str(), "http://b/t");
        let code = AuthorizationCode { code: "x", code_verifier: "v", redirect_uri: "http://l/cb" };
        let names: Vec<&str> = authorization_code_form(&code).iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["grant_type", "code", "code_verifier", "redirect_uri"]);
    }
}
