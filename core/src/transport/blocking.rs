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
//!
//! Both threads do blocking I/O on descriptors the host runtime shares; [`Patient`] keeps
//! that blocking when the runtime has set the descriptor non-blocking (see
//! [`super::stdio`]).

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

/// A blocking reader or writer over a descriptor that someone else in the process may
/// have made non-blocking: where a read or write would block, it waits until the
/// descriptor is ready (`poll(2)` on Unix) and tries again, so `EAGAIN` never reaches the
/// thread as an error. It reads and writes a duplicate of the descriptor, unbuffered
/// (std's `Stdout` buffers by line, and a write it half did before `EAGAIN` could not be
/// resumed exactly); the duplicate shares the original's file description, so readiness
/// and end of file are the same.
pub struct Patient {
    file: std::fs::File,
}

impl Patient {
    /// This process's stdin.
    pub fn stdin() -> io::Result<Self> {
        Self::duplicate(&io::stdin())
    }

    /// This process's stdout.
    pub fn stdout() -> io::Result<Self> {
        Self::duplicate(&io::stdout())
    }

    #[cfg(unix)]
    fn duplicate(stream: &impl std::os::fd::AsFd) -> io::Result<Self> {
        Ok(Self { file: stream.as_fd().try_clone_to_owned()?.into() })
    }

    #[cfg(windows)]
    fn duplicate(stream: &impl std::os::windows::io::AsHandle) -> io::Result<Self> {
        Ok(Self { file: stream.as_handle().try_clone_to_owned()?.into() })
    }

    /// Waits until the descriptor can be read (`POLLIN`) or written (`POLLOUT`); a hang-up
    /// or error counts as ready, so the retried call reports it.
    #[cfg(unix)]
    fn wait(&self, events: libc::c_short) -> io::Result<()> {
        use std::os::fd::AsRawFd;
        let mut fd = libc::pollfd { fd: self.file.as_raw_fd(), events, revents: 0 };
        loop {
            // SAFETY: one valid pollfd, owned by this frame, for the length passed.
            if unsafe { libc::poll(&mut fd, 1, -1) } >= 0 {
                return Ok(());
            }
            let error = io::Error::last_os_error();
            if error.kind() != io::ErrorKind::Interrupted {
                return Err(error);
            }
        }
    }

    /// Windows pipes are only non-blocking in `PIPE_NOWAIT` mode, which no runtime we
    /// host sets on the standard handles (Node reads them on a thread of libuv's own); if
    /// one ever does, back off briefly rather than spin or fail.
    #[cfg(windows)]
    fn wait(&self, _events: i16) -> io::Result<()> {
        std::thread::sleep(std::time::Duration::from_millis(1));
        Ok(())
    }
}

#[cfg(unix)]
const READABLE: libc::c_short = libc::POLLIN;
#[cfg(unix)]
const WRITABLE: libc::c_short = libc::POLLOUT;
#[cfg(windows)]
const READABLE: i16 = 0;
#[cfg(windows)]
const WRITABLE: i16 = 0;

impl Read for Patient {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.file.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => self.wait(READABLE)?,
                outcome => return outcome,
            }
        }
    }
}

impl Write for Patient {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        loop {
            match self.file.write(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => self.wait(WRITABLE)?,
                outcome => return outcome,
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
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
