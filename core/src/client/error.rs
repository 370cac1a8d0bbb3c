//! Client errors, each with the JSON-RPC code it maps to.

use crate::peer::PeerError;
use crate::wire::{ErrorCode, ErrorObject};

#[derive(Clone, Debug, thiserror::Error)]
pub enum ClientError {
    /// The request failed: the server's error, a timeout, a cancellation, a closed
    /// connection.
    #[error(transparent)]
    Peer(#[from] PeerError),
    /// The server broke the protocol (a bad handshake, a malformed result).
    #[error("protocol error: {0}")]
    Protocol(String),
    /// The server asked for input the host could not give.
    #[error("{0}")]
    Input(ErrorObject),
    /// The transport could not be set up (the server would not start, a bad URL).
    #[error("could not reach the server: {0}")]
    Transport(String),
    /// A tool result does not keep the tool's `outputSchema`: no `structuredContent`
    /// (`missing`), or content the schema refuses (`detail` says why).
    #[error("{}", output_schema_message(tool, *missing, detail))]
    OutputSchema { tool: String, missing: bool, detail: String },
    /// The call is not possible on this connection (wrong era, bad arguments).
    #[error("{0}")]
    Usage(String),
    /// A 2026-07-28 result still asks for input (`input_required`) and this client does not
    /// answer it: answering is off ([`ClientOptions::answer_input`](super::ClientOptions),
    /// `rounds` is `None`), or `rounds` rounds were answered and the server still asks.
    /// `last` is that result, for a caller that goes on by hand (`request_once`).
    #[error("{}", input_required_message(method, *rounds))]
    InputRequired { method: String, rounds: Option<usize>, last: Box<serde_json::Value> },
}

impl ClientError {
    pub fn code(&self) -> i64 {
        match self {
            Self::Peer(e) => e.code(),
            Self::Input(e) => e.code,
            Self::Protocol(_) => ErrorCode::INVALID_REQUEST,
            Self::Transport(_) => ErrorCode::CONNECTION_CLOSED,
            Self::Usage(_) => ErrorCode::INVALID_PARAMS,
            Self::InputRequired { .. } => ErrorCode::INVALID_REQUEST,
            // The official TypeScript client's codes: a missing result breaks the request
            // contract, content that does not match is invalid.
            Self::OutputSchema { missing: true, .. } => ErrorCode::INVALID_REQUEST,
            Self::OutputSchema { .. } => ErrorCode::INVALID_PARAMS,
        }
    }

    /// The server's error object, when the server answered with one.
    pub fn rpc(&self) -> Option<&ErrorObject> {
        match self {
            Self::Peer(PeerError::Rpc(e)) => Some(e),
            _ => None,
        }
    }
}

fn input_required_message(method: &str, rounds: Option<usize>) -> String {
    match rounds {
        None => format!(
            "Unsupported result type 'input_required' for {method}: this client does not answer input requests \
             (send the request once and retry it with inputResponses and requestState)"
        ),
        Some(rounds) => format!("{method} still asked for input after {rounds} rounds"),
    }
}

/// The official clients' messages.
fn output_schema_message(tool: &str, missing: bool, detail: &str) -> String {
    if missing {
        format!("Tool {tool} has an output schema but did not return structured content")
    } else {
        format!("Invalid structured content returned by tool {tool}: {detail}")
    }
}
