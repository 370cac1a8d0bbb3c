//! Framing: where one message ends and the next begins, and what a transport hands the
//! engine ([`FrameSource`], [`FrameSink`], [`SourceEvent`]).
//!
//! stdio and child processes carry newline-delimited JSON ([`ndjson`]); Streamable HTTP
//! answers with Server-Sent Events ([`sse`]). A bad frame (too
//! large, not UTF-8) is skipped to its newline and reported as a [`FrameError`] that still
//! knows the request id when one could be recovered, so the peer can answer it and carry on.

pub mod ndjson;
pub mod source;
pub mod sse;

use crate::wire::{ErrorObject, RequestId};

pub use ndjson::{ChunkRead, DEFAULT_MAX_FRAME, NdjsonSink, NdjsonSource};
pub use source::{DirectWrite, FrameSink, FrameSource, SourceEvent};

/// A frame that was skipped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    #[error("frame of at least {size} bytes exceeds the limit of {limit} bytes")]
    TooLarge { size: usize, limit: usize, id: Option<RequestId> },
    #[error("frame is not valid UTF-8")]
    InvalidUtf8 { id: Option<RequestId> },
}

impl FrameError {
    /// The id of the request the frame carried, if it could be recovered.
    pub fn id(&self) -> Option<&RequestId> {
        match self {
            Self::TooLarge { id, .. } | Self::InvalidUtf8 { id } => id.as_ref(),
        }
    }

    /// The JSON-RPC error that answers the skipped frame.
    pub fn to_error_object(&self) -> ErrorObject {
        match self {
            Self::TooLarge { .. } => ErrorObject::invalid_request(format!("Invalid request: {self}")),
            Self::InvalidUtf8 { .. } => ErrorObject::parse_error(format!("Parse error: {self}")),
        }
    }
}
