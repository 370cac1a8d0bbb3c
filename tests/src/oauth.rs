//! The user's side of an OAuth authorization, headless, for tests and the conformance
//! client: tokens and the client registration kept in memory, and a user who approves at
//! once (the authorization URL is fetched and the code read from the redirect that the
//! authorization server answers with).

use std::sync::Mutex;

use ferrymcp_core::client::auth::{
    AuthError, AuthorizationResponse, OAuthClientInformation, OAuthHandler, OAuthTokens,
};
use ferrymcp_core::peer::BoxFuture;

#[derive(Default)]
pub struct Headless {
    pub tokens: Mutex<Option<OAuthTokens>>,
    pub client: Mutex<Option<OAuthClientInformation>>,
    /// Every authorization URL the user was sent to.
    pub authorizations: Mutex<Vec<String>>,
    /// The host finishes authorizations itself (`OAuth::finish_auth`), as a TypeScript
    /// host does: `authorize` only records the URL.
    pub deferred: bool,
}

impl OAuthHandler for Headless {
    fn tokens(&self) -> BoxFuture<Result<Option<OAuthTokens>, AuthError>> {
        let tokens = self.tokens.lock().unwrap().clone();
        Box::pin(async move { Ok(tokens) })
    }

    fn save_tokens(&self, tokens: OAuthTokens) -> BoxFuture<Result<(), AuthError>> {
        *self.tokens.lock().unwrap() = Some(tokens);
        Box::pin(async { Ok(()) })
    }

    fn client_information(&self) -> BoxFuture<Result<Option<OAuthClientInformation>, AuthError>> {
        let client = self.client.lock().unwrap().clone();
        Box::pin(async move { Ok(client) })
    }

    fn save_client_information(&self, info: OAuthClientInformation) -> BoxFuture<Result<(), AuthError>> {
        *self.client.lock().unwrap() = Some(info);
        Box::pin(async { Ok(()) })
    }

    fn invalidate(&self, what: &'static str) -> BoxFuture<Result<(), AuthError>> {
        if what != "client" {
            *self.tokens.lock().unwrap() = None;
        }
        if what != "tokens" {
            *self.client.lock().unwrap() = None;
        }
        Box::pin(async { Ok(()) })
    }

    fn authorize(&self, url: String) -> BoxFuture<Result<Option<AuthorizationResponse>, AuthError>> {
        self.authorizations.lock().unwrap().push(url.clone());
        if self.deferred {
            return Box::pin(async { Ok(None) });
        }
        Box::pin(async move {
            let location = follow_authorization(&url).await.map_err(AuthError::new)?;
            AuthorizationResponse::from_redirect(&location).map(Some)
        })
    }
}

/// GETs the authorization URL and returns where its redirect points.
pub async fn follow_authorization(url: &str) -> Result<String, String> {
    let http = ferrymcp_core::client::http::http_client(&Default::default())
        .map_err(|e| e.to_string())?
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| e.to_string())?;
    let response = http.get(url).send().await.map_err(|e| format!("GET {url}: {e}"))?;
    let location = response.headers().get(reqwest::header::LOCATION).and_then(|v| v.to_str().ok());
    match location {
        Some(location) => Ok(location.to_owned()),
        None => Err(format!("GET {url} answered HTTP {} without a redirect", response.status())),
    }
}
