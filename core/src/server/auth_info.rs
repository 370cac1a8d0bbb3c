//! What an accepted bearer token says about its holder, as a handler sees it.
//!
//! The HTTP transport's verifier returns one (`server::http::BearerVerifier`), the
//! transport applies the policy to it (required scopes, expiry) and hands the accepted one
//! to the request it came with, so a handler reads the auth of its own HTTP request, in
//! a legacy session as in a stateless request. The fields are those of the official
//! SDKs' `AuthInfo` (TypeScript) and `AccessToken` (Python); `extra` carries whatever
//! else the verifier knows (the Python binding keeps `subject` and `claims` there).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthInfo {
    /// The bearer token as presented.
    pub token: String,
    pub client_id: String,
    #[serde(default)]
    pub scopes: Vec<String>,
    /// Seconds since the Unix epoch; `None` (or 0, as the official Python SDK reads it)
    /// never expires.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<i64>,
    /// The RFC 8707 resource the token was issued for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<Map<String, Value>>,
}

impl AuthInfo {
    /// Whether the token's expiry is before `now` (seconds since the epoch).
    pub fn is_expired(&self, now: i64) -> bool {
        self.expires_at.is_some_and(|at| at != 0 && at < now)
    }

    /// Who the token speaks for, as MRTR state binds it: the client and, when the
    /// verifier gave one, the subject (`extra.sub`) and issuer (`extra.iss`), so two users
    /// of one OAuth client are different principals.
    pub fn principal(&self) -> String {
        let claim = |name: &str| self.extra.as_ref().and_then(|e| e.get(name)).cloned().unwrap_or(Value::Null);
        serde_json::json!([self.client_id, claim("iss"), claim("sub")]).to_string()
    }

    /// The first of `required` that the token lacks.
    pub fn missing_scope<'a>(&self, required: &'a [String]) -> Option<&'a str> {
        required.iter().find(|scope| !self.scopes.contains(scope)).map(String::as_str)
    }
}
