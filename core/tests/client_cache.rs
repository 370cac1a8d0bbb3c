//! The client's response cache and its `outputSchema` check, against core's own server
//! over the in-memory transport. The server's counter resource answers the next number on
//! every read, so a served entry is told from a fetch by its payload; the clock is the
//! test's, so expiry needs no sleeping.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use ferrymcp_core::client::cache::{CacheConfig, CacheMode, MAX_TTL_MS};
use ferrymcp_core::client::{Client, ClientCallbacks, ClientError, ClientOptions, EraPreference};
use ferrymcp_core::peer::{BoxFuture, Handler, HandlerResult, Peer, PeerConfig, RequestContext, RequestOptions};
use ferrymcp_core::server::{CacheHint, Server, ServerOptions};
use ferrymcp_core::transport::memory;
use ferrymcp_core::wire::{ErrorObject, RawJson, Request};
use serde_json::{Value, json};

fn server(ttl_ms: u64) -> Server {
    let mut options = ServerOptions::default();
    options.set_cache_hints([("resources/read", CacheHint { ttl_ms, public: false })]).unwrap();
    let server = Server::with_info(json!({"name": "cache", "version": "1.0.0"}), None, options);
    let reads = Arc::new(AtomicUsize::new(0));
    let read = move |uri: String, _vars, _cx| {
        let n = reads.fetch_add(1, Ordering::SeqCst) + 1;
        async move { Ok(json!([{"uri": uri, "text": n.to_string()}])) }
    };
    server.add_resource(json!({"uri": "counter://n", "name": "n"}), read).unwrap();
    server
}

async fn connect(server: &Server, era: EraPreference, cache: Option<CacheConfig>) -> Client {
    let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
    let serving = server.clone();
    tokio::spawn(async move { serving.serve(server_source, server_sink).await });
    let options = ClientOptions { era, cache, ..ClientOptions::default() };
    Client::connect(client_source, client_sink, options, ClientCallbacks::default()).await.unwrap()
}

async fn read(client: &Client, mode: CacheMode) -> String {
    let result =
        client.cached_request("resources/read", json!({"uri": "counter://n"}), RequestOptions::default(), mode).await;
    result.unwrap()["contents"][0]["text"].as_str().unwrap().to_owned()
}

/// A clock the test moves, in milliseconds.
fn clock() -> (Arc<AtomicU64>, CacheConfig) {
    let now = Arc::new(AtomicU64::new(1_000_000_000));
    let read = now.clone();
    let clock = Arc::new(move || read.load(Ordering::SeqCst) as f64 / 1000.0);
    (now, CacheConfig { clock: Some(clock), ..CacheConfig::default() })
}

#[tokio::test]
async fn a_fresh_read_is_served_until_its_ttl_runs_out() {
    let (now, config) = clock();
    let client = connect(&server(60_000), EraPreference::Modern, Some(config)).await;
    assert_eq!([read(&client, CacheMode::Use).await, read(&client, CacheMode::Use).await], ["1", "1"]);
    now.fetch_add(59_999, Ordering::SeqCst);
    assert_eq!(read(&client, CacheMode::Use).await, "1");
    now.fetch_add(1, Ordering::SeqCst);
    assert_eq!(read(&client, CacheMode::Use).await, "2");
    // Bypass neither serves nor stores; refresh fetches and replaces.
    assert_eq!(read(&client, CacheMode::Bypass).await, "3");
    assert_eq!(read(&client, CacheMode::Use).await, "2");
    assert_eq!(read(&client, CacheMode::Refresh).await, "4");
    assert_eq!(read(&client, CacheMode::Use).await, "4");
    // A plain request never touches the cache.
    let plain = client.request("resources/read", json!({"uri": "counter://n"}), RequestOptions::default()).await;
    assert_eq!(plain.unwrap()["contents"][0]["text"], "5");
    assert_eq!(read(&client, CacheMode::Use).await, "4");
}

#[tokio::test]
async fn ttl_is_capped_and_meta_always_reaches_the_server() {
    let (now, config) = clock();
    let client = connect(&server(10 * MAX_TTL_MS), EraPreference::Modern, Some(config)).await;
    assert_eq!(read(&client, CacheMode::Use).await, "1");
    now.fetch_add(MAX_TTL_MS - 1, Ordering::SeqCst);
    assert_eq!(read(&client, CacheMode::Use).await, "1");
    now.fetch_add(1, Ordering::SeqCst);
    assert_eq!(read(&client, CacheMode::Use).await, "2");
    let with_meta = json!({"uri": "counter://n", "_meta": {"trace": "x"}});
    let result = client.cached_request("resources/read", with_meta, RequestOptions::default(), CacheMode::Use).await;
    assert_eq!(result.unwrap()["contents"][0]["text"], "3");
    assert_eq!(read(&client, CacheMode::Use).await, "3");
}

