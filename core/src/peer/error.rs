//! Errors of the RPC engine, each with the JSON-RPC code it maps to.

use std::fmt;
use std::time::Duration;

use crate::wire::{ErrorCode, ErrorObject};

/// Why a connection closed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CloseReason {
    /// The other side ended the stream.
    Eof,
    /// This side closed it.
    Local,
    /// The transport failed, or the process behind it exited.
    Transport(String),
}

impl fmt::Display for CloseReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Eof => f.write_str("the other side closed the connection"),
            Self::Local => f.write_str("the connection was closed"),
            Self::Transport(why) => f.write_str(why),
        }
    }
}

/// What can go wrong with an outgoing request.
#[derive(Clone, Debug, thiserror::Error)]
pub enum PeerError {
    /// The other side answered with an error.
    #[error("{0}")]
    Rpc(ErrorObject),
    #[error("request timed out after {0:?}")]
    Timeout(Duration),
    #[error("request cancelled")]
    Cancelled,
    #[error("connection closed: {0}")]
    Closed(CloseReason),
    #[error("could not serialise the params: {0}")]
    Params(String),
    /// The answer to this request arrived but was not a valid response.
    #[error("malformed response: {0}")]
    MalformedResponse(String),
}

impl PeerError {
    /// The JSON-RPC code of this error.
    pub fn code(&self) -> i64 {
        match self {
            Self::Rpc(e) => e.code,
            Self::Timeout(_) => ErrorCode::REQUEST_TIMEOUT,
            Self::Cancelled => ErrorCode::REQUEST_CANCELLED,
            Self::Closed(_) => ErrorCode::CONNECTION_CLOSED,
            Self::Params(_) => ErrorCode::INVALID_PARAMS,
            Self::MalformedResponse(_) => ErrorCode::INVALID_REQUEST,
        }
    }
}
