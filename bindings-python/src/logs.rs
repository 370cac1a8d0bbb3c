//! Core's log lines that the official Python SDK writes to `logging`, delivered to
//! Python's `logging` under the same logger names in ferrymcp's namespace.
//!
//! Core names those events with a target that is a Python logger name
//! (`ferrymcp.server.transport_security` for a refused `Host`, `ferrymcp.server.request_state`
//! for a refused `requestState`, ...): this subscriber takes exactly the events whose
//! target starts with `ferrymcp.` and logs each through `logging.getLogger(target)`, where
//! the application's handlers, levels and pytest's `caplog` see it. Every other event of
//! core is disabled here at its callsite, so it costs nothing. A hand-written subscriber
//! (no `tracing-subscriber`): it needs no spans, formatting or filtering syntax.

use std::fmt::Write as _;

use pyo3::prelude::*;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Event, Level, Metadata, Subscriber};

/// The prefix of the targets forwarded to Python.
const PYTHON_TARGETS: &str = "ferrymcp.";

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
        let level = python_level(metadata.level());
        // Not while the interpreter is finalizing (then the line is dropped); a logging
        // failure is Python's to report, never a reason to fail the request.
        Python::try_attach(|py| {
            let logged = py
                .import("logging")
                .and_then(|logging| logging.call_method1("getLogger", (metadata.target(),)))
                .and_then(|logger| {
                    if logger.call_method1("isEnabledFor", (level,))?.is_truthy()? {
                        logger.call_method1("log", (level, "%s", message.0))?;
                    }
                    Ok(())
                });
            if let Err(e) = logged {
                e.print(py);
            }
        });
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

/// Installs the subscriber for the process (the extension module is its only Rust); a
/// subscriber someone installed first is kept.
pub fn install() {
    let _ = tracing::subscriber::set_global_default(PythonLogging);
}
