//! The client's response cache (2026-07-28 cache hints: `ttlMs`, `cacheScope`).
//!
//! The behaviour is the official SDKs' (Python `mcp.client.caching`, TypeScript
//! `responseCache`): the cacheable verbs (`tools/list`, `prompts/list`, `resources/list`,
//! `resources/templates/list` without a cursor, and `resources/read` by uri) are served
//! from a fresh entry without a round trip; a result is stored for its `ttlMs` (only on a
//! modern connection; otherwise, and for a result without one, for the configured default,
//! `0` = not stored), capped at [`MAX_TTL_MS`]. `"private"` entries live under the
//! configured partition; `"public"` ones too unless `share_public` is set. Keys carry the
//! server's identity (sha256 of the URL without userinfo, the configured `target_id`, or a
//! random per-client id) and the negotiated version. `list_changed` notifications evict
//! the listing they name and `notifications/resources/updated` the read of its uri, before
//! the host sees the notification. A failing store degrades to a miss, never a failed call.
//! Continuation pages, seeded and multi-round reads, and `server/discover` are never cached.

use std::sync::{Arc, Mutex, OnceLock};

use indexmap::IndexMap;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::peer::BoxFuture;
use crate::protocol::ProtocolVersion;

/// Cap on any entry's time to live: 24 hours.
pub const MAX_TTL_MS: u64 = 24 * 60 * 60 * 1000;

/// How many keys the eviction-race bookkeeping tracks (the oldest is dropped past it).
const GENERATION_CAP: usize = 4096;

/// The methods whose results may be cached.
pub const CACHEABLE_METHODS: [&str; 5] =
    ["tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"];

/// Per-call behaviour: `Use` serves and stores, `Refresh` stores without serving,
/// `Bypass` neither reads nor writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CacheMode {
    #[default]
    Use,
    Refresh,
    Bypass,
}

impl CacheMode {
    /// Parses the official spelling (`"use"`, `"refresh"`, `"bypass"`).
    pub fn parse(text: &str) -> Result<Self, String> {
        match text {
            "use" => Ok(Self::Use),
            "refresh" => Ok(Self::Refresh),
            "bypass" => Ok(Self::Bypass),
            other => Err(format!("cache mode must be \"use\", \"refresh\" or \"bypass\", got {other:?}")),
        }
    }
}

/// `cacheScope`: whether an entry may be shared across authorization contexts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CacheScope {
    Public,
    Private,
}

impl CacheScope {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Public => "public",
            Self::Private => "private",
        }
    }
}

/// One entry's identity: compared field by field, never as a flattened string.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CacheKey {
    pub method: String,
    /// The uri for `resources/read`, `""` for the lists.
    pub params_key: String,
    /// The arm (scope, version, server identity, partition) as a JSON array; opaque to stores.
    pub partition: String,
}

/// One cached result.
#[derive(Clone, Debug)]
pub struct CacheEntry {
    pub value: Value,
    pub scope: CacheScope,
    /// Epoch seconds after which the entry is stale; `None` is never fresh.
    pub expires_at: Option<f64>,
    /// The store's write counter when the entry was written (the official TypeScript
    /// store's `stamp`): assigned by the store, `0` in what the client hands to `set`.
    pub stamp: u64,
}

/// Where entries live. Every operation may fail (the cache then acts as a miss).
pub trait ResponseCacheStore: Send + Sync {
    fn get(&self, key: CacheKey) -> BoxFuture<Result<Option<CacheEntry>, String>>;
    fn set(&self, key: CacheKey, entry: CacheEntry) -> BoxFuture<Result<(), String>>;
    fn delete(&self, key: CacheKey) -> BoxFuture<Result<(), String>>;
    /// Drops every entry of `method`, in every partition (the official TypeScript
    /// store's `evict`, for applications: the client itself never calls it).
    fn evict(&self, method: &str) -> BoxFuture<Result<(), String>>;
    fn clear(&self) -> BoxFuture<Result<(), String>>;
}

