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

mod cancel;
mod client;
mod client_callbacks;
mod client_http;
mod client_oauth;
mod client_tasks;
mod context;
mod error;
mod group;
mod handlers;
mod http;
mod http_bearer;
mod http_listen;
mod listen;
mod port;
mod redis;
mod reply;
mod server;
mod vocabulary;
