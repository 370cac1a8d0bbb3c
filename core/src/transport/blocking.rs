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
    /// A direct writer for this descriptor, when it is a socket or a pipe (see [`Direct`]).
    pub(crate) fn direct(&self) -> Option<Direct> {
        Direct::new(&self.file)
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

/// Writes to stdout from the caller's thread, only where that cannot block: the write
/// either completes at once, in whole or in part, or writes nothing, and the writer thread
/// takes the rest. How depends on what stdout is:
///
/// * a **socket** (what Node's `child_process` and libuv give a child as stdout, so what
///   an MCP host written in Node or Electron gives its servers): `send(MSG_DONTWAIT)`,
///   non-blocking for that one call only, on a duplicate of the descriptor;
/// * a **pipe** on Linux: a description of its own, opened again through
///   `/proc/self/fd/N` and made non-blocking, as stdin's reader does (see
///   [`super::polled`]): a batch of at most `PIPE_BUF` bytes is written whole or not at
///   all, a larger one as far as the pipe has room;
/// * a pipe elsewhere (macOS's `/dev/fd/N` duplicates the descriptor, so the flag would be
///   shared): a batch of at most `PIPE_BUF` bytes when `poll(2)` reports the pipe
///   writable. POSIX makes such a write atomic, and Linux and macOS report a pipe writable
///   only with room for one, so it completes at once whatever the descriptor's blocking
///   mode.
///
/// `O_NONBLOCK` is never set on a description another process shares (the parent's
/// stdout, or Node's own `process.stdout`). A terminal, file or anything else always goes
/// to the thread.
#[cfg(unix)]
pub(crate) struct Direct {
    fd: std::os::fd::OwnedFd,
    how: DirectHow,
}

/// A socket's direct send never waits, and a closed peer is an `EPIPE` rather than a
/// `SIGPIPE` where the flag exists (elsewhere the process's own disposition applies, as
/// to the writer thread's writes).
#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
const SEND_FLAGS: libc::c_int = libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL;
#[cfg(all(unix, not(any(target_os = "linux", target_os = "android", target_os = "freebsd"))))]
const SEND_FLAGS: libc::c_int = libc::MSG_DONTWAIT;

#[cfg(unix)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DirectHow {
    /// `send(MSG_DONTWAIT)` on a duplicate (same description, flags untouched).
    Socket,
    /// `write` on a non-blocking description of our own.
    OwnPipe,
    /// `poll`, then `write` of at most `PIPE_BUF` bytes, on a duplicate.
    PolledPipe,
}

#[cfg(unix)]
impl Direct {
    /// For `file` when it is a stream socket or a pipe.
    pub(crate) fn new(file: &std::fs::File) -> Option<Self> {
        use std::os::fd::{AsFd, AsRawFd};
        let raw = file.as_raw_fd();
        let stat = super::polled::fstat(raw).ok()?;
        match stat.st_mode & libc::S_IFMT {
            libc::S_IFSOCK if super::polled::socket_type(raw) == Some(libc::SOCK_STREAM) => {
                Some(Self { fd: file.as_fd().try_clone_to_owned().ok()?, how: DirectHow::Socket })
            }
            libc::S_IFIFO => match super::polled::reopen_pipe(raw, &stat, libc::O_WRONLY) {
                Some(fd) => Some(Self { fd, how: DirectHow::OwnPipe }),
                None => Some(Self { fd: file.as_fd().try_clone_to_owned().ok()?, how: DirectHow::PolledPipe }),
            },
            _ => None,
        }
    }

