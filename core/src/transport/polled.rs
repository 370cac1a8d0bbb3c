//! stdin read through the runtime's `epoll`/`kqueue`, when that needs no change visible
//! to anyone else (Unix only).
//!
//! The `ferrymcp-stdin` thread ([`super::blocking::ThreadReader`]) costs a wake-up per
//! frame: the thread wakes on the read, then wakes a tokio worker through the channel.
//! Read here, a frame costs only the worker's own wake-up from `epoll_wait`, which it pays
//! anyway, and lands straight in the framing's buffer.
//!
//! Reading through the runtime needs reads that never block, and `O_NONBLOCK` is a flag of
//! the *file description*, which fd 0 shares with the parent process, with any child that
//! inherits it, and (in Node) with `process.stdin`'s own handle. Setting it there would
//! change how all of them read: a parent shell, or a tool's subprocess reading its stdin,
//! would get `EAGAIN`, and a `SIGKILL` would leave it set for good. So the flag is never
//! set on fd 0's description:
//!
//! * a **socket** (what Node's `child_process` and libuv give a child as stdin) is read
//!   with `recv(MSG_DONTWAIT)`, non-blocking for that one call only, on any Unix;
//! * a **pipe** on Linux is opened again through `/proc/self/fd/0`, which gives a *new*
//!   description of the same pipe, this process's alone; that one is made non-blocking
//!   (and close-on-exec). Elsewhere (macOS's `/dev/fd/0` duplicates the descriptor instead)
//!   a pipe keeps the thread;
//! * a terminal, a regular file, `/dev/null`, anything else, or any step that fails (no
//!   `/proc`, no runtime in this context) keeps the thread, as does Windows.
//!
//! Nothing shared is changed, so nothing has to be restored on exit, and a process that
//! dies by a signal leaves its parent's stdin as it found it. Dropping the reader
//! deregisters it: a server told to stop never waits on a read (the reason
//! `tokio::io::stdin()`, a blocking read on the blocking pool, is not used).

use std::io;
#[cfg(target_os = "linux")]
use std::os::fd::FromRawFd;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};

use bytes::BytesMut;
use tokio::io::Interest;
use tokio::io::unix::AsyncFd;

use crate::framing::ChunkRead;

/// Reads are at least this big.
const CHUNK: usize = 64 * 1024;

#[derive(Clone, Copy, Debug)]
enum How {
    /// `recv(MSG_DONTWAIT)` on a duplicate of fd 0 (same description, flags untouched).
    Socket,
    /// `read` on a description of our own, opened non-blocking.
    OwnPipe,
}

/// This process's stdin, read through the runtime (see the module's documentation).
pub struct PolledReader {
    fd: AsyncFd<OwnedFd>,
    how: How,
    /// Whether a read was tried before waiting for readiness: a FIFO opened again after
    /// its writers left reports neither readable nor hung up, yet reads its end at once.
    tried: bool,
}

impl PolledReader {
    /// stdin read through the current runtime, when it is a socket (any Unix) or a pipe
    /// (Linux); `None` when it must keep the thread.
    pub fn stdin() -> Option<Self> {
        tokio::runtime::Handle::try_current().ok()?;
        let stdin = io::stdin();
        let stdin = stdin.as_fd();
        // SAFETY: F_GETFL reads a descriptor's flags and changes nothing.
        let flags = unsafe { libc::fcntl(stdin.as_raw_fd(), libc::F_GETFL) };
        if flags < 0 || flags & libc::O_ACCMODE == libc::O_WRONLY {
            // Not readable: the thread's first read reports it.
            return None;
        }
        let stat = fstat(stdin.as_raw_fd()).ok()?;
        let (fd, how) = match stat.st_mode & libc::S_IFMT {
            libc::S_IFSOCK if socket_type(stdin.as_raw_fd()) == Some(libc::SOCK_STREAM) => {
                (stdin.try_clone_to_owned().ok()?, How::Socket)
            }
            libc::S_IFIFO => (reopen_pipe(stdin.as_raw_fd(), &stat, libc::O_RDONLY)?, How::OwnPipe),
            _ => return None,
        };
        // SAFETY: `fd` is owned by the `AsyncFd` from here until it is dropped, and never
        // closed or replaced meanwhile.
        let fd = unsafe { AsyncFd::register_with_interest(fd, Interest::READABLE) }.ok()?;
        Some(Self { fd, how, tried: false })
    }

