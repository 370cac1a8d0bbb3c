//! Core's log lines that the official Python SDK writes to `logging`, delivered to
//! Python's `logging` under the same logger names in ferrymcp's namespace.
//!
//! Core names those events with a target that is a Python logger name
//! (`ferrymcp.server.transport_security` for a refused `Host`, `ferrymcp.server.request_state`
//! for a refused `requestState`, ...): this subscriber takes exactly the events whose
//! target starts with `ferrymcp.` and hands each to one Python thread, `ferrymcp-logging`
//! (`ferrymcp._logs`), which logs it through `logging.getLogger(target)`, where the
//! application's handlers, levels and pytest's `caplog` see it. Every other event of core
//! is disabled here at its callsite, so it costs nothing. A hand-written subscriber (no
//! `tracing-subscriber`): it needs no spans, formatting or filtering syntax.
//!
//! Why a thread of its own. Those events fire on tokio threads, in answer to requests a
//! hostile client can send at will (a refused `Host` is one header away). Logging from
//! there took the GIL on a tokio thread and ran the application's handlers on it: a slow
//! handler (a file, a socket) stalled the runtime, and a handler that releases the GIL
//! left a tokio thread to be killed mid-call by a finalizing interpreter (see
//! `crate::bridge`). So the subscriber only queues the line, without the GIL, and writes
//! a byte to a socket the logging thread waits on in Python (`socket.recv`); that thread
//! takes the queued lines in one short native call and logs them from Python, so no
//! Rust frame is ever on its stack while `logging` can release the GIL. The queue is
//! bounded ([`CAPACITY`]) so a flood cannot grow memory; lines that do not fit are
//! counted, and the logging thread says how many on logger `ferrymcp` when it next runs.
//!
//! The thread starts with the first server (`NativeServer`: only servers log today),
//! not at import, so importing ferrymcp starts no thread; a forked child starts its own
//! (`ferrymcp._logs` registers the fork hook) with a fresh queue, since a lock held by one
//! of the parent's threads at `fork()` would never be released in the child.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

use pyo3::prelude::*;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Event, Level, Metadata, Subscriber};

use crate::bridge::{Socket, into_raw, socket_pair};

/// The prefix of the targets forwarded to Python.
const PYTHON_TARGETS: &str = "ferrymcp.";

/// How many lines wait for the logging thread at most.
pub const CAPACITY: usize = 4096;

/// One line for Python: logger name, `logging` level, message.
type Line = (&'static str, u8, String);

#[derive(Default)]
struct Pending {
    lines: VecDeque<Line>,
    /// Lines refused since the logging thread last took the queue.
    dropped: u64,
    /// The write end of the logging thread's socket, once it runs.
    wake: Option<Socket>,
}

/// The queue of one process (a forked child makes its own, see [`reopen_log_pump`]).
#[derive(Default)]
struct Pump {
    pending: Mutex<Pending>,
    started: AtomicBool,
}

static PUMP: AtomicPtr<Pump> = AtomicPtr::new(std::ptr::null_mut());

fn pump() -> &'static Pump {
    let current = PUMP.load(Ordering::Acquire);
    if !current.is_null() {
        // SAFETY: every pointer stored in PUMP is a leaked `Box`, never freed.
        return unsafe { &*current };
    }
    let made = Box::into_raw(Box::default());
    match PUMP.compare_exchange(std::ptr::null_mut(), made, Ordering::AcqRel, Ordering::Acquire) {
        // SAFETY: as above; `made` is now the process's pump and is never freed.
        Ok(_) => unsafe { &*made },
        Err(theirs) => {
            // SAFETY: `made` was never shared; `theirs` is a leaked `Box` like every pump.
            drop(unsafe { Box::from_raw(made) });
            unsafe { &*theirs }
        }
    }
}

