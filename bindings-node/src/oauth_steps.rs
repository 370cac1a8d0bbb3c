//! The official TypeScript SDK's standalone OAuth client functions (`buildDiscoveryUrls`,
//! `discoverOAuthProtectedResourceMetadata`, `discoverAuthorizationServerMetadata`,
//! `discoverOAuthMetadata`, `discoverOAuthServerInfo`, `selectResourceURL`, `isHttpsUrl`,
//! `startAuthorization`, `prepareAuthorizationCodeRequest`, `exchangeAuthorization`,
//! `refreshAuthorization`, `registerClient`, `selectClientAuthMethod`,
//! `parseErrorResponse`) on core's steps ([`ferrymcp_core::client::auth::discovery`] and
//! [`ferrymcp_core::client::auth::flow`]), the ones the connection's own OAuth flow is made
//! of. Every rule (discovery order and fallbacks, the authorization URL, client
//! authentication, error bodies) is core's; this module converts. Options arrive as JSON
//! text from the TypeScript layer (which refuses the official options core cannot honour,
//! by name), answers leave as JSON text, and a failure's message is
//! `{"message", "kind", "oauth"?}` (`oauth`: the authorization server's OAuth error), which
//! the TypeScript layer throws as the official error class.

use ferrymcp_core::client::auth::discovery::{self, MetadataKind};
use ferrymcp_core::client::auth::flow::{self, AuthorizationCode, AuthorizationRequest};
use ferrymcp_core::client::auth::{AuthError, Http, OAuthClientInformation};
use ferrymcp_core::protocol::ProtocolVersion;
use napi_derive::napi;
use reqwest::Url;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::error::no_panic;

fn failure(error: AuthError) -> napi::Error {
    let mut body = json!({"message": error.message, "kind": error.kind.as_str()});
    if let Some(oauth) = error.oauth_error {
        body["oauth"] = json!(oauth);
    }
    napi::Error::new(napi::Status::GenericFailure, body.to_string())
}

fn options<T: DeserializeOwned>(text: &str, what: &str) -> Result<T, AuthError> {
    serde_json::from_str(text).map_err(|e| AuthError::new(format!("{what}: invalid options: {e}")))
}

fn url(text: &str) -> Result<Url, AuthError> {
    Url::parse(text).map_err(|e| AuthError::new(format!("Invalid URL {text:?}: {e}")))
}

/// The `MCP-Protocol-Version` of a discovery request: the caller's, else the official
/// v1 default (the latest dated revision).
fn version(given: &Option<String>) -> &str {
    given.as_deref().unwrap_or(ProtocolVersion::LATEST_LEGACY.as_str())
}

/// Runs `step` off the JS thread, its answer as JSON text.
async fn run<F>(step: F) -> napi::Result<String>
where
    F: std::future::Future<Output = Result<Value, AuthError>>,
{
    no_panic(async move { step.await.map(|value| value.to_string()).map_err(failure) }).await
}

