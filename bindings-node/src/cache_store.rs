//! `NativeCacheStore`: the client's response cache store, for the official
//! `responseCacheStore` option and `InMemoryResponseCacheStore` class.
//!
//! Two kinds. `typescript(maxEntries)` is core's [`InMemoryResponseCacheStore`] under the
//! official TypeScript policy (core's [`EvictionPolicy::OldestRead`]), whose synchronous
//! `get` / `set` / `delete` / `evict` / `clear` / `size` serve the TypeScript class as the
//! official one does. `fromObject(call)` is an application's own store object (the
//! official `ResponseCacheStore` interface): the TypeScript layer hands one function,
//! `call(op, argsJson)` resolving to JSON text, over the object's methods; it is weak
//! (never keeps Node alive) and every answer has a deadline, so a slow or throwing store
//! is a miss, as core treats any failing store.
//!
//! A client is given a store by its `id` (a `ClientConfig` carries plain values): the
//! registry holds each live store weakly, and the client holds it once connected.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, LazyLock, Mutex, Weak};
use std::time::Duration;

use ferrymcp_core::client::cache::{
    CacheEntry, CacheKey, CacheScope, InMemoryResponseCacheStore, ResponseCacheStore, TYPESCRIPT_MAX_ENTRIES,
};
use ferrymcp_core::peer::BoxFuture;
use napi::Status;
use napi::bindgen_prelude::{FnArgs, Promise};
use napi::threadsafe_function::ThreadsafeFunction;
use napi_derive::napi;
use serde_json::{Value, json};

use crate::error::invalid;

/// `(op, argsJson) => Promise<string>`, weak: one of the store object's methods.
pub type JsCacheCallFn =
    ThreadsafeFunction<FnArgs<(String, String)>, Promise<String>, FnArgs<(String, String)>, Status, false, true>;

/// How long an application's store may take to answer, unless configured.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

static STORES: LazyLock<Mutex<HashMap<u32, Weak<dyn ResponseCacheStore>>>> = LazyLock::new(Mutex::default);
static NEXT_ID: AtomicU32 = AtomicU32::new(1);

fn stores() -> std::sync::MutexGuard<'static, HashMap<u32, Weak<dyn ResponseCacheStore>>> {
    STORES.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The live store of that id, for a client's configuration.
pub(crate) fn store_of(id: u32) -> napi::Result<Arc<dyn ResponseCacheStore>> {
    stores()
        .get(&id)
        .and_then(Weak::upgrade)
        .ok_or_else(|| invalid(format!("responseCacheStore: no live store has id {id}")))
}

/// A key as the official interface has it: `{method, params, partition}`.
fn key_json(key: &CacheKey) -> Value {
    json!({"method": key.method, "params": key.params_key, "partition": key.partition})
}

fn scope_of(text: Option<&str>) -> napi::Result<CacheScope> {
    match text {
        Some("public") => Ok(CacheScope::Public),
        None | Some("private") => Ok(CacheScope::Private),
        Some(other) => Err(invalid(format!("a cache entry's scope must be 'public' or 'private', got {other:?}"))),
    }
}

/// Core's entry from the official one's fields: `value` the result's JSON text,
/// `expiresAt` epoch milliseconds.
fn entry_of(value: &str, expires_at: Option<f64>, scope: Option<&str>, stamp: u64) -> napi::Result<CacheEntry> {
    let value = serde_json::from_str(value)
        .map_err(|e| invalid(format!("a cache entry's value must be the JSON text of a result: {e}")))?;
    Ok(CacheEntry { value, scope: scope_of(scope)?, expires_at: expires_at.map(|ms| ms / 1000.0), stamp })
}

/// An entry as the official interface has it.
#[napi(object)]
pub struct NativeCacheEntry {
    /// The result's JSON text.
    pub value: String,
    pub stamp: f64,
    /// Epoch milliseconds.
    pub expires_at: Option<f64>,
    pub scope: String,
}

fn native_entry(entry: CacheEntry) -> NativeCacheEntry {
    NativeCacheEntry {
        value: entry.value.to_string(),
        stamp: entry.stamp as f64,
        expires_at: entry.expires_at.map(|secs| secs * 1000.0),
        scope: entry.scope.as_str().to_owned(),
    }
}

/// An application's store object.
struct JsCacheStore {
    call: Arc<JsCacheCallFn>,
    timeout: Duration,
}

impl JsCacheStore {
    fn ask(&self, op: &'static str, args: Value) -> BoxFuture<Result<Value, String>> {
        let call = self.call.clone();
        let timeout = self.timeout;
        Box::pin(async move {
            let answer = async move { call.call_async(FnArgs::from((op.to_owned(), args.to_string()))).await?.await };
            let text = match tokio::time::timeout(timeout, answer).await {
                Ok(Ok(text)) => text,
                Ok(Err(e)) => return Err(format!("responseCacheStore.{op} failed: {}", e.reason)),
                Err(_) => {
                    return Err(format!("responseCacheStore.{op} did not settle within {} ms", timeout.as_millis()));
                }
            };
            serde_json::from_str(&text).map_err(|e| format!("responseCacheStore.{op}: {e}"))
        })
    }
}

