//! The official TypeScript SDK's `OAuthClientProvider` as core's [`OAuthHandler`], and
//! core's [`OAuth`] as the transports' `authProvider` and `finishAuth()`.
//!
//! Every protocol decision (discovery, registration, PKCE, `resource`, scopes, refresh,
//! step-up, the grants) is core's; the provider only stores and redirects. The TypeScript
//! layer turns the user's provider into one function `(callJson) => Promise<answerJson>`,
//! where `callJson` is `{"op": ..., "arg": ...}` with `op` one of `tokens`, `saveTokens`,
//! `clientInformation`, `saveClientInformation`, `redirectToAuthorization`,
//! `invalidateCredentials`, `state`, `saveCodeVerifier`, `codeVerifier`,
//! `saveDiscoveryState`, `discoveryState`, and the answer the member's result as JSON (`null` for none).
//! That function is weak (a provider never keeps Node alive), dropped with the last
//! connection and transport that use it, and every answer has a deadline: a provider
//! whose promise never settles fails the authorization instead of hanging it.

use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::client::Client;
use ferrymcp_core::client::auth::{
    AssertionRequest, AuthError, AuthorizationResponse, Challenge, Grant, OAuth, OAuthClientInformation, OAuthHandler,
    OAuthOptions, OAuthTokens,
};
use ferrymcp_core::peer::BoxFuture;
use ferrymcp_core::protocol::ErrorCode;
use ferrymcp_core::tls::ClientTls;
use napi::Status;
use napi::bindgen_prelude::Promise;
use napi::threadsafe_function::ThreadsafeFunction;
use napi_derive::napi;
use reqwest::Url;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::client::{ClientConfig, Hooks, JsCloseFn, JsListChangedFn, NativeClient, open};
use crate::client_callbacks::{JsNotificationFn, JsRequestFn};
use crate::client_http::{HttpClientConfig, http_options};
use crate::error::{mcp_error, no_panic};

/// How long one member of the provider may take.
const PROVIDER_TIMEOUT: Duration = Duration::from_secs(60);

/// `(callJson) => Promise<answerJson>`, weak, errors not passed as first argument.
pub type JsProviderFn = ThreadsafeFunction<String, Promise<String>, String, Status, false, true>;

/// How the client authorizes, besides what its provider stores.
#[napi(object)]
pub struct OAuthConfig {
    /// The client's metadata (RFC 7591), JSON.
    pub client_metadata_json: String,
    pub client_metadata_url: Option<String>,
    /// `"authorization_code"` (default), `"client_credentials"`, or `"cross_app_access"`
    /// (the identity-assertion grant with the discovered authorization server).
    pub grant: Option<String>,
    /// Whether the provider has `state()`.
    pub has_state: bool,
}

struct JsProvider {
    func: Arc<JsProviderFn>,
    timeout: Duration,
    has_state: bool,
}

impl JsProvider {
    /// Calls member `op` with `arg` and reads its answer.
    fn call<T: DeserializeOwned + Send + 'static>(
        &self,
        op: &'static str,
        arg: Value,
    ) -> BoxFuture<Result<T, AuthError>> {
        let (func, timeout) = (self.func.clone(), self.timeout);
        let call = json!({"op": op, "arg": arg}).to_string();
        Box::pin(async move {
            let answer = async move { func.call_async(call).await?.await };
            let json = match tokio::time::timeout(timeout, answer).await {
                Ok(Ok(json)) => json,
                Ok(Err(e)) => return Err(AuthError::new(format!("the OAuth provider's {op}() failed: {}", e.reason))),
                Err(_) => {
                    return Err(AuthError::new(format!(
                        "the OAuth provider's {op}() did not settle within {} ms",
                        timeout.as_millis()
                    )));
                }
            };
            serde_json::from_str(&json)
                .map_err(|e| AuthError::new(format!("the OAuth provider's {op}() gave what OAuth cannot use: {e}")))
        })
    }
}

impl OAuthHandler for JsProvider {
    fn tokens(&self) -> BoxFuture<Result<Option<OAuthTokens>, AuthError>> {
        self.call("tokens", Value::Null)
    }

    fn save_tokens(&self, tokens: OAuthTokens) -> BoxFuture<Result<(), AuthError>> {
        self.ignore(self.call("saveTokens", json!(tokens)))
    }

    fn client_information(&self) -> BoxFuture<Result<Option<OAuthClientInformation>, AuthError>> {
        self.call("clientInformation", Value::Null)
    }

    fn save_client_information(&self, info: OAuthClientInformation) -> BoxFuture<Result<(), AuthError>> {
        self.ignore(self.call("saveClientInformation", json!(info)))
    }

    fn authorize(&self, url: String) -> BoxFuture<Result<Option<AuthorizationResponse>, AuthError>> {
        let done = self.call::<Value>("redirectToAuthorization", json!(url));
        // The TypeScript way: the host finishes with `finishAuth()`.
        Box::pin(async move { done.await.map(|_| None) })
    }

    fn invalidate(&self, what: &'static str) -> BoxFuture<Result<(), AuthError>> {
        self.ignore(self.call("invalidateCredentials", json!(what)))
    }

    fn state(&self) -> Option<BoxFuture<Result<String, AuthError>>> {
        self.has_state.then(|| self.call("state", Value::Null))
    }

