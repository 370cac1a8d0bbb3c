//! Calling a Python handler from core, through the loop's inbox (see `bridge`).
//!
//! An async handler becomes a task on the loop the server runs on (asyncio's, or trio's
//! stand-in, see `bridge::running_loop`); a sync one runs
//! on a worker thread of `ferrymcp._workers` (never the loop itself, like the official
//! SDK; daemon threads, so a stuck handler cannot hold the process open). When core drops the call (the client cancelled, or MRTR paused the handler) the
//! task is cancelled, so the coroutine sees `CancelledError`; a sync handler not started
//! yet is skipped.
//!
//! A sync handler's worker converts its result and hands it to core itself, with no
//! asyncio future around the job and no trip back through the loop: that return trip (the
//! executor's future chained to an asyncio one, `call_soon_threadsafe`, the loop waking
//! to run the done callback) was most of a sync call's Python-side cost.
//!
//! A call made while a middleware chain awaits the rest of a message's handling
//! (`NativeNext.run`) runs in a copy of that chain's `contextvars` context ([`CHAIN_CONTEXT`]),
//! as the official handler runs inside its middleware: what a middleware set (the current
//! OpenTelemetry span, its own context variables) is what the handler sees.

use std::sync::{Arc, Mutex};

use ferrymcp_core::peer::continue_here;
use ferrymcp_core::server::HandlerError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyTuple;
use serde_json::Value;
use tokio::sync::oneshot;

use crate::bridge::LoopHandle;
use crate::convert::from_py;
use crate::errors::from_exception;

/// The loop that runs handlers (set when serving starts) with its inbox.
pub type LoopCell = Arc<Mutex<Option<(Py<PyAny>, LoopHandle)>>>;

pub struct PyCallable {
    pub function: Py<PyAny>,
    pub is_async: bool,
    pub event_loop: LoopCell,
}

/// Builds a call's arguments on the loop thread.
pub trait Args: for<'py> FnOnce(Python<'py>) -> PyResult<Bound<'py, PyTuple>> + Send + 'static {}
impl<F> Args for F where F: for<'py> FnOnce(Python<'py>) -> PyResult<Bound<'py, PyTuple>> + Send + 'static {}

type Reply = Arc<Mutex<Option<oneshot::Sender<Result<Value, HandlerError>>>>>;

tokio::task_local! {
    /// The `contextvars.Context` of the middleware chain whose `call_next` is running.
    pub static CHAIN_CONTEXT: Arc<Py<PyAny>>;
}

/// The chain's context, when this call runs inside a middleware's `call_next`.
fn chain_context() -> Option<Arc<Py<PyAny>>> {
    CHAIN_CONTEXT.try_with(Arc::clone).ok()
}

/// On the loop thread: `function(*args)` as a task, started in a copy of `context` when
/// there is one (the coroutine is made and scheduled there, so the task runs in it).
fn create_task<'py>(
    py: Python<'py>,
    event_loop: &Bound<'py, PyAny>,
    function: &Bound<'py, PyAny>,
    args: Bound<'py, PyTuple>,
    context: Option<&Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    match context {
        None => event_loop.call_method1("create_task", (function.call1(args)?,)),
        Some(context) => {
            let context = context.bind(py).call_method0("copy")?;
            let mut call = vec![function.clone()];
            call.extend(args.iter());
            let coroutine = context.call_method1("run", PyTuple::new(py, call)?)?;
            context.call_method1("run", (event_loop.getattr("create_task")?, coroutine))
        }
    }
}

impl PyCallable {
    pub async fn call(self: Arc<Self>, args: impl Args) -> Result<Value, HandlerError> {
        let Some(handle) = self.event_loop.lock().unwrap().as_ref().map(|(_, handle)| handle.clone()) else {
            return Err(HandlerError::Failed("the server is not running on an asyncio loop or under trio".into()));
        };
        let (tx, rx) = oneshot::channel();
        let reply: Reply = Arc::new(Mutex::new(Some(tx)));
        let running: Running = Arc::default();
        let (this, started, context) = (self.clone(), running.clone(), chain_context());
        handle.post(Box::new(move |py| {
            let event_loop = this.event_loop.lock().unwrap().as_ref().map(|(l, _)| l.clone_ref(py));
            let Some(event_loop) = event_loop else {
                return send(&reply, Err(HandlerError::Failed("the loop is gone".into())));
            };
            if let Err(e) = this.start(py, event_loop.bind(py), args, &reply, &started, context.as_deref()) {
                send(&reply, Err(from_exception(py, e)));
            }
        }));
        let mut cancel = CancelOnDrop { handle, running, settled: false };
        let outcome = rx.await;
        cancel.settled = true;
        outcome.unwrap_or_else(|_| Err(HandlerError::Failed("the handler was dropped before it finished".into())))
    }