/// How an [`InMemoryResponseCacheStore`] keeps itself under its cap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvictionPolicy {
    /// The official Python SDK's: every entry counts, the least recently used goes
    /// first; `get` and `set` both refresh recency.
    #[default]
    LeastRecentlyUsed,
    /// The official TypeScript SDK's: only `resources/read` entries count (the list
    /// results and `server/discover` hold one entry per partition and are never evicted
    /// by the cap); the oldest by first insertion goes first; writing a held key again
    /// neither evicts nor moves it, and `get` does not either.
    OldestRead,
}

impl EvictionPolicy {
    /// Whether an entry of `method` counts toward the cap.
    fn capped(self, method: &str) -> bool {
        match self {
            Self::LeastRecentlyUsed => true,
            Self::OldestRead => !CAP_EXEMPT_METHODS.contains(&method),
        }
    }
}

/// The methods whose entries [`EvictionPolicy::OldestRead`] never evicts.
const CAP_EXEMPT_METHODS: [&str; 5] =
    ["tools/list", "prompts/list", "resources/list", "resources/templates/list", "server/discover"];

/// The official Python store's default cap (all entries).
pub const PYTHON_MAX_ENTRIES: usize = 1024;
/// The official TypeScript store's default cap (`resources/read` entries).
pub const TYPESCRIPT_MAX_ENTRIES: usize = 512;

struct Held {
    entries: IndexMap<CacheKey, CacheEntry>,
    /// How many held entries count toward the cap.
    capped: usize,
    /// The last stamp given.
    stamp: u64,
}

/// The default store: in process, bounded by `max_entries` (`0` = no cap) under its
/// [`EvictionPolicy`]. Its synchronous methods serve the bindings' store classes.
pub struct InMemoryResponseCacheStore {
    max_entries: usize,
    policy: EvictionPolicy,
    held: Mutex<Held>,
}

impl InMemoryResponseCacheStore {
    /// The official Python store: least recently used evicted past `max_entries`.
    pub fn new(max_entries: usize) -> Self {
        Self::with_policy(max_entries, EvictionPolicy::LeastRecentlyUsed)
    }

    /// The official TypeScript store (`new InMemoryResponseCacheStore({maxEntries})`):
    /// the oldest `resources/read` entry evicted past `max_entries`.
    pub fn typescript(max_entries: usize) -> Self {
        Self::with_policy(max_entries, EvictionPolicy::OldestRead)
    }

