//! Client input asked by a Python handler, made from the handler's own future in batches.
//!
//! On a 2026-07-28 request core ends the round as soon as the handler's future is pending
//! with an input missing. A Python handler asks from the asyncio loop thread, so inputs
//! awaited together (`asyncio.gather`) would reach core one at a time and the first would
//! end the round alone. So an ask is queued, and a callback scheduled with `call_soon`
//! (it runs after the tasks already ready in this loop iteration, such as the rest of a
//! `gather`) hands the whole batch to the handler's future, which makes every ask of it in
//! one poll. On a legacy session the same path sends each ask to the client.

use std::future::Future;
use std::sync::{Arc, Mutex};

use ferrymcp_core::server::{Context, HandlerError};
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use pyo3::prelude::*;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::bridge::running_loop;

/// One input the handler asked for; its answer goes back through `reply`.
pub struct Ask {
    pub key: Option<String>,
    pub method: String,
    pub params: Value,
    pub reply: oneshot::Sender<Result<Value, HandlerError>>,
}

impl Ask {
    async fn make(self, cx: Context) {
        let outcome = cx.input(self.key.as_deref(), &self.method, self.params).await;
        let _ = self.reply.send(outcome);
    }
}

/// Where a handler's context queues its asks.
#[derive(Clone)]
pub struct Asks {
    queued: Arc<Mutex<Vec<Ask>>>,
    batches: mpsc::UnboundedSender<Vec<Ask>>,
}

impl Asks {
    /// On the loop thread: queues `ask`; the first of a batch schedules its hand-over.
    pub fn queue(&self, py: Python<'_>, ask: Ask) -> PyResult<()> {
        let first = {
            let mut queued = self.queued.lock().unwrap();
            queued.push(ask);
            queued.len() == 1
        };
        if first {
            running_loop(py)?.call_method1("call_soon", (Flush(self.clone()),))?;
        }
        Ok(())
    }
}

/// Hands the queued asks to the handler's future as one batch.
#[pyclass(frozen)]
struct Flush(Asks);

#[pymethods]
impl Flush {
    fn __call__(&self) {
        let batch = std::mem::take(&mut *self.0.queued.lock().unwrap());
        // A finished handler has dropped the receiver: the asks' replies drop with the
        // batch and their awaitables fail.
        let _ = self.0.batches.send(batch);
    }
}

/// Runs the handler that `start` begins with its `Asks`, making the asks it queues.
pub async fn serve<F>(cx: Context, start: impl FnOnce(Asks) -> F) -> Result<Value, HandlerError>
where
    F: Future<Output = Result<Value, HandlerError>>,
{
    let (batches, mut incoming) = mpsc::unbounded_channel();
    let handler = start(Asks { queued: Arc::default(), batches });
    let mut handler = std::pin::pin!(handler);
    let mut making = FuturesUnordered::new();
    loop {
        tokio::select! {
            outcome = &mut handler => return outcome,
            Some(batch) = incoming.recv() => making.extend(batch.into_iter().map(|ask| ask.make(cx.clone()))),
            Some(()) = making.next(), if !making.is_empty() => {}
        }
    }
}
