//! `ferrymcp.RedisStore`: core's Redis-backed session store, event store and bus
//! (`ferrymcp-redis`), handed to an endpoint as `event_store=`.

use std::time::Duration;

use ferrymcp_redis::{RedisOptions, RedisStore};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::runtime::runtime;

/// Sessions, resumable events and the replicas' bus on one Redis server, so several
/// replicas of a server behind a load balancer serve the same legacy sessions.
#[pyclass(module = "ferrymcp._native", name = "RedisStore", frozen)]
pub struct NativeRedisStore {
    pub store: RedisStore,
}

fn positive(name: &str, seconds: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| PyValueError::new_err(format!("{name} must be a positive number of seconds, got {seconds}")))
}

#[pymethods]
impl NativeRedisStore {
    #[new]
    #[pyo3(signature = (url, *, prefix = "ferrymcp".to_owned(), events_per_stream = 1024, events_max_age = 3600.0, timeout = 1.0))]
    fn new(url: String, prefix: String, events_per_stream: usize, events_max_age: f64, timeout: f64) -> PyResult<Self> {
        if prefix.is_empty() {
            return Err(PyValueError::new_err("prefix must not be empty"));
        }
        if events_per_stream == 0 {
            return Err(PyValueError::new_err("events_per_stream must be positive"));
        }
        let options = RedisOptions {
            prefix,
            events_per_stream,
            events_age: positive("events_max_age", events_max_age)?,
            command_timeout: positive("timeout", timeout)?,
        };
        // The connection is made lazily, on the engine's runtime.
        let _entered = runtime().enter();
        let store = RedisStore::new(&url, options).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Self { store })
    }

    fn __repr__(&self) -> String {
        format!("RedisStore({:?})", self.store.url())
    }
}
