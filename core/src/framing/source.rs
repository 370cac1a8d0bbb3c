//! The two ends every transport offers the peer engine: a source of events and a sink of
//! frames.
//!
//! The engine speaks to these traits and nothing else, so it runs the same over stdio, a
//! child process, an in-memory pair or Streamable HTTP. A source reports more than frames:
//! a frame it had to skip (with the error that answers it), and, for transports that carry
//! each request separately (Streamable HTTP), a request of ours whose transport failed.
//! That last one is a transport fact, not a frame error, so it has its own event.

use std::future::Future;
use std::io;
use std::sync::Arc;

use bytes::Bytes;

use super::FrameError;
use crate::wire::SharedStr;

/// What a source yields next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceEvent {
    /// One whole frame.
    Frame(SharedStr),
    /// A frame that had to be skipped; the error answers it when its id is known.
    Skipped(FrameError),
    /// Our request `id` got no answer because its transport failed (a Streamable HTTP POST
    /// or its response stream broke): that request fails as on a closed connection, the
    /// connection goes on. (The peer numbers its requests, so the id is an integer.)
    RequestFailed { id: i64, reason: String },
    /// The end of the stream.
    End,
}

impl From<Option<Result<SharedStr, FrameError>>> for SourceEvent {
    /// A frame reader's outcome (`None` at the end of the stream) as an event.
    fn from(item: Option<Result<SharedStr, FrameError>>) -> Self {
        match item {
            Some(Ok(frame)) => Self::Frame(frame),
            Some(Err(skipped)) => Self::Skipped(skipped),
            None => Self::End,
        }
    }
}

/// Incoming events. `Err` is a broken transport.
///
/// `next_event` must be cancel-safe: the engine selects on it.
pub trait FrameSource: Send + 'static {
    fn next_event(&mut self) -> impl Future<Output = io::Result<SourceEvent>> + Send;
}

/// Outgoing frames, written in batches.
pub trait FrameSink: Send + 'static {
    /// Writes `batch` (whole frames, each followed by `\n`) and flushes it. The batch is
    /// given by value so a transport that passes buffers on need not copy it.
    fn send(&mut self, batch: Bytes) -> impl Future<Output = io::Result<()>> + Send;

    /// Writes one batch given in parts, in order (a frame may span parts: a large body is
    /// queued by reference between its head and tail). A sink that can write the parts
    /// one after the other overrides this; by default they are joined into one batch.
    fn send_parts(&mut self, mut parts: Vec<Bytes>) -> impl Future<Output = io::Result<()>> + Send {
        async move {
            let batch = match parts.len() {
                1 => parts.pop().expect("one part"),
                _ => Bytes::from(parts.concat()),
            };
            self.send(batch).await
        }
    }

    /// Ends the stream (closes the pipe, so the other side sees EOF).
    fn close(&mut self) -> impl Future<Output = io::Result<()>> + Send;

    /// A way to write a small batch from the sender's own thread, for a sink that has one
    /// (see [`DirectWrite`]). The engine calls it only when nothing is queued or being
    /// written ahead of that batch.
    fn direct(&self) -> Option<DirectWrite> {
        None
    }
}

/// Writes a batch at once on the calling thread, only where that can neither block nor
/// overtake anything the sink still holds: returns how many bytes it wrote (0: none, the
/// writer task takes the batch as usual). A sequential answer then leaves without waking
/// the writer task, or the runtime's worker at all when the answer was made on another
/// thread (a binding's own thread running the handler).
pub type DirectWrite = Arc<dyn Fn(&[u8]) -> io::Result<usize> + Send + Sync>;
