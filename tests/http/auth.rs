//! The bearer-token hook: 401 with a `WWW-Authenticate` challenge naming the protected
//! resource metadata, which the endpoint serves.

use std::sync::Arc;

use ferrymcp_core::peer::BoxFuture;
use ferrymcp_core::server::http::{AuthError, BearerAuth, BearerVerifier, HttpOptions};
use http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Harness, LEGACY};

struct OneToken;

impl BearerVerifier for OneToken {
    fn verify(&self, token: &str) -> BoxFuture<Result<(), AuthError>> {
        let outcome = if token == "good-token" { Ok(()) } else { Err(AuthError::InvalidToken("unknown token".into())) };
        Box::pin(std::future::ready(outcome))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bearer_tokens_are_required_and_the_metadata_is_served() {
    let auth = BearerAuth {
        verifier: Arc::new(OneToken),
        authorization_servers: vec!["https://auth.example.com".into()],
        scopes_supported: vec!["mcp".into()],
        resource: None,
    };
    let harness = Harness::with(HttpOptions { auth: Some(auth), ..HttpOptions::default() }).await;
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});

    let refused = harness.post(&[], &init).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    let challenge = refused.header("www-authenticate").unwrap().to_owned();
    assert!(challenge.starts_with("Bearer "), "{challenge}");
    let metadata_url =
        challenge.split("resource_metadata=\"").nth(1).and_then(|rest| rest.split('"').next()).unwrap().to_owned();
    assert!(metadata_url.ends_with("/.well-known/oauth-protected-resource/mcp"), "{metadata_url}");

    let wrong = harness.post(&[("authorization", "Bearer stolen")], &init).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(wrong.header("www-authenticate").unwrap().contains("error=\"invalid_token\""));

    let allowed = harness.post(&[("authorization", "Bearer good-token")], &init).await;
    assert_eq!(allowed.status, StatusCode::OK);
    assert_eq!(allowed.json(LEGACY).await["result"]["protocolVersion"], LEGACY);

    let path = metadata_url.split_once("://").unwrap().1;
    let path = &path[path.find('/').unwrap()..];
    let url = harness.url.replace("/mcp", path);
    let request = http::Request::builder().method(Method::GET).uri(url).body(Default::default()).unwrap();
    let response = harness.client.request(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body = http_body_util::BodyExt::collect(response.into_body()).await.unwrap().to_bytes();
    let document: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(document["resource"], harness.url);
    assert_eq!(document["authorization_servers"], json!(["https://auth.example.com"]));
}
