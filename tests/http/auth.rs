//! Bearer tokens against core's own server: the policy core applies to what the verifier
//! says (no token, refused, expired: 401 `invalid_token`; a required scope missing: 403
//! `insufficient_scope` naming it; the answers of the official Python SDK), the protected
//! resource metadata, and the accepted token reaching the handler of its own request, in a
//! legacy session and in a stateless request alike.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use ferrymcp_core::peer::BoxFuture;
use ferrymcp_core::server::AuthInfo;
use ferrymcp_core::server::http::{AuthError, BearerAuth, BearerVerifier, HttpOptions};
use http::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{Harness, LEGACY, MODERN, Reply};

/// Knows five tokens: `good` and `other` (both scoped `mcp read`, for two clients),
/// `narrow` (scoped `read` only), `stale` (expired a minute ago) and `aimed` (issued for
/// the resource `https://mcp.example.com/api/mcp`, spelled differently).
struct Tokens;

impl BearerVerifier for Tokens {
    fn verify(&self, token: &str) -> BoxFuture<Result<AuthInfo, AuthError>> {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs() as i64;
        let info = |client: &str, scopes: &[&str], expires_at: i64| AuthInfo {
            token: token.to_owned(),
            client_id: client.to_owned(),
            scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
            expires_at: Some(expires_at),
            ..AuthInfo::default()
        };
        let outcome = match token {
            "good" => Ok(info("alice", &["mcp", "read"], now + 3600)),
            "other" => Ok(info("bob", &["mcp", "read"], 0)),
            "narrow" => Ok(info("carol", &["read"], now + 3600)),
            "stale" => Ok(info("dave", &["mcp", "read"], now - 60)),
            "aimed" => Ok(AuthInfo {
                resource: Some("HTTPS://mcp.example.com:443/api/mcp/".into()),
                ..info("erin", &["mcp"], 0)
            }),
            _ => Err(AuthError::Refused),
        };
        Box::pin(std::future::ready(outcome))
    }
}

fn auth(resource: Option<&str>) -> BearerAuth {
    BearerAuth {
        verifier: Arc::new(Tokens),
        required_scopes: vec!["mcp".into()],
        authorization_servers: vec!["https://auth.example.com".into()],
        scopes_supported: Some(vec!["mcp".into()]),
        resource: resource.map(str::to_owned),
        serve_metadata: true,
        audience: None,
    }
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
}

