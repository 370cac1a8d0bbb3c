//! Requests that may finish on the thread that ends their wait.
//!
//! A request whose handler has to wait runs as a task of its own. That task is polled on
//! the runtime, except when it is woken inside [`continue_here`] while its connection has
//! nothing else in flight: then the rest of the request (the result's checks, its encoding
//! and, through a pipe, its write) runs at once on the waking thread. A binding whose
//! handlers answer from a thread of its own (Node's JS thread) wraps its answer in
//! `continue_here`, and the runtime's worker, asleep since it handed the call over, is not
//! woken for it: one thread wake-up less per sequential call. Under load (more than one
//! request in flight) the runtime keeps doing that work, so the binding's thread stays free
//! for its handlers.

use std::cell::Cell;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Wake, Waker};

use tokio::runtime::Handle;

use super::Shared;
use super::handler::BoxFuture;

thread_local! {
    static HERE: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`; a peer's request whose wait `f` ends (by waking it) continues on this thread
/// right away when its connection has no other request in flight, instead of on the
/// runtime. For a binding's answer from its own thread: `f` must not hold a lock the
/// request's remaining work could take.
pub fn continue_here<R>(f: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            HERE.with(|here| here.set(self.0));
        }
    }
    let _reset = Reset(HERE.with(|here| here.replace(true)));
    f()
}

pub(crate) struct Task {
    future: Mutex<Option<BoxFuture<()>>>,
    /// A poll is due: whoever set it runs the task, or the thread polling it polls again.
    notified: AtomicBool,
    runtime: Handle,
    shared: Arc<Shared>,
}

/// Runs `future` as a task (inside a tokio runtime), polling it once now.
pub(crate) fn spawn(shared: Arc<Shared>, future: impl Future<Output = ()> + Send + 'static) {
    let task = Arc::new(Task {
        future: Mutex::new(Some(Box::pin(future))),
        notified: AtomicBool::new(true),
        runtime: Handle::current(),
        shared,
    });
    task.run();
}

impl Task {
    fn schedule(self: Arc<Self>) {
        if self.notified.swap(true, Ordering::AcqRel) {
            // A poll is already due; it will see this wake-up too.
            return;
        }
        if HERE.with(Cell::get) && self.shared.in_flight.load(Ordering::Relaxed) <= 1 {
            // Only this wake-up continues here: whatever the request wakes in turn (other
            // requests' tasks) goes to the runtime, so no poll nests inside this one.
            let _runtime = self.runtime.enter();
            HERE.with(|here| here.set(false));
            self.run();
            HERE.with(|here| here.set(true));
        } else {
            let runtime = self.runtime.clone();
            runtime.spawn(async move { self.run() });
        }
    }

    fn run(self: &Arc<Self>) {
        loop {
            // Polled elsewhere right now (or by this thread, further up): that poller sees
            // `notified` once it is done and polls again.
            let Ok(mut slot) = self.future.try_lock() else { return };
            if !self.notified.swap(false, Ordering::AcqRel) {
                return;
            }
            let Some(future) = slot.as_mut() else { return };
            let waker = Waker::from(self.clone());
            let polled = catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(&mut Context::from_waker(&waker))));
            match polled {
                Ok(std::task::Poll::Pending) => {}
                Ok(std::task::Poll::Ready(())) => {
                    *slot = None;
                    return;
                }
                Err(_) => {
                    tracing::error!("a request's task panicked");
                    *slot = None;
                    return;
                }
            }
        }
    }
}

impl Wake for Task {
    fn wake(self: Arc<Self>) {
        self.schedule();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.clone().schedule();
    }
}
