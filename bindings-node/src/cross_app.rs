//! The official TypeScript SDK's cross-app access helpers (`requestJwtAuthorizationGrant`,
//! `discoverAndRequestJwtAuthGrant`, `exchangeJwtAuthGrant`) on core's
//! [`ferrymcp_core::client::auth::cross_app`] steps. The requests, their checks, the
//! default client authentication and the error wording are core's; this module converts
//! the options and the answers. Options arrive as JSON text from the TypeScript layer (which
//! refuses the official options core cannot honour, `fetchFn`, by name), answers leave as
//! JSON text, and a failure's message is `{"message", "kind"}` (core's `AuthErrorKind`),
//! which the TypeScript layer throws as an `Error` with a `code`.

use ferrymcp_core::client::auth::cross_app::{self, ClientAuth, JwtAuthGrantRequest};
use ferrymcp_core::client::auth::{AuthError, Http};
use napi_derive::napi;
use serde::Deserialize;
use serde_json::json;

use crate::error::no_panic;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GrantOptions {
    token_endpoint: Option<String>,
    idp_url: Option<String>,
    audience: String,
    resource: String,
    id_token: String,
    client_id: String,
    client_secret: Option<String>,
    scope: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExchangeOptions {
    token_endpoint: String,
    jwt_auth_grant: String,
    client_id: String,
    client_secret: Option<String>,
    auth_method: Option<String>,
}

fn failure(error: AuthError) -> napi::Error {
    let body = json!({"message": error.message, "kind": error.kind.as_str()});
    napi::Error::new(napi::Status::GenericFailure, body.to_string())
}

fn options<T: for<'de> Deserialize<'de>>(text: &str, what: &str) -> Result<T, AuthError> {
    serde_json::from_str(text).map_err(|e| AuthError::new(format!("{what}: invalid options: {e}")))
}

/// `requestJwtAuthorizationGrant` (`tokenEndpoint` given) or
/// `discoverAndRequestJwtAuthGrant` (`idpUrl` given): core's RFC 8693 exchange at the
/// identity provider. Answers `{"jwtAuthGrant", "expiresIn"?, "scope"?}` as JSON text.
#[napi]
pub async fn cross_app_request_jwt_auth_grant(options_json: String) -> napi::Result<String> {
    no_panic(async move {
        let run = async {
            let options: GrantOptions = options(&options_json, "requestJwtAuthorizationGrant")?;
            let request = JwtAuthGrantRequest {
                audience: options.audience,
                resource: options.resource,
                id_token: options.id_token,
                client_id: options.client_id,
                client_secret: options.client_secret,
                scope: options.scope,
            };
            let http = Http::standalone()?;
            let grant = match (options.token_endpoint, options.idp_url) {
                (Some(endpoint), _) => cross_app::request_jwt_authorization_grant(&http, &endpoint, &request).await?,
                (None, Some(idp)) => cross_app::discover_and_request_jwt_auth_grant(&http, &idp, &request).await?,
                (None, None) => return Err(AuthError::new("tokenEndpoint or idpUrl is required")),
            };
            let mut answer = json!({"jwtAuthGrant": grant.jwt_auth_grant});
            if let Some(expires_in) = grant.expires_in {
                answer["expiresIn"] = expires_in.into();
            }
            if let Some(scope) = grant.scope {
                answer["scope"] = scope.into();
            }
            Ok::<_, AuthError>(answer.to_string())
        };
        run.await.map_err(failure)
    })
    .await
}

/// `exchangeJwtAuthGrant`: core's RFC 7523 `jwt-bearer` grant at the MCP authorization
/// server. Answers the token response (OAuth names, `access_token` ...) as JSON text.
#[napi]
pub async fn cross_app_exchange_jwt_auth_grant(options_json: String) -> napi::Result<String> {
    no_panic(async move {
        let run = async {
            let options: ExchangeOptions = options(&options_json, "exchangeJwtAuthGrant")?;
            let auth = match options.auth_method.as_deref() {
                None => ClientAuth::default(),
                Some(method) => ClientAuth::parse(method).ok_or_else(|| {
                    AuthError::new(format!("exchangeJwtAuthGrant: authMethod {method:?} is not supported"))
                })?,
            };
            let http = Http::standalone()?;
            let tokens = cross_app::exchange_jwt_auth_grant(
                &http,
                &options.token_endpoint,
                &options.jwt_auth_grant,
                &options.client_id,
                options.client_secret.as_deref(),
                auth,
            )
            .await?;
            serde_json::to_string(&tokens).map_err(|e| AuthError::new(format!("no token response: {e}")))
        };
        run.await.map_err(failure)
    })
    .await
}
