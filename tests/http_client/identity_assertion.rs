//! The identity-assertion grant of SEP-990 against a real authorization server this
//! project did not write: the official Python SDK's authorization-server routes with
//! `identity_assertion_enabled=True`, co-hosted with its bearer-gated MCP server
//! (`bindings-python/tests/peers/identity_assertion_official.py`), whose
//! `exchange_identity_assertion` verifies the ID-JAGs this test signs as the stand-in
//! identity provider (HS256, the ID-JAG profile's `typ` and claims). The host's side is
//! [`Issuer`]: tokens in memory, the fixed confidential client, and an assertion signed
//! for each exchange.

use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ferrymcp_core::client::auth::{
    AssertionRequest, AuthError, AuthorizationResponse, Grant, OAuth, OAuthClientInformation, OAuthHandler,
    OAuthOptions, OAuthTokens,
};
use ferrymcp_core::client::http::HttpClientOptions;
use ferrymcp_core::client::{Client, ClientCallbacks, ClientError, ClientOptions};
use ferrymcp_core::peer::{BoxFuture, RequestOptions};
use hmac::{Hmac, KeyInit, Mac};
use serde_json::{Value, json};
use sha2::Sha256;

use ferrymcp_tests::listening::{Server, installed};

const IDP_KEY: &[u8] = b"the-stand-in-idp-signing-key-for-ferrymcp-tests";

async fn official_identity_assertion() -> Option<Server> {
    let python = installed("../.venv/bin/python")?;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../bindings-python/tests/peers/identity_assertion_official.py");
    let mut command = Command::new(python);
    command.arg(script);
    Some(
        Server::start(command, |command, port| {
            command.arg(port.to_string());
        })
        .await,
    )
}

/// The host: a pre-registered confidential client, and the identity provider that signs
/// an ID-JAG naming `client` for each exchange.
struct Issuer {
    secret: String,
    /// The `client_id` claim of the ID-JAGs (the client's own, unless a test forges one).
    claimed: String,
    tokens: Mutex<Option<OAuthTokens>>,
    asked: Mutex<Vec<(String, String)>>,
    /// The scopes each assertion was asked for.
    scopes: Mutex<Vec<Option<String>>>,
}

impl Issuer {
    fn new(secret: &str, claimed: &str) -> Arc<Self> {
        Arc::new(Self {
            secret: secret.into(),
            claimed: claimed.into(),
            tokens: Mutex::default(),
            asked: Mutex::default(),
            scopes: Mutex::default(),
        })
    }
}

fn id_jag(claims: &Value) -> String {
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"HS256","typ":"oauth-id-jag+jwt"}"#);
    let body = URL_SAFE_NO_PAD.encode(serde_json::to_vec(claims).unwrap());
    let signed = format!("{header}.{body}");
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(IDP_KEY).unwrap();
    mac.update(signed.as_bytes());
    format!("{signed}.{}", URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes()))
}

impl OAuthHandler for Issuer {
    fn tokens(&self) -> BoxFuture<Result<Option<OAuthTokens>, AuthError>> {
        let tokens = self.tokens.lock().unwrap().clone();
        Box::pin(async move { Ok(tokens) })
    }

    fn save_tokens(&self, tokens: OAuthTokens) -> BoxFuture<Result<(), AuthError>> {
        *self.tokens.lock().unwrap() = Some(tokens);
        Box::pin(async { Ok(()) })
    }

    fn client_information(&self) -> BoxFuture<Result<Option<OAuthClientInformation>, AuthError>> {
        let info = OAuthClientInformation {
            client_id: "finance-agent".into(),
            client_secret: Some(self.secret.clone()),
            token_endpoint_auth_method: Some("client_secret_post".into()),
            ..OAuthClientInformation::default()
        };
        Box::pin(async move { Ok(Some(info)) })
    }

