//! The body of an SSE response: events as they are produced, a keep-alive comment when the
//! stream is quiet, and an end when its source is done or its session or server ends.
//!
//! The body owns what must happen when the client goes away: dropping it (hyper does when
//! the connection closes) fires the guard, which on a 2026-07-28 request is the request's
//! cancellation.

use std::any::Any;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::{Body, Frame};
use tokio::sync::mpsc;
use tokio::time::{Instant, Interval, MissedTickBehavior};
use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};

use super::exchange::Out;
use crate::framing::sse;

/// Cancels a token when dropped.
pub(crate) struct CancelOnDrop(pub CancellationToken);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Where the events come from.
pub(crate) enum Source {
    /// A request's messages, each sent as an event without id; ends after the last.
    Messages(mpsc::Receiver<Out>),
    /// Events already encoded (with ids) by a resumable stream.
    Events(mpsc::Receiver<Bytes>),
}

pub(crate) struct SseBody {
    /// An event to send first, and whether it was the last.
    head: Option<(Bytes, bool)>,
    source: Source,
    done: bool,
    keep_alive: Interval,
    /// Any of these ends the stream.
    ends: Vec<Pin<Box<WaitForCancellationFutureOwned>>>,
    /// Held for as long as the client reads (a request's cancellation, a session's
    /// busy mark).
    _guard: Option<Box<dyn Any + Send + Sync>>,
}

impl SseBody {
    /// `head` goes out first; the stream stops early when any of `ends` fires.
    pub fn new(
        head: Option<(Bytes, bool)>,
        source: Source,
        keep_alive: Duration,
        ends: &[&CancellationToken],
        guard: Option<Box<dyn Any + Send + Sync>>,
    ) -> Self {
        let mut keep_alive = tokio::time::interval_at(Instant::now() + keep_alive, keep_alive);
        keep_alive.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let ends = ends.iter().map(|end| Box::pin((*end).clone().cancelled_owned())).collect();
        Self { head, source, done: false, keep_alive, ends, _guard: guard }
    }

    fn poll_source(&mut self, cx: &mut Context<'_>) -> Poll<Option<Bytes>> {
        match &mut self.source {
            Source::Messages(rx) => rx.poll_recv(cx).map(|out| {
                out.map(|out| {
                    self.done = out.last;
                    sse::event(None, &out.data)
                })
            }),
            Source::Events(rx) => rx.poll_recv(cx),
        }
    }
}

impl Body for SseBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        if let Some((head, last)) = this.head.take() {
            this.done = last;
            return Poll::Ready(Some(Ok(Frame::data(head))));
        }
        if this.done || this.ends.iter_mut().any(|end| end.as_mut().poll(cx).is_ready()) {
            return Poll::Ready(None);
        }
        match this.poll_source(cx) {
            Poll::Ready(Some(event)) => {
                this.keep_alive.reset();
                return Poll::Ready(Some(Ok(Frame::data(event))));
            }
            Poll::Ready(None) => return Poll::Ready(None),
            Poll::Pending => {}
        }
        match this.keep_alive.poll_tick(cx) {
            Poll::Ready(_) => Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(sse::KEEP_ALIVE))))),
            Poll::Pending => Poll::Pending,
        }
    }
}
