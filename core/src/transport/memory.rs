//! An in-memory pair of connected transports, for tests and in-process servers.
//!
//! Batches travel as buffers through channels, and the receiving side splits them into
//! frames with the same zero-copy slicing as a pipe, so nothing but the system call differs
//! from stdio.

use std::io;

use bytes::Bytes;
use tokio::sync::mpsc;

use crate::framing::{FrameSink, FrameSource, SourceEvent};
use crate::wire::SharedStr;

/// Batches in flight per direction before the sender waits.
const QUEUE: usize = 64;

pub struct MemorySource {
    rx: mpsc::Receiver<Bytes>,
    pending: SharedStr,
}

pub struct MemorySink {
    tx: Option<mpsc::Sender<Bytes>>,
}

/// Two transports wired to each other: what one sends, the other receives.
pub fn pair() -> ((MemorySource, MemorySink), (MemorySource, MemorySink)) {
    let (a_tx, a_rx) = mpsc::channel(QUEUE);
    let (b_tx, b_rx) = mpsc::channel(QUEUE);
    let end = |rx, tx| (MemorySource { rx, pending: SharedStr::default() }, MemorySink { tx: Some(tx) });
    (end(a_rx, b_tx), end(b_rx, a_tx))
}

impl FrameSource for MemorySource {
    async fn next_event(&mut self) -> io::Result<SourceEvent> {
        loop {
            if let Some(at) = memchr::memchr(b'\n', self.pending.as_bytes()) {
                let frame = self.pending.slice_ref(&self.pending[..at]);
                self.pending = self.pending.slice_ref(&self.pending[at + 1..]);
                return Ok(SourceEvent::Frame(frame));
            }
            match self.rx.recv().await {
                Some(batch) => {
                    self.pending =
                        SharedStr::from_utf8(batch).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
                }
                None => return Ok(SourceEvent::End),
            }
        }
    }
}

impl FrameSink for MemorySink {
    async fn send(&mut self, batch: Bytes) -> io::Result<()> {
        let tx = self.tx.as_ref().ok_or(io::ErrorKind::BrokenPipe)?;
        tx.send(batch).await.map_err(|_| io::ErrorKind::BrokenPipe.into())
    }

    async fn close(&mut self) -> io::Result<()> {
        self.tx = None;
        Ok(())
    }
}
