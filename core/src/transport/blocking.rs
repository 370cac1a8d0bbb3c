//! Blocking stdio on threads of its own.
//!
//! `tokio::io::stdin()` reads on the runtime's blocking pool, and a read that never returns
//! keeps the runtime from shutting down. Here a plain thread does the blocking reads and
//! hands chunks over a channel: dropping the reader abandons the thread, which ends with its
//! next read (or with the process), and nothing ever waits for it.
//!
//! `tokio::io::stdout()` also goes through the blocking pool, a hand-off per write that
//! cost a stdio server about 0.2 ms per answer; [`ThreadSink`] keeps one writer thread
//! instead, fed batches through a short queue.

use std::io::{self, Read};
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use std::io::Write;

use bytes::{Buf, Bytes};
use tokio::io::{AsyncRead, ReadBuf};
use tokio::sync::{mpsc, oneshot};

use crate::framing::FrameSink;

const CHUNK: usize = 64 * 1024;

pub struct ThreadReader {
    rx: mpsc::Receiver<io::Result<Bytes>>,
    chunk: Bytes,
}

impl ThreadReader {
    /// Starts a thread named `name` that reads `source` until EOF or error.
    pub fn spawn<R: Read + Send + 'static>(mut source: R, name: &str) -> io::Result<Self> {
        let (tx, rx) = mpsc::channel(4);
        std::thread::Builder::new().name(name.to_owned()).spawn(move || {
            let mut buf = vec![0u8; CHUNK];
            loop {
                let item = match source.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => Ok(Bytes::copy_from_slice(&buf[..n])),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => Err(e),
                };
                let failed = item.is_err();
                if tx.blocking_send(item).is_err() || failed {
                    break;
                }
            }
        })?;
        Ok(Self { rx, chunk: Bytes::new() })
    }
}

impl AsyncRead for ThreadReader {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, out: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        if self.chunk.is_empty() {
            match ready!(self.rx.poll_recv(cx)) {
                Some(Ok(chunk)) => self.chunk = chunk,
                Some(Err(e)) => return Poll::Ready(Err(e)),
                None => return Poll::Ready(Ok(())),
            }
        }
        let n = self.chunk.len().min(out.remaining());
        out.put_slice(&self.chunk[..n]);
        self.chunk.advance(n);
        Poll::Ready(Ok(()))
    }
}

/// A frame sink that writes on its own thread (for stdout).
pub struct ThreadSink {
    tx: Option<mpsc::Sender<Bytes>>,
    done: Option<oneshot::Receiver<io::Result<()>>>,
}

impl ThreadSink {
    /// Starts a thread named `name` that writes each batch to `sink` and flushes it.
    pub fn spawn<W: Write + Send + 'static>(mut sink: W, name: &str) -> io::Result<Self> {
        let (tx, mut rx) = mpsc::channel::<Bytes>(4);
        let (done_tx, done) = oneshot::channel();
        std::thread::Builder::new().name(name.to_owned()).spawn(move || {
            let mut outcome = Ok(());
            while let Some(batch) = rx.blocking_recv() {
                if let Err(e) = sink.write_all(&batch).and_then(|()| sink.flush()) {
                    outcome = Err(e);
                    break;
                }
            }
            let _ = done_tx.send(outcome);
        })?;
        Ok(Self { tx: Some(tx), done: Some(done) })
    }
}

impl FrameSink for ThreadSink {
    async fn send(&mut self, batch: Bytes) -> io::Result<()> {
        let tx = self.tx.as_ref().ok_or(io::ErrorKind::BrokenPipe)?;
        if tx.send(batch).await.is_ok() {
            return Ok(());
        }
        // The thread stopped: report why.
        match self.done.take() {
            Some(done) => done.await.unwrap_or(Ok(())).and(Err(io::ErrorKind::BrokenPipe.into())),
            None => Err(io::ErrorKind::BrokenPipe.into()),
        }
    }

    /// Waits until everything queued is written.
    async fn close(&mut self) -> io::Result<()> {
        self.tx = None;
        match self.done.take() {
            Some(done) => done.await.unwrap_or(Ok(())),
            None => Ok(()),
        }
    }
}
