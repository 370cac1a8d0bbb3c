//! stdio for servers: frames in on stdin, out on stdout.
//!
//! stdin is read on a thread of its own (see [`super::blocking`]), so a server that is told
//! to stop never waits for a read that may never return. EOF on stdin ends the connection,
//! and with it a server's run.

use std::io;

use super::blocking::ThreadReader;
use crate::framing::{DEFAULT_MAX_FRAME, NdjsonSink, NdjsonSource};

pub type StdioSource = NdjsonSource<ThreadReader>;
pub type StdioSink = NdjsonSink<tokio::io::Stdout>;

/// This process's stdin and stdout as a transport.
pub fn stdio() -> io::Result<(StdioSource, StdioSink)> {
    stdio_with_max_frame(DEFAULT_MAX_FRAME)
}

pub fn stdio_with_max_frame(max_frame: usize) -> io::Result<(StdioSource, StdioSink)> {
    let stdin = ThreadReader::spawn(io::stdin(), "ferrymcp-stdin")?;
    Ok((NdjsonSource::with_max_frame(stdin, max_frame), NdjsonSink::new(tokio::io::stdout())))
}
