//! An event store of the official SDKs' shape ([`NamingEventStore`]: it names the events it
//! keeps and replays by name) behind the legacy era's resumable streams: every event
//! (the priming one too) goes to the client under the store's name, and a client resuming
//! from a name gets what the store replays after it, then the live rest.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use ferrymcp_core::peer::BoxFuture;
use ferrymcp_core::server::http::{HttpOptions, NamedEventStore, NamedReplay, NamingEventStore};
use http::{Method, StatusCode};
use serde_json::json;

use crate::support::{Harness, LEGACY};

/// Events in a list, named `ev-1`, `ev-2`, ... (a priming event keeps no message).
#[derive(Default)]
struct Book {
    events: Mutex<Vec<(String, String, Option<Bytes>)>>,
    replays: Mutex<Vec<String>>,
}

/// The store as the server holds it (the test keeps another handle to look inside).
struct Shared(Arc<Book>);

impl NamingEventStore for Shared {
    fn store_event(&self, stream: String, message: Option<Bytes>) -> BoxFuture<Result<String, String>> {
        let mut events = self.0.events.lock().unwrap();
        let name = format!("ev-{}", events.len() + 1);
        events.push((name.clone(), stream, message));
        Box::pin(std::future::ready(Ok(name)))
    }

    fn replay_events_after(&self, event_id: String) -> BoxFuture<Result<Option<NamedReplay>, String>> {
        self.0.replays.lock().unwrap().push(event_id.clone());
        let events = self.0.events.lock().unwrap();
        let replay = events.iter().position(|(name, _, _)| *name == event_id).map(|at| {
            let stream = events[at].1.clone();
            let after = events[at + 1..]
                .iter()
                .filter(|(_, s, message)| *s == stream && message.is_some())
                .map(|(name, _, message)| (name.clone(), message.clone().unwrap()))
                .collect();
            (stream, after)
        });
        Box::pin(std::future::ready(Ok(replay)))
    }
}

fn call(id: i64, name: &str, steps: u32) -> serde_json::Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": {"steps": steps}, "_meta": {"progressToken": "p"}}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_go_out_under_the_store_names_and_resume_from_its_replay() {
    let book = Arc::new(Book::default());
    let store = NamedEventStore::new(Arc::new(Shared(book.clone())));
    let harness = Harness::with(HttpOptions { event_store: Arc::new(store), ..HttpOptions::default() }).await;
    let session = harness.initialize().await;
    let s = [("mcp-session-id", session.as_str()), ("mcp-protocol-version", LEGACY)];

    harness.gate.add_permits(1);
    let mut stream = harness.post(&s, &call(4, "gated", 4)).await;
    let priming = stream.event().await.unwrap();
    assert!(priming.data.is_empty() && priming.retry.is_some(), "{priming:?}");
    assert_eq!(priming.id.as_deref(), Some("ev-1"), "the priming event is the store's first");
    let (first_id, first) = stream.message(LEGACY).await.unwrap();
    assert_eq!(first["params"]["progress"].as_f64(), Some(1.0));
    assert_eq!(first_id.as_deref(), Some("ev-2"));
    drop(stream);

    harness.gate.add_permits(2);
    let resume = [("mcp-session-id", session.as_str()), ("last-event-id", "ev-2"), ("accept", "text/event-stream")];
    let mut resumed = harness.send(Method::GET, &resume, "").await;
    assert_eq!(resumed.status, StatusCode::OK);
    harness.gate.add_permits(2);
    let mut seen = Vec::new();
    loop {
        let (id, message) = resumed.message(LEGACY).await.expect("the stream carries on to the response");
        seen.push((id.unwrap(), message["params"]["progress"].as_f64()));
        if message.get("id").is_some() {
            assert_eq!(message["id"], 4);
            break;
        }
    }
    let progress: Vec<_> = seen.iter().filter_map(|(_, p)| *p).collect();
    assert_eq!(progress, vec![2.0, 3.0, 4.0], "every missed event, once, in order");
    assert!(seen.iter().all(|(id, _)| id.starts_with("ev-")), "{seen:?}");
    let replays = book.replays.lock().unwrap().clone();
    assert!(replays.contains(&"ev-2".to_owned()), "the resumption asked the store: {replays:?}");
    let stored = book.events.lock().unwrap().len();
    assert_eq!(stored, 6, "priming, four progress notifications and the response");

    let unknown = [("mcp-session-id", session.as_str()), ("last-event-id", "ev-999"), ("accept", "text/event-stream")];
    assert_eq!(harness.send(Method::GET, &unknown, "").await.status, StatusCode::NOT_FOUND);
}
