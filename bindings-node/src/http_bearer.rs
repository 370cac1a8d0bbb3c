//! A JavaScript function as core's [`BearerVerifier`].
//!
//! JS only says what a token is; core decides (required scopes, expiry) and answers
//! 401/403 with the `WWW-Authenticate` challenge and the protected resource metadata,
//! then hands the accepted token to the request's handler (`extra.authInfo`). The
//! TypeScript layer wraps the user's verifier (sync or async, `OAuthTokenVerifier` or a
//! plain function) so that it always returns a promise of a verdict as JSON:
//! `{"ok": true, "authInfo": {...}}` (core's `AuthInfo`, camelCase), `{"ok": false}` (an
//! unknown token), `{"ok": false, "message"}` (refused for that reason) or
//! `{"ok": false, "message", "scope"}` (the verifier judged a scope missing). The function
//! is weak (it never keeps Node alive) and every verdict has a deadline: a verifier that
//! never settles refuses the token.

use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::peer::BoxFuture;
use ferrymcp_core::server::AuthInfo;
use ferrymcp_core::server::http::{AuthError, BearerVerifier, auth_info_from_json};
use napi::Status;
use napi::bindgen_prelude::Promise;
use napi::threadsafe_function::ThreadsafeFunction;
use serde_json::Value;

/// `(token: string) => Promise<string>`, weak, errors not passed as first argument.
pub type JsVerifierFn = ThreadsafeFunction<String, Promise<String>, String, Status, false, true>;

pub struct JsVerifier {
    func: Arc<JsVerifierFn>,
    timeout: Duration,
}

impl JsVerifier {
    pub fn new(func: JsVerifierFn, timeout: Duration) -> Self {
        Self { func: Arc::new(func), timeout }
    }
}

impl BearerVerifier for JsVerifier {
    fn verify(&self, token: &str) -> BoxFuture<Result<AuthInfo, AuthError>> {
        let (func, timeout, token) = (self.func.clone(), self.timeout, token.to_owned());
        Box::pin(async move {
            let verdict = async move { func.call_async(token).await?.await };
            match tokio::time::timeout(timeout, verdict).await {
                Ok(Ok(json)) => judge(&json),
                Ok(Err(e)) => Err(AuthError::InvalidToken(format!("the token verifier failed: {}", e.reason))),
                Err(_) => Err(AuthError::InvalidToken(format!(
                    "the token verifier did not settle within {} ms",
                    timeout.as_millis()
                ))),
            }
        })
    }
}

fn judge(json: &str) -> Result<AuthInfo, AuthError> {
    let mut verdict: Value = serde_json::from_str(json).unwrap_or(Value::Null);
    if verdict["ok"] == Value::Bool(true) {
        return auth_info_from_json(verdict["authInfo"].take());
    }
    let Some(message) = verdict["message"].as_str().map(str::to_owned) else { return Err(AuthError::Refused) };
    match verdict["scope"].as_str() {
        Some(scope) => Err(AuthError::InsufficientScope { message, scope: scope.to_owned() }),
        None => Err(AuthError::InvalidToken(message)),
    }
}