    pub fn with_policy(max_entries: usize, policy: EvictionPolicy) -> Self {
        let held = Held { entries: IndexMap::new(), capped: 0, stamp: 0 };
        Self { max_entries, policy, held: Mutex::new(held) }
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn len(&self) -> usize {
        self.held().entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The entry under `key` (refreshing its recency under least recently used).
    pub fn lookup(&self, key: &CacheKey) -> Option<CacheEntry> {
        let mut held = self.held();
        match self.policy {
            EvictionPolicy::LeastRecentlyUsed => {
                let found = held.entries.shift_remove(key)?;
                held.entries.insert(key.clone(), found.clone());
                Some(found)
            }
            EvictionPolicy::OldestRead => held.entries.get(key).cloned(),
        }
    }

    /// Writes `entry` under `key`, evicting as the policy says; returns the entry's stamp.
    pub fn insert(&self, key: CacheKey, mut entry: CacheEntry) -> u64 {
        let mut held = self.held();
        held.stamp += 1;
        entry.stamp = held.stamp;
        let capped = self.policy.capped(&key.method);
        match self.policy {
            EvictionPolicy::LeastRecentlyUsed => {
                if held.entries.shift_remove(&key).is_none() {
                    held.capped += 1;
                }
                held.entries.insert(key, entry);
            }
            EvictionPolicy::OldestRead => {
                if let Some(slot) = held.entries.get_mut(&key) {
                    *slot = entry;
                    return held.stamp;
                }
                if capped && self.max_entries > 0 && held.capped >= self.max_entries {
                    let oldest = held.entries.keys().position(|k| self.policy.capped(&k.method));
                    if let Some(index) = oldest {
                        held.entries.shift_remove_index(index);
                        held.capped -= 1;
                    }
                }
                held.entries.insert(key, entry);
                if capped {
                    held.capped += 1;
                }
            }
        }
        if self.policy == EvictionPolicy::LeastRecentlyUsed && self.max_entries > 0 && held.capped > self.max_entries {
            held.entries.shift_remove_index(0);
            held.capped -= 1;
        }
        held.stamp
    }

    /// Drops the entry under `key`; whether there was one.
    pub fn remove(&self, key: &CacheKey) -> bool {
        let mut held = self.held();
        let removed = held.entries.shift_remove(key).is_some();
        if removed && self.policy.capped(&key.method) {
            held.capped -= 1;
        }
        removed
    }

    /// Drops every entry of `method`, in every partition.
    pub fn remove_method(&self, method: &str) {
        let mut held = self.held();
        let before = held.entries.len();
        held.entries.retain(|key, _| key.method != method);
        if self.policy.capped(method) {
            held.capped -= before - held.entries.len();
        }
    }

    /// Drops every entry.
    pub fn remove_all(&self) {
        let mut held = self.held();
        held.entries.clear();
        held.capped = 0;
    }
}

impl Default for InMemoryResponseCacheStore {
    fn default() -> Self {
        Self::new(PYTHON_MAX_ENTRIES)
    }
}

impl ResponseCacheStore for InMemoryResponseCacheStore {
    fn get(&self, key: CacheKey) -> BoxFuture<Result<Option<CacheEntry>, String>> {
        Box::pin(std::future::ready(Ok(self.lookup(&key))))
    }

    fn set(&self, key: CacheKey, entry: CacheEntry) -> BoxFuture<Result<(), String>> {
        self.insert(key, entry);
        Box::pin(std::future::ready(Ok(())))
    }

    fn delete(&self, key: CacheKey) -> BoxFuture<Result<(), String>> {
        self.remove(&key);
        Box::pin(std::future::ready(Ok(())))
    }

    fn evict(&self, method: &str) -> BoxFuture<Result<(), String>> {
        self.remove_method(method);
        Box::pin(std::future::ready(Ok(())))
    }

    fn clear(&self) -> BoxFuture<Result<(), String>> {
        self.remove_all();
        Box::pin(std::future::ready(Ok(())))
    }
}

/// The wall clock, in epoch seconds.
pub type Clock = Arc<dyn Fn() -> f64 + Send + Sync>;

/// The response cache's configuration (the official Python `CacheConfig`, the TypeScript
/// client options `responseCacheStore`, `cachePartition`, `defaultCacheTtlMs`).
#[derive(Clone, Default)]
pub struct CacheConfig {
    /// `None`: a per-client [`InMemoryResponseCacheStore`] of `max_entries`.
    pub store: Option<Arc<dyn ResponseCacheStore>>,
    /// The authorization context isolating `"private"` entries in a shared store.
    pub partition: String,
    /// The server's identity where no URL gives one.
    pub target_id: Option<String>,
    /// TTL for results without a `ttlMs` hint (`0`: not stored).
    pub default_ttl_ms: u64,
    /// `None`: the system clock.
    pub clock: Option<Clock>,
    /// Serve `"public"` entries across every partition of the store.
    pub share_public: bool,
    /// The default store's cap (`0`: none).
    pub max_entries: usize,
    /// The default store's eviction.
    pub policy: EvictionPolicy,
    /// The official TypeScript client's rules for a custom store: the partition may be
    /// left empty (`""` is then the partition), and a server that is not a URL, without
    /// `target_id`, gets a per-client identity. `false`: the official Python client's
    /// (both refused).
    pub lenient_store: bool,
}

impl CacheConfig {
    /// The official Python client's cache: a [`PYTHON_MAX_ENTRIES`] least-recently-used
    /// store per client.
    pub fn python() -> Self {
        Self { max_entries: PYTHON_MAX_ENTRIES, ..Self::default() }
    }

    /// The official TypeScript client's cache: a [`TYPESCRIPT_MAX_ENTRIES`]
    /// oldest-`resources/read`-first store per client, and its custom-store rules.
    pub fn typescript() -> Self {
        Self {
            max_entries: TYPESCRIPT_MAX_ENTRIES,
            policy: EvictionPolicy::OldestRead,
            lenient_store: true,
            ..Self::default()
        }
    }

    /// The official construction rules.
    pub fn check(&self) -> Result<(), String> {
        if self.store.is_some() && self.partition.is_empty() && !self.lenient_store {
            return Err("a custom store requires an explicit partition".into());
        }
        if self.target_id.as_deref() == Some("") {
            return Err("target_id must be a non-empty string or omitted".into());
        }
        Ok(())
    }
}

/// Drops the userinfo from a URL's authority; byte-exact otherwise (credentials must not
/// enter key material, and any normalisation could merge distinct servers).
pub fn strip_userinfo(url: &str) -> String {
    let Some(sep) = url.find("//") else { return url.to_owned() };
    let start = sep + 2;
    let end = url[start..].find(['/', '?', '#']).map_or(url.len(), |i| start + i);
    let authority = &url[start..end];
    match authority.rfind('@') {
        Some(at) => format!("{}{}{}", &url[..start], &authority[at + 1..], &url[end..]),
        None => url.to_owned(),
    }
}

fn system_clock() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64())
}