/// `buildDiscoveryUrls`: `[{url, type}]`, RFC 8414 first, then OpenID Connect.
#[napi]
pub fn oauth_build_discovery_urls(authorization_server_url: String) -> napi::Result<String> {
    let issuer = url(&authorization_server_url).map_err(failure)?;
    let urls: Vec<Value> = discovery::discovery_urls(&issuer)
        .into_iter()
        .map(|(url, kind): (Url, MetadataKind)| json!({"url": url.as_str(), "type": kind.as_str()}))
        .collect();
    Ok(Value::from(urls).to_string())
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DiscoveryOptions {
    server_url: Option<String>,
    authorization_server_url: Option<String>,
    resource_metadata_url: Option<String>,
    protocol_version: Option<String>,
}

/// `discoverOAuthProtectedResourceMetadata` (`serverUrl`, `resourceMetadataUrl`?).
#[napi]
pub async fn oauth_discover_protected_resource_metadata(options_json: String) -> napi::Result<String> {
    run(async move {
        let o: DiscoveryOptions = options(&options_json, "discoverOAuthProtectedResourceMetadata")?;
        let server = url(o.server_url.as_deref().unwrap_or_default())?;
        let named = o.resource_metadata_url.as_deref().map(url).transpose()?;
        let http = Http::standalone()?;
        let found = discovery::discover_protected_resource_metadata(
            &http,
            &server,
            named.as_ref(),
            version(&o.protocol_version),
        )
        .await?;
        Ok(found.1)
    })
    .await
}

/// `discoverAuthorizationServerMetadata` (`authorizationServerUrl`): the metadata or `null`.
#[napi]
pub async fn oauth_discover_authorization_server_metadata(options_json: String) -> napi::Result<String> {
    run(async move {
        let o: DiscoveryOptions = options(&options_json, "discoverAuthorizationServerMetadata")?;
        let issuer = url(o.authorization_server_url.as_deref().unwrap_or_default())?;
        let http = Http::standalone()?;
        let found = discovery::discover_authorization_server_metadata(&http, &issuer, version(&o.protocol_version));
        Ok(found.await?.unwrap_or(Value::Null))
    })
    .await
}

/// `discoverOAuthMetadata` (`authorizationServerUrl`): RFC 8414 metadata or `null`.
#[napi]
pub async fn oauth_discover_oauth_metadata(options_json: String) -> napi::Result<String> {
    run(async move {
        let o: DiscoveryOptions = options(&options_json, "discoverOAuthMetadata")?;
        let issuer = url(o.authorization_server_url.as_deref().unwrap_or_default())?;
        let http = Http::standalone()?;
        Ok(discovery::discover_oauth_metadata(&http, &issuer, version(&o.protocol_version))
            .await?
            .unwrap_or(Value::Null))
    })
    .await
}

/// `discoverOAuthServerInfo` (`serverUrl`, `resourceMetadataUrl`?):
/// `{authorizationServerUrl, authorizationServerMetadata?, resourceMetadata?}`.
#[napi]
pub async fn oauth_discover_server_info(options_json: String) -> napi::Result<String> {
    run(async move {
        let o: DiscoveryOptions = options(&options_json, "discoverOAuthServerInfo")?;
        let server = url(o.server_url.as_deref().unwrap_or_default())?;
        let named = o.resource_metadata_url.as_deref().map(url).transpose()?;
        let http = Http::standalone()?;
        let info =
            discovery::discover_oauth_server_info(&http, &server, named.as_ref(), version(&o.protocol_version)).await?;
        let mut answer = json!({"authorizationServerUrl": info.authorization_server_url});
        if let Some(metadata) = info.authorization_server_metadata {
            answer["authorizationServerMetadata"] = metadata;
        }
        if let Some(prm) = info.resource_metadata {
            answer["resourceMetadata"] = prm;
        }
        Ok(answer)
    })
    .await
}

/// `selectResourceURL` without a provider's own validation: the metadata's `resource`
/// when it covers the server, `None` without metadata.
#[napi]
pub fn oauth_select_resource(server_url: String, resource: Option<String>) -> napi::Result<Option<String>> {
    let server = url(&server_url).map_err(failure)?;
    discovery::select_resource(&server, resource.as_deref()).map_err(failure)
}

/// `isHttpsUrl`.
#[napi]
pub fn oauth_is_https_url(value: String) -> bool {
    discovery::is_https_url(&value)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StartOptions {
    authorization_server_url: String,
    metadata: Option<Value>,
    client_id: String,
    redirect_url: String,
    scope: Option<String>,
    state: Option<String>,
    resource: Option<String>,
}

/// `startAuthorization`: `{authorizationUrl, codeVerifier}`.
#[napi]
pub fn oauth_start_authorization(options_json: String) -> napi::Result<String> {
    let start = || {
        let o: StartOptions = options(&options_json, "startAuthorization")?;
        let server = url(&o.authorization_server_url)?;
        let request = AuthorizationRequest {
            client_id: &o.client_id,
            redirect_uri: &o.redirect_url,
            state: o.state.as_deref(),
            scope: o.scope.as_deref(),
            resource: o.resource.as_deref(),
        };
        let (authorization_url, verifier) = flow::start_authorization(&server, o.metadata.as_ref(), &request)?;
        Ok(json!({"authorizationUrl": authorization_url.as_str(), "codeVerifier": verifier}).to_string())
    };
    start().map_err(failure)
}

/// `prepareAuthorizationCodeRequest`: the grant's form as `[name, value]` pairs.
#[napi]
pub fn oauth_authorization_code_form(code: String, code_verifier: String, redirect_uri: String) -> String {
    let code = AuthorizationCode { code: &code, code_verifier: &code_verifier, redirect_uri: &redirect_uri };
    let pairs: Vec<Value> = flow::authorization_code_form(&code).into_iter().map(|(n, v)| json!([n, v])).collect();
    Value::from(pairs).to_string()
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TokenOptions {
    authorization_server_url: String,
    metadata: Option<Value>,
    client_information: Option<Value>,
    authorization_code: Option<String>,
    code_verifier: Option<String>,
    redirect_uri: Option<String>,
    refresh_token: Option<String>,
    /// Any grant's own parameters (`fetchToken`: the provider's `prepareTokenRequest`).
    form: Option<Vec<(String, String)>>,
    resource: Option<String>,
}

fn client_information(value: Option<Value>) -> Result<Option<OAuthClientInformation>, AuthError> {
    value
        .map(|v| serde_json::from_value(v).map_err(|e| AuthError::new(format!("invalid clientInformation: {e}"))))
        .transpose()
}

/// `exchangeAuthorization` (`authorizationCode` given), `refreshAuthorization`
/// (`refreshToken` given) or `fetchToken` (`form` given): the token response (OAuth
/// names) as JSON text.
#[napi]
pub async fn oauth_token_grant(options_json: String) -> napi::Result<String> {
    run(async move {
        let o: TokenOptions = options(&options_json, "token request")?;
        let server = url(&o.authorization_server_url)?;
        let info = client_information(o.client_information)?;
        let http = Http::standalone()?;
        let (metadata, resource) = (o.metadata.as_ref(), o.resource.as_deref());
        let tokens = match (o.refresh_token, o.authorization_code) {
            _ if o.form.is_some() => {
                let endpoint = flow::token_endpoint(&server, metadata)?;
                let supported = flow::supported_by(metadata);
                let form = o.form.unwrap_or_default();
                flow::request_token(&http, &endpoint, form, info.as_ref(), &supported, resource).await?
            }
            (Some(refresh), _) => {
                flow::refresh_authorization(&http, &server, metadata, info.as_ref(), &refresh, resource).await?
            }
            (None, Some(code)) => {
                let code = AuthorizationCode {
                    code: &code,
                    code_verifier: o.code_verifier.as_deref().unwrap_or_default(),
                    redirect_uri: o.redirect_uri.as_deref().unwrap_or_default(),
                };
                flow::exchange_authorization(&http, &server, metadata, info.as_ref(), &code, resource).await?
            }
            (None, None) => return Err(AuthError::new("authorizationCode or refreshToken is required")),
        };
        serde_json::to_value(tokens).map_err(|e| AuthError::new(format!("no token response: {e}")))
    })
    .await
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RegisterOptions {
    authorization_server_url: String,
    metadata: Option<Value>,
    client_metadata: Value,
    scope: Option<String>,
}

/// `registerClient`: the registration the server answered, as JSON text.
#[napi]
pub async fn oauth_register_client(options_json: String) -> napi::Result<String> {
    run(async move {
        let o: RegisterOptions = options(&options_json, "registerClient")?;
        let server = url(&o.authorization_server_url)?;
        let http = Http::standalone()?;
        flow::register_client(&http, &server, o.metadata.as_ref(), &o.client_metadata, o.scope.as_deref()).await
    })
    .await
}

/// `selectClientAuthMethod` for the client information (JSON text) and the methods the
/// server supports.
#[napi]
pub fn oauth_select_client_auth_method(
    client_information_json: String,
    supported: Vec<String>,
) -> napi::Result<String> {
    let info =
        options::<OAuthClientInformation>(&client_information_json, "selectClientAuthMethod").map_err(failure)?;
    Ok(flow::select_client_auth_method(&info, &supported).to_owned())
}

/// The client information a `fetchToken` provider stored (JSON text, `null` for none),
/// presented to `issuer`: as stored, or refused when stamped for another server.
#[napi]
pub fn oauth_stored_client_information(stored_json: String, issuer: String) -> napi::Result<String> {
    let stored = options::<Value>(&stored_json, "clientInformation").map_err(failure)?;
    let info = flow::stored_client_information(stored, &issuer).map_err(failure)?;
    Ok(info.unwrap_or(Value::Null).to_string())
}

/// `parseErrorResponse` of a body (and its HTTP status when known):
/// `{error, error_description?, error_uri?}` as JSON text.
#[napi]
pub fn oauth_parse_error_response(status: Option<u32>, body: String) -> String {
    let status = status.and_then(|s| u16::try_from(s).ok());
    json!(flow::parse_error_response(status, &body)).to_string()
}
