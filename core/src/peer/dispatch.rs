//! The reader task: every incoming frame parsed once and sent where it belongs.
//!
//! Requests go to the handler. Its future is polled once right here: most handlers finish
//! at once and are answered without a task, a lock or a wake-up; one that has to wait
//! becomes its own task (`inline`), registered for cancellation. Responses complete pending requests,
//! `notifications/cancelled` and `notifications/progress` are handled by the engine, and
//! anything malformed is answered with a precise error while the stream carries on.

use std::any::Any;
use std::future::{Future, poll_fn};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll, Waker};

use futures_util::FutureExt;
use serde::Deserialize;
use tokio_util::sync::CancellationToken;

use super::batch::{ReplyTo, on_batch};
use super::handler::BoxFuture;
use super::inline;
use super::progress::Progress;
use super::{CloseReason, NotificationContext, Peer, PeerError, RequestContext, Shared};
use crate::framing::{FrameSource, SourceEvent};
use crate::wire::{
    self, ErrorObject, Id, Message, Notification, ParseError, Parsed, RawJson, Request, RequestId, Response, SharedStr,
};

/// Frames answered in a burst before the writer is released and shutdown is checked.
const BURST: u32 = 32;

pub(crate) async fn run<S: FrameSource>(shared: Arc<Shared>, mut source: S) {
    let shutdown = shared.shutdown.clone();
    let mut shutdown = pin!(shutdown.cancelled());
    let (mut frames, mut holding) = (0u32, false);
    let reason = loop {
        // Frames that are ready are answered as one burst (the writer is held back), and
        // taken without polling the shutdown future. Under a flood that never lets the
        // source wait, the writer is still released and shutdown checked every burst.
        frames = frames.wrapping_add(1);
        if frames % BURST == 0 {
            shared.out.release();
            holding = false;
            if shared.shutdown.is_cancelled() {
                break CloseReason::Local;
            }
        }
        let item = {
            let mut next = pin!(source.next_event());
            poll_fn(|cx| {
                if let Poll::Ready(item) = next.as_mut().poll(cx) {
                    return Poll::Ready(Some(item));
                }
                // The source has to wait: the answers so far go out now.
                if std::mem::take(&mut holding) {
                    shared.out.release();
                }
                shutdown.as_mut().poll(cx).map(|()| None)
            })
            .await
        };
        let Some(item) = item else { break CloseReason::Local };
        if !holding {
            shared.out.hold();
            holding = true;
        }
        match item {
            Ok(SourceEvent::Frame(frame)) => on_frame(&shared, frame).await,
            Ok(SourceEvent::RequestFailed { id, reason }) => {
                let _ = shared.pending.complete(id, Err(PeerError::Closed(CloseReason::Transport(reason))));
            }
            Ok(SourceEvent::Skipped(bad)) => {
                tracing::warn!("skipped a bad frame: {bad}");
                ReplyTo::Direct.error(&shared, bad.id(), &bad.to_error_object()).await;
            }
            Ok(SourceEvent::End) => break CloseReason::Eof,
            Err(e) => break CloseReason::Transport(e.to_string()),
        }
    };
    shared.out.release();
    shared.finish(reason);
}

async fn on_frame(shared: &Arc<Shared>, frame: SharedStr) {
    match wire::parse(&frame) {
        Ok(Parsed::Single(envelope)) => {
            let message = wire::to_message(&frame, envelope);
            on_message(shared, message, &ReplyTo::Direct).await;
        }
        Ok(Parsed::Batch(items)) => on_batch(shared, &frame, items).await,
        Err(error) => on_invalid(shared, error, &ReplyTo::Direct).await,
    }
}

pub(crate) async fn on_message(shared: &Arc<Shared>, message: Message, reply: &ReplyTo) {
    match message {
        Message::Request(request) => on_request(shared, request, reply).await,
        Message::Notification(notification) => on_notification(shared, notification),
        Message::Response(response) => on_response(shared, response),
    }
}

/// Answers a malformed message, unless it was a response: then the request it answers (if
/// ours) fails now instead of waiting for its timeout.
pub(crate) async fn on_invalid(shared: &Arc<Shared>, error: ParseError<'_>, reply: &ReplyTo) {
    tracing::warn!("invalid message: {error}");
    if error.response_like {
        if let Some(Id::Number(id)) = error.id {
            let failure = PeerError::MalformedResponse(error.reason.to_string());
            let _ = shared.pending.complete(id, Err(failure));
        }
        return;
    }
    let id = error.id.as_ref().map(Id::to_owned);
    reply.error(shared, id.as_ref(), &error.to_error_object()).await;
}

