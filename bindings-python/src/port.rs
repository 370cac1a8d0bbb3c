//! `NativePort`: a connection whose messages Python carries (the official SDK's idiom of
//! two anyio memory streams of `SessionMessage`, handed to `ClientSession(read, write)` or
//! `Server.run(read, write, ...)` by a transport the program wrote).
//!
//! The engine's side is core's [`memory::port`](ferrymcp_core::transport::memory::port),
//! an ordinary frame source and sink, so a server served or a client connected over a port
//! runs exactly as over a pipe. Python hands messages in with `send` (JSON text, in call
//! order, without waiting) and awaits the engine's with `recv` (`None` once the engine has
//! closed its side); `close` ends the way in, as a closed pipe does.

use std::sync::{Arc, Mutex};

use ferrymcp_core::transport::memory::{self, MemorySink, MemorySource, Port};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::bridge::{awaitable, fail, ok};

type Engine = (MemorySource, MemorySink);

#[pyclass(frozen)]
pub struct NativePort {
    port: Arc<Port>,
    /// The engine's side, until a server or client takes it.
    engine: Mutex<Option<Engine>>,
}

#[pymethods]
impl NativePort {
    #[new]
    fn new() -> Self {
        let (engine, port) = memory::port();
        Self { port: Arc::new(port), engine: Mutex::new(Some(engine)) }
    }

    /// Hands one JSON-RPC message (JSON text) to the engine; `False` once the port is closed.
    fn send(&self, message: &str) -> bool {
        self.port.send(message).is_ok()
    }

    /// An awaitable of the engine's next message (JSON text), or `None` once it has closed.
    fn recv<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let port = self.port.clone();
        awaitable(py, async move {
            match port.recv().await {
                Ok(Some(frame)) => ok(frame.to_string()),
                Ok(None) => ok(None::<String>),
                Err(e) => fail(move |_| PyRuntimeError::new_err(e.to_string())),
            }
        })
    }

    /// Ends the stream towards the engine (it sees the end of its input).
    fn close(&self) {
        self.port.close();
    }
}

impl NativePort {
    /// The engine's side, for the one server or client connected over this port.
    pub fn take_engine(&self) -> PyResult<Engine> {
        let engine = self.engine.lock().unwrap_or_else(|p| p.into_inner()).take();
        engine.ok_or_else(|| PyRuntimeError::new_err("this pair of streams is already connected"))
    }
}
