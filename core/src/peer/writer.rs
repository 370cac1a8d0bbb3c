//! The writer task: one ordered stream of frames, coalesced into few writes.
//!
//! It takes the first queued frame, then everything else already queued (up to a batch
//! cap), writes the batch in one call and flushes; so under load many frames share one
//! system call, and when the queue runs dry the last frame goes out at once.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::{CloseReason, Shared};
use crate::transport::FrameSink;

/// Above this a batch is written before more frames are taken.
const MAX_BATCH: usize = 256 * 1024;
/// A buffer grown past this by a large frame is given back afterwards.
const KEEP_CAPACITY: usize = 1024 * 1024;

pub(crate) async fn run<K: FrameSink>(shared: Arc<Shared>, mut rx: mpsc::Receiver<Vec<u8>>, mut sink: K) {
    let mut batch = Vec::with_capacity(64 * 1024);
    loop {
        let first = tokio::select! {
            biased;
            frame = rx.recv() => frame,
            _ = shared.shutdown.cancelled() => None,
        };
        let Some(first) = first else { break };
        push(&mut batch, &first);
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(frame) => push(&mut batch, &frame),
                Err(_) => break,
            }
        }
        if let Err(e) = sink.send(&batch).await {
            shared.finish(CloseReason::Transport(format!("write failed: {e}")));
            break;
        }
        batch.clear();
        if batch.capacity() > KEEP_CAPACITY {
            batch = Vec::with_capacity(64 * 1024);
        }
    }
    // Whatever was queued before the close still goes out.
    while let Ok(frame) = rx.try_recv() {
        push(&mut batch, &frame);
    }
    if !batch.is_empty() {
        let _ = sink.send(&batch).await;
    }
    let _ = sink.close().await;
    shared.writer_done.send_replace(true);
}

fn push(batch: &mut Vec<u8>, frame: &[u8]) {
    batch.extend_from_slice(frame);
    batch.push(b'\n');
}
