//! The identity-assertion grant of SEP-990 (Enterprise-Managed Authorization), the client
//! side: a pre-registered confidential client presents an Identity Assertion JWT
//! Authorization Grant (ID-JAG), which the enterprise identity provider issued, to the MCP
//! authorization server's token endpoint under the RFC 7523 `jwt-bearer` grant, and gets
//! an ordinary access token.
//!
//! The trust model is the inverse of the other grants', and that is the shape of this file:
//! the authorization server is configuration ([`Grant::IdentityAssertion`]'s `issuer`),
//! never discovered from the MCP server, so a compromised resource server cannot steer the
//! assertion and the client secret elsewhere. Its RFC 8414 metadata is read from the
//! issuer's own well-known URLs, its `issuer` must equal the configured one character for
//! character, and the token endpoint must be on the issuer's origin; only then is the host
//! asked for an assertion ([`super::OAuthHandler::assertion`]), fresh for every request
//! (an ID-JAG is single-use). No registration, no refresh token, no protected resource
//! metadata. Obtaining the ID-JAG (the RFC 8693 token exchange at the identity provider,
//! `requested_token_type` [`ID_JAG_TOKEN_TYPE`]) is the host's: it is each identity
//! provider's own API.

use reqwest::Url;
use serde_json::Value;

use super::discovery::{canonical_resource, discover_authorization_server_metadata};
use super::flow::endpoint;
use super::{AssertionRequest, AuthError, Discovered, IssuerCheck, OAuth, OAuthTokens};

/// RFC 7523 section 2.1: the grant type of a JWT presented as an authorization grant.
pub const JWT_BEARER_GRANT_TYPE: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// The token type an identity provider's RFC 8693 token exchange is asked for to issue an
/// ID-JAG (the Identity Assertion JWT Authorization Grant draft).
pub const ID_JAG_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:id-jag";

/// The client authentications this grant allows: a confidential client with a secret
/// (the profile also permits `private_key_jwt`, which core does not do).
const SECRET_METHODS: [&str; 2] = ["client_secret_basic", "client_secret_post"];

impl OAuth {
    /// The configured authorization server's metadata, checked: its `issuer` is `issuer`
    /// exactly, its token endpoint on `issuer`'s origin. The `resource` asked for is the
    /// canonical URI of `server_url` (else of the connection's server).
    pub(super) async fn discover_configured(
        &self,
        issuer: &str,
        server_url: Option<&str>,
    ) -> Result<Discovered, AuthError> {
        let issuer_url = Url::parse(issuer).map_err(|e| AuthError::new(format!("bad issuer {issuer:?}: {e}")))?;
        let server = match server_url {
            Some(url) => Url::parse(url).map_err(|e| AuthError::new(format!("bad server URL {url:?}: {e}")))?,
            None => self.server()?,
        };
        let version = crate::protocol::ProtocolVersion::LATEST_LEGACY.as_str();
        let metadata = discover_authorization_server_metadata(&self.http(), &issuer_url, version)
            .await?
            .ok_or_else(|| AuthError::new(format!("No authorization server metadata at configured issuer {issuer}")))?;
        let discovered = Discovered {
            resource: Some(canonical_resource(&server)),
            resource_scopes: None,
            issuer: Some(issuer.to_owned()),
            metadata,
        };
        check_configured(&discovered, &issuer_url)?;
        Ok(discovered)
    }