/// The refusal's status, parsed body and challenge.
async fn refusal(reply: Reply) -> (StatusCode, Value, String) {
    let (status, challenge) = (reply.status, reply.header("www-authenticate").unwrap_or_default().to_owned());
    assert_eq!(reply.header("content-type"), Some("application/json"));
    (status, serde_json::from_slice(&reply.bytes().await).unwrap(), challenge)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_answer_as_the_official_sdk_with_the_metadata_named() {
    let harness = Harness::with(HttpOptions { auth: Some(auth(None)), ..HttpOptions::default() }).await;
    let metadata = harness.url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
    let required = json!({"error": "invalid_token", "error_description": "Authentication required"});
    let challenge_401 = format!(
        "Bearer error=\"invalid_token\", error_description=\"Authentication required\", resource_metadata=\"{metadata}\""
    );
    for headers in [
        &[][..],
        &[("authorization", "Bearer stolen")],
        &[("authorization", "Bearer stale")],
        &[("authorization", "Basic Z29vZA==")],
    ] {
        let (status, body, challenge) = refusal(harness.post(headers, &initialize()).await).await;
        assert_eq!((status, &body, &challenge), (StatusCode::UNAUTHORIZED, &required, &challenge_401), "{headers:?}");
    }
    let (status, body, challenge) =
        refusal(harness.post(&[("authorization", "Bearer narrow")], &initialize()).await).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(body, json!({"error": "insufficient_scope", "error_description": "Required scope: mcp"}));
    assert_eq!(
        challenge,
        format!(
            "Bearer error=\"insufficient_scope\", error_description=\"Required scope: mcp\", scope=\"mcp\", resource_metadata=\"{metadata}\""
        )
    );

    let request = http::Request::builder().method(Method::GET).uri(&metadata).body(Default::default()).unwrap();
    let response = harness.client.request(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["cache-control"], "public, max-age=3600");
    let body = http_body_util::BodyExt::collect(response.into_body()).await.unwrap().to_bytes();
    let document: Value = serde_json::from_slice(&body).unwrap();
    let expected = json!({"resource": harness.url, "authorization_servers": ["https://auth.example.com"], "scopes_supported": ["mcp"], "bearer_methods_supported": ["header"]});
    assert_eq!(document, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_configured_resource_names_its_metadata_checks_the_audience_and_none_is_served_when_not_advertised() {
    let resource = "https://mcp.example.com/api/mcp";
    let aimed = BearerAuth { audience: Some(resource.into()), ..auth(Some(resource)) };
    let harness = Harness::with(HttpOptions { auth: Some(aimed), ..HttpOptions::default() }).await;
    assert_eq!(harness.post(&[("authorization", "Bearer aimed")], &initialize()).await.status, StatusCode::OK);
    let (status, _, _) = refusal(harness.post(&[("authorization", "Bearer good")], &initialize()).await).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a token for no resource is not for this one");
    let (_, _, challenge) = refusal(harness.post(&[], &initialize()).await).await;
    assert!(
        challenge
            .ends_with("resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/api/mcp\""),
        "{challenge}"
    );
    let metadata = harness.url.replace("/mcp", "/.well-known/oauth-protected-resource/api/mcp");
    let response = harness.client.get(metadata.parse().unwrap()).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);

    let quiet = BearerAuth { serve_metadata: false, ..auth(None) };
    let harness = Harness::with(HttpOptions { auth: Some(quiet), ..HttpOptions::default() }).await;
    let (status, _, challenge) = refusal(harness.post(&[], &initialize()).await).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(challenge, "Bearer error=\"invalid_token\", error_description=\"Authentication required\"");
    let metadata = harness.url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
    assert_eq!(harness.client.get(metadata.parse().unwrap()).await.unwrap().status(), StatusCode::NOT_FOUND);
}

/// The `whoami` tool's answer: the handler's view of the request's token.
async fn whoami(reply: Reply, revision: &str) -> Value {
    assert_eq!(reply.status, StatusCode::OK);
    let response = reply.json(revision).await;
    serde_json::from_str(response["result"]["content"][0]["text"].as_str().unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_request_carries_its_own_token_to_the_handler() {
    let harness = Harness::with(HttpOptions { auth: Some(auth(None)), ..HttpOptions::default() }).await;
    let good = [("authorization", "Bearer good")];
    let reply = harness.post(&good, &initialize()).await;
    assert_eq!(reply.status, StatusCode::OK);
    let session = reply.header("mcp-session-id").unwrap().to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(harness.post(&[good[0], ("mcp-session-id", &session)], &initialized).await.status, StatusCode::ACCEPTED);

    let call =
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "whoami", "arguments": {}}});
    let seen = whoami(harness.post(&[good[0], ("mcp-session-id", &session)], &call).await, LEGACY).await;
    assert_eq!((seen["clientId"].as_str(), seen["token"].as_str()), (Some("alice"), Some("good")));
    assert_eq!(seen["scopes"], json!(["mcp", "read"]));
    // The same session, another token: the handler sees the token of this request.
    let seen =
        whoami(harness.post(&[("authorization", "Bearer other"), ("mcp-session-id", &session)], &call).await, LEGACY)
            .await;
    assert_eq!(seen["clientId"], "bob");
    // Expiry is judged on every request, not at initialize.
    let (status, _, _) =
        refusal(harness.post(&[("authorization", "Bearer stale"), ("mcp-session-id", &session)], &call).await).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let mut params = json!({"name": "whoami", "arguments": {}});
    params["_meta"] =
        json!({"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}});
    let modern = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params});
    let headers = [
        ("authorization", "Bearer other"),
        ("mcp-protocol-version", MODERN),
        ("mcp-method", "tools/call"),
        ("mcp-name", "whoami"),
    ];
    let seen = whoami(harness.post(&headers, &modern).await, MODERN).await;
    assert_eq!(seen["clientId"], "bob");
    let (status, body, _) =
        refusal(harness.post(&[("authorization", "Bearer narrow"), headers[1], headers[2], headers[3]], &modern).await)
            .await;
    assert_eq!((status, body["error"].as_str()), (StatusCode::FORBIDDEN, Some("insufficient_scope")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_auth_the_handler_sees_no_token() {
    let harness = Harness::start().await;
    let session = harness.initialize().await;
    let call =
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "whoami", "arguments": {}}});
    assert_eq!(whoami(harness.post(&[("mcp-session-id", &session)], &call).await, LEGACY).await, Value::Null);
}
