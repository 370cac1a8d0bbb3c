//! ferrymcp-core: the one engine behind ferrymcp's Python and Node packages.
//!
//! Layers, bottom up, each in its own module:
//! - [`wire`]: JSON-RPC 2.0 messages parsed borrowed from the input buffer, and written
//!   straight into the outgoing one.
//! - [`framing`]: newline-delimited frames, with size limits and recovery from bad frames.
//! - [`peer`]: the RPC engine both sides share (correlation, concurrency, cancellation,
//!   progress, timeouts, the ordered coalescing writer).
//! - [`transport`]: stdio, child processes and in-memory pairs, as frame sources and sinks.
//!
//! Everything that is protocol lives here, so every binding behaves the same.

pub mod client;
pub mod framing;
pub mod peer;
pub mod protocol;
pub mod server;
pub mod transport;
pub mod wire;