impl Pump {
    fn pending(&self) -> std::sync::MutexGuard<'_, Pending> {
        self.pending.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Queues `line` (or counts it when the queue is full) and wakes the logging thread
    /// when the queue was empty (it was not woken for the lines already there yet).
    fn push(&self, line: Line) {
        let mut pending = self.pending();
        if pending.lines.len() >= CAPACITY {
            pending.dropped += 1;
            return;
        }
        pending.lines.push_back(line);
        if pending.lines.len() == 1 {
            pending.wake_thread();
        }
    }

    /// A new socket pair for a new logging thread: keeps the write end, returns the read
    /// end (Python owns it from here), with a wake-up pending for lines already queued.
    fn open(&self) -> PyResult<u64> {
        let (read, wake) = socket_pair()?;
        let mut pending = self.pending();
        pending.wake = Some(wake);
        if !pending.lines.is_empty() || pending.dropped > 0 {
            pending.wake_thread();
        }
        Ok(into_raw(read))
    }
}

impl Pending {
    fn wake_thread(&self) {
        // `WouldBlock` means a wake-up is already pending; before the thread runs there
        // is no socket and the lines wait for it.
        if let Some(wake) = &self.wake {
            let _ = (&*wake).write(&[1]);
        }
    }
}

/// Starts the logging thread of this process if it is not running yet.
pub fn start(py: Python<'_>) -> PyResult<()> {
    let pump = pump();
    if pump.started.swap(true, Ordering::AcqRel) {
        return Ok(());
    }
    let started = pump.open().and_then(|fileno| py.import("ferrymcp._logs")?.call_method1("start", (fileno,)));
    if started.is_err() {
        pump.started.store(false, Ordering::Release);
    }
    started.map(drop)
}

/// For `ferrymcp._logs`' fork hook, in the child: a fresh queue (the parent's lines are
/// the parent's to log, and its lock may have been held by a thread the child lacks),
/// and the read end of its logging thread's socket.
#[pyfunction]
pub fn reopen_log_pump() -> PyResult<u64> {
    let fresh: &'static Pump = Box::leak(Box::default());
    fresh.started.store(true, Ordering::Release);
    // The old pump is left as it is: it may be locked by a thread that no longer exists.
    PUMP.store(std::ptr::from_ref(fresh).cast_mut(), Ordering::Release);
    fresh.open()
}

/// For the logging thread: the queued lines, and how many did not fit since last time.
#[pyfunction]
pub fn take_log_records() -> (Vec<Line>, u64) {
    let mut pending = pump().pending();
    let dropped = std::mem::take(&mut pending.dropped);
    (pending.lines.drain(..).collect(), dropped)
}

struct PythonLogging;

fn forwarded(metadata: &Metadata<'_>) -> bool {
    metadata.is_event() && metadata.target().starts_with(PYTHON_TARGETS)
}

/// The message of an event, with any other fields after it as `name=value`.
#[derive(Default)]
struct Message(String);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let rest = std::mem::take(&mut self.0);
            let _ = write!(self.0, "{value:?}{rest}");
        } else {
            let _ = write!(self.0, " {}={value:?}", field.name());
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.0.insert_str(0, value);
        } else {
            let _ = write!(self.0, " {}={value}", field.name());
        }
    }
}

/// `logging`'s level numbers.
fn python_level(level: &Level) -> u8 {
    match *level {
        Level::ERROR => 40,
        Level::WARN => 30,
        Level::INFO => 20,
        _ => 10,
    }
}

impl Subscriber for PythonLogging {
    fn register_callsite(&self, metadata: &'static Metadata<'static>) -> Interest {
        if forwarded(metadata) { Interest::always() } else { Interest::never() }
    }

    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        forwarded(metadata)
    }

    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, _: &Record<'_>) {}

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let metadata = event.metadata();
        let mut message = Message::default();
        event.record(&mut message);
        pump().push((metadata.target(), python_level(metadata.level()), message.0));
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

/// Installs the subscriber for the process (the extension module is its only Rust); a
/// subscriber someone installed first is kept.
pub fn install() {
    let _ = tracing::subscriber::set_global_default(PythonLogging);
}
