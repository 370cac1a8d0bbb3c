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

use std::future::Future;
use std::io;

use bytes::Bytes;

use crate::framing::FrameError;
use crate::wire::SharedStr;

/// One item from a source: a frame, or a frame that had to be skipped.
pub type SourceItem = Result<SharedStr, FrameError>;

/// Incoming frames. `Ok(None)` is the end of the stream; `Err` a broken transport.
///
/// `next_frame` must be cancel-safe: the engine selects on it.
pub trait FrameSource: Send + 'static {
    fn next_frame(&mut self) -> impl Future<Output = io::Result<Option<SourceItem>>> + Send;
}

/// Outgoing frames, written in batches.
pub trait FrameSink: Send + 'static {
    /// Writes `batch` (whole frames, each followed by `\n`) and flushes it. The batch is
    /// given by value so a transport that passes buffers on need not copy it.
    fn send(&mut self, batch: Bytes) -> impl Future<Output = io::Result<()>> + Send;

    /// Ends the stream (closes the pipe, so the other side sees EOF).
    fn close(&mut self) -> impl Future<Output = io::Result<()>> + Send;
}
