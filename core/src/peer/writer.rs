//! The writer task: one ordered stream of frames, written in as few calls as possible.
//!
//! It takes everything queued in the outbox at once and hands it to the sink by value, so
//! under load many frames share one system call, and when the queue runs dry the last frame
//! goes out at once. When the connection closes, what was queued still goes out, then the
//! sink is closed (the other side sees EOF).

use std::sync::Arc;

use super::{CloseReason, Shared};
use crate::framing::FrameSink;

pub(crate) async fn run<K: FrameSink>(shared: Arc<Shared>, mut sink: K) {
    while let Some(batch) = shared.out.take().await {
        if let Err(e) = sink.send_parts(batch).await {
            shared.finish(CloseReason::Transport(format!("write failed: {e}")));
            break;
        }
        shared.out.written();
    }
    let _ = sink.close().await;
    shared.writer_done.send_replace(true);
}
