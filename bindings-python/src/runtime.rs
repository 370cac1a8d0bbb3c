//! The tokio runtime the Python package runs core on.
//!
//! Tokio's threads do not survive `fork()`: a child that inherited a runtime would queue
//! work that no thread ever runs. So the runtime is built lazily, and a `pthread_atfork`
//! child hook marks it stale; the first use in the child builds a fresh one.
//!
//! Windows has no `fork()` (multiprocessing spawns fresh interpreters there), so the hook
//! is Unix only (`pthread_atfork` exists on Linux and macOS alike); checked with
//! `cargo clippy --target` for macOS and Windows (scripts/check-targets.sh).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, Once};

use tokio::runtime::{Builder, Runtime};

/// Bumped in every forked child.
static GENERATION: AtomicUsize = AtomicUsize::new(0);
static CURRENT: Mutex<Option<(usize, &'static Runtime)>> = Mutex::new(None);

#[cfg(unix)]
extern "C" fn after_fork_in_child() {
    GENERATION.fetch_add(1, Ordering::SeqCst);
}

#[cfg(unix)]
fn watch_forks() {
    // SAFETY: the hook only touches an atomic, which is async-signal-safe.
    unsafe { libc::pthread_atfork(None, None, Some(after_fork_in_child)) };
}

#[cfg(not(unix))]
fn watch_forks() {}

/// The runtime of this process (a new one after `fork()`).
pub fn runtime() -> &'static Runtime {
    static HOOK: Once = Once::new();
    HOOK.call_once(watch_forks);
    let generation = GENERATION.load(Ordering::SeqCst);
    let mut current = CURRENT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    match *current {
        Some((built, runtime)) if built == generation => runtime,
        _ => {
            let runtime = Builder::new_multi_thread().thread_name("ferrymcp").enable_all().build();
            // Leaked on purpose: it lives as long as the process (or until a fork, where
            // its threads are gone anyway and dropping it could block).
            let runtime: &'static Runtime = Box::leak(Box::new(runtime.expect("a tokio runtime can be built")));
            *current = Some((generation, runtime));
            runtime
        }
    }
}
