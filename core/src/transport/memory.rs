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
    rx: Incoming,
    pending: SharedStr,
}

/// Where a source's batches come from: the other transport of a [`pair`] (bounded, so a
/// fast writer waits), or a [`Port`] (unbounded, so code outside the engine can hand over
/// a message without waiting, in call order).
enum Incoming {
    Bounded(mpsc::Receiver<Bytes>),
    Unbounded(mpsc::UnboundedReceiver<Bytes>),
}

impl Incoming {
    async fn recv(&mut self) -> Option<Bytes> {
        match self {
            Incoming::Bounded(rx) => rx.recv().await,
            Incoming::Unbounded(rx) => rx.recv().await,
        }
    }
}

pub struct MemorySink {
    tx: Option<mpsc::Sender<Bytes>>,
}

/// Two transports wired to each other: what one sends, the other receives.
pub fn pair() -> ((MemorySource, MemorySink), (MemorySource, MemorySink)) {
    let (a_tx, a_rx) = mpsc::channel(QUEUE);
    let (b_tx, b_rx) = mpsc::channel(QUEUE);
    let end = |rx, tx| {
        (MemorySource { rx: Incoming::Bounded(rx), pending: SharedStr::default() }, MemorySink { tx: Some(tx) })
    };
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

/// The far end of an in-memory transport, held by code outside the engine: a binding's
/// user-written transport (a Node `Transport` object, Python streams of `SessionMessage`)
/// hands the engine one JSON message at a time and takes the engine's messages one at a
/// time, while the engine's side is an ordinary [`FrameSource`]/[`FrameSink`] pair, so the
/// connection runs exactly as over a pipe.
///
/// The port is shared by reference (`send`, `recv` and `close` take `&self`): a binding's
/// callers and its reader task use it at once. `send` does not wait (the binding's own
/// thread calls it, and messages must keep the order of the calls), so the way in is
/// unbounded; the way out is bounded, and the engine waits for a slow reader. Messages are
/// newline-framed on the way in; a message's own line breaks can only be whitespace
/// between JSON tokens (a JSON string cannot hold a raw line break), so they are replaced
/// by spaces rather than splitting it.
pub struct Port {
    source: tokio::sync::Mutex<MemorySource>,
    tx: std::sync::Mutex<Option<mpsc::UnboundedSender<Bytes>>>,
}

/// A transport for the engine and the [`Port`] that feeds it.
pub fn port() -> ((MemorySource, MemorySink), Port) {
    let (in_tx, in_rx) = mpsc::unbounded_channel();
    let (out_tx, out_rx) = mpsc::channel(QUEUE);
    let engine = (
        MemorySource { rx: Incoming::Unbounded(in_rx), pending: SharedStr::default() },
        MemorySink { tx: Some(out_tx) },
    );
    let source = MemorySource { rx: Incoming::Bounded(out_rx), pending: SharedStr::default() };
    (engine, Port { source: tokio::sync::Mutex::new(source), tx: std::sync::Mutex::new(Some(in_tx)) })
}

impl Port {
    /// Hands one JSON message to the engine, without waiting; `BrokenPipe` once either side
    /// has closed. Messages reach the engine in the order of these calls.
    pub fn send(&self, message: &str) -> io::Result<()> {
        let tx = self.tx.lock().unwrap_or_else(|e| e.into_inner());
        let tx = tx.as_ref().ok_or(io::ErrorKind::BrokenPipe)?;
        let mut frame = Vec::with_capacity(message.len() + 1);
        frame.extend(message.bytes().map(|b| if b == b'\n' || b == b'\r' { b' ' } else { b }));
        frame.push(b'\n');
        tx.send(Bytes::from(frame)).map_err(|_| io::ErrorKind::BrokenPipe.into())
    }

    /// The engine's next message; `None` once the engine has closed its side.
    pub async fn recv(&self) -> io::Result<Option<SharedStr>> {
        match self.source.lock().await.next_event().await? {
            SourceEvent::Frame(frame) => Ok(Some(frame)),
            _ => Ok(None),
        }
    }

    /// Ends the stream towards the engine (it sees end of input, as on a closed pipe).
    pub fn close(&self) {
        self.tx.lock().unwrap_or_else(|e| e.into_inner()).take();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn port_frames_each_message_and_reports_the_end() {
        let ((mut source, mut sink), port) = port();
        port.send("{\"a\":\n1}").unwrap();
        match source.next_event().await.unwrap() {
            SourceEvent::Frame(f) => assert_eq!(&*f, "{\"a\": 1}"),
            _ => panic!("expected a frame"),
        }
        sink.send(Bytes::from_static(b"{\"b\":2}\n{\"c\":3}\n")).await.unwrap();
        assert_eq!(&*port.recv().await.unwrap().unwrap(), "{\"b\":2}");
        assert_eq!(&*port.recv().await.unwrap().unwrap(), "{\"c\":3}");
        sink.close().await.unwrap();
        assert!(port.recv().await.unwrap().is_none());
        port.close();
        assert!(matches!(source.next_event().await.unwrap(), SourceEvent::End));
        assert!(port.send("{}").is_err());
    }
}
