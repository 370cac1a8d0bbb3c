//! Crossing between tokio and asyncio without ever taking the GIL on a tokio thread.
//!
//! Each asyncio loop gets an inbox: a queue of jobs and a pipe the loop watches with
//! `add_reader`. Rust posts a job (settle an awaitable, start a handler, cancel a task,
//! call a callback) and writes one byte; the loop thread wakes and runs the jobs with the
//! GIL it already holds. A tokio thread never touches Python, so interpreter shutdown can
//! never catch one halfway through a Python call (pyo3-async-runtimes settles futures from
//! a blocking thread that holds the GIL across `call_soon_threadsafe`, which releases it in
//! `send`; a finalizing 3.11 interpreter then kills that thread mid-unwind: a segfault at
//! exit, seen in testing).

use std::future::Future;
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

struct Pipe {
    read: i32,
    write: i32,
}

impl Drop for Pipe {
    fn drop(&mut self) {
        // SAFETY: both descriptors are ours and closed once.
        unsafe {
            libc::close(self.read);
            libc::close(self.write);
        }
    }
}

struct Queue {
    jobs: Mutex<Vec<Job>>,
    pipe: Pipe,
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
            let byte = 1u8;
            // SAFETY: a one-byte write to our own non-blocking pipe; a full pipe already
            // has a wake-up pending, so EAGAIN is fine.
            unsafe { libc::write(self.0.pipe.write, (&byte as *const u8).cast(), 1) };
        }
    }
}

/// The reader callback the loop runs when the pipe is readable.
#[pyclass(frozen)]
struct Inbox(LoopHandle);

#[pymethods]
impl Inbox {
    fn __call__(&self, py: Python<'_>) {
        let mut buf = [0u8; 256];
        // SAFETY: reading our own non-blocking pipe into a local buffer.
        while unsafe { libc::read(self.0.0.pipe.read, buf.as_mut_ptr().cast(), buf.len()) } > 0 {}
        let jobs = std::mem::take(&mut *self.0.0.jobs.lock().unwrap());
        for job in jobs {
            job(py);
        }
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
        return Ok(existing.cast::<Inbox>()?.get().0.clone());
    }
    let mut fds = [0i32; 2];
    // SAFETY: pipe2 fills two descriptors we then own.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_NONBLOCK | libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error().into());
    }
    let handle =
        LoopHandle(Arc::new(Queue { jobs: Mutex::new(Vec::new()), pipe: Pipe { read: fds[0], write: fds[1] } }));
    let inbox = Bound::new(py, Inbox(handle.clone()))?;
    event_loop.call_method1("add_reader", (fds[0], inbox.clone()))?;
    inboxes.set_item(event_loop, inbox)?;
    Ok(handle)
}

pub fn running_loop(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("asyncio")?.call_method0("get_running_loop")
}

/// Runs `fut` on tokio and returns an asyncio future of its outcome; cancelling that
/// future aborts the Rust task.
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
