//! The outgoing byte buffer every sender shares, drained whole by the writer task.
//!
//! Senders encode their frame straight into the buffer under a short lock (no per-frame
//! allocation, channel hop or copy); the writer swaps the whole buffer out and hands it to
//! the sink by value, so one write carries everything queued since the last one. Order is
//! the order frames enter the buffer. Back-pressure is by bytes: past the limit a sender
//! waits until the writer has taken the buffer (a frame always fits into an empty one).
//!
//! A large frame whose body already sits in a buffer of its own (a big result) is queued
//! as parts, its body by reference, so it is never copied into the shared buffer: the
//! writer then hands the sink the parts in order ([`FrameSink::send_parts`]).
//!
//! The reader may *hold* the writer back while it answers a burst of frames that arrived
//! together, so the answers leave in one write instead of waking the writer (often on the
//! other worker thread) for the first of them. It releases the hold as soon as its source
//! has to wait, and a full buffer wakes the writer regardless.
//!
//! A sink that can write a small batch from the sender's thread ([`DirectWrite`], a pipe)
//! gets a frame that finds the outbox idle (nothing queued, nothing being written, no hold,
//! the writer not woken) written at once, under the lock, by whoever sent it: a sequential
//! answer then costs no wake-up of the writer task, nor of the runtime's worker when the
//! answer was made on another thread.

use std::convert::Infallible;
use std::pin::pin;
use std::sync::{Mutex, MutexGuard};

use bytes::Bytes;
use tokio::sync::Notify;

use crate::framing::DirectWrite;

pub(crate) struct Outbox {
    state: Mutex<State>,
    /// Wakes the writer when the buffer stops being empty (or the outbox closes).
    ready: Notify,
    /// Wakes senders waiting for room.
    room: Notify,
    limit: usize,
    /// The sink's way to write from the sender's thread, if it has one.
    direct: Option<DirectWrite>,
}

struct State {
    /// Parts queued before `buf` (only when a large frame went in by reference).
    parts: Vec<Bytes>,
    /// The bytes in `parts`.
    parts_len: usize,
    buf: Vec<u8>,
    closed: bool,
    /// The reader is answering a burst: do not wake the writer yet.
    held: bool,
    /// The writer was woken for what is in the buffer.
    woken: bool,
    /// The writer has taken a batch it has not finished writing.
    writing: bool,
    /// The size of the last batch taken: a fresh buffer starts that big instead of growing
    /// (and copying) its way up again.
    last_batch: usize,
}

/// The most a fresh buffer reserves up front.
const MAX_RESERVE: usize = 64 * 1024;

/// The outbox is closed: nothing more will be written.
#[derive(Debug)]
pub(crate) struct Closed;

impl Outbox {
    #[cfg(test)]
    pub fn new(limit: usize) -> Self {
        Self::with_direct(limit, None)
    }

    /// An outbox whose idle-time frames are written by their sender through `direct`.
    pub fn with_direct(limit: usize, direct: Option<DirectWrite>) -> Self {
        let state = State {
            parts: Vec::new(),
            parts_len: 0,
            buf: Vec::new(),
            closed: false,
            held: false,
            woken: false,
            writing: false,
            last_batch: 0,
        };
        Self { state: Mutex::new(state), ready: Notify::new(), room: Notify::new(), limit, direct }
    }

    /// Appends one frame, encoded by `encode` straight into the buffer (plus its newline).
    pub async fn push_with(&self, encode: impl Fn(&mut Vec<u8>)) -> Result<(), Closed> {
        let Ok(()) = self.push_encoded(infallible(encode)).await?;
        Ok(())
    }

    /// Appends one frame from an encoder that may fail; a failed frame leaves nothing
    /// behind and its error is handed back. Only a sender that finds no room registers to
    /// be woken (then tries once more, so a writer that took the buffer in between is not
    /// missed).
    pub async fn push_encoded<E>(
        &self,
        encode: impl Fn(&mut Vec<u8>) -> Result<(), E>,
    ) -> Result<Result<(), E>, Closed> {
        if let Some(encoded) = self.try_push(&encode, None, false)? {
            return Ok(encoded);
        }
        loop {
            let mut waiting = pin!(self.room.notified());
            waiting.as_mut().enable();
            if let Some(encoded) = self.try_push(&encode, None, false)? {
                return Ok(encoded);
            }
            waiting.await;
        }
    }

    /// Appends one frame made of `head` (encoded into the buffer), `body` (queued by
    /// reference, not copied) and `tail`, plus its newline.
    pub async fn push_parts(&self, head: impl Fn(&mut Vec<u8>), body: &Bytes, tail: &[u8]) -> Result<(), Closed> {
        self.push_with_body(&infallible(head), Some((body, tail))).await
    }

    async fn push_with_body(
        &self,
        encode: &impl Fn(&mut Vec<u8>) -> Result<(), Infallible>,
        body: Option<(&Bytes, &[u8])>,
    ) -> Result<(), Closed> {
        if self.try_push(encode, body, false)?.is_some() {
            return Ok(());
        }
        loop {
            let mut waiting = pin!(self.room.notified());
            waiting.as_mut().enable();
            if self.try_push(encode, body, false)?.is_some() {
                return Ok(());
            }
            waiting.await;
        }
    }