    /// Asks the host for a fresh assertion and trades it for tokens at the token endpoint,
    /// the client authenticated with its secret.
    pub(super) async fn present_assertion(
        &self,
        discovered: &Discovered,
        scope: Option<String>,
    ) -> Result<OAuthTokens, AuthError> {
        let info = self.options.handler.client_information().await?.ok_or_else(|| {
            AuthError::new("the identity-assertion grant needs the client's registration (client_id, client_secret)")
        })?;
        if info.client_secret.as_deref().is_none_or(str::is_empty) {
            return Err(AuthError::new(
                "the identity-assertion grant needs a confidential client: the registration has no client_secret",
            ));
        }
        if let Some(method) = info.token_endpoint_auth_method.as_deref().filter(|m| !SECRET_METHODS.contains(m)) {
            return Err(AuthError::new(format!(
                "the identity-assertion grant authenticates the client with client_secret_basic or \
                 client_secret_post, not {method}"
            )));
        }
        // The issuer the metadata names (checked against the discovered or configured one).
        let audience = discovered
            .metadata
            .get("issuer")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| discovered.issuer.clone())
            .unwrap_or_default();
        let resource = discovered.resource.clone().unwrap_or_default();
        let request = AssertionRequest { audience, resource: resource.clone(), scope: scope.clone() };
        let assertion = self.options.handler.assertion(request).await?;
        let mut form =
            vec![("grant_type", JWT_BEARER_GRANT_TYPE.to_owned()), ("assertion", assertion), ("resource", resource)];
        form.extend(scope.clone().map(|s| ("scope", s)));
        let mut tokens = self.token_request(discovered, &info, form).await?;
        if tokens.scope.is_none() {
            // RFC 6749 section 5.1: no `scope` in the answer means the scope asked for.
            tokens.scope = scope;
        }
        Ok(tokens)
    }
}

/// The metadata of the configured authorization server names that server (RFC 8414
/// section 3.3, simple string comparison) and a token endpoint on its origin.
fn check_configured(discovered: &Discovered, issuer: &Url) -> Result<(), AuthError> {
    let configured = discovered.issuer.as_deref().unwrap_or_default();
    let named = discovered.metadata.get("issuer").and_then(Value::as_str).unwrap_or_default();
    if named != configured {
        let message = format!("Authorization server metadata issuer mismatch: {named} != {configured}");
        return Err(AuthError::issuer_mismatch(message, IssuerCheck::Metadata, Some(configured), Some(named)));
    }
    let token_endpoint = endpoint(discovered, "token_endpoint")?;
    if token_endpoint.origin() != issuer.origin() {
        return Err(AuthError::new(format!(
            "Token endpoint {token_endpoint} is not on the configured issuer origin {configured}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn discovered(issuer: &str, metadata: Value) -> Discovered {
        Discovered { issuer: Some(issuer.to_owned()), metadata, ..Discovered::default() }
    }

    #[test]
    fn the_issuer_is_compared_character_for_character() {
        let issuer = Url::parse("https://auth.example.com/").unwrap();
        let ok = json!({"issuer": "https://auth.example.com/", "token_endpoint": "https://auth.example.com/token"});
        assert!(check_configured(&discovered("https://auth.example.com/", ok.clone()), &issuer).is_ok());
        let error = check_configured(&discovered("https://auth.example.com", ok), &issuer).unwrap_err();
        assert_eq!(
            error.message,
            "Authorization server metadata issuer mismatch: https://auth.example.com/ != https://auth.example.com"
        );
        assert_eq!(error.kind, super::super::AuthErrorKind::IssuerMismatch);
        let mismatch = error.issuer_mismatch.unwrap();
        assert_eq!(mismatch.expected.as_deref(), Some("https://auth.example.com"));
        assert_eq!(mismatch.received.as_deref(), Some("https://auth.example.com/"));
    }

    #[test]
    fn the_token_endpoint_must_be_on_the_issuer_origin() {
        let issuer = Url::parse("https://auth.example.com/").unwrap();
        let default_port =
            json!({"issuer": "https://auth.example.com/", "token_endpoint": "https://auth.example.com:443/t"});
        assert!(check_configured(&discovered("https://auth.example.com/", default_port), &issuer).is_ok());
        for elsewhere in
            ["https://evil.example.com/token", "http://auth.example.com/token", "https://auth.example.com:8443/t"]
        {
            let metadata = json!({"issuer": "https://auth.example.com/", "token_endpoint": elsewhere});
            let error = check_configured(&discovered("https://auth.example.com/", metadata), &issuer).unwrap_err();
            assert!(error.message.starts_with(&format!("Token endpoint {elsewhere}")), "{}", error.message);
        }
        let none = json!({"issuer": "https://auth.example.com/"});
        let error = check_configured(&discovered("https://auth.example.com/", none), &issuer).unwrap_err();
        assert_eq!(error.message, "the authorization server metadata has no token_endpoint");
    }
}
