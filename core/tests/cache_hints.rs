//! 2026-07-28 cache hints, as core applies them for every binding: each cacheable method
//! its own hint, a resource's own hint over the `resources/read` one field by field, what
//! a handler's result sets itself over both, and nothing on a legacy answer. A real
//! server and client over the in-memory transport.

use ferrymcp_core::client::{Client, EraPreference};
use ferrymcp_core::peer::RequestOptions;
use ferrymcp_core::server::{CacheHint, ResourceCacheHint, Server, ServerOptions};
use serde_json::{Value, json};

mod common;
use common::connect;

fn server() -> Server {
    let mut options = ServerOptions::default();
    let hints = [
        ("tools/list", CacheHint { ttl_ms: 1_000, public: true }),
        ("prompts/list", CacheHint { ttl_ms: 2_000, public: false }),
        ("resources/read", CacheHint { ttl_ms: 3_000, public: true }),
    ];
    options.set_cache_hints(hints).unwrap();
    let server = Server::with_info(json!({"name": "hints", "version": "1.0.0"}), None, options);
    let read = |uri: String, _vars, _cx| async move { Ok(json!([{"uri": uri, "text": "v"}])) };
    server.add_resource(json!({"uri": "mem://plain", "name": "plain"}), read).unwrap();
    let own = ResourceCacheHint { ttl_ms: Some(9_000), public: None };
    server.add_resource_with_cache_hint(json!({"uri": "mem://own", "name": "own"}), read, own).unwrap();
    let private = ResourceCacheHint { ttl_ms: None, public: Some(false) };
    let template = json!({"uriTemplate": "notes://{id}", "name": "note"});
    server.add_resource_template_with_cache_hint(template, read, None, private).unwrap();
    let sets_its_own =
        |uri: String, _vars, _cx| async move { Ok(json!({"contents": [{"uri": uri, "text": "v"}], "ttlMs": 5})) };
    let all = ResourceCacheHint { ttl_ms: Some(7_000), public: Some(false) };
    server.add_resource_with_cache_hint(json!({"uri": "mem://self", "name": "self"}), sets_its_own, all).unwrap();
    server
}

async fn hint(client: &Client, method: &str, params: Value) -> (Value, Value) {
    let result = client.request(method, params, RequestOptions::default()).await.unwrap();
    (result.get("ttlMs").cloned().unwrap_or(Value::Null), result.get("cacheScope").cloned().unwrap_or(Value::Null))
}

#[tokio::test]
async fn each_method_and_each_resource_carries_its_own_hint() {
    let server = server();
    let client = connect(&server, EraPreference::Modern).await;
    assert_eq!(hint(&client, "tools/list", json!({})).await, (json!(1_000), json!("public")));
    assert_eq!(hint(&client, "prompts/list", json!({})).await, (json!(2_000), json!("private")));
    // No hint given: not to be reused.
    assert_eq!(hint(&client, "resources/list", json!({})).await, (json!(0), json!("private")));
    assert_eq!(hint(&client, "server/discover", json!({})).await, (json!(0), json!("private")));
    let read = |uri: &str| json!({"uri": uri});
    assert_eq!(hint(&client, "resources/read", read("mem://plain")).await, (json!(3_000), json!("public")));
    // The resource's own ttl, the method's scope; the template's own scope, the method's ttl.
    assert_eq!(hint(&client, "resources/read", read("mem://own")).await, (json!(9_000), json!("public")));
    assert_eq!(hint(&client, "resources/read", read("notes://1")).await, (json!(3_000), json!("private")));
    // What the handler set itself wins over both.
    assert_eq!(hint(&client, "resources/read", read("mem://self")).await, (json!(5), json!("private")));
}

#[tokio::test]
async fn legacy_answers_carry_no_hint() {
    let server = server();
    let client = connect(&server, EraPreference::Legacy).await;
    for (method, params) in [("tools/list", json!({})), ("resources/read", json!({"uri": "mem://own"}))] {
        assert_eq!(hint(&client, method, params).await, (Value::Null, Value::Null), "{method}");
    }
}