    fn save_client_information(&self, _info: OAuthClientInformation) -> BoxFuture<Result<(), AuthError>> {
        Box::pin(async { Err(AuthError::new("no registration with this grant")) })
    }

    fn authorize(&self, _url: String) -> BoxFuture<Result<Option<AuthorizationResponse>, AuthError>> {
        Box::pin(async { Err(AuthError::new("no user with this grant")) })
    }

    fn assertion(&self, request: AssertionRequest) -> BoxFuture<Result<String, AuthError>> {
        let AssertionRequest { audience, resource, scope } = request;
        self.scopes.lock().unwrap().push(scope);
        self.asked.lock().unwrap().push((audience.clone(), resource.clone()));
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs();
        static MINTED: AtomicU64 = AtomicU64::new(0);
        let jti = format!("{now}-{}-{}", std::process::id(), MINTED.fetch_add(1, Ordering::Relaxed));
        let claims = json!({
            "iss": "https://idp.example.com", "sub": "alice@example.com", "aud": audience,
            "client_id": self.claimed, "resource": resource, "scope": "mcp notes:write",
            "jti": jti, "iat": now, "exp": now + 300,
        });
        Box::pin(async move { Ok(id_jag(&claims)) })
    }
}

fn oauth(handler: Arc<Issuer>, issuer: String, scope: &str) -> Arc<OAuth> {
    with_grant(handler, Grant::IdentityAssertion { issuer, server_url: None }, scope)
}

fn with_grant(handler: Arc<Issuer>, grant: Grant, scope: &str) -> Arc<OAuth> {
    let mut options = OAuthOptions::new(json!({"scope": scope}), handler);
    options.grant = grant;
    OAuth::new(options).expect("oauth")
}

async fn connect(server: &Server, oauth: Arc<OAuth>) -> Result<Client, ClientError> {
    let http = HttpClientOptions { oauth: Some(oauth), ..HttpClientOptions::new(server.url("/mcp")) };
    Client::connect_http(http, ClientOptions::default(), ClientCallbacks::default()).await
}

