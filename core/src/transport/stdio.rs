//! stdio for servers: frames in on stdin, out on stdout.
//!
//! stdin is read and stdout written on threads of their own (see [`super::blocking`]): a
//! server that is told to stop never waits for a read that may never return, and an answer
//! costs no hop through tokio's blocking pool. EOF on stdin ends the connection, and with
//! it a server's run.
//!
//! The descriptors are shared with the host runtime, which may have made them
//! non-blocking: Node.js does so for a pipe as soon as anything touches `process.stdin`
//! (libuv opens it as a non-blocking stream). A plain blocking read then fails with
//! `EAGAIN`, which once ended the connection, and with it the server, 0.3 s after start.
//! [`Patient`] waits for readiness instead, whatever mode the descriptor is in.

use std::io;

use super::blocking::{Patient, ThreadReader, ThreadSink};
use crate::framing::{DEFAULT_MAX_FRAME, NdjsonSource};

pub type StdioSource = NdjsonSource<ThreadReader>;
pub type StdioSink = ThreadSink;

/// This process's stdin and stdout as a transport.
pub fn stdio() -> io::Result<(StdioSource, StdioSink)> {
    stdio_with_max_frame(DEFAULT_MAX_FRAME)
}

pub fn stdio_with_max_frame(max_frame: usize) -> io::Result<(StdioSource, StdioSink)> {
    let stdin = ThreadReader::spawn(Patient::stdin()?, "ferrymcp-stdin")?;
    let stdout = Patient::stdout()?;
    let direct = stdout.direct();
    let stdout = ThreadSink::spawn_with(stdout, "ferrymcp-stdout", direct)?;
    Ok((NdjsonSource::with_max_frame(stdin, max_frame), stdout))
}