/// The per-client coordinator between the verbs and the store.
pub(crate) struct ResponseCache {
    store: Arc<dyn ResponseCacheStore>,
    partition: String,
    arm_id: String,
    default_ttl_ms: u64,
    clock: Clock,
    share_public: bool,
    /// The negotiated version, known once the handshake is done.
    version: OnceLock<String>,
    generations: Mutex<IndexMap<(String, String), u64>>,
}

impl ResponseCache {
    /// `url`: the dialled URL, when there is one. A custom store without a URL needs
    /// `target_id` (a random identity would never hit again in a shared store).
    pub(crate) fn new(config: &CacheConfig, url: Option<&str>) -> Result<Self, String> {
        config.check()?;
        let target = match (&config.target_id, url) {
            (Some(id), _) => id.clone(),
            (None, Some(url)) => strip_userinfo(url),
            (None, None) if config.store.is_some() && !config.lenient_store => {
                return Err("a custom cache store requires target_id when the server is not a URL".into());
            }
            (None, None) => {
                let mut bytes = [0u8; 16];
                getrandom::fill(&mut bytes).expect("the OS has a random source");
                bytes.iter().map(|b| format!("{b:02x}")).collect()
            }
        };
        let arm_id = Sha256::digest(target.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        let store = config.store.clone().unwrap_or_else(|| {
            Arc::new(InMemoryResponseCacheStore::with_policy(config.max_entries, config.policy)) as _
        });
        Ok(Self {
            store,
            partition: config.partition.clone(),
            arm_id,
            default_ttl_ms: config.default_ttl_ms,
            clock: config.clock.clone().unwrap_or_else(|| Arc::new(system_clock)),
            share_public: config.share_public,
            version: OnceLock::new(),
            generations: Mutex::default(),
        })
    }

    pub(crate) fn set_version(&self, version: &str) {
        let _ = self.version.set(version.to_owned());
    }

    fn modern(&self) -> bool {
        self.version.get().and_then(|v| ProtocolVersion::parse(v)).is_some_and(|v| v.is_modern())
    }

    fn key(&self, method: &str, params_key: &str, scope: CacheScope) -> CacheKey {
        let mut fields =
            vec![Value::from(scope.as_str()), self.version.get().cloned().map_or(Value::Null, Value::from)];
        fields.push(Value::from(self.arm_id.clone()));
        if scope == CacheScope::Private || !self.share_public {
            fields.push(Value::from(self.partition.clone()));
        }
        CacheKey { method: method.into(), params_key: params_key.into(), partition: Value::Array(fields).to_string() }
    }

    async fn fresh(&self, key: CacheKey) -> Result<Option<CacheEntry>, String> {
        let entry = self.store.get(key).await?;
        let now = (self.clock)();
        Ok(entry.filter(|e| e.expires_at.is_some_and(|at| at > now)))
    }

    /// A fresh entry for the key: the private arm first, then the public one.
    pub(crate) async fn read(&self, method: &str, params_key: &str) -> Option<Value> {
        let looked = async {
            if let Some(entry) = self.fresh(self.key(method, params_key, CacheScope::Private)).await? {
                return Ok(Some(entry.value));
            }
            let public = self.fresh(self.key(method, params_key, CacheScope::Public)).await?;
            Ok::<_, String>(public.filter(|e| e.scope == CacheScope::Public).map(|e| e.value))
        };
        looked.await.unwrap_or_else(|e| {
            tracing::warn!("response cache store get failed ({e}); continuing without the cache");
            None
        })
    }

    fn generations(&self) -> std::sync::MutexGuard<'_, IndexMap<(String, String), u64>> {
        self.generations.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Registers the key before a fetch; [`write`](Self::write) takes the generation.
    pub(crate) fn capture(&self, method: &str, params_key: &str) -> u64 {
        let mut generations = self.generations();
        let key = (method.to_owned(), params_key.to_owned());
        if !generations.contains_key(&key) && generations.len() >= GENERATION_CAP {
            generations.shift_remove_index(0);
        }
        *generations.entry(key).or_insert(0)
    }

    fn moved(&self, method: &str, params_key: &str, at_capture: u64) -> bool {
        let key = (method.to_owned(), params_key.to_owned());
        self.generations().get(&key).is_some_and(|g| *g != at_capture)
    }

    fn resolve(&self, result: &Value) -> (u64, CacheScope) {
        let modern = self.modern();
        let ttl = match result.get("ttlMs").and_then(Value::as_u64) {
            Some(ttl) if modern => ttl,
            _ => self.default_ttl_ms,
        };
        let public = modern && result.get("cacheScope").and_then(Value::as_str) == Some("public");
        (ttl.min(MAX_TTL_MS), if public { CacheScope::Public } else { CacheScope::Private })
    }

    async fn delete(&self, key: CacheKey) -> bool {
        match self.store.delete(key).await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!("response cache store delete failed ({e}); continuing without the cache");
                false
            }
        }
    }

    /// Stores a fetched result under the arm its scope selects.
    pub(crate) async fn write(&self, method: &str, params_key: &str, result: &Value, at_capture: u64, mode: CacheMode) {
        if self.moved(method, params_key, at_capture) {
            return;
        }
        let (ttl, scope) = self.resolve(result);
        let private = self.key(method, params_key, CacheScope::Private);
        let public = self.key(method, params_key, CacheScope::Public);
        if ttl == 0 {
            if mode == CacheMode::Refresh {
                self.delete(private).await;
                self.delete(public).await;
            }
            return;
        }
        let (own, opposite) = match scope {
            CacheScope::Public => (public, private),
            CacheScope::Private => (private, public),
        };
        if !self.delete(opposite).await {
            self.delete(own).await;
            return;
        }
        let expires_at = Some((self.clock)() + ttl as f64 / 1000.0);
        let entry = CacheEntry { value: result.clone(), scope, expires_at, stamp: 0 };
        if let Err(e) = self.store.set(own.clone(), entry).await {
            tracing::warn!("response cache store set failed ({e}); continuing without the cache");
            self.delete(own.clone()).await;
        }
        if self.moved(method, params_key, at_capture) {
            self.delete(own).await;
        }
    }

    /// Evicts one key from both arms (an in-flight fetch of it then stores nothing).
    pub(crate) async fn evict(&self, method: &str, params_key: &str) {
        if let Some(generation) = self.generations().get_mut(&(method.to_owned(), params_key.to_owned())) {
            *generation += 1;
        }
        self.delete(self.key(method, params_key, CacheScope::Private)).await;
        self.delete(self.key(method, params_key, CacheScope::Public)).await;
    }

    /// Evicts what a server notification makes stale.
    pub(crate) async fn evict_for(&self, method: &str, params: &Value) {
        match method {
            "notifications/tools/list_changed" => self.evict("tools/list", "").await,
            "notifications/prompts/list_changed" => self.evict("prompts/list", "").await,
            "notifications/resources/list_changed" => {
                self.evict("resources/list", "").await;
                self.evict("resources/templates/list", "").await;
            }
            "notifications/resources/updated" => {
                if let Some(uri) = params.get("uri").and_then(Value::as_str) {
                    self.evict("resources/read", uri).await;
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(method: &str, params: &str) -> CacheKey {
        CacheKey { method: method.into(), params_key: params.into(), partition: "[]".into() }
    }

    fn entry() -> CacheEntry {
        CacheEntry { value: Value::Null, scope: CacheScope::Private, expires_at: None, stamp: 0 }
    }

    fn held(store: &InMemoryResponseCacheStore) -> Vec<String> {
        store.held().entries.keys().map(|k| format!("{} {}", k.method, k.params_key)).collect()
    }

    #[test]
    fn least_recently_used_caps_every_method_and_reads_refresh() {
        let store = InMemoryResponseCacheStore::new(2);
        store.insert(key("tools/list", ""), entry());
        store.insert(key("resources/read", "a"), entry());
        assert!(store.lookup(&key("tools/list", "")).is_some());
        store.insert(key("resources/read", "b"), entry());
        assert_eq!(held(&store), ["tools/list ", "resources/read b"]);
    }

    #[test]
    fn oldest_read_caps_only_reads_oldest_first() {
        let store = InMemoryResponseCacheStore::typescript(2);
        store.insert(key("resources/read", "a"), entry());
        store.insert(key("tools/list", ""), entry());
        store.insert(key("resources/read", "b"), entry());
        // A read does not refresh, and re-writing a held key keeps its place.
        assert!(store.lookup(&key("resources/read", "a")).is_some());
        let stamp = store.insert(key("resources/read", "a"), entry());
        assert_eq!(store.lookup(&key("resources/read", "a")).unwrap().stamp, stamp);
        store.insert(key("resources/read", "c"), entry());
        store.insert(key("prompts/list", ""), entry());
        assert_eq!(held(&store), ["tools/list ", "resources/read b", "resources/read c", "prompts/list "]);
        store.remove_method("resources/read");
        assert_eq!(held(&store), ["tools/list ", "prompts/list "]);
        store.insert(key("resources/read", "d"), entry());
        store.insert(key("resources/read", "e"), entry());
        assert_eq!(store.len(), 4);
        store.remove(&key("resources/read", "d"));
        store.insert(key("resources/read", "f"), entry());
        assert_eq!(held(&store), ["tools/list ", "prompts/list ", "resources/read e", "resources/read f"]);
        store.remove_all();
        assert!(store.is_empty());
    }

    #[test]
    fn userinfo_is_stripped_and_nothing_else_changes() {
        assert_eq!(strip_userinfo("https://u:p@h:1/x?a=b@c"), "https://h:1/x?a=b@c");
        assert_eq!(strip_userinfo("http://H/x/"), "http://H/x/");
        assert_eq!(strip_userinfo("stdio"), "stdio");
    }
}
