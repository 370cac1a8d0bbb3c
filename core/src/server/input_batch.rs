//! Client input asked by a handler that runs outside the request's own future (a Python
//! coroutine on its asyncio loop, a JS function on Node's thread), grouped into rounds.
//!
//! Core ends a 2026-07-28 round as soon as the handler's future is pending with an input
//! missing. Rust code asks for inputs awaited together in one poll (`join!`), but a
//! handler in another runtime asks in separate calls, so the first ask would end the
//! round alone. So an ask made through an [`InputBatch`] is only queued; the binding
//! flushes the queue at the moment its runtime has run everything that was ready (Python:
//! a `call_soon` callback; Node: a `setImmediate`), which is the only thing it decides.
//! [`BatchedHandler::run`] then makes every ask of the batch in one poll of the handler's
//! future, so inputs awaited together form one `input_required` round, keyed in the order
//! they were asked. What a retry delivers, and how a legacy session or a task turns each
//! input into a request, is [`Context::input`]'s, the same path Rust handlers take.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll};

use futures_util::StreamExt;
use futures_util::future::{BoxFuture, FutureExt};
use futures_util::stream::FuturesUnordered;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use super::context::Context;
use super::handlers::HandlerError;
use crate::peer::RequestOptions;
use crate::wire::{ErrorCode, ErrorObject};

/// One input the handler asked for; its answer goes back through `reply`.
struct Ask {
    key: Option<String>,
    kind: AskKind,
    method: String,
    params: Value,
    options: RequestOptions,
    reply: oneshot::Sender<Result<Value, HandlerError>>,
}

/// How an ask reaches the client.
#[derive(Clone, Copy)]
enum AskKind {
    /// [`Context::input_with`].
    Input,
    /// A session request ([`Context::elicit`] and the like).
    Session,
    /// A resolver's input ([`Context::resolver_input`]), `key` naming the resolver.
    Resolver,
}

impl Ask {
    async fn make(self, cx: Context) {
        let outcome = match (self.kind, self.key.as_deref()) {
            (AskKind::Session, _) => cx.ask_with(&self.method, self.params, self.options).await,
            (AskKind::Resolver, Some(resolver)) => {
                cx.resolver_input(resolver, &self.method, self.params, self.options).await
            }
            (_, key) => cx.input_with(key, &self.method, self.params, self.options).await,
        };
        let _ = self.reply.send(outcome);
    }
}

#[derive(Default)]
struct Queue {
    asks: Vec<Ask>,
    /// The handler's run has ended: asks made from now on fail at once.
    closed: bool,
}

/// Where a binding's handler context queues its asks. Cheap to clone.
#[derive(Clone)]
pub struct InputBatch {
    queue: Arc<Mutex<Queue>>,
    batches: mpsc::UnboundedSender<Vec<Ask>>,
}

/// The answer to one queued ask. It fails with `REQUEST_CANCELLED` when the handler's
/// run ends first (answered, cancelled, or stopped by core for a round of input).
pub struct InputAnswer(oneshot::Receiver<Result<Value, HandlerError>>);

impl Future for InputAnswer {
    type Output = Result<Value, HandlerError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0).poll(cx).map(|answer| answer.unwrap_or_else(|_| Err(ended())))
    }
}

fn ended() -> HandlerError {
    HandlerError::Rpc(ErrorObject::new(
        ErrorCode::REQUEST_CANCELLED,
        "the request ended before the client's input arrived",
    ))
}

impl InputBatch {
    /// Queues an input (`key` names it in a 2026-07-28 `inputRequests`; `None` numbers
    /// it). The flag says whether this ask opened a new batch: the binding must then call
    /// [`InputBatch::flush`] once its runtime has run what is ready now. `options` are
    /// those of the request a legacy session sends for it ([`Context::input_with`]).
    pub fn ask(
        &self,
        key: Option<String>,
        method: String,
        params: Value,
        options: RequestOptions,
    ) -> (InputAnswer, bool) {
        self.push(key, AskKind::Input, method, params, options)
    }

    /// Queues a session request as [`Context::elicit`], [`Context::sample`] and
    /// [`Context::list_roots`] make it (an input or not, per the server's
    /// [`Dialect`](super::Dialect)); otherwise as [`InputBatch::ask`].
    pub fn ask_session(&self, method: String, params: Value, options: RequestOptions) -> (InputAnswer, bool) {
        self.push(None, AskKind::Session, method, params, options)
    }

