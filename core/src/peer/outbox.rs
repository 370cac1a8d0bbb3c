//! The outgoing byte buffer every sender shares, drained whole by the writer task.
//!
//! Senders encode their frame straight into the buffer under a short lock (no per-frame
//! allocation, channel hop or copy); the writer swaps the whole buffer out and hands it to
//! the sink by value, so one write carries everything queued since the last one. Order is
//! the order frames enter the buffer. Back-pressure is by bytes: past the limit a sender
//! waits until the writer has taken the buffer (a frame always fits into an empty one).

use std::pin::pin;
use std::sync::Mutex;

use tokio::sync::Notify;

pub(crate) struct Outbox {
    state: Mutex<State>,
    /// Wakes the writer when the buffer stops being empty (or the outbox closes).
    ready: Notify,
    /// Wakes senders waiting for room.
    room: Notify,
    limit: usize,
}

struct State {
    buf: Vec<u8>,
    closed: bool,
}

/// The outbox is closed: nothing more will be written.
#[derive(Debug)]
pub(crate) struct Closed;

impl Outbox {
    pub fn new(limit: usize) -> Self {
        Self { state: Mutex::new(State { buf: Vec::new(), closed: false }), ready: Notify::new(), room: Notify::new(), limit }
    }

    /// Appends one frame, encoded by `encode` straight into the buffer (plus its newline).
    /// Only a sender that finds no room registers to be woken (then tries once more, so a
    /// writer that took the buffer in between is not missed).
    pub async fn push_with(&self, encode: impl Fn(&mut Vec<u8>)) -> Result<(), Closed> {
        if self.try_push_with(&encode, false)? {
            return Ok(());
        }
        loop {
            let mut waiting = pin!(self.room.notified());
            waiting.as_mut().enable();
            if self.try_push_with(&encode, false)? {
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
        let mut state = self.state.lock().unwrap();
        if state.closed {
            return Err(Closed);
        }
        let was_empty = state.buf.is_empty();
        if !(was_empty || force || state.buf.len() < self.limit) {
            return Ok(false);
        }
        encode(&mut state.buf);
        state.buf.push(b'\n');
        drop(state);
        if was_empty {
            self.ready.notify_one();
        }
        Ok(true)
    }

    /// The writer's side: everything queued, or `None` once closed and drained.
    pub async fn take(&self) -> Option<Vec<u8>> {
        loop {
            {
                let mut state = self.state.lock().unwrap();
                if !state.buf.is_empty() {
                    let batch = std::mem::take(&mut state.buf);
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

    /// No more frames are accepted; what is queued is still taken by the writer.
    pub fn close(&self) {
        self.state.lock().unwrap().closed = true;
        self.ready.notify_one();
        self.room.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn frames_keep_order_and_drain_after_close() {
        let outbox = Outbox::new(1024);
        outbox.push(b"a").await.unwrap();
        outbox.push_with(|b| b.extend_from_slice(b"bc")).await.unwrap();
        outbox.close();
        assert!(outbox.push(b"late").await.is_err());
        assert_eq!(outbox.take().await.unwrap(), b"a\nbc\n");
        assert_eq!(outbox.take().await, None);
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
        assert_eq!(outbox.take().await.unwrap(), b"12345\n");
        waiting.await.unwrap().unwrap();
        assert_eq!(outbox.take().await.unwrap(), b"x\n");
    }
}
