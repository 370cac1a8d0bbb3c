//! The end-to-end load driver behind `mcp-load` (issue 7).
//!
//! It speaks raw JSON-RPC, with no SDK on the client side, so the client costs the same
//! whichever server it measures: frames are formatted from pre-escaped strings and replies
//! are read as borrowed envelopes. Each run starts the server fresh, as a child process,
//! and reads the child's CPU time and memory from `/proc`, which is less noisy than wall
//! time on a shared machine. The stdio and Streamable HTTP sides live in their own files;
//! what they report is in [`report`].

pub mod http;
pub mod latency;
pub mod messages;
pub mod procfs;
pub mod report;
pub mod stdio;

/// Every failure of a run ends it with a message; the runner records the run as failed.
pub type Error = Box<dyn std::error::Error + Send + Sync>;
pub type Result<T> = std::result::Result<T, Error>;