    /// On the loop thread: starts the task (or executor job) and wires its completion.
    fn start(
        &self,
        py: Python<'_>,
        event_loop: &Bound<'_, PyAny>,
        args: impl Args,
        reply: &Reply,
        started: &Running,
        context: Option<&Py<PyAny>>,
    ) -> PyResult<()> {
        let args = args(py)?;
        let function = self.function.bind(py);
        if !self.is_async {
            let job = SyncCall {
                function: function.clone().unbind(),
                args: args.unbind(),
                reply: reply.clone(),
                context: context.map(|c| c.clone_ref(py)),
            };
            workers(py)?.call_method1("run", (job,))?;
            return Ok(());
        }
        let task = create_task(py, event_loop, function, args, context)?;
        task.call_method1("add_done_callback", (Completion { reply: reply.clone(), started: started.clone() },))?;
        *started.lock().unwrap() = Some(task.unbind());
        Ok(())
    }
}

/// The daemon worker threads of `ferrymcp._workers`, which never keep the process from
/// exiting (asyncio's default executor would).
fn workers(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static WORKERS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    WORKERS
        .get_or_try_init(py, || Ok::<_, PyErr>(py.import("ferrymcp._workers")?.getattr("WORKERS")?.unbind()))
        .map(|w| w.bind(py))
}

fn send(reply: &Reply, outcome: Result<Value, HandlerError>) {
    let tx = reply.lock().unwrap().take();
    if let Some(tx) = tx {
        let _ = tx.send(outcome);
    }
}

/// [`send`] from a thread of Python's (the loop's, a worker's), with the GIL released:
/// when the call is its connection's only request in flight, the rest of the request (the
/// result's checks, its encoding and, through a pipe, its write) runs at once on this
/// thread (core's `continue_here`) instead of waking a tokio worker for it: one thread
/// wake-up less per sequential call (`benches/README.md`, "Issue 17: Python's per-call
/// system calls"). Under load core leaves that work to the runtime.
fn send_here(py: Python<'_>, reply: &Reply, outcome: Result<Value, HandlerError>) {
    py.detach(|| continue_here(|| send(reply, outcome)));
}

/// The task (or nothing, for a sync handler's call) a call started on the loop thread.
type Running = Arc<Mutex<Option<Py<PyAny>>>>;

/// Reads a finished task's result (on the loop thread) and sends it to core.
#[pyclass(frozen)]
struct Completion {
    reply: Reply,
    /// The call's task, let go here (it is done), so the call's end has nothing to cancel.
    started: Running,
}

#[pymethods]
impl Completion {
    fn __call__(&self, py: Python<'_>, task: &Bound<'_, PyAny>) {
        drop(self.started.lock().unwrap().take());
        let outcome = task.call_method0("result").and_then(|r| from_py(&r)).map_err(|e| from_exception(py, e));
        send_here(py, &self.reply, outcome);
    }
}

/// A sync handler's call, run by a worker thread (with the GIL) from start to reply.
#[pyclass(frozen)]
struct SyncCall {
    function: Py<PyAny>,
    args: Py<PyTuple>,
    reply: Reply,
    /// The middleware chain's context, to run the handler in a copy of.
    context: Option<Py<PyAny>>,
}

#[pymethods]
impl SyncCall {
    fn __call__(&self, py: Python<'_>) {
        let waiting = self.reply.lock().unwrap().as_ref().is_some_and(|tx| !tx.is_closed());
        if !waiting {
            return;
        }
        let function = self.function.bind(py);
        let result = match &self.context {
            None => function.call1(self.args.bind(py)),
            Some(context) => context.bind(py).call_method0("copy").and_then(|context| {
                let mut call = vec![function.clone()];
                call.extend(self.args.bind(py).iter());
                context.call_method1("run", PyTuple::new(py, call)?)
            }),
        };
        let outcome = result.and_then(|r| from_py(&r)).map_err(|e| from_exception(py, e));
        send_here(py, &self.reply, outcome);
    }
}

