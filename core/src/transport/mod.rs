//! Transports both sides share: where frames come from and go to.
//!
//! The peer engine speaks to a [`FrameSource`](crate::framing::FrameSource) and a
//! [`FrameSink`](crate::framing::FrameSink), nothing else, so the same engine runs over
//! stdio ([`stdio`]: stdin through the runtime, `polled`, or on a thread, [`blocking`], as
//! stdout) and an in-memory pair ([`memory`]). Transports of one side live with that side
//! (and above this module): the Streamable HTTP endpoint under the server (`server/http`),
//! the child process and the Streamable HTTP client under the client (`client/child.rs`,
//! `client/http`).

pub mod blocking;
pub mod memory;
#[cfg(unix)]
pub mod polled;
pub mod stdio;
