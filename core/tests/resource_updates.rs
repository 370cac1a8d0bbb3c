//! Resource updates reach exactly the subscribers: a legacy session that subscribed, and
//! not one that unsubscribed; a real server and client over the in-memory transport.

use std::sync::{Arc, Mutex};

use ferrymcp_core::client::{Client, ClientCallbacks, ClientOptions, EraPreference};
use ferrymcp_core::server::Server;
use ferrymcp_core::transport::memory;
use serde_json::{Value, json};

type Seen = Arc<Mutex<Vec<(String, Value)>>>;

async fn connect(server: &Server) -> (Client, Seen) {
    let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
    let serving = server.clone();
    tokio::spawn(async move { serving.serve(server_source, server_sink).await });
    let seen: Seen = Arc::default();
    let sink = seen.clone();
    let callbacks = ClientCallbacks {
        notification: Some(Arc::new(move |method: &str, params: Value| {
            sink.lock().unwrap().push((method.to_owned(), params))
        })),
        ..ClientCallbacks::default()
    };
    let options = ClientOptions { era: EraPreference::Legacy, ..ClientOptions::default() };
    (Client::connect(client_source, client_sink, options, callbacks).await.unwrap(), seen)
}

#[tokio::test]
async fn updates_go_to_subscribed_sessions_only() {
    let server = Server::new("updates", "1.0.0");
    let read = |uri: String, _vars, _cx| async move { Ok(json!([{"uri": uri, "text": "v"}])) };
    server.add_resource(json!({"uri": "mem://a", "name": "a"}), read).unwrap();
    let (subscribed, seen_a) = connect(&server).await;
    let (unsubscribed, seen_b) = connect(&server).await;
    subscribed.subscribe_resource("mem://a").await.unwrap();
    unsubscribed.subscribe_resource("mem://a").await.unwrap();
    unsubscribed.unsubscribe_resource("mem://a").await.unwrap();

    server.notify_resource_updated("mem://a").await;
    server.notify_resource_updated("mem://other").await;
    // A round trip on each connection after the updates: anything sent is in by then.
    subscribed.ping().await.unwrap();
    unsubscribed.ping().await.unwrap();

    let seen_a = seen_a.lock().unwrap().clone();
    assert_eq!(seen_a, vec![("notifications/resources/updated".to_owned(), json!({"uri": "mem://a"}))]);
    assert!(seen_b.lock().unwrap().is_empty(), "{:?}", seen_b.lock().unwrap());
}