    /// How much of `batch` was written (0: none, try the thread).
    fn try_write(&self, batch: &[u8]) -> io::Result<usize> {
        use std::os::fd::AsRawFd;
        let fd = self.fd.as_raw_fd();
        if self.how == DirectHow::PolledPipe {
            if batch.len() > libc::PIPE_BUF {
                return Ok(0);
            }
            let mut ready = libc::pollfd { fd, events: libc::POLLOUT, revents: 0 };
            // SAFETY: one valid pollfd, owned by this frame; a zero timeout never waits.
            if unsafe { libc::poll(&mut ready, 1, 0) } != 1 || ready.revents & libc::POLLOUT == 0 {
                // Full, or hung up or in error: the thread's write reports which.
                return Ok(0);
            }
        }
        // SAFETY: `batch` is valid for `batch.len()` bytes for the call.
        let n = unsafe {
            match self.how {
                DirectHow::Socket => libc::send(fd, batch.as_ptr().cast(), batch.len(), SEND_FLAGS),
                DirectHow::OwnPipe | DirectHow::PolledPipe => libc::write(fd, batch.as_ptr().cast(), batch.len()),
            }
        };
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
    pub(crate) fn new(_file: &std::fs::File) -> Option<Self> {
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

#[cfg(all(test, unix))]
mod direct_tests {
    use std::io::Read;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

    use super::{Direct, DirectHow};

    fn pair(socket: bool) -> (std::fs::File, std::fs::File) {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: `fds` holds the two descriptors each call writes.
        let ok = unsafe {
            if socket {
                libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, fds.as_mut_ptr())
            } else {
                libc::pipe(fds.as_mut_ptr())
            }
        };
        assert_eq!(ok, 0, "{}", std::io::Error::last_os_error());
        // SAFETY: both descriptors were just made and are owned by nothing else.
        let (a, b) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        (a.into(), b.into())
    }

    fn nonblocking(file: &std::fs::File) -> bool {
        // SAFETY: F_GETFL reads a descriptor's flags and changes nothing.
        let flags = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETFL) };
        flags & libc::O_NONBLOCK != 0
    }

    /// Fills the peer's buffer through `direct` in `chunk`-sized batches until a batch is
    /// refused or cut short (which never blocks), then reads everything back: every byte
    /// the direct path reported written arrives, in order, and nothing else.
    fn fill_then_drain(direct: &Direct, reader: &mut std::fs::File, chunk: usize) {
        let refused_whole = direct.how == DirectHow::PolledPipe && chunk > libc::PIPE_BUF;
        let mut sent = Vec::new();
        let mut byte = 0u8;
        loop {
            let batch: Vec<u8> = (0..chunk).map(|i| byte.wrapping_add(i as u8)).collect();
            let n = direct.try_write(&batch).unwrap();
            sent.extend_from_slice(&batch[..n]);
            byte = byte.wrapping_add(7);
            if n < batch.len() {
                break;
            }
        }
        assert_eq!(sent.is_empty(), refused_whole);
        let mut got = vec![0u8; sent.len()];
        reader.read_exact(&mut got).unwrap();
        assert_eq!(got, sent);
    }

    #[test]
    fn a_pipe_is_written_without_blocking_and_its_shared_description_stays_blocking() {
        let (mut reader, writer) = pair(false);
        let direct = Direct::new(&writer).expect("a pipe has a direct path");
        #[cfg(target_os = "linux")]
        assert_eq!(direct.how, DirectHow::OwnPipe);
        // Batches of up to PIPE_BUF are written whole or not at all.
        fill_then_drain(&direct, &mut reader, 4096);
        // A larger batch goes as far as the pipe has room (Linux's own description), or to
        // the thread (the polled path); either way the call returns at once.
        fill_then_drain(&direct, &mut reader, 3 * 65536 + 5);
        assert!(!nonblocking(&writer), "the description the process shares is left blocking");
        // A closed reader is an error the caller sees, not a signal.
        drop(reader);
        assert!(direct.try_write(b"{}\n").is_err());
    }

    #[test]
    fn a_socket_is_sent_to_without_blocking_and_its_description_stays_blocking() {
        let (mut reader, writer) = pair(true);
        let direct = Direct::new(&writer).expect("a stream socket has a direct path");
        assert_eq!(direct.how, DirectHow::Socket);
        fill_then_drain(&direct, &mut reader, 4096);
        fill_then_drain(&direct, &mut reader, 3 * 65536 + 5);
        assert!(!nonblocking(&writer), "the description the process shares is left blocking");
        drop(reader);
        assert!(direct.try_write(b"{}\n").is_err());
    }

    #[test]
    fn a_regular_file_has_no_direct_path() {
        let file = std::fs::File::open("/proc/self/exe").or_else(|_| std::fs::File::open("/bin/sh")).unwrap();
        assert!(Direct::new(&file).is_none());
    }
}
