//! The exit codes scripts can rely on, and the one error type every command returns.
//!
//! A command either finishes with a code of its own (0, or 1 when the tool reported
//! `isError`) or fails with a [`Failure`], whose kind picks the code. The codes are listed
//! once, in [`exit_codes!`], which every `--help` prints, so the documentation and the
//! behaviour cannot drift apart.

use std::fmt;
use std::process::ExitCode;

use ferrymcp_core::client::ClientError;
use ferrymcp_core::peer::PeerError;

/// The exit-code table, a literal so `concat!` can put it in every `--help`.
#[macro_export]
macro_rules! exit_codes {
    () => {
        "Exit codes:
  0  success
  1  the tool returned isError (bench: some calls failed)
  2  usage error (bad arguments, unknown tool or prompt, unreadable mcp.json)
  3  the server could not be started or reached, or the connection was lost
  4  protocol error: the server answered with a JSON-RPC error or a malformed result"
    };
}

/// Exit code 1: the tool reported `isError`, or (bench) some calls failed.
pub const TOOL_ERROR: u8 = 1;

/// Why a command failed, as far as a script cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Usage,
    Connect,
    Protocol,
    /// OAuth failed (bridge): refused, not approved in time, or the token store unwritable.
    Auth,
}

impl Kind {
    pub fn code(self) -> u8 {
        match self {
            Kind::Usage => 2,
            Kind::Connect => 3,
            Kind::Protocol => 4,
            Kind::Auth => 5,
        }
    }
}

/// A failed command: its kind and a message a person can act on.
#[derive(Debug)]
pub struct Failure {
    pub kind: Kind,
    pub error: anyhow::Error,
}

impl Failure {
    pub fn new(kind: Kind, error: impl Into<anyhow::Error>) -> Self {
        Self { kind, error: error.into() }
    }

    pub fn usage(message: impl fmt::Display) -> Self {
        Self::new(Kind::Usage, anyhow::anyhow!("{message}"))
    }

    /// A request that failed once connected: the server's JSON-RPC error or a broken
    /// result is a protocol error; a timeout or a lost connection means the server is gone.
    pub fn request(what: &str, error: ClientError) -> Self {
        let kind = match &error {
            ClientError::Usage(_) | ClientError::Peer(PeerError::Params(_)) => Kind::Usage,
            ClientError::Transport(_) | ClientError::Peer(PeerError::Closed(_) | PeerError::Timeout(_)) => {
                Kind::Connect
            }
            _ => Kind::Protocol,
        };
        let message = match error.rpc() {
            Some(rpc) => format!("{what}: the server answered with error {}: {}", rpc.code, rpc.message),
            None => format!("{what}: {error}"),
        };
        Self::new(kind, anyhow::anyhow!(message))
    }

    /// Prints the message (with its causes) on stderr and gives the exit code.
    pub fn report(self) -> ExitCode {
        eprintln!("ferrymcp: {:#}", self.error);
        ExitCode::from(self.kind.code())
    }
}

pub type Outcome<T> = Result<T, Failure>;