    /// Appends an already encoded frame.
    pub async fn push(&self, frame: &[u8]) -> Result<(), Closed> {
        self.push_with(|buf| buf.extend_from_slice(frame)).await
    }

    /// Appends without waiting; `force` ignores the limit (for cancellations sent from a
    /// destructor, which cannot wait). `Ok(false)` when there is no room.
    pub fn try_push_with(&self, encode: impl Fn(&mut Vec<u8>), force: bool) -> Result<bool, Closed> {
        Ok(self.try_push(&infallible(encode), None, force)?.is_some())
    }

    /// `Ok(None)` when there is no room. With a `body`, the frame is `encode`'s bytes, the
    /// body (by reference) and the tail.
    fn try_push<E>(
        &self,
        encode: &impl Fn(&mut Vec<u8>) -> Result<(), E>,
        body: Option<(&Bytes, &[u8])>,
        force: bool,
    ) -> Result<Option<Result<(), E>>, Closed> {
        let mut state = self.state.lock().unwrap();
        if state.closed {
            return Err(Closed);
        }
        let idle = state.is_empty() && !state.writing && !state.held && !state.woken;
        let room = state.is_empty() || force || state.len() < self.limit;
        let encoded = room.then(|| {
            if state.buf.capacity() == 0 {
                let reserve = state.last_batch.min(MAX_RESERVE);
                state.buf.reserve(reserve);
            }
            let start = state.buf.len();
            let encoded = encode(&mut state.buf);
            match (&encoded, body) {
                (Ok(()), None) => state.buf.push(b'\n'),
                (Ok(()), Some((body, tail))) => {
                    let head = Bytes::from(std::mem::take(&mut state.buf));
                    state.parts_len += head.len() + body.len();
                    state.parts.push(head);
                    state.parts.push(body.clone());
                    state.buf.extend_from_slice(tail);
                    state.buf.push(b'\n');
                }
                (Err(_), _) => state.buf.truncate(start),
            }
            encoded
        });
        // Alone and nothing ahead of it: the frame leaves now, from this thread, if the
        // sink can take it without blocking (under the lock, so nothing overtakes it).
        if idle
            && body.is_none()
            && let Some(direct) = &self.direct
            && !state.buf.is_empty()
            && let Ok(n) = direct(&state.buf)
            && n > 0
        {
            if n == state.buf.len() {
                state.buf.clear();
                return Ok(encoded);
            }
            state.buf.drain(..n);
        }
        // A full buffer wakes the writer even while the reader holds it back.
        let wake = !(state.woken || state.is_empty() || (room && state.held));
        self.wake_writer(state, wake);
        Ok(encoded)
    }

    /// The reader starts answering a burst of frames.
    pub fn hold(&self) {
        self.state.lock().unwrap().held = true;
    }

    /// The burst is over: whatever it queued goes to the writer now.
    pub fn release(&self) {
        let mut state = self.state.lock().unwrap();
        state.held = false;
        let wake = !state.woken && !state.is_empty();
        self.wake_writer(state, wake);
    }

    fn wake_writer(&self, mut state: MutexGuard<'_, State>, wake: bool) {
        state.woken |= wake;
        drop(state);
        if wake {
            self.ready.notify_one();
        }
    }

    /// The writer's side: everything queued, in parts (usually one), or `None` once closed
    /// and drained.
    pub async fn take(&self) -> Option<Vec<Bytes>> {
        loop {
            {
                let mut state = self.state.lock().unwrap();
                if !state.is_empty() {
                    state.woken = false;
                    state.writing = true;
                    state.last_batch = state.buf.len();
                    let mut batch = std::mem::take(&mut state.parts);
                    state.parts_len = 0;
                    if !state.buf.is_empty() {
                        batch.push(Bytes::from(std::mem::take(&mut state.buf)));
                    }
                    drop(state);
                    self.room.notify_waiters();
                    return Some(batch);
                }
                if state.closed {
                    return None;
                }
            }
            self.ready.notified().await;
        }
    }

    /// The writer has handed the batch it took to the sink.
    pub fn written(&self) {
        self.state.lock().unwrap().writing = false;
    }

    /// No more frames are accepted; what is queued is still taken by the writer.
    pub fn close(&self) {
        self.state.lock().unwrap().closed = true;
        self.ready.notify_one();
        self.room.notify_waiters();
    }
}

impl State {
    fn is_empty(&self) -> bool {
        self.buf.is_empty() && self.parts.is_empty()
    }

    fn len(&self) -> usize {
        self.parts_len + self.buf.len()
    }
}

