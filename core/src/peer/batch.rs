//! Where answers go: straight to the writer, or into the array answering a batch.
//!
//! JSON-RPC batches exist only in MCP 2025-03-26. Each request of a batch runs like any
//! other; its answer is collected, and the array goes out when the last one is in
//! (notifications and cancelled requests add nothing to it).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::value::RawValue;

use super::Shared;
use super::dispatch::{on_invalid, on_message, on_request};
use super::handler::HandlerResult;
use crate::wire::{self, ErrorObject, Id, Message, Parsed, RequestId, SharedStr, encode};

/// Results this large go to the outbox by reference (see [`super::outbox`]).
const BY_REFERENCE: usize = 64 * 1024;

#[derive(Clone)]
pub(crate) enum ReplyTo {
    Direct,
    Batch(Arc<BatchReplies>),
}

pub(crate) struct BatchReplies {
    parts: Mutex<Vec<Vec<u8>>>,
    remaining: AtomicUsize,
}

impl ReplyTo {
    pub async fn outcome(&self, shared: &Arc<Shared>, id: &RequestId, outcome: HandlerResult) {
        if let ReplyTo::Direct = self {
            if let Ok(result) = &outcome
                && result.get().len() >= BY_REFERENCE
            {
                // A large result is written from its own buffer, not copied into the outbox.
                let body = result.as_shared_str().clone().into_bytes();
                let _ = shared.out.push_parts(|buf| encode::result_head(buf, id), &body, b"}").await;
                return;
            }
            // The common case: encoded straight into the outbox.
            let _ = shared
                .out
                .push_with(|buf| match &outcome {
                    Ok(result) => encode::result(buf, id, result.get()),
                    Err(error) => encode::error(buf, Some(id), error),
                })
                .await;
            return;
        }
        let mut frame = Vec::new();
        match outcome {
            Ok(result) => encode::result(&mut frame, id, result.get()),
            Err(error) => encode::error(&mut frame, Some(id), &error),
        }
        self.send(shared, Some(frame)).await;
    }

    pub async fn error(&self, shared: &Arc<Shared>, id: Option<&RequestId>, error: &ErrorObject) {
        let mut frame = Vec::with_capacity(128);
        encode::error(&mut frame, id, error);
        self.send(shared, Some(frame)).await;
    }

    /// A request that ends without an answer (it was cancelled).
    pub async fn nothing(&self, shared: &Arc<Shared>) {
        self.send(shared, None).await;
    }

    async fn send(&self, shared: &Arc<Shared>, frame: Option<Vec<u8>>) {
        let frame = match self {
            ReplyTo::Direct => frame,
            ReplyTo::Batch(replies) => replies.add(frame),
        };
        if let Some(frame) = frame {
            // A closed outbox means the connection is gone and nobody waits for this.
            let _ = shared.out.push(&frame).await;
        }
    }
}

impl BatchReplies {
    fn new(expected: usize) -> Self {
        Self { parts: Mutex::new(Vec::with_capacity(expected)), remaining: AtomicUsize::new(expected) }
    }

    /// Adds one answer; returns the whole array frame when it was the last.
    fn add(&self, frame: Option<Vec<u8>>) -> Option<Vec<u8>> {
        let mut parts = self.parts.lock().unwrap();
        parts.extend(frame);
        if self.remaining.fetch_sub(1, Ordering::AcqRel) != 1 || parts.is_empty() {
            return None;
        }
        let mut array = Vec::with_capacity(parts.iter().map(|p| p.len() + 1).sum::<usize>() + 2);
        array.push(b'[');
        for (i, part) in parts.drain(..).enumerate() {
            if i > 0 {
                array.push(b',');
            }
            array.extend_from_slice(&part);
        }
        array.push(b']');
        Some(array)
    }
}

pub(crate) async fn on_batch(shared: &Arc<Shared>, frame: &SharedStr, items: Vec<&RawValue>) {
    if !shared.batches.load(Ordering::Relaxed) {
        let error = ErrorObject::invalid_request(
            "Invalid request: JSON-RPC batches are not supported by this protocol version",
        );
        return ReplyTo::Direct.error(shared, None, &error).await;
    }
    if items.len() > wire::MAX_BATCH_SIZE {
        return ReplyTo::Direct.error(shared, None, &wire::batch_too_large()).await;
    }
    let mut requests = Vec::new();
    let mut refusals = Vec::new();
    for item in items {
        match Parsed::element(item) {
            Ok(envelope) => match wire::to_message(frame, envelope) {
                Message::Request(request) => requests.push(request),
                other => on_message(shared, other, &ReplyTo::Direct).await,
            },
            Err(error) if error.response_like => on_invalid(shared, error, &ReplyTo::Direct).await,
            Err(error) => refusals.push((error.id.as_ref().map(Id::to_owned), error.to_error_object())),
        }
    }
    let expected = requests.len() + refusals.len();
    if expected == 0 {
        return;
    }
    let reply = ReplyTo::Batch(Arc::new(BatchReplies::new(expected)));
    for (id, error) in refusals {
        reply.error(shared, id.as_ref(), &error).await;
    }
    for request in requests {
        on_request(shared, request, &reply).await;
    }
}