impl ResponseCacheStore for JsCacheStore {
    fn get(&self, key: CacheKey) -> BoxFuture<Result<Option<CacheEntry>, String>> {
        let asked = self.ask("get", json!({"key": key_json(&key)}));
        Box::pin(async move {
            let found = asked.await?;
            if found.is_null() {
                return Ok(None);
            }
            let value = found["value"].as_str().ok_or("responseCacheStore.get: the entry's value is not a string")?;
            let stamp = found["stamp"].as_f64().unwrap_or_default() as u64;
            entry_of(value, found["expiresAt"].as_f64(), found["scope"].as_str(), stamp)
                .map(Some)
                .map_err(|e| format!("responseCacheStore.get: {}", e.reason))
        })
    }

    fn set(&self, key: CacheKey, entry: CacheEntry) -> BoxFuture<Result<(), String>> {
        let mut given = json!({"value": entry.value.to_string(), "scope": entry.scope.as_str()});
        if let Some(secs) = entry.expires_at {
            given["expiresAt"] = json!(secs * 1000.0);
        }
        let asked = self.ask("set", json!({"key": key_json(&key), "entry": given}));
        Box::pin(async move { asked.await.map(drop) })
    }

    fn delete(&self, key: CacheKey) -> BoxFuture<Result<(), String>> {
        let asked = self.ask("delete", json!({"key": key_json(&key)}));
        Box::pin(async move { asked.await.map(drop) })
    }

    fn evict(&self, method: &str) -> BoxFuture<Result<(), String>> {
        let asked = self.ask("evict", json!({"method": method}));
        Box::pin(async move { asked.await.map(drop) })
    }

    fn clear(&self) -> BoxFuture<Result<(), String>> {
        let asked = self.ask("clear", json!({}));
        Box::pin(async move { asked.await.map(drop) })
    }
}

/// A response cache store a client can be given by `id`.
#[napi]
pub struct NativeCacheStore {
    id: u32,
    memory: Option<Arc<InMemoryResponseCacheStore>>,
    /// Holds the store alive for the registry's weak entry.
    _store: Arc<dyn ResponseCacheStore>,
}

impl NativeCacheStore {
    fn register(store: Arc<dyn ResponseCacheStore>, memory: Option<Arc<InMemoryResponseCacheStore>>) -> Self {
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        stores().insert(id, Arc::downgrade(&store));
        Self { id, memory, _store: store }
    }

    fn memory(&self) -> napi::Result<&InMemoryResponseCacheStore> {
        self.memory.as_deref().ok_or_else(|| invalid("not an in-memory store".to_owned()))
    }
}

impl Drop for NativeCacheStore {
    fn drop(&mut self) {
        stores().remove(&self.id);
    }
}

#[napi]
impl NativeCacheStore {
    /// Core's in-memory store under the official TypeScript policy: at most `maxEntries`
    /// `resources/read` entries (core's default when absent; `0`: no cap).
    #[napi(factory)]
    pub fn typescript(max_entries: Option<u32>) -> Self {
        let max = max_entries.map_or(TYPESCRIPT_MAX_ENTRIES, |n| n as usize);
        let memory = Arc::new(InMemoryResponseCacheStore::typescript(max));
        Self::register(memory.clone(), Some(memory))
    }

    /// An application's store object, reached through `call`; each answer within
    /// `timeoutMs` (10 s by default).
    #[napi(factory)]
    pub fn from_object(
        #[napi(ts_arg_type = "(op: string, argsJson: string) => Promise<string>")] call: JsCacheCallFn,
        timeout_ms: Option<u32>,
    ) -> Self {
        let timeout = timeout_ms.map_or(DEFAULT_TIMEOUT, |ms| Duration::from_millis(ms.into()));
        Self::register(Arc::new(JsCacheStore { call: Arc::new(call), timeout }), None)
    }

    /// What a client's configuration names this store by.
    #[napi(getter)]
    pub fn id(&self) -> u32 {
        self.id
    }

    #[napi(getter)]
    pub fn size(&self) -> napi::Result<u32> {
        Ok(self.memory()?.len() as u32)
    }

    #[napi]
    pub fn get(&self, method: String, params: String, partition: String) -> napi::Result<Option<NativeCacheEntry>> {
        let key = CacheKey { method, params_key: params, partition };
        Ok(self.memory()?.lookup(&key).map(native_entry))
    }

    /// Writes the entry; returns its stamp.
    #[napi]
    pub fn set(
        &self,
        method: String,
        params: String,
        partition: String,
        value: String,
        expires_at: Option<f64>,
        scope: Option<String>,
    ) -> napi::Result<f64> {
        let entry = entry_of(&value, expires_at, scope.as_deref(), 0)?;
        let key = CacheKey { method, params_key: params, partition };
        Ok(self.memory()?.insert(key, entry) as f64)
    }

    #[napi]
    pub fn delete(&self, method: String, params: String, partition: String) -> napi::Result<()> {
        self.memory()?.remove(&CacheKey { method, params_key: params, partition });
        Ok(())
    }

    #[napi]
    pub fn evict(&self, method: String) -> napi::Result<()> {
        self.memory()?.remove_method(&method);
        Ok(())
    }

    #[napi]
    pub fn clear(&self) -> napi::Result<()> {
        self.memory()?.remove_all();
        Ok(())
    }
}
