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

use std::io::{self, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::{Buf, Bytes, BytesMut};
use tokio::sync::{mpsc, oneshot};

use crate::framing::{ChunkRead, DirectWrite, FrameSink};

const CHUNK: usize = 64 * 1024;
/// A buffer holding no newline is handed over once it is this big, so a frame too large
/// for the framing's limit never has to be held here whole.
const HAND_OVER_AT: usize = 8 * 1024 * 1024;
/// Whole lines read together that fit in this are handed over as a copy of their own, and
/// the read buffer is kept; bigger ones are handed over as the buffer itself.
const COPY_BELOW: usize = 4 * 1024;

/// The read side of stdio: a thread reads straight into a buffer and hands whole lines over
/// (see [`ChunkRead`]). A big frame is read once, into the buffer that then carries it
/// through the framing to the handler: no copy on the way in.
pub struct ThreadReader {
    rx: mpsc::Receiver<io::Result<BytesMut>>,
}

impl ThreadReader {
    /// Starts a thread named `name` that reads `source` until EOF or error.
    pub fn spawn(mut source: Patient, name: &str) -> io::Result<Self> {
        let (tx, rx) = mpsc::channel(4);
        std::thread::Builder::new().name(name.to_owned()).spawn(move || {
            let mut buf = BytesMut::with_capacity(CHUNK);
            loop {
                if buf.capacity() - buf.len() < CHUNK {
                    // Doubling keeps the copies of a growing frame under its size in total.
                    buf.reserve(buf.len().max(CHUNK));
                }
                let n = match source.read_into(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        let _ = tx.blocking_send(Err(e));
                        return;
                    }
                };
                let fresh = &buf[buf.len() - n..];
                let Some(last) = memchr::memrchr(b'\n', fresh).map(|at| buf.len() - n + at + 1) else {
                    if buf.len() < HAND_OVER_AT {
                        continue;
                    }
                    let whole = std::mem::replace(&mut buf, BytesMut::with_capacity(CHUNK));
                    if tx.blocking_send(Ok(whole)).is_err() {
                        return;
                    }
                    continue;
                };
                let lines = if last <= COPY_BELOW {
                    // Small frames: copy them out and keep reading into the same buffer.
                    let lines = BytesMut::from(&buf[..last]);
                    buf.advance(last);
                    lines
                } else {
                    // Hand the buffer itself over; what follows the last line (part of the
                    // next frame) moves to a fresh one, as big as this hand-over, so a run
                    // of large frames does not grow (and copy) its way up every time.
                    let mut next = BytesMut::with_capacity(last.max(CHUNK));
                    next.extend_from_slice(&buf[last..]);
                    buf.truncate(last);
                    std::mem::replace(&mut buf, next)
                };
                if tx.blocking_send(Ok(lines)).is_err() {
                    return;
                }
                if buf.is_empty() && buf.capacity() > CHUNK && last <= COPY_BELOW {
                    // Small frames again after large ones: give the large buffer back.
                    buf = BytesMut::with_capacity(CHUNK);
                }
            }
            if !buf.is_empty() {
                let _ = tx.blocking_send(Ok(buf));
            }
        })?;
        Ok(Self { rx })
    }
}

impl ChunkRead for ThreadReader {
    async fn read_chunk(&mut self, buf: &mut BytesMut) -> io::Result<usize> {
        match self.rx.recv().await {
            Some(Ok(chunk)) => {
                let n = chunk.len();
                if buf.is_empty() {
                    // The usual case: the framing holds no partial line, so it takes the
                    // thread's buffer as its own.
                    *buf = chunk;
                } else {
                    buf.extend_from_slice(&chunk);
                }
                Ok(n)
            }
            Some(Err(e)) => Err(e),
            None => Ok(0),
        }
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
    /// A direct writer for this descriptor, when it is a pipe (see [`Direct`]).
    pub(crate) fn direct(&self) -> Option<Direct> {
        Direct::pipe(&self.file)
    }

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

impl Patient {
    /// Reads into the spare capacity of `buf` (which must have some) and extends it by
    /// what was read: no zeroing and no copy.
    #[cfg(unix)]
    fn read_into(&mut self, buf: &mut BytesMut) -> io::Result<usize> {
        use std::os::fd::AsRawFd;
        let spare = buf.spare_capacity_mut();
        loop {
            // SAFETY: the kernel writes at most `spare.len()` bytes into the spare capacity,
            // which `buf` owns; `set_len` below covers only what it reported written.
            let n = unsafe { libc::read(self.file.as_raw_fd(), spare.as_mut_ptr().cast(), spare.len()) };
            if n >= 0 {
                let n = n as usize;
                // SAFETY: the first `n` spare bytes were just initialised by `read`.
                unsafe { buf.set_len(buf.len() + n) };
                return Ok(n);
            }
            match io::Error::last_os_error() {
                e if e.kind() == io::ErrorKind::WouldBlock => self.wait(READABLE)?,
                e => return Err(e),
            }
        }
    }

    #[cfg(windows)]
    fn read_into(&mut self, buf: &mut BytesMut) -> io::Result<usize> {
        let start = buf.len();
        buf.resize(buf.capacity(), 0);
        let read = self.read(&mut buf[start..]);
        buf.truncate(start + *read.as_ref().unwrap_or(&0));
        read
    }
}

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

/// Writes to a pipe from the caller's thread, only where that cannot block: a batch of
/// at most `PIPE_BUF` bytes when `poll(2)` reports the pipe writable. POSIX makes such a
/// write atomic, and Linux and macOS report a pipe writable only with room for one, so
/// it completes at once whatever the descriptor's blocking mode; anything else is left
/// to the writer thread. Unix pipes only: a terminal, file or socket always goes to the
/// thread.
#[cfg(unix)]
pub(crate) struct Direct {
    file: std::fs::File,
}

#[cfg(unix)]
impl Direct {
    /// For `file` when it is a pipe.
    pub(crate) fn pipe(file: &std::fs::File) -> Option<Self> {
        use std::os::unix::fs::FileTypeExt;
        let is_pipe = file.metadata().is_ok_and(|m| m.file_type().is_fifo());
        is_pipe.then(|| file.try_clone().ok().map(|file| Self { file })).flatten()
    }

    /// How much of `batch` was written (0: none, try the thread).
    fn try_write(&self, batch: &[u8]) -> io::Result<usize> {
        use std::os::fd::AsRawFd;
        if batch.len() > libc::PIPE_BUF {
            return Ok(0);
        }
        let fd = self.file.as_raw_fd();
        let mut ready = libc::pollfd { fd, events: libc::POLLOUT, revents: 0 };
        // SAFETY: one valid pollfd, owned by this frame; a zero timeout never waits.
        if unsafe { libc::poll(&mut ready, 1, 0) } != 1 || ready.revents & libc::POLLOUT == 0 {
            // Full, or hung up or in error: the thread's write reports which.
            return Ok(0);
        }
        // SAFETY: `batch` is valid for `batch.len()` bytes for the call.
        let n = unsafe { libc::write(fd, batch.as_ptr().cast(), batch.len()) };
        if n >= 0 {
            return Ok(n as usize);
        }
        match io::Error::last_os_error() {
            e if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted) => Ok(0),
            e => Err(e),
        }
    }
}

/// Elsewhere every batch goes to the writer thread.
#[cfg(not(unix))]
pub(crate) struct Direct;

#[cfg(not(unix))]
impl Direct {
    pub(crate) fn pipe(_file: &std::fs::File) -> Option<Self> {
        None
    }