    /// One non-blocking read into the spare capacity of `buf`.
    fn read_once(fd: &OwnedFd, how: How, buf: &mut BytesMut) -> io::Result<usize> {
        let spare = buf.spare_capacity_mut();
        let (ptr, len) = (spare.as_mut_ptr().cast(), spare.len());
        // SAFETY: the kernel writes at most `len` bytes into the spare capacity, which `buf`
        // owns; `set_len` below covers only what it reported written.
        let n = unsafe {
            match how {
                How::Socket => libc::recv(fd.as_raw_fd(), ptr, len, libc::MSG_DONTWAIT),
                How::OwnPipe => libc::read(fd.as_raw_fd(), ptr, len),
            }
        };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        let n = n as usize;
        // SAFETY: the first `n` spare bytes were just initialised by the read.
        unsafe { buf.set_len(buf.len() + n) };
        Ok(n)
    }
}

impl ChunkRead for PolledReader {
    async fn read_chunk(&mut self, buf: &mut BytesMut) -> io::Result<usize> {
        if buf.capacity() - buf.len() < CHUNK {
            // Doubling keeps the copies of a growing frame under its size in total; a
            // buffer whose frames were all dropped is reclaimed rather than reallocated.
            buf.reserve(buf.len().max(CHUNK));
        }
        let how = self.how;
        if !self.tried {
            self.tried = true;
            match Self::read_once(self.fd.get_ref(), how, buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                outcome => return outcome,
            }
        }
        loop {
            // Cancel-safe: waiting for readiness consumes nothing, and a read that returns
            // data returns it at once.
            let mut ready = self.fd.readable().await?;
            let spare = buf.capacity() - buf.len();
            match ready.try_io(|fd| Self::read_once(fd.get_ref(), how, buf)) {
                Ok(Err(e)) if e.kind() == io::ErrorKind::Interrupted => continue,
                Ok(Ok(n)) => {
                    if n > 0 && n < spare {
                        // A short read emptied the pipe or the socket's queue: wait for
                        // the next data rather than find that out by an `EAGAIN`. (Only
                        // readiness older than this guard is cleared.)
                        ready.clear_ready();
                    }
                    return Ok(n);
                }
                Ok(Err(e)) => return Err(e),
                // `EAGAIN`: the readiness was cleared; wait again.
                Err(_would_block) => continue,
            }
        }
    }
}

pub(super) fn fstat(fd: libc::c_int) -> io::Result<libc::stat> {
    let mut stat = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: `stat` is valid for writing one `struct stat`.
    if unsafe { libc::fstat(fd, stat.as_mut_ptr()) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fstat` succeeded, so it filled `stat`.
    Ok(unsafe { stat.assume_init() })
}

pub(super) fn socket_type(fd: libc::c_int) -> Option<libc::c_int> {
    let mut kind: libc::c_int = 0;
    let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
    // SAFETY: `kind` and `len` are valid for the sizes passed.
    let ok = unsafe { libc::getsockopt(fd, libc::SOL_SOCKET, libc::SO_TYPE, (&raw mut kind).cast(), &mut len) };
    (ok == 0).then_some(kind)
}

/// A new, non-blocking, close-on-exec description of the pipe on `fd` (whose `stat` is
/// given), this process's alone, opened with `access` (`O_RDONLY` for stdin, so it never
/// counts as a writer: the end of the input is still when the peer's last writer closes;
/// `O_WRONLY` for stdout, where the duplicate it stands beside is a writer already).
#[cfg(target_os = "linux")]
pub(super) fn reopen_pipe(fd: libc::c_int, stat: &libc::stat, access: libc::c_int) -> Option<OwnedFd> {
    let path = std::ffi::CString::new(format!("/proc/self/fd/{fd}")).ok()?;
    // SAFETY: a valid NUL-terminated path; the flags ask for a new descriptor.
    let fd = unsafe { libc::open(path.as_ptr(), access | libc::O_NONBLOCK | libc::O_CLOEXEC) };
    if fd < 0 {
        return None;
    }
    // SAFETY: `open` just returned this descriptor, owned by nothing else.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    // The same pipe (only where `/proc` is procfs). An `open` always makes a new
    // description, so the `O_NONBLOCK` above is ours alone.
    let same = fstat(fd.as_raw_fd()).is_ok_and(|s| s.st_dev == stat.st_dev && s.st_ino == stat.st_ino);
    same.then_some(fd)
}

#[cfg(not(target_os = "linux"))]
pub(super) fn reopen_pipe(_fd: libc::c_int, _stat: &libc::stat, _access: libc::c_int) -> Option<OwnedFd> {
    None
}