pub(crate) async fn on_request(shared: &Arc<Shared>, request: Request, reply: &ReplyTo) {
    let id = request.id.clone();
    if shared.in_flight.load(Ordering::Relaxed) > 0 && shared.running.contains_key(&id) {
        let error = ErrorObject::invalid_request(format!("Invalid request: id {id} is already in use"));
        return reply.error(shared, Some(&id), &error).await;
    }
    if shared.in_flight.load(Ordering::Relaxed) >= shared.config.max_in_flight {
        let error =
            ErrorObject::internal(format!("Too many requests in flight (limit {})", shared.config.max_in_flight));
        return reply.error(shared, Some(&id), &error).await;
    }
    let cancel = CancellationToken::new();
    let cx = RequestContext { id: id.clone(), cancel: cancel.clone(), peer: Peer { shared: shared.clone() } };
    let started = catch_unwind(AssertUnwindSafe(|| shared.handler.handle_request(request, cx)));
    let mut future = match started {
        Ok(future) => future,
        Err(panic) => return reply.outcome(shared, &id, Err(panicked(panic))).await,
    };
    if let Some(outcome) = poll_once(&mut future) {
        return reply.outcome(shared, &id, outcome.unwrap_or_else(|p| Err(panicked(p)))).await;
    }
    shared.in_flight.fetch_add(1, Ordering::Relaxed);
    shared.running.insert(id.clone(), cancel.clone());
    let task_shared = shared.clone();
    let shared = shared.clone();
    let reply = reply.clone();
    // Its own task, which may finish on the thread that ends its wait (see `inline`).
    inline::spawn(task_shared, async move {
        let outcome = tokio::select! {
            biased;
            _ = cancel.cancelled() => None,
            outcome = AssertUnwindSafe(future).catch_unwind() => Some(outcome),
        };
        shared.running.remove(&id);
        shared.in_flight.fetch_sub(1, Ordering::Relaxed);
        match outcome {
            Some(outcome) => {
                reply.outcome(&shared, &id, outcome.unwrap_or_else(|p| Err(panicked(p)))).await;
            }
            None => reply.nothing(&shared).await,
        }
    });
}

fn on_notification(shared: &Arc<Shared>, notification: Notification) {
    match notification.method.as_str() {
        "notifications/cancelled" => cancel_incoming(shared, notification.params),
        "notifications/progress" => route_progress(shared, notification.params),
        _ => {
            let cx = NotificationContext { peer: Peer { shared: shared.clone() } };
            let handler = &shared.handler;
            let started = catch_unwind(AssertUnwindSafe(|| handler.handle_notification(notification, cx)));
            let Ok(mut future) = started else {
                return tracing::error!("notification handler panicked");
            };
            match poll_once(&mut future) {
                Some(Ok(())) => {}
                Some(Err(_)) => tracing::error!("notification handler panicked"),
                None => {
                    tokio::spawn(async move {
                        if AssertUnwindSafe(future).catch_unwind().await.is_err() {
                            tracing::error!("notification handler panicked");
                        }
                    });
                }
            }
        }
    }
}

fn on_response(shared: &Arc<Shared>, response: Response) {
    let outcome = response.outcome.map_err(PeerError::Rpc);
    match response.id {
        Some(RequestId::Number(id)) => {
            if shared.pending.complete(id, outcome).is_err() {
                tracing::warn!("dropped a response to unknown request id {id}");
            }
        }
        Some(id) => tracing::warn!("dropped a response to unknown request id {id}"),
        None => tracing::warn!("the other side reported an error: {outcome:?}"),
    }
}

#[derive(Deserialize)]
struct CancelledParams {
    #[serde(rename = "requestId")]
    request_id: RequestId,
}

fn cancel_incoming(shared: &Arc<Shared>, params: Option<RawJson>) {
    let Some(Ok(params)) = params.as_ref().map(|p| p.parse::<CancelledParams>()) else {
        return tracing::warn!("ignored notifications/cancelled without a valid requestId");
    };
    if let Some((_, token)) = shared.running.remove(&params.request_id) {
        token.cancel();
    }
}

fn route_progress(shared: &Arc<Shared>, params: Option<RawJson>) {
    let Some(Ok(progress)) = params.as_ref().map(|p| p.parse_owned::<Progress>()) else {
        return tracing::warn!("ignored notifications/progress with invalid params");
    };
    let routed = match progress.token {
        RequestId::Number(id) => shared.pending.progress(id, progress),
        RequestId::String(_) => false,
    };
    if !routed {
        tracing::debug!("progress for an unknown token");
    }
}

type Panic = Box<dyn Any + Send>;

/// Polls a fresh future once without a real waker. If it is not ready, the caller spawns
/// it, and the task's first poll registers its own waker (futures must accept re-polls).
fn poll_once<T>(future: &mut BoxFuture<T>) -> Option<Result<T, Panic>> {
    let mut cx = Context::from_waker(Waker::noop());
    match catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(&mut cx))) {
        Ok(Poll::Ready(value)) => Some(Ok(value)),
        Ok(Poll::Pending) => None,
        Err(panic) => Some(Err(panic)),
    }
}

fn panicked(panic: Panic) -> ErrorObject {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    ErrorObject::internal(format!("Internal error: the handler panicked: {what}"))
}