#[tokio::test]
async fn no_hint_and_no_cache_mean_a_round_trip_each_time() {
    let client = connect(&server(0), EraPreference::Modern, Some(CacheConfig::default())).await;
    assert_eq!([read(&client, CacheMode::Use).await, read(&client, CacheMode::Use).await], ["1", "2"]);
    let client = connect(&server(60_000), EraPreference::Modern, None).await;
    assert_eq!([read(&client, CacheMode::Use).await, read(&client, CacheMode::Use).await], ["1", "2"]);
    // Legacy: the hints are not consulted (the server sends none); the default TTL applies.
    let client = connect(&server(60_000), EraPreference::Legacy, Some(CacheConfig::default())).await;
    assert_eq!([read(&client, CacheMode::Use).await, read(&client, CacheMode::Use).await], ["1", "2"]);
    let config = CacheConfig { default_ttl_ms: 60_000, ..CacheConfig::default() };
    let client = connect(&server(60_000), EraPreference::Legacy, Some(config)).await;
    assert_eq!([read(&client, CacheMode::Use).await, read(&client, CacheMode::Use).await], ["1", "1"]);
}

#[tokio::test]
async fn a_custom_store_needs_a_partition_and_a_target() {
    let store = Arc::new(ferrymcp_core::client::cache::InMemoryResponseCacheStore::new(0));
    let config = CacheConfig { store: Some(store.clone()), ..CacheConfig::default() };
    assert_eq!(config.check().unwrap_err(), "a custom store requires an explicit partition");
    let config = CacheConfig { target_id: Some(String::new()), ..CacheConfig::default() };
    assert_eq!(config.check().unwrap_err(), "target_id must be a non-empty string or omitted");
    // With both, two clients share the store: the second is served what the first stored.
    let config = CacheConfig {
        store: Some(store.clone()),
        partition: "alice".into(),
        target_id: Some("counter".into()),
        ..CacheConfig::default()
    };
    let server = server(60_000);
    let first = connect(&server, EraPreference::Modern, Some(config.clone())).await;
    assert_eq!(read(&first, CacheMode::Use).await, "1");
    let second = connect(&server, EraPreference::Modern, Some(config.clone())).await;
    assert_eq!(read(&second, CacheMode::Use).await, "1");
    assert_eq!(store.len(), 1);
    // Another partition does not see a private entry.
    let bob = CacheConfig { partition: "bob".into(), ..config };
    let third = connect(&server, EraPreference::Modern, Some(bob)).await;
    assert_eq!(read(&third, CacheMode::Use).await, "2");
}

/// A legacy peer answering by hand (core's own server checks its tools' output, so it
/// cannot send content that breaks the schema): tools with an `outputSchema` answering
/// content that keeps it, breaks it, or leaves it out.
struct Scripted;

impl Handler for Scripted {
    fn handle_request(&self, request: Request, _: RequestContext) -> BoxFuture<HandlerResult> {
        let params: Value = request.params.and_then(|p| p.parse_owned().ok()).unwrap_or(Value::Null);
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
        let result = match request.method.as_str() {
            "initialize" => json!({
                "protocolVersion": params["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "scripted", "version": "1.0.0"},
            }),
            "tools/list" => {
                let tools = ["good", "bad", "missing", "failing"]
                    .map(|name| json!({"name": name, "inputSchema": {"type": "object"}, "outputSchema": schema}));
                json!({"tools": tools})
            }
            "tools/call" => match params["name"].as_str() {
                Some("good") => json!({"content": [], "structuredContent": {"n": 1}}),
                Some("bad") => json!({"content": [], "structuredContent": {"n": "one"}}),
                Some("failing") => json!({"content": [], "isError": true}),
                _ => json!({"content": []}),
            },
            _ => return Box::pin(std::future::ready(Err(ErrorObject::method_not_found(&request.method)))),
        };
        Box::pin(std::future::ready(Ok(RawJson::to_json(&result).unwrap())))
    }
}

#[tokio::test]
async fn structured_content_must_keep_the_output_schema() {
    {
        let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
        let _server = Peer::spawn(server_source, server_sink, Arc::new(Scripted), PeerConfig::default());
        let options = ClientOptions { era: EraPreference::Legacy, ..ClientOptions::default() };
        let client = Client::connect(client_source, client_sink, options, ClientCallbacks::default()).await.unwrap();
        let call = |name: &'static str| {
            let client = client.clone();
            async move { client.call_tool(name, json!({}), RequestOptions::default()).await }
        };
        assert!(call("good").await.is_ok());
        let error = call("bad").await.unwrap_err();
        assert!(matches!(error, ClientError::OutputSchema { missing: false, .. }), "{error}");
        assert!(error.to_string().starts_with("Invalid structured content returned by tool bad: "), "{error}");
        assert_eq!(error.code(), -32602);
        let error = call("missing").await.unwrap_err();
        assert_eq!(error.to_string(), "Tool missing has an output schema but did not return structured content");
        assert_eq!(error.code(), -32600);
        assert!(call("failing").await.unwrap().is_error.unwrap_or(false));
    }
}
