//! `RedisStore`: core's Redis-backed session store, event store and bus (`ferrymcp-redis`),
//! handed to an endpoint as `eventStore`.

use std::time::Duration;

use ferrymcp_core::protocol::ErrorCode;
use ferrymcp_redis::{RedisOptions, RedisStore};
use napi::bindgen_prelude::within_runtime_if_available;
use napi_derive::napi;

use crate::error::mcp_error;

/// How a `RedisStore` keeps things; every field has core's default.
#[napi(object)]
pub struct RedisConfig {
    pub prefix: Option<String>,
    pub events_per_stream: Option<u32>,
    pub events_max_age_ms: Option<u32>,
    pub timeout_ms: Option<u32>,
}

#[napi]
pub struct NativeRedisStore {
    pub(crate) store: RedisStore,
}

#[napi]
impl NativeRedisStore {
    #[napi(constructor)]
    pub fn new(url: String, config: RedisConfig) -> napi::Result<Self> {
        let defaults = RedisOptions::default();
        let millis = |ms: Option<u32>, default| ms.map_or(default, |ms| Duration::from_millis(ms.into()));
        let options = RedisOptions {
            prefix: config.prefix.unwrap_or(defaults.prefix),
            events_per_stream: config.events_per_stream.map_or(defaults.events_per_stream, |n| n as usize),
            events_age: millis(config.events_max_age_ms, defaults.events_age),
            command_timeout: millis(config.timeout_ms, defaults.command_timeout),
        };
        // The connection is made lazily, on the engine's runtime.
        let store = within_runtime_if_available(|| RedisStore::new(&url, options))
            .map_err(|e| mcp_error(ErrorCode::INVALID_PARAMS, &e.to_string(), None))?;
        Ok(Self { store })
    }

    /// The URL, its password masked.
    #[napi(getter)]
    pub fn url(&self) -> String {
        self.store.url().to_owned()
    }
}