    /// Queues the input of a binding's resolver named `resolver`, as
    /// [`Context::resolver_input`] asks it; otherwise as [`InputBatch::ask`].
    pub fn ask_resolver(
        &self,
        resolver: String,
        method: String,
        params: Value,
        options: RequestOptions,
    ) -> (InputAnswer, bool) {
        self.push(Some(resolver), AskKind::Resolver, method, params, options)
    }

    /// Queues one ask; the flag says whether it opened a new batch (see [`InputBatch::ask`]).
    fn push(
        &self,
        key: Option<String>,
        kind: AskKind,
        method: String,
        params: Value,
        options: RequestOptions,
    ) -> (InputAnswer, bool) {
        let (reply, answer) = oneshot::channel();
        let mut queue = self.queue.lock().unwrap();
        if queue.closed {
            return (InputAnswer(answer), false);
        }
        queue.asks.push(Ask { key, kind, method, params, options, reply });
        (InputAnswer(answer), queue.asks.len() == 1)
    }

    /// Hands every queued ask to the handler's run as one batch.
    pub fn flush(&self) {
        let batch = std::mem::take(&mut self.queue.lock().unwrap().asks);
        if !batch.is_empty() {
            // A finished run has dropped the receiver: the batch drops and its answers fail.
            let _ = self.batches.send(batch);
        }
    }
}

/// The handler's side of an [`InputBatch`]: runs the handler, making the asks it flushes.
pub struct BatchedHandler {
    queue: Arc<Mutex<Queue>>,
    batches: mpsc::UnboundedReceiver<Vec<Ask>>,
    cx: Context,
}

/// A batch for a handler served with `cx`, and the runner that makes its asks.
pub fn input_batch(cx: Context) -> (InputBatch, BatchedHandler) {
    let queue = Arc::new(Mutex::new(Queue::default()));
    let (tx, rx) = mpsc::unbounded_channel();
    (InputBatch { queue: queue.clone(), batches: tx }, BatchedHandler { queue, batches: rx, cx })
}

impl BatchedHandler {
    /// Runs `handler` to its end, making each flushed batch of asks in one poll.
    ///
    /// A handler that created a 2025-11-25 task itself (a tool registered with
    /// [`TaskStart::Handler`](super::TaskStart::Handler), through its
    /// [`RequestTaskStore`](super::RequestTaskStore)) answers with the task and leaves its
    /// work running: the asks of that work, in flight or made later, are then served for
    /// the task (related to it, the task `input_required` while each waits, sent on the
    /// stream of a `tasks/result` waiting on it), until the task ends.
    pub async fn run<F: Future>(mut self, handler: F) -> F::Output {
        let mut handler = std::pin::pin!(handler);
        let mut making: FuturesUnordered<BoxFuture<'static, ()>> = FuturesUnordered::new();
        loop {
            tokio::select! {
                biased;
                outcome = &mut handler => {
                    if let Some(id) = self.cx.inner.task.made().map(str::to_owned) {
                        tokio::spawn(self.serve_task(id, making));
                    }
                    return outcome;
                }
                Some(batch) = self.batches.recv() => {
                    making.extend(batch.into_iter().map(|ask| ask.make(self.cx.clone()).boxed()));
                }
                Some(()) = making.next(), if !making.is_empty() => {}
            }
        }
    }

    /// Serves the asks of the work a handler left running for task `id`, until the task
    /// ends; then the asks still waiting fail, as those of an ended run.
    async fn serve_task(mut self, id: String, mut making: FuturesUnordered<BoxFuture<'static, ()>>) {
        let cx = self.cx.for_spec_task(id.clone(), CancellationToken::new());
        let ended = super::tasks::spec::ended(&cx, &id);
        tokio::pin!(ended);
        loop {
            tokio::select! {
                biased;
                () = &mut ended => return,
                Some(batch) = self.batches.recv() => {
                    making.extend(batch.into_iter().map(|ask| ask.make(cx.clone()).boxed()));
                }
                Some(()) = making.next(), if !making.is_empty() => {}
            }
        }
    }
}

impl Drop for BatchedHandler {
    fn drop(&mut self) {
        let mut queue = self.queue.lock().unwrap();
        queue.closed = true;
        queue.asks.clear();
    }
}
