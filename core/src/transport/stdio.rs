//! stdio for servers: frames in on stdin, out on stdout.
//!
//! stdin is read through the runtime when it is a pipe or a socket and that needs no
//! change anyone else could see ([`super::polled`], Unix), and otherwise (a terminal, a
//! file, Windows) on a thread of its own (see [`super::blocking`]); stdout is written on a
//! thread of its own, or directly by the answering thread when that cannot block. Either
//! way a server that is told to stop never waits for a read that may never return, and an
//! answer costs no hop through tokio's blocking pool. EOF on stdin ends the connection, and
//! with it a server's run.
//!
//! The descriptors are shared with the host runtime, which may have made them
//! non-blocking: Node.js does so for a pipe as soon as anything touches `process.stdin`
//! (libuv opens it as a non-blocking stream). A plain blocking read then fails with
//! `EAGAIN`, which once ended the connection, and with it the server, 0.3 s after start.
//! The thread's [`Patient`] waits for readiness instead, whatever mode the descriptor is
//! in; the runtime's reader never depends on that mode (it reads a description of its own,
//! or with `MSG_DONTWAIT`), and never changes it.

use std::io;

use bytes::BytesMut;

use super::blocking::{Patient, ThreadReader, ThreadSink};
use crate::framing::{ChunkRead, DEFAULT_MAX_FRAME, NdjsonSource};

pub type StdioSource = NdjsonSource<StdinReader>;
pub type StdioSink = ThreadSink;

/// This process's stdin and stdout as a transport.
pub fn stdio() -> io::Result<(StdioSource, StdioSink)> {
    stdio_with_max_frame(DEFAULT_MAX_FRAME)
}

pub fn stdio_with_max_frame(max_frame: usize) -> io::Result<(StdioSource, StdioSink)> {
    let stdin = StdinReader::new()?;
    let stdout = Patient::stdout()?;
    let direct = stdout.direct();
    let stdout = ThreadSink::spawn_with(stdout, "ferrymcp-stdout", direct)?;
    Ok((NdjsonSource::with_max_frame(stdin, max_frame), stdout))
}

/// Where a stdio server's frames are read: through the runtime, or on the `ferrymcp-stdin`
/// thread.
pub enum StdinReader {
    #[cfg(unix)]
    Polled(super::polled::PolledReader),
    Thread(ThreadReader),
}

impl StdinReader {
    /// Through the current runtime when stdin allows it (see [`super::polled`]), else on a
    /// thread.
    pub fn new() -> io::Result<Self> {
        #[cfg(unix)]
        if let Some(polled) = super::polled::PolledReader::stdin() {
            return Ok(Self::Polled(polled));
        }
        Ok(Self::Thread(ThreadReader::spawn(Patient::stdin()?, "ferrymcp-stdin")?))
    }
}

impl ChunkRead for StdinReader {
    async fn read_chunk(&mut self, buf: &mut BytesMut) -> io::Result<usize> {
        match self {
            #[cfg(unix)]
            Self::Polled(reader) => reader.read_chunk(buf).await,
            Self::Thread(reader) => reader.read_chunk(buf).await,
        }
    }
}
