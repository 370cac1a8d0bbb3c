//! Crossing between tokio and asyncio (or trio) without ever taking the GIL on a tokio thread.
//!
//! Each asyncio loop (or trio run, through the stand-in `running_loop` gives) gets an inbox: a queue of jobs and a connected pair of local sockets
//! whose read end the loop watches. Rust posts a job (settle an awaitable, start a handler,
//! cancel a task, call a callback) and writes one byte; the loop thread wakes and runs the
//! jobs with the GIL it already holds. A tokio thread never touches Python, so interpreter
//! shutdown can never catch one halfway through a Python call (pyo3-async-runtimes settles
//! futures from a blocking thread that holds the GIL across `call_soon_threadsafe`, which
//! releases it in `send`; a finalizing 3.11 interpreter then kills that thread mid-unwind:
//! a segfault at exit, seen in testing).
//!
//! Portability. The pair is a socket pair, not a pipe, because a socket is what every
//! platform's loops can watch: on Unix `UnixStream::pair` (Linux and macOS alike; a pipe
//! needed `pipe2`, which macOS lacks); on Windows a loopback TCP pair, made as Python's own
//! `socket.socketpair()` makes it there (accepting only the peer we connected). Loops with
//! `add_reader` (every Unix loop, uvloop, Windows' selector loop) watch the read end
//! directly; a loop without it (Windows' default Proactor loop raises
//! `NotImplementedError`) gets a task that awaits `loop.sock_recv` on it instead
//! (`ferrymcp._wakeup`), which the Proactor serves with overlapped I/O (std creates its
//! Windows sockets, and their `try_clone`s, with `WSA_FLAG_OVERLAPPED`, which the
//! Proactor's completion port needs). Both paths run in the tests here
//! (`bindings-python/tests/test_wakeup.py` drives a loop without `add_reader`); the
//! Windows pair is type-checked and linted with `cargo clippy --target
//! x86_64-pc-windows-msvc` (scripts/check-targets.sh) and reviewed, not run.

use std::future::Future;
use std::io::{self, Read, Write};
use std::sync::{Arc, Mutex};

use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

use crate::runtime::runtime;

/// Work for the loop thread.
pub type Job = Box<dyn for<'py> FnOnce(Python<'py>) + Send>;

/// How an awaitable is settled, run on the loop thread.
pub type Deliver = Box<dyn for<'py> FnOnce(Python<'py>) -> PyResult<Py<PyAny>> + Send>;

pub fn ok<T>(value: T) -> Deliver
where
    T: for<'py> IntoPyObject<'py> + Send + 'static,
{
    Box::new(move |py| value.into_py_any(py))
}

pub fn fail(error: impl for<'py> FnOnce(Python<'py>) -> PyErr + Send + 'static) -> Deliver {
    Box::new(move |py| Err(error(py)))
}

#[cfg(unix)]
pub(crate) type Socket = std::os::unix::net::UnixStream;
#[cfg(windows)]
pub(crate) type Socket = std::net::TcpStream;

/// Two connected, non-blocking local sockets: (read end, write end).
pub(crate) fn socket_pair() -> io::Result<(Socket, Socket)> {
    let (read, write) = connected_pair()?;
    read.set_nonblocking(true)?;
    write.set_nonblocking(true)?;
    Ok((read, write))
}

#[cfg(unix)]
fn connected_pair() -> io::Result<(Socket, Socket)> {
    Socket::pair()
}

#[cfg(windows)]
fn connected_pair() -> io::Result<(Socket, Socket)> {
    let listener = std::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, 0))?;
    let write = Socket::connect(listener.local_addr()?)?;
    write.set_nodelay(true)?;
    loop {
        // Another local process may connect first; only our own peer is kept.
        let (read, peer) = listener.accept()?;
        if peer == write.local_addr()? {
            return Ok((read, write));
        }
    }
}

/// The descriptor (Unix) or SOCKET handle (Windows) Python's `socket` and selectors take.
#[cfg(unix)]
fn raw(socket: &Socket) -> u64 {
    use std::os::fd::AsRawFd;
    socket.as_raw_fd() as u64
}

#[cfg(windows)]
fn raw(socket: &Socket) -> u64 {
    use std::os::windows::io::AsRawSocket;
    socket.as_raw_socket()
}

/// Hands the socket over to Python, which closes it.
#[cfg(unix)]
pub(crate) fn into_raw(socket: Socket) -> u64 {
    use std::os::fd::IntoRawFd;
    socket.into_raw_fd() as u64
}

#[cfg(windows)]
pub(crate) fn into_raw(socket: Socket) -> u64 {
    use std::os::windows::io::IntoRawSocket;
    socket.into_raw_socket()
}

struct Queue {
    jobs: Mutex<Vec<Job>>,
    wake: Socket,
}

/// A handle to one loop's inbox: post jobs from any thread, no GIL needed.
#[derive(Clone)]
pub struct LoopHandle(Arc<Queue>);

impl LoopHandle {
    pub fn post(&self, job: Job) {
        let was_empty = {
            let mut jobs = self.0.jobs.lock().unwrap();
            jobs.push(job);
            jobs.len() == 1
        };
        if was_empty {
            // A full socket buffer already has a wake-up pending, so `WouldBlock` is fine;
            // a closed read end means the loop is gone.
            let _ = (&self.0.wake).write(&[1]);
        }
    }

    fn run_jobs(&self, py: Python<'_>) {
        let jobs = std::mem::take(&mut *self.0.jobs.lock().unwrap());
        for job in jobs {
            job(py);
        }
    }
}

