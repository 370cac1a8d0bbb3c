//! The steps of an authorization: discovery into [`Discovered`], client registration,
//! the authorization request with PKCE S256 and `state`, the checks on the redirect
//! (`state`, RFC 9207 `iss`), and the token endpoint's three grants (authorization code,
//! refresh token, client credentials) with the client authentication the registration
//! and the server's metadata call for (`client_secret_basic`, `client_secret_post`,
//! `none`).

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use reqwest::Url;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::AuthErrorKind::{Registration, Token};
use super::IssuerCheck;
use super::discovery::{
    Challenge, authorization_server_metadata_urls, canonical_resource, first_json, resource_covers,
    resource_metadata_urls, same_issuer,
};
use super::{
    AuthError, AuthorizationResponse, Discovered, Grant, OAuth, OAuthClientInformation, OAuthTokens, Pending, State,
    redirect_uri,
};

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
        let prm = first_json(&http, &resource_metadata_urls(&server, challenge)).await?;
        let Some((prm_url, prm)) = prm else {
            self.needs_resource_metadata()?;
            // A 2025-03-26 server: it is its own authorization server.
            let origin = server.join("/").map_err(|e| AuthError::new(e.to_string()))?;
            let metadata = match first_json(&http, &authorization_server_metadata_urls(&origin)).await? {
                Some((_, metadata)) => metadata,
                None => default_endpoints(&origin),
            };
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
        let metadata = first_json(&http, &authorization_server_metadata_urls(&issuer_url))
            .await?
            .map(|(_, metadata)| metadata)
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
                form.extend(discovered.resource.clone().map(|r| ("resource", r)));
                let tokens = self.token_request(&discovered, &info, form).await?;
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
        let verifier = random();
        let nonce = match self.options.handler.state() {
            Some(chosen) => chosen.await?,
            None => random(),
        };
        self.options.handler.save_code_verifier(verifier.clone()).await?;
        let mut url = endpoint;
        {
            let mut query = url.query_pairs_mut();
            query
                .append_pair("response_type", "code")
                .append_pair("client_id", &info.client_id)
                .append_pair("redirect_uri", &redirect)
                .append_pair("code_challenge", &URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())))
                .append_pair("code_challenge_method", "S256")
                .append_pair("state", &nonce);
            if let Some(scope) = &scope {
                query.append_pair("scope", scope);
            }
            if let Some(resource) = &discovered.resource {
                query.append_pair("resource", resource);
            }
        }
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
        let mut form = vec![
            ("grant_type", "authorization_code".to_owned()),
            ("code", response.code),
            ("redirect_uri", pending.redirect_uri),
            ("code_verifier", pending.verifier),
        ];
        form.extend(discovered.resource.clone().map(|r| ("resource", r)));
        let tokens = self.token_request(&discovered, &info, form).await?;
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
        let mut form = vec![("grant_type", "refresh_token".to_owned()), ("refresh_token", refresh)];
        form.extend(discovered.resource.clone().map(|r| ("resource", r)));
        match self.token_request(&discovered, &info, form).await {
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

    async fn register(
        &self,
        discovered: &Discovered,
        scope: Option<&str>,
    ) -> Result<OAuthClientInformation, AuthError> {
        let endpoint = endpoint(discovered, "registration_endpoint").map_err(|_| {
            AuthError::new(
                "the authorization server has no registration endpoint: give the client's registration \
                 (client information) or a client metadata URL",
            )
        })?;
        let mut metadata = self.options.client_metadata.clone();
        if let (Value::Object(fields), Some(scope)) = (&mut metadata, scope)
            && !fields.contains_key("scope")
        {
            // As both official clients do: a server that limits a client to the scopes it
            // registered with would refuse the authorization otherwise.
            fields.insert("scope".into(), scope.into());
        }
        let body = serde_json::to_vec(&metadata).unwrap_or_default();
        let http = self.http();
        let request = http.post(endpoint.clone()).header(CONTENT_TYPE, "application/json");
        let response = http
            .send(request.header(ACCEPT, "application/json").body(body))
            .await
            .map_err(|e| AuthError::new(format!("POST {endpoint} failed: {e}")))?;
        let status = response.status();
        let body = response.bytes().await.unwrap_or_default();
        if !status.is_success() {
            return Err(AuthError::of(
                Registration,
                format!("client registration at {endpoint} answered HTTP {status}: {}", oauth_error(&body)),
            ));
        }
        serde_json::from_slice(&body).map_err(|e| {
            AuthError::of(Registration, format!("client registration at {endpoint} answered no registration: {e}"))
        })
    }

    /// A POST to the token endpoint, the client authenticated as its registration says.
    pub(super) async fn token_request(
        &self,
        discovered: &Discovered,
        info: &OAuthClientInformation,
        mut form: Vec<(&'static str, String)>,
    ) -> Result<OAuthTokens, AuthError> {
        let endpoint = endpoint(discovered, "token_endpoint")?;
        let http = self.http();
        let mut request = http.post(endpoint.clone()).header(ACCEPT, "application/json");
        match (auth_method(discovered, info), &info.client_secret) {
            ("client_secret_basic", Some(secret)) => {
                let pair = format!("{}:{}", form_encode(&info.client_id), form_encode(secret));
                request = request.header(AUTHORIZATION, format!("Basic {}", STANDARD.encode(pair)));
                // The secret only in the header; the id in the body too, as the official
                // Python client sends it (its authorization server requires it there).
                form.push(("client_id", info.client_id.clone()));
            }
            ("client_secret_post", Some(secret)) => {
                form.push(("client_id", info.client_id.clone()));
                form.push(("client_secret", secret.clone()));
            }
            _ => form.push(("client_id", info.client_id.clone())),
        }
        let body = form_urlencoded::Serializer::new(String::new()).extend_pairs(form).finish();
        let response = http
            .send(request.header(CONTENT_TYPE, "application/x-www-form-urlencoded").body(body))
            .await
            .map_err(|e| AuthError::new(format!("POST {endpoint} failed: {e}")))?;
        let status = response.status();
        let body = response.bytes().await.unwrap_or_default();
        if !status.is_success() {
            return Err(AuthError::of(
                Token,
                format!("the token endpoint {endpoint} answered HTTP {status}: {}", oauth_error(&body)),
            ));
        }
        serde_json::from_slice(&body)
            .map_err(|e| AuthError::of(Token, format!("the token endpoint {endpoint} answered no token response: {e}")))
    }
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
    let resource = match prm.get("resource").and_then(Value::as_str) {
        Some(resource) if !resource_covers(resource, server) => {
            return Err(AuthError::new(format!(
                "the protected resource metadata names resource {resource}, which is not the server {server}"
            )));
        }
        Some(resource) => resource.to_owned(),
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

/// How the client authenticates at the token endpoint: as registered, else the first the
/// server supports that the client can do (`client_secret_basic` is RFC 8414's default).
fn auth_method<'a>(discovered: &'a Discovered, info: &'a OAuthClientInformation) -> &'a str {
    if let Some(method) = &info.token_endpoint_auth_method {
        return method;
    }
    if info.client_secret.is_none() {
        return "none";
    }
    let supported = discovered.metadata.get("token_endpoint_auth_methods_supported").and_then(Value::as_array);
    match supported {
        Some(methods) if !methods.iter().any(|m| m == "client_secret_basic") => {
            if methods.iter().any(|m| m == "client_secret_post") { "client_secret_post" } else { "none" }
        }
        _ => "client_secret_basic",
    }
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

/// The OAuth error of a failed answer (`error: description`), or its start.
fn oauth_error(body: &[u8]) -> String {
    match serde_json::from_slice::<Value>(body) {
        Ok(error) if error.get("error").is_some() => {
            let code = error["error"].as_str().unwrap_or_default();
            match error.get("error_description").and_then(Value::as_str) {
                Some(description) => format!("{code}: {description}"),
                None => code.to_owned(),
            }
        }
        _ => String::from_utf8_lossy(&body[..body.len().min(300)]).into_owned(),
    }
}