fn infallible(encode: impl Fn(&mut Vec<u8>)) -> impl Fn(&mut Vec<u8>) -> Result<(), Infallible> {
    move |buf| {
        encode(buf);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(batch: Option<Vec<Bytes>>) -> Vec<u8> {
        batch.unwrap().concat()
    }

    #[tokio::test]
    async fn a_large_body_goes_by_reference_between_the_frames_around_it() {
        let outbox = Outbox::new(1024);
        outbox.push(b"a").await.unwrap();
        let body = Bytes::from_static(b"BODY");
        outbox.push_parts(|b| b.extend_from_slice(b"<"), &body, b">").await.unwrap();
        outbox.push(b"z").await.unwrap();
        let batch = outbox.take().await.unwrap();
        assert_eq!(batch.len(), 3);
        assert_eq!(batch[1].as_ptr(), body.as_ptr());
        assert_eq!(batch.concat(), b"a\n<BODY>\nz\n");
    }

    #[tokio::test]
    async fn frames_keep_order_and_drain_after_close() {
        let outbox = Outbox::new(1024);
        outbox.push(b"a").await.unwrap();
        outbox.push_with(|b| b.extend_from_slice(b"bc")).await.unwrap();
        outbox.close();
        assert!(outbox.push(b"late").await.is_err());
        assert_eq!(joined(outbox.take().await), b"a\nbc\n");
        assert_eq!(outbox.take().await, None);
    }

    #[tokio::test]
    async fn a_hold_keeps_the_writer_asleep_until_released_or_full() {
        let outbox = std::sync::Arc::new(Outbox::new(4));
        let writer = || {
            let outbox = outbox.clone();
            tokio::spawn(async move { outbox.take().await })
        };
        let first = writer();
        tokio::task::yield_now().await;
        outbox.hold();
        outbox.push(b"ab").await.unwrap();
        tokio::task::yield_now().await;
        assert!(!first.is_finished());
        outbox.release();
        assert_eq!(joined(first.await.unwrap()), b"ab\n");

        let second = writer();
        tokio::task::yield_now().await;
        outbox.hold();
        outbox.push(b"12345").await.unwrap();
        tokio::task::yield_now().await;
        assert!(!second.is_finished());
        // A sender that finds no room wakes the writer through the hold.
        let waiting = tokio::spawn({
            let outbox = outbox.clone();
            async move { outbox.push(b"x").await }
        });
        assert_eq!(joined(second.await.unwrap()), b"12345\n");
        waiting.await.unwrap().unwrap();
        assert_eq!(joined(outbox.take().await), b"x\n");
    }

    #[tokio::test]
    async fn a_full_outbox_makes_senders_wait_for_the_writer() {
        let outbox = std::sync::Arc::new(Outbox::new(4));
        outbox.push(b"12345").await.unwrap();
        let waiting = tokio::spawn({
            let outbox = outbox.clone();
            async move { outbox.push(b"x").await }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished());
        assert_eq!(joined(outbox.take().await), b"12345\n");
        waiting.await.unwrap().unwrap();
        assert_eq!(joined(outbox.take().await), b"x\n");
    }

    /// A direct path that records what it wrote (and can be told to refuse).
    fn recording()
    -> (crate::framing::DirectWrite, std::sync::Arc<Mutex<Vec<u8>>>, std::sync::Arc<std::sync::atomic::AtomicBool>)
    {
        let written = std::sync::Arc::new(Mutex::new(Vec::new()));
        let refuse = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (w, r) = (written.clone(), refuse.clone());
        let direct: crate::framing::DirectWrite = std::sync::Arc::new(move |batch: &[u8]| {
            if r.load(std::sync::atomic::Ordering::SeqCst) {
                return Ok(0);
            }
            w.lock().unwrap().extend_from_slice(batch);
            Ok(batch.len())
        });
        (direct, written, refuse)
    }

    #[tokio::test]
    async fn an_idle_outbox_writes_through_the_direct_path_and_never_overtakes_a_batch() {
        let (direct, written, refuse) = recording();
        let outbox = Outbox::with_direct(1024, Some(direct));
        // Idle: written by the sender, nothing left for the writer.
        outbox.push(b"one").await.unwrap();
        assert_eq!(*written.lock().unwrap(), b"one\n");
        assert!(outbox.state.lock().unwrap().is_empty());
        // The direct path refuses: queued for the writer, which is woken.
        refuse.store(true, std::sync::atomic::Ordering::SeqCst);
        outbox.push(b"two").await.unwrap();
        refuse.store(false, std::sync::atomic::Ordering::SeqCst);
        // Queued ahead: the next frame queues behind it.
        outbox.push(b"three").await.unwrap();
        let batch = outbox.take().await.unwrap();
        assert_eq!(batch.concat(), b"two\nthree\n");
        // The writer has the batch and has not written it: still no direct write.
        outbox.push(b"four").await.unwrap();
        assert_eq!(*written.lock().unwrap(), b"one\n");
        outbox.written();
        assert_eq!(joined(outbox.take().await), b"four\n");
        outbox.written();
        // A hold (a burst being answered) queues too.
        outbox.hold();
        outbox.push(b"five").await.unwrap();
        outbox.release();
        assert_eq!(joined(outbox.take().await), b"five\n");
        outbox.written();
        outbox.push(b"six").await.unwrap();
        assert_eq!(*written.lock().unwrap(), b"one\nsix\n");
    }
}
