//! The Python OAuth client's callbacks as core's [`OAuthHandler`].
//!
//! `ferrymcp.client.auth.OAuthClientProvider` hands the engine a dict: the client metadata
//! and options, and one async `handler(operation, argument)` that runs the user's
//! `TokenStorage`, `redirect_handler` and `callback_handler` (see `oauth2.py`). Core does
//! the rest (discovery, registration, PKCE, token requests, refresh): nothing of the
//! protocol is decided here. One dispatcher rather than six callables keeps the crossing
//! in one place; the operations are named after the trait's methods.

use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::client::auth::{
    AssertionRequest, AuthError, AuthorizationResponse, Grant, OAuth, OAuthClientInformation, OAuthHandler,
    OAuthOptions, OAuthTokens,
};
use ferrymcp_core::peer::BoxFuture;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::call::{LoopCell, PyCallable};
use crate::convert::{from_py, to_py};

struct PyOAuthHandler(Arc<PyCallable>);

async fn run(callable: Arc<PyCallable>, operation: &'static str, argument: Value) -> Result<Value, AuthError> {
    let call = callable.call(move |py| {
        let argument = to_py(py, &argument)?;
        PyTuple::new(py, [operation.into_pyobject(py)?.into_any(), argument])
    });
    call.await.map_err(|e| AuthError::new(e.to_string()))
}

impl PyOAuthHandler {
    fn read<T: DeserializeOwned + Send + 'static>(
        &self,
        operation: &'static str,
    ) -> BoxFuture<Result<Option<T>, AuthError>> {
        let callable = self.0.clone();
        Box::pin(async move {
            let value = run(callable, operation, Value::Null).await?;
            if value.is_null() {
                return Ok(None);
            }
            serde_json::from_value(value).map(Some).map_err(|e| AuthError::new(format!("{operation}: {e}")))
        })
    }

    fn write(&self, operation: &'static str, value: Value) -> BoxFuture<Result<(), AuthError>> {
        let callable = self.0.clone();
        Box::pin(async move { run(callable, operation, value).await.map(drop) })
    }
}

impl OAuthHandler for PyOAuthHandler {
    fn tokens(&self) -> BoxFuture<Result<Option<OAuthTokens>, AuthError>> {
        self.read("tokens")
    }

    fn save_tokens(&self, tokens: OAuthTokens) -> BoxFuture<Result<(), AuthError>> {
        self.write("save_tokens", serde_json::to_value(tokens).unwrap_or_default())
    }

    fn client_information(&self) -> BoxFuture<Result<Option<OAuthClientInformation>, AuthError>> {
        self.read("client_information")
    }

    fn save_client_information(&self, info: OAuthClientInformation) -> BoxFuture<Result<(), AuthError>> {
        self.write("save_client_information", serde_json::to_value(info).unwrap_or_default())
    }

    fn authorize(&self, url: String) -> BoxFuture<Result<Option<AuthorizationResponse>, AuthError>> {
        let callable = self.0.clone();
        Box::pin(async move {
            let answer = run(callable, "authorize", Value::String(url)).await?;
            let text = |key: &str| answer.get(key).and_then(Value::as_str).map(str::to_owned);
            let code = text("code").ok_or_else(|| AuthError::new("No authorization code received"))?;
            Ok(Some(AuthorizationResponse { code, state: text("state"), iss: text("iss") }))
        })
    }

    fn invalidate(&self, what: &'static str) -> BoxFuture<Result<(), AuthError>> {
        self.write("invalidate", Value::String(what.to_owned()))
    }

    fn assertion(&self, request: AssertionRequest) -> BoxFuture<Result<String, AuthError>> {
        let callable = self.0.clone();
        Box::pin(async move {
            match run(callable, "assertion", Value::from(vec![request.audience, request.resource])).await? {
                Value::String(assertion) => Ok(assertion),
                other => Err(AuthError::new(format!("the assertion provider returned {other}, not a string"))),
            }
        })
    }
}

/// Core's OAuth client from the dict `OAuthClientProvider._engine_options()` builds
/// (`client_metadata`, `client_metadata_url`, `grant`, `issuer` and `server_url` of the
/// identity-assertion grant, `handler`).
pub fn oauth(options: &Bound<'_, PyDict>, event_loop: LoopCell) -> PyResult<Arc<OAuth>> {
    let handler = options.get_item("handler")?.ok_or_else(|| PyValueError::new_err("oauth needs a handler"))?;
    let settings = options.copy()?;
    settings.del_item("handler")?;
    let settings = from_py(settings.as_any())?;
    let callable = PyCallable { function: handler.unbind(), is_async: true, event_loop };
    let mut parsed =
        OAuthOptions::new(settings["client_metadata"].clone(), Arc::new(PyOAuthHandler(Arc::new(callable))));
    parsed.client_metadata_url = settings.get("client_metadata_url").and_then(Value::as_str).map(str::to_owned);
    parsed.grant = match settings.get("grant").and_then(Value::as_str).unwrap_or("authorization_code") {
        "authorization_code" => Grant::AuthorizationCode,
        "client_credentials" => Grant::ClientCredentials,
        "identity_assertion" => Grant::IdentityAssertion {
            issuer: settings
                .get("issuer")
                .and_then(Value::as_str)
                .ok_or_else(|| PyValueError::new_err("the identity-assertion grant needs an issuer"))?
                .to_owned(),
            server_url: settings.get("server_url").and_then(Value::as_str).map(str::to_owned),
        },
        other => return Err(PyValueError::new_err(format!("unknown OAuth grant {other:?}"))),
    };
    if let Some(seconds) = settings.get("refresh_margin").and_then(Value::as_f64) {
        parsed.refresh_margin = Duration::from_secs_f64(seconds);
    }
    OAuth::new(parsed).map_err(|e| PyValueError::new_err(e.message))
}
