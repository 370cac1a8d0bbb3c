//! `NativePort`: a connection whose messages JavaScript carries (the official SDK's
//! `Transport` objects: `InMemoryTransport`, or one a user wrote over a WebSocket, a
//! worker's `postMessage`, ...).
//!
//! The engine's side is core's [`memory::port`](ferrymcp_core::transport::memory::port),
//! an ordinary frame source and sink, so a server served or a client connected over a port
//! runs exactly as over a pipe. JavaScript hands messages in with `send` (in call order,
//! without waiting) and takes the engine's messages through `onMessage`; `onClose` tells
//! it the engine closed its side. Both functions are weak: a port does not keep Node alive by itself, as the official
//! in-memory transport does not (a request in flight does, through its own promise).

use std::sync::{Arc, Mutex};

use ferrymcp_core::protocol::ErrorCode;
use ferrymcp_core::transport::memory::{self, MemorySink, MemorySource, Port};
use napi::Status;
use napi::bindgen_prelude::Unknown;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;

use crate::error::mcp_error;

/// `(messageJson) => void`, weak: one message the engine sends.
pub type JsMessageFn = ThreadsafeFunction<String, Unknown<'static>, String, Status, false, true>;
/// `() => void`, weak: the engine closed its side.
pub type JsPortCloseFn = ThreadsafeFunction<(), Unknown<'static>, (), Status, false, true>;

type Engine = (MemorySource, MemorySink);

#[napi]
pub struct NativePort {
    port: Arc<Port>,
    /// The engine's side, until a server or client takes it.
    engine: Mutex<Option<Engine>>,
    on_message: Mutex<Option<JsMessageFn>>,
    on_close: Mutex<Option<JsPortCloseFn>>,
}

#[napi]
impl NativePort {
    #[napi(constructor)]
    pub fn new(
        #[napi(ts_arg_type = "(messageJson: string) => void")] on_message: JsMessageFn,
        #[napi(ts_arg_type = "() => void")] on_close: JsPortCloseFn,
    ) -> Self {
        let (engine, port) = memory::port();
        Self {
            port: Arc::new(port),
            engine: Mutex::new(Some(engine)),
            on_message: Mutex::new(Some(on_message)),
            on_close: Mutex::new(Some(on_close)),
        }
    }

    /// Hands one message (JSON text) to the engine; messages arrive in the order of these
    /// calls. Fails once the port is closed.
    #[napi]
    pub fn send(&self, message_json: String) -> napi::Result<()> {
        self.port.send(&message_json).map_err(|_| closed())
    }

    /// Ends the stream towards the engine, as a closed pipe does; the engine then closes its
    /// side and `onClose` runs.
    #[napi]
    pub fn close(&self) {
        self.port.close();
    }
}

impl NativePort {
    /// The engine's side, for the one server or client served over this port; starts the
    /// task that hands the engine's messages to JavaScript. Call from within the runtime.
    pub(crate) fn take_engine(&self) -> napi::Result<Engine> {
        let engine = self.engine.lock().unwrap_or_else(|p| p.into_inner()).take();
        let engine =
            engine.ok_or_else(|| mcp_error(ErrorCode::INVALID_REQUEST, "this transport is already connected", None))?;
        let on_message = self.on_message.lock().unwrap_or_else(|p| p.into_inner()).take();
        let on_close = self.on_close.lock().unwrap_or_else(|p| p.into_inner()).take();
        tokio::spawn(read(self.port.clone(), on_message, on_close));
        Ok(engine)
    }
}

/// The engine's messages to JavaScript; then `onClose`, and both functions are dropped.
async fn read(port: Arc<Port>, on_message: Option<JsMessageFn>, on_close: Option<JsPortCloseFn>) {
    while let Ok(Some(frame)) = port.recv().await {
        if let Some(on_message) = &on_message {
            on_message.call(frame.to_string(), ThreadsafeFunctionCallMode::NonBlocking);
        }
    }
    port.close();
    if let Some(on_close) = on_close {
        on_close.call((), ThreadsafeFunctionCallMode::NonBlocking);
    }
}

fn closed() -> napi::Error {
    mcp_error(ErrorCode::CONNECTION_CLOSED, "the transport is closed", None)
}
