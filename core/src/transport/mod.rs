//! Transports: where frames come from and go to.
//!
//! The peer engine speaks to a [`FrameSource`] and a [`FrameSink`], nothing else, so the
//! same engine runs over stdio ([`stdio`]), a spawned server ([`child`]), an in-memory pair
//! ([`memory`]) and, as a client, Streamable HTTP ([`http_client`]). The Streamable HTTP
//! server ([`http`]) serves requests one POST at a time and talks to the server directly.

pub mod blocking;
pub mod child;
pub mod http;
pub mod http_client;
pub mod memory;
pub mod stdio;
