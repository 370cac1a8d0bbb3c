//! Blocking readers on their own thread, as an `AsyncRead`.
//!
//! `tokio::io::stdin()` reads on the runtime's blocking pool, and a read that never returns
//! keeps the runtime from shutting down. Here a plain thread does the blocking reads and
//! hands chunks over a channel: dropping the reader abandons the thread, which ends with its
//! next read (or with the process), and nothing ever waits for it.

use std::io::{self, Read};
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use bytes::{Buf, Bytes};
use tokio::io::{AsyncRead, ReadBuf};
use tokio::sync::mpsc;

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
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        out: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
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
