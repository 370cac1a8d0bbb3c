//! `NativeEventStore`: an application's `EventStore` object (the official interface:
//! `storeEvent`, `replayEventsAfter`) as core's [`NamingEventStore`], given to a Streamable
//! HTTP transport as `eventStore`.
//!
//! Core decides which streams are resumable, what is stored, and answers `Last-Event-ID`
//! ([`NamedEventStore`]); the store only keeps messages and names them. The TypeScript layer
//! hands two functions over the user's object: `store(streamId, messageJson | null)`
//! resolving to the event's name (a priming event, `null`, is stored as `{}`, as the
//! official transport stores it), and `replay(lastEventId)` resolving to JSON text, `null`
//! or `{"stream": ..., "events": [[eventId, messageJson], ...]}`. Both are weak (they never
//! keep Node alive), every answer has a deadline, and `close()` drops them (the transport's
//! `close()`): a store closed or slow refuses, and core logs it and goes on (an event it
//! could not keep goes out under core's own id; a replay it could not get answers as an
//! unknown event).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use ferrymcp_core::peer::BoxFuture;
use ferrymcp_core::server::http::{EventStore, NamedEventStore, NamedReplay, NamingEventStore};
use napi::Status;
use napi::bindgen_prelude::{FnArgs, Promise};
use napi::threadsafe_function::ThreadsafeFunction;
use napi_derive::napi;
use serde_json::Value;

/// `(streamId, messageJson | null) => Promise<string>`, weak.
pub type JsStoreEventFn = ThreadsafeFunction<
    FnArgs<(String, Option<String>)>,
    Promise<String>,
    FnArgs<(String, Option<String>)>,
    Status,
    false,
    true,
>;
/// `(lastEventId) => Promise<string>` (JSON text), weak.
pub type JsReplayFn = ThreadsafeFunction<String, Promise<String>, String, Status, false, true>;

/// How long the application's store may take to keep or replay, unless configured.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

struct Functions {
    store: Arc<JsStoreEventFn>,
    replay: Arc<JsReplayFn>,
}

struct JsEventStore {
    functions: Arc<Mutex<Option<Functions>>>,
    timeout: Duration,
}

impl JsEventStore {
    fn functions(&self) -> Result<(Arc<JsStoreEventFn>, Arc<JsReplayFn>), String> {
        let functions = self.functions.lock().unwrap_or_else(|p| p.into_inner());
        let functions = functions.as_ref().ok_or("the event store was closed with its transport")?;
        Ok((functions.store.clone(), functions.replay.clone()))
    }
}

async fn settled<T>(timeout: Duration, what: &str, answer: impl Future<Output = napi::Result<T>>) -> Result<T, String> {
    match tokio::time::timeout(timeout, answer).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) => Err(format!("{what} failed: {}", e.reason)),
        Err(_) => Err(format!("{what} did not settle within {} ms", timeout.as_millis())),
    }
}

impl NamingEventStore for JsEventStore {
    fn store_event(&self, stream: String, message: Option<Bytes>) -> BoxFuture<Result<String, String>> {
        let functions = self.functions();
        let timeout = self.timeout;
        Box::pin(async move {
            let (store, _) = functions?;
            let message = message.map(|data| String::from_utf8_lossy(&data).into_owned());
            let answer = async move { store.call_async(FnArgs::from((stream, message))).await?.await };
            settled(timeout, "eventStore.storeEvent", answer).await
        })
    }

    fn replay_events_after(&self, event_id: String) -> BoxFuture<Result<Option<NamedReplay>, String>> {
        let functions = self.functions();
        let timeout = self.timeout;
        Box::pin(async move {
            let (_, replay) = functions?;
            let answer = async move { replay.call_async(event_id).await?.await };
            let json = settled(timeout, "eventStore.replayEventsAfter", answer).await?;
            replayed(&json)
        })
    }
}

/// The replay's JSON text: `null`, or `{"stream", "events": [[name, message], ...]}`.
fn replayed(json: &str) -> Result<Option<NamedReplay>, String> {
    let value: Value = serde_json::from_str(json).map_err(|e| format!("the replay is not JSON: {e}"))?;
    if value.is_null() {
        return Ok(None);
    }
    let stream = value["stream"].as_str().ok_or("the replay names no stream")?.to_owned();
    let events = value["events"].as_array().ok_or("the replay has no events list")?;
    let mut replay = Vec::with_capacity(events.len());
    for event in events {
        match (event[0].as_str(), event[1].as_str()) {
            (Some(name), Some(message)) => replay.push((name.to_owned(), Bytes::from(message.to_owned()))),
            _ => return Err("a replayed event is not [eventId, message]".into()),
        }
    }
    Ok(Some((stream, replay)))
}

#[napi(object)]
pub struct EventStoreConfig {
    /// How long `storeEvent` / `replayEventsAfter` may take (10 s by default).
    pub timeout_ms: Option<u32>,
}

/// An application's event store for one transport.
#[napi]
pub struct NativeEventStore {
    functions: Arc<Mutex<Option<Functions>>>,
    timeout: Duration,
}

#[napi]
impl NativeEventStore {
    #[napi(constructor)]
    pub fn new(
        #[napi(ts_arg_type = "(streamId: string, message: string | null) => Promise<string>")] store: JsStoreEventFn,
        #[napi(ts_arg_type = "(lastEventId: string) => Promise<string>")] replay: JsReplayFn,
        config: EventStoreConfig,
    ) -> Self {
        let functions = Functions { store: Arc::new(store), replay: Arc::new(replay) };
        let timeout = config.timeout_ms.map_or(DEFAULT_TIMEOUT, |ms| Duration::from_millis(ms.into()));
        Self { functions: Arc::new(Mutex::new(Some(functions))), timeout }
    }

    /// Drops the functions (the transport closed): later stores and replays are refused.
    #[napi]
    pub fn close(&self) {
        self.functions.lock().unwrap_or_else(|p| p.into_inner()).take();
    }
}

impl NativeEventStore {
    /// Core's event store over this one.
    pub(crate) fn event_store(&self) -> Arc<dyn EventStore> {
        let store = JsEventStore { functions: self.functions.clone(), timeout: self.timeout };
        Arc::new(NamedEventStore::new(Arc::new(store)))
    }
}