/// What the loop calls when the read end is readable: drains it (when the loop watches
/// it with `add_reader`; the `sock_recv` task reads it itself) and runs the jobs.
#[pyclass(frozen)]
struct Inbox {
    handle: LoopHandle,
    read: Option<Socket>,
}

#[pymethods]
impl Inbox {
    fn __call__(&self, py: Python<'_>) {
        if let Some(read) = &self.read {
            // One read: a short one emptied the socket; after a full one the loop, which
            // watches the socket level-triggered, calls again (a wasted wake-up at worst,
            // where a loop until `WouldBlock` cost a failing `recv` on every wake-up).
            let mut buf = [0u8; 256];
            let _ = (&*read).read(&mut buf);
        }
        self.handle.run_jobs(py);
    }
}

fn inboxes(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static INBOXES: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    INBOXES
        .get_or_try_init(py, || Ok::<_, PyErr>(py.import("weakref")?.getattr("WeakKeyDictionary")?.call0()?.unbind()))
        .map(|d| d.bind(py))
}

/// The inbox of `event_loop`, made (and registered with the loop) on first use.
pub fn handle_for(event_loop: &Bound<'_, PyAny>) -> PyResult<LoopHandle> {
    let py = event_loop.py();
    let inboxes = inboxes(py)?;
    if let Ok(existing) = inboxes.get_item(event_loop) {
        return Ok(existing.cast::<Inbox>()?.get().handle.clone());
    }
    let (read, wake) = socket_pair()?;
    let handle = LoopHandle(Arc::new(Queue { jobs: Mutex::new(Vec::new()), wake }));
    let fileno = raw(&read);
    let watched = Bound::new(py, Inbox { handle: handle.clone(), read: Some(read) })?;
    let inbox = match event_loop.call_method1("add_reader", (fileno, watched.clone())) {
        Ok(_) => watched,
        Err(e) if lacks_add_reader(py, &e) => {
            let read = watched.get().read.as_ref().expect("made with a read end").try_clone()?;
            pumped(event_loop, handle.clone(), read)?
        }
        Err(e) => return Err(e),
    };
    inboxes.set_item(event_loop, inbox)?;
    Ok(handle)
}

/// Windows' Proactor loop raises `NotImplementedError`; a loop may also not have it at all.
fn lacks_add_reader(py: Python<'_>, error: &PyErr) -> bool {
    error.is_instance_of::<pyo3::exceptions::PyNotImplementedError>(py)
        || error.is_instance_of::<pyo3::exceptions::PyAttributeError>(py)
}

/// An inbox woken by a task on `event_loop` that reads `read` with `loop.sock_recv`.
fn pumped<'py>(event_loop: &Bound<'py, PyAny>, handle: LoopHandle, read: Socket) -> PyResult<Bound<'py, Inbox>> {
    let py = event_loop.py();
    let inbox = Bound::new(py, Inbox { handle, read: None })?;
    py.import("ferrymcp._wakeup")?.call_method1("start", (event_loop, into_raw(read), inbox.clone()))?;
    Ok(inbox)
}

/// The loop of the running task: asyncio's running loop, else (under trio) the
/// `ferrymcp._trio.TrioLoop` of the running `trio.run`, which offers the loop methods used
/// here and in `call` (`create_future`, `create_task`, `add_reader`, `call_soon`) on trio's
/// low-level API. That stand-in is the whole seam between the two libraries: the inbox, the
/// jobs and the settling above are the same for both. `ferrymcp._aio.current_loop` picks it
/// (sniffio says which library runs) and raises a `RuntimeError` for no running loop or
/// another library.
pub fn running_loop(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    static ASYNCIO_LOOP: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let asyncio_loop = ASYNCIO_LOOP
        .get_or_try_init(py, || Ok::<_, PyErr>(py.import("asyncio")?.getattr("_get_running_loop")?.unbind()))?
        .bind(py)
        .call0()?;
    if !asyncio_loop.is_none() {
        return Ok(asyncio_loop);
    }
    py.import("ferrymcp._aio")?.call_method0("current_loop")
}

/// Runs `fut` on tokio and returns an asyncio future of its outcome (under trio, the
/// stand-in's future, which a trio task awaits); cancelling that future (under trio: a
/// cancel scope cancelling the task that awaits it) aborts the Rust task.
pub fn awaitable<'py, F>(py: Python<'py>, fut: F) -> PyResult<Bound<'py, PyAny>>
where
    F: Future<Output = Deliver> + Send + 'static,
{
    let event_loop = running_loop(py)?;
    let handle = handle_for(&event_loop)?;
    let future = event_loop.call_method0("create_future")?;
    let target = future.clone().unbind();
    let task = runtime().spawn(async move {
        let deliver = fut.await;
        handle.post(Box::new(move |py| settle(py, target, deliver)));
    });
    future.call_method1("add_done_callback", (AbortOnCancel(task.abort_handle()),))?;
    Ok(future)
}

fn settle(py: Python<'_>, target: Py<PyAny>, deliver: Deliver) {
    let future = target.bind(py);
    if future.call_method0("done").and_then(|d| d.is_truthy()).unwrap_or(true) {
        return;
    }
    let _ = match deliver(py) {
        Ok(value) => future.call_method1("set_result", (value,)),
        Err(error) => future.call_method1("set_exception", (error.into_value(py),)),
    };
}

#[pyclass(frozen)]
struct AbortOnCancel(tokio::task::AbortHandle);

#[pymethods]
impl AbortOnCancel {
    fn __call__(&self, future: &Bound<'_, PyAny>) {
        if future.call_method0("cancelled").and_then(|c| c.is_truthy()).unwrap_or(false) {
            self.0.abort();
        }
    }
}
