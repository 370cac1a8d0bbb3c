//! The application's own routes on core's HTTP server (`HttpOptions::routes`): a path the
//! endpoint does not own goes to them with its method, query, headers and body; their
//! answer comes back as it is; a path none of them takes is 404, a failing route 500, and
//! the endpoint itself is served as before.

use std::sync::Arc;

use bytes::Bytes;
use ferrymcp_core::peer::BoxFuture;
use ferrymcp_core::server::http::{HttpOptions, RouteAnswer, RouteRequest, Routes};
use http::{Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use serde_json::json;

use crate::support::{HANG_GUARD, Harness, LEGACY};

/// `/echo` answers with what it got; `/fail` fails; every other path is not its own.
struct Echo;

impl Routes for Echo {
    fn handle(&self, request: RouteRequest) -> BoxFuture<Result<Option<RouteAnswer>, String>> {
        Box::pin(async move {
            match request.path.as_str() {
                "/echo" => {
                    let seen = json!({
                        "method": request.method.as_str(),
                        "query": request.query,
                        "token": request.headers.get("x-token").and_then(|v| v.to_str().ok()),
                        "body": String::from_utf8_lossy(&request.body),
                    });
                    Ok(Some(RouteAnswer {
                        status: 201,
                        headers: vec![
                            (Bytes::from_static(b"content-type"), Bytes::from_static(b"application/json")),
                            (Bytes::from_static(b"set-cookie"), Bytes::from_static(b"a=1")),
                            (Bytes::from_static(b"set-cookie"), Bytes::from_static(b"b=2")),
                        ],
                        body: Bytes::from(seen.to_string()),
                    }))
                }
                "/fail" => Err("the route broke".into()),
                _ => Ok(None),
            }
        })
    }
}

async fn send(
    harness: &Harness,
    method: Method,
    path_and_query: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, http::HeaderMap, Bytes) {
    let url = harness.url.replace("/mcp", path_and_query);
    let mut request = Request::builder().method(method).uri(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.body(Full::new(Bytes::from(body.to_owned()))).unwrap();
    let response = tokio::time::timeout(HANG_GUARD, harness.client.request(request)).await.expect("no hang").unwrap();
    let (parts, body) = response.into_parts();
    (parts.status, parts.headers, body.collect().await.unwrap().to_bytes())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paths_the_endpoint_does_not_own_go_to_the_application_routes() {
    let options = HttpOptions { routes: Some(Arc::new(Echo)), max_body: 1024, ..HttpOptions::default() };
    let harness = Harness::with(options).await;

    let (status, headers, body) =
        send(&harness, Method::POST, "/echo?x=1&y=2", &[("x-token", "secret")], "hello").await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(headers["content-type"], "application/json");
    let cookies: Vec<_> = headers.get_all("set-cookie").iter().collect();
    assert_eq!(cookies, ["a=1", "b=2"], "repeated headers are kept in order");
    let seen: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(seen, json!({"method": "POST", "query": "x=1&y=2", "token": "secret", "body": "hello"}));

    // Not the endpoint's Host check: the routes decide for themselves.
    let (status, _, _) = send(&harness, Method::GET, "/echo", &[("host", "evil.example.com")], "").await;
    assert_eq!(status, StatusCode::CREATED);

    let (status, _, _) = send(&harness, Method::GET, "/elsewhere", &[], "").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "a path no route takes");
    let (status, _, body) = send(&harness, Method::GET, "/fail", &[], "").await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(body, "Internal Server Error", "the failure's message stays in the log");
    let (status, _, _) = send(&harness, Method::POST, "/echo", &[], &"x".repeat(1025)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "the endpoint's body limit holds for the routes too");

    // The endpoint is the endpoint's.
    let session = harness.initialize().await;
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let reply = harness.post(&[("mcp-session-id", &session)], &list).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.json(LEGACY).await["result"]["tools"].is_array());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_routes_other_paths_are_404() {
    let harness = Harness::start().await;
    let (status, _, _) = send(&harness, Method::GET, "/echo", &[], "").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
