//! ferrymcp-node: the Node.js face of ferrymcp-core, as a napi-rs addon.
//!
//! This crate only adapts. A JavaScript handler becomes a core handler trait object
//! ([`handlers`]), a JavaScript client callback becomes a core client callback
//! ([`client_callbacks`]), values cross as JSON text (V8's `JSON.parse` builds objects
//! faster than N-API does one property at a time), and core errors become JS errors whose
//! message carries `{code, message, data}` for the TypeScript layer's `McpError`
//! ([`error`]). Every protocol decision stays in core.
//!
//! Event-loop rules: thread-safe functions that live as long as a server or client are
//! weak (unref'd), so they never keep Node alive on their own; what keeps it alive is a
//! pending promise (a server being served, a request in flight), exactly as long as the
//! work lasts. Every wait on JavaScript has a timeout, and no panic crosses into Node.

// `cargo test --workspace --all-targets` builds every library's test harness, where the
// exports (reached only from JS through napi's registration) look unused.
#![cfg_attr(test, allow(dead_code))]

mod cache_store;
mod cancel;
mod client;
mod client_callbacks;
mod client_http;
mod client_oauth;
mod client_tasks;
mod context;
mod cross_app;
mod error;
mod events;
mod group;
mod handlers;
mod http;
mod http_bearer;
mod http_listen;
mod listen;
mod oauth_steps;
mod port;
mod redis;
mod reply;
mod server;
mod task_store;
mod vocabulary;

/// The addon's tokio runtime: one worker thread, unless `TOKIO_WORKER_THREADS` (tokio's own
/// setting) asks for more.
///
/// napi-rs's default is a worker per core. Work reaches the runtime from other threads (the
/// JS thread answering, the stdio reader), and each such wake-up with two or more idle
/// workers also sets a second one searching for work to steal: on a call served one at a
/// time that doubled the context switches and cost about 50 µs of CPU per call (145 against
/// 91 µs measured over stdio, `benches/README.md`). The JS thread runs the handlers one at
/// a time anyway; the Rust side of a call (framing, routing, validation) is a few µs.
#[cfg(not(test))]
#[napi_derive::module_init]
fn init() {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if std::env::var_os("TOKIO_WORKER_THREADS").is_none() {
        builder.worker_threads(1);
    }
    if let Ok(runtime) = builder.enable_all().build() {
        runtime.spawn(keep_timer_armed());
        napi::bindgen_prelude::create_custom_tokio_runtime(runtime);
    }
}

#[cfg(not(test))]
/// How often the runtime's standing timer fires (see `keep_timer_armed`).
const STANDING_TIMER: std::time::Duration = std::time::Duration::from_secs(60);

/// A timer that is always pending, so a handler call's deadline does not wake the runtime.
///
/// Each call into JS waits for its answer under a deadline (`reply::wait`, 600 s by default).
/// Tokio writes to its driver's eventfd whenever a timer is registered earlier than every
/// pending one, and with none pending that is every call's deadline: one `write` per call,
/// and the worker's next `epoll_wait` reports the wake-up besides the request
/// (`benches/README.md`, "the per-call path at low rate"). With this timer pending, every
/// deadline later than its next firing is filed without a wake-up. It fires once a minute,
/// on an otherwise idle runtime too, and does nothing else.
#[cfg(not(test))]
async fn keep_timer_armed() {
    loop {
        tokio::time::sleep(STANDING_TIMER).await;
    }
}
