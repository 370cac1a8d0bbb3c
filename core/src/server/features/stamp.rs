//! Result stamping: what every 2026-07-28 result carries (`resultType`, `serverInfo`) and
//! the cache hints of cacheable results, added in one place after any feature answered.
//! Which results are cacheable is the router's to say (it passes the hint).

use serde_json::{Map, Value, json};

use crate::protocol::meta;
use crate::server::{CacheHint, ServerShared};

/// Adds what every 2026-07-28 result carries: `resultType`, `serverInfo`, and `hint` (when
/// the result is cacheable) on complete results.
pub(crate) fn stamp(server: &ServerShared, hint: Option<CacheHint>, result: Option<&mut Map<String, Value>>) {
    let Some(map) = result else { return };
    let complete = map.entry("resultType").or_insert_with(|| json!("complete")) == "complete";
    let meta = map.entry("_meta").or_insert_with(|| json!({}));
    if let Value::Object(meta) = meta {
        meta.entry(meta::SERVER_INFO).or_insert_with(|| server.info.clone());
    }
    let Some(hint) = hint else { return };
    if complete {
        map.entry("ttlMs").or_insert_with(|| json!(hint.ttl_ms));
        map.entry("cacheScope").or_insert_with(|| json!(if hint.public { "public" } else { "private" }));
    }
}
