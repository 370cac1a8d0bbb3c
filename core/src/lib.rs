//! ferrymcp-core: the one engine behind ferrymcp's Python and Node packages.
//!
//! A stack of layers, bottom up; every import points down (a layer uses only those below
//! it), so each can be read, tested and changed without the ones above:
//! - [`wire`]: JSON-RPC 2.0 messages parsed borrowed from the input buffer, and written
//!   straight into the outgoing one.
//! - [`framing`]: newline-delimited frames and SSE events, with size limits and recovery
//!   from bad frames; the traits every transport implements ([`framing::FrameSource`],
//!   [`framing::FrameSink`]) and the events a source yields ([`framing::SourceEvent`]: a
//!   frame, a skipped frame, a request whose transport failed, the end).
//! - [`transport`]: what both sides share, on top of framing: stdio (on threads of its
//!   own) and in-memory pairs.
//! - [`peer`]: the RPC engine both sides share (correlation, concurrency, cancellation,
//!   progress, timeouts, the ordered coalescing writer); it speaks to the framing traits
//!   and knows no transport.
//! - [`protocol`]: the MCP vocabulary (types, revisions, `_meta` keys, error codes).
//! - [`server`] and [`client`], side by side on top, each with its own transports: the
//!   Streamable HTTP endpoint in [`server::http`]; the child process and the Streamable
//!   HTTP client in [`client::child`] and [`client::http`].
//! - [`proxy`], on top of both: a front server answering from upstream clients (the
//!   `ferrymcp bridge` and `gateway` commands).
//! - [`host`], on top of the client and the gateway's supervision: `mcp.json` files, the
//!   client group (many servers, one set of tool names) and the LLM APIs' tool shapes.
//!
//! Everything that is protocol lives here, so every binding behaves the same.

pub mod client;
pub mod framing;
pub mod host;
pub mod peer;
pub mod protocol;
pub mod proxy;
pub mod server;
pub mod tls;
pub mod transport;
pub mod wire;