async fn text(client: &Client, tool: &str, arguments: Value) -> String {
    let result = client.call_tool(tool, arguments, RequestOptions::default()).await.expect(tool);
    serde_json::to_value(result).unwrap()["content"][0]["text"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn an_id_jag_buys_a_token_and_a_step_up_buys_more_scope() {
    let Some(server) = official_identity_assertion().await else { return };
    let issuer = server.url("/");
    let handler = Issuer::new("finance-agent-secret", "finance-agent");
    let client = connect(&server, oauth(handler.clone(), issuer.clone(), "mcp")).await.expect("connect");
    assert_eq!(text(&client, "whoami", json!({})).await, "alice@example.com finance-agent mcp");
    assert_eq!(*handler.asked.lock().unwrap(), [(issuer.clone(), server.url("/mcp"))]);
    let stored = handler.tokens.lock().unwrap().clone().expect("stored");
    assert_eq!(stored.scope.as_deref(), Some("mcp"));

    // 403 insufficient_scope: a fresh ID-JAG, exchanged for the union of the scopes.
    assert_eq!(text(&client, "write_note", json!({"text": "hi"})).await, "noted: hi");
    assert_eq!(text(&client, "whoami", json!({})).await, "alice@example.com finance-agent mcp notes:write");
    assert_eq!(handler.asked.lock().unwrap().len(), 2);

    let log: Value = serde_json::from_str(&text(&client, "log", json!({})).await).unwrap();
    let paths: Vec<&str> = log.as_array().unwrap().iter().filter_map(|e| e["path"].as_str()).collect();
    assert!(!paths.iter().any(|p| p.contains("oauth-protected-resource") || *p == "/register"), "{paths:?}");
    let tokens: Vec<&Value> = log.as_array().unwrap().iter().filter(|e| e["path"] == "/token").collect();
    assert_eq!(tokens.len(), 2, "{log}");
    assert_eq!(tokens[0]["form"]["grant_type"], "urn:ietf:params:oauth:grant-type:jwt-bearer");
    assert_eq!(tokens[0]["form"]["resource"], server.url("/mcp"));
    assert_eq!(tokens[1]["form"]["scope"], "mcp notes:write");
    client.close().await;
}

#[tokio::test]
async fn what_the_authorization_server_refuses_and_what_the_client_refuses() {
    let Some(server) = official_identity_assertion().await else { return };
    let fails = |error: ClientError| {
        let data = error.rpc().and_then(|e| e.data.as_ref()).map(|d| d.get().to_owned()).unwrap_or_default();
        (error.to_string(), data)
    };

    let forged = Issuer::new("finance-agent-secret", "someone-else");
    let (message, data) = fails(connect(&server, oauth(forged, server.url("/"), "mcp")).await.err().unwrap());
    assert!(message.contains("invalid_grant: the assertion was issued to a different client"), "{message}");
    assert_eq!(data, r#"{"oauth":{"redirected":false,"kind":"token"}}"#);

    // The issuer is compared character for character: without the slash the metadata
    // names, nothing is sent to the token endpoint and no assertion is asked for.
    let handler = Issuer::new("finance-agent-secret", "finance-agent");
    let issuer = server.url("");
    let (message, data) = fails(connect(&server, oauth(handler.clone(), issuer.clone(), "mcp")).await.err().unwrap());
    assert!(message.contains("Authorization server metadata issuer mismatch"), "{message}");
    let mismatch = format!(r#""check":"metadata","expected":"{issuer}","received":"{issuer}/""#);
    assert_eq!(data, format!(r#"{{"oauth":{{"redirected":false,"kind":"issuer_mismatch","issuer":{{{mismatch}}}}}}}"#));
    assert!(handler.asked.lock().unwrap().is_empty());
}

/// The TypeScript SDK's `CrossAppAccessProvider` flow: the authorization server is the one
/// the protected resource metadata names; the assertion is asked for its issuer (as its
/// metadata writes it), the metadata's resource and the selected scopes.
#[tokio::test]
async fn the_discovered_variant_finds_the_authorization_server_through_the_resource_metadata() {
    let Some(server) = official_identity_assertion().await else { return };
    let handler = Issuer::new("finance-agent-secret", "finance-agent");
    let grant = Grant::DiscoveredIdentityAssertion;
    let client = connect(&server, with_grant(handler.clone(), grant.clone(), "mcp")).await.expect("connect");
    assert_eq!(text(&client, "whoami", json!({})).await, "alice@example.com finance-agent mcp");
    assert_eq!(*handler.asked.lock().unwrap(), [(server.url("/"), server.url("/mcp"))]);
    assert_eq!(*handler.scopes.lock().unwrap(), [Some("mcp".to_owned())]);

    // A step-up: the granted scopes and the challenged ones, with a fresh assertion.
    assert_eq!(text(&client, "write_note", json!({"text": "hi"})).await, "noted: hi");
    assert_eq!(handler.scopes.lock().unwrap().last().cloned().flatten().as_deref(), Some("mcp notes:write"));

    let log: Value = serde_json::from_str(&text(&client, "log", json!({})).await).unwrap();
    let paths: Vec<&str> = log.as_array().unwrap().iter().filter_map(|e| e["path"].as_str()).collect();
    assert!(paths.iter().any(|p| p.starts_with("/.well-known/oauth-protected-resource")), "{paths:?}");
    assert!(!paths.contains(&"/register"), "{paths:?}");
    let tokens: Vec<&Value> = log.as_array().unwrap().iter().filter(|e| e["path"] == "/token").collect();
    assert_eq!(tokens[0]["form"]["grant_type"], "urn:ietf:params:oauth:grant-type:jwt-bearer");
    assert_eq!(tokens[0]["form"]["resource"], server.url("/mcp"));
    client.close().await;
}