    fn try_write(&self, _batch: &[u8]) -> io::Result<usize> {
        Ok(0)
    }
}

/// A frame sink that writes on its own thread (for stdout).
///
/// A small batch is written at once, on the caller's thread, when that cannot block or
/// overtake anything (see [`Direct`]): a sequential server's answer then costs no wake-up
/// of the writer thread, one of the few thread hops left per call.
pub struct ThreadSink {
    tx: Option<mpsc::Sender<Bytes>>,
    done: Option<oneshot::Receiver<io::Result<()>>>,
    /// Batches handed to the thread and not yet written.
    queued: Arc<AtomicUsize>,
    direct: Option<Arc<Direct>>,
}

impl ThreadSink {
    /// Starts a thread named `name` that writes each batch to `sink` and flushes it.
    pub fn spawn<W: Write + Send + 'static>(sink: W, name: &str) -> io::Result<Self> {
        Self::spawn_with(sink, name, None)
    }

    /// [`ThreadSink::spawn`] for a pipe a batch may also be written to directly.
    pub(crate) fn spawn_with<W: Write + Send + 'static>(
        mut sink: W,
        name: &str,
        direct: Option<Direct>,
    ) -> io::Result<Self> {
        let (tx, mut rx) = mpsc::channel::<Bytes>(4);
        let (done_tx, done) = oneshot::channel();
        let queued = Arc::new(AtomicUsize::new(0));
        let written = queued.clone();
        std::thread::Builder::new().name(name.to_owned()).spawn(move || {
            let mut outcome = Ok(());
            while let Some(batch) = rx.blocking_recv() {
                let result = sink.write_all(&batch).and_then(|()| sink.flush());
                written.fetch_sub(1, Ordering::Release);
                if let Err(e) = result {
                    outcome = Err(e);
                    break;
                }
            }
            let _ = done_tx.send(outcome);
        })?;
        Ok(Self { tx: Some(tx), done: Some(done), queued, direct: direct.map(Arc::new) })
    }
}

impl FrameSink for ThreadSink {
    async fn send(&mut self, mut batch: Bytes) -> io::Result<()> {
        let tx = self.tx.as_ref().ok_or(io::ErrorKind::BrokenPipe)?;
        // Nothing queued means nothing being written either (the thread counts a batch
        // down once it is out), so a direct write keeps the order.
        if let Some(direct) = &self.direct
            && self.queued.load(Ordering::Acquire) == 0
        {
            match direct.try_write(&batch) {
                Ok(n) if n == batch.len() => return Ok(()),
                Ok(n) => batch.advance(n),
                Err(e) => return Err(e),
            }
        }
        self.queued.fetch_add(1, Ordering::AcqRel);
        if tx.send(batch).await.is_ok() {
            return Ok(());
        }
        // The thread stopped: report why.
        match self.done.take() {
            Some(done) => done.await.unwrap_or(Ok(())).and(Err(io::ErrorKind::BrokenPipe.into())),
            None => Err(io::ErrorKind::BrokenPipe.into()),
        }
    }

    /// Each part goes to the thread as it is: a large result is written from its own
    /// buffer, never joined.
    async fn send_parts(&mut self, parts: Vec<Bytes>) -> io::Result<()> {
        for part in parts {
            self.send(part).await?;
        }
        Ok(())
    }

    /// The pipe written from the caller's thread while the writer thread has nothing queued.
    fn direct(&self) -> Option<DirectWrite> {
        let (direct, queued) = (self.direct.clone()?, self.queued.clone());
        Some(Arc::new(move |batch: &[u8]| {
            if queued.load(Ordering::Acquire) != 0 {
                return Ok(0);
            }
            direct.try_write(batch)
        }))
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