/// Cancels the task when core stops waiting before it finished.
struct CancelOnDrop {
    handle: LoopHandle,
    running: Running,
    /// The call's outcome arrived: its task is done (and let go by its completion
    /// callback) or it never had one (a sync handler).
    settled: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        // A settled call with no task held has nothing to cancel: waking the loop for it
        // was one of a sequential sync call's two loop wake-ups.
        if self.settled && self.running.lock().unwrap().is_none() {
            return;
        }
        let running = self.running.clone();
        self.handle.post(Box::new(move |py| {
            if let Some(task) = running.lock().unwrap().take() {
                let task = task.bind(py);
                if !task.call_method0("done").and_then(|d| d.is_truthy()).unwrap_or(true) {
                    let _ = task.call_method0("cancel");
                }
            }
        }));
    }
}

/// What an object-returning call gives: the JSON of its answer and the object itself.
pub type Held = (Value, Option<Py<PyAny>>);

impl PyCallable {
    /// Calls an async function that returns `(kind, json, object)`: core gets `kind`, the
    /// JSON as a value and the object itself (kept, to be handed back in a later call).
    /// The conversion runs on the loop thread, as every other.
    pub async fn call_held(self: Arc<Self>, args: impl Args) -> Result<(String, Held), HandlerError> {
        self.call_as(args, held).await
    }
}

fn held(result: &Bound<'_, PyAny>) -> PyResult<(String, Held)> {
    let (kind, json, object) = result.extract::<(String, Bound<'_, PyAny>, Bound<'_, PyAny>)>()?;
    let object = (!object.is_none()).then(|| object.unbind());
    Ok((kind, (from_py(&json)?, object)))
}

type Finish = Box<dyn for<'py> FnOnce(Python<'py>, PyResult<Bound<'py, PyAny>>) + Send>;

impl PyCallable {
    /// Calls an async function and converts its result with `convert` on the loop thread
    /// (for answers that are not JSON: bytes, tuples).
    pub async fn call_as<T: Send + 'static>(
        self: Arc<Self>,
        args: impl Args,
        convert: for<'py> fn(&Bound<'py, PyAny>) -> PyResult<T>,
    ) -> Result<T, HandlerError> {
        let Some(handle) = self.event_loop.lock().unwrap().as_ref().map(|(_, handle)| handle.clone()) else {
            return Err(HandlerError::Failed("the server is not running on an asyncio loop or under trio".into()));
        };
        let (tx, rx) = oneshot::channel::<Result<T, HandlerError>>();
        let reply = Arc::new(Mutex::new(Some(tx)));
        let finish_reply = reply.clone();
        let finish: Finish = Box::new(move |py, result| {
            let outcome = result.and_then(|r| convert(&r)).map_err(|e| from_exception(py, e));
            if let Some(tx) = finish_reply.lock().unwrap().take() {
                let _ = tx.send(outcome);
            }
        });
        let running: Running = Arc::default();
        let (this, started, context) = (self.clone(), running.clone(), chain_context());
        handle.post(Box::new(move |py| {
            let event_loop = this.event_loop.lock().unwrap().as_ref().map(|(l, _)| l.clone_ref(py));
            let outcome = (|| -> PyResult<()> {
                let event_loop =
                    event_loop.ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("the loop is gone"))?;
                let function = this.function.bind(py);
                let task = create_task(py, event_loop.bind(py), function, args(py)?, context.as_deref())?;
                task.call_method1("add_done_callback", (Finished(Mutex::new(Some(finish)), started.clone()),))?;
                *started.lock().unwrap() = Some(task.unbind());
                Ok(())
            })();
            if let Err(e) = outcome
                && let Some(tx) = reply.lock().unwrap().take()
            {
                let _ = tx.send(Err(from_exception(py, e)));
            }
        }));
        let mut cancel = CancelOnDrop { handle, running, settled: false };
        let outcome = rx.await;
        cancel.settled = true;
        outcome.unwrap_or_else(|_| Err(HandlerError::Failed("the handler was dropped before it finished".into())))
    }
}

/// Hands a finished task's result to its converter (on the loop thread), and lets go of
/// the task (see [`Completion`]).
#[pyclass(frozen)]
struct Finished(Mutex<Option<Finish>>, Running);

#[pymethods]
impl Finished {
    fn __call__(&self, py: Python<'_>, task: &Bound<'_, PyAny>) {
        drop(self.1.lock().unwrap().take());
        let finish = self.0.lock().unwrap().take();
        if let Some(finish) = finish {
            finish(py, task.call_method0("result"));
        }
    }
}

/// A closure as call arguments (names the higher-ranked signature a `let` cannot infer).
pub fn args<F>(build: F) -> F
where
    F: for<'py> FnOnce(Python<'py>) -> PyResult<Bound<'py, PyTuple>> + Send + 'static,
{
    build
}