    fn save_code_verifier(&self, verifier: String) -> BoxFuture<Result<(), AuthError>> {
        self.ignore(self.call("saveCodeVerifier", json!(verifier)))
    }

    fn code_verifier(&self) -> BoxFuture<Result<Option<String>, AuthError>> {
        self.call("codeVerifier", Value::Null)
    }

    fn save_discovery_state(&self, state: Value) -> BoxFuture<Result<(), AuthError>> {
        self.ignore(self.call("saveDiscoveryState", state))
    }

    fn discovery_state(&self) -> BoxFuture<Result<Option<Value>, AuthError>> {
        self.call("discoveryState", Value::Null)
    }

    fn assertion(&self, request: AssertionRequest) -> BoxFuture<Result<String, AuthError>> {
        let context = json!({
            "authorizationServerUrl": request.audience,
            "resourceUrl": request.resource,
            "scope": request.scope,
        });
        self.call("assertion", context)
    }
}

impl JsProvider {
    fn ignore(&self, call: BoxFuture<Result<Value, AuthError>>) -> BoxFuture<Result<(), AuthError>> {
        Box::pin(async move { call.await.map(|_| ()) })
    }
}

fn auth_error(error: AuthError) -> napi::Error {
    mcp_error(ErrorCode::CONNECTION_CLOSED, &error.message, Some(error.data()))
}

/// One client's OAuth state (an `authProvider`), shared by the connections of a transport.
#[napi]
pub struct NativeOAuth {
    oauth: Arc<OAuth>,
}

#[napi]
impl NativeOAuth {
    #[napi(constructor)]
    pub fn new(
        config: OAuthConfig,
        #[napi(ts_arg_type = "(callJson: string) => Promise<string>")] provider: JsProviderFn,
    ) -> napi::Result<Self> {
        let metadata: Value = serde_json::from_str(&config.client_metadata_json)
            .map_err(|e| mcp_error(ErrorCode::INVALID_PARAMS, &format!("clientMetadata: {e}"), None))?;
        let handler = JsProvider { func: Arc::new(provider), timeout: PROVIDER_TIMEOUT, has_state: config.has_state };
        let mut options = OAuthOptions::new(metadata, Arc::new(handler));
        options.client_metadata_url = config.client_metadata_url;
        options.grant = match config.grant.as_deref() {
            None | Some("authorization_code") => Grant::AuthorizationCode,
            Some("client_credentials") => Grant::ClientCredentials,
            Some("cross_app_access") => Grant::DiscoveredIdentityAssertion,
            Some(other) => return Err(mcp_error(ErrorCode::INVALID_PARAMS, &format!("no grant {other}"), None)),
        };
        let oauth = OAuth::new(options).map_err(auth_error)?;
        Ok(Self { oauth })
    }

    /// Connects to the MCP endpoint at `http.url`, authorizing with this state.
    #[napi]
    pub async fn connect(
        &self,
        http: HttpClientConfig,
        config: ClientConfig,
        #[napi(ts_arg_type = "((method: string, paramsJson: string, reply: NativeReply) => void) | undefined | null")]
        on_request: Option<JsRequestFn>,
        #[napi(ts_arg_type = "((method: string, paramsJson: string) => void) | undefined | null")]
        on_notification: Option<JsNotificationFn>,
        #[napi(ts_arg_type = "((reason: string) => void) | undefined | null")] on_close: Option<JsCloseFn>,
        #[napi(ts_arg_type = "((list: string, outcomeJson: string) => void) | undefined | null")]
        on_list_changed: Option<JsListChangedFn>,
    ) -> napi::Result<NativeClient> {
        let mut http = http_options(http)?;
        http.oauth = Some(self.oauth.clone());
        let hooks = Hooks { on_request, on_notification, on_close, on_list_changed };
        open(config, hooks, |options, callbacks| Client::connect_http(http, options, callbacks)).await
    }

    /// Finishes an authorization with what the redirect carried: the code, or the
    /// redirect's query (`code`, `state`, `iss`), for the MCP server at `server_url`.
    #[napi]
    pub async fn finish_auth(&self, server_url: String, code_or_query: String) -> napi::Result<()> {
        let oauth = self.oauth.clone();
        no_panic(async move {
            let url =
                Url::parse(&server_url).map_err(|e| mcp_error(ErrorCode::INVALID_PARAMS, &e.to_string(), None))?;
            oauth
                .bind(&url, &ClientTls::default())
                .map_err(|e| mcp_error(ErrorCode::CONNECTION_CLOSED, &e.to_string(), None))?;
            oauth.finish_auth(&code_or_query).await.map_err(auth_error)
        })
        .await
    }
}

/// The parameters of a `WWW-Authenticate` `Bearer` challenge, as JSON (`resource_metadata`,
/// `scope`, `error`, `error_description`; absent ones left out).
#[napi]
pub fn parse_www_authenticate(header: String) -> String {
    let challenge = Challenge::parse(&header);
    let mut out = serde_json::Map::new();
    for (name, value) in [
        ("resource_metadata", challenge.resource_metadata),
        ("scope", challenge.scope),
        ("error", challenge.error),
        ("error_description", challenge.error_description),
    ] {
        if let Some(value) = value {
            out.insert(name.into(), value.into());
        }
    }
    Value::Object(out).to_string()
}
