//! One request served over HTTP: the handler runs in a task of its own and everything it
//! sends (notifications, server-to-client requests, then the response) flows through a
//! short channel to whatever answers the POST.
//!
//! The channel is what lets the endpoint choose JSON or SSE honestly: it waits for the
//! first message, and if that is already the response the answer is one JSON body;
//! otherwise it is a stream. The channel is bounded, so a client that reads slowly slows
//! its own handler and nobody else's.

use std::sync::{Arc, Weak};

use bytes::Bytes;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::sessions::HttpSession;
use crate::peer::{BoxFuture, CloseReason, PeerError, RequestOptions};
use crate::server::outbound::Outbound;
use crate::server::{AuthInfo, Connection, FrontParams, Incoming};
use crate::wire::{ErrorObject, Request, encode};

/// Messages a request may have in flight before its handler waits for the client.
const QUEUE: usize = 32;

/// One outgoing message of a request (or, with empty `data`, the handler asking for a
/// connection to be closed: this request's stream's, or with `standalone` the session's
/// standalone GET stream's).
pub(crate) struct Out {
    pub data: Bytes,
    /// This is the response: nothing follows.
    pub last: bool,
    /// The response's JSON-RPC error code, if it is an error.
    pub code: Option<i64>,
    /// A close (empty `data`) of the session's standalone stream, not this request's.
    pub standalone: bool,
}

impl Out {
    fn message(data: Bytes) -> Self {
        Self { data, last: false, code: None, standalone: false }
    }

    fn close(standalone: bool) -> Self {
        Self { data: Bytes::new(), last: false, code: None, standalone }
    }

    /// The handler asked to close the connection (SEP-1699); the request goes on.
    pub fn is_close(&self) -> bool {
        self.data.is_empty()
    }
}

/// The way back for one request: its response channel, and (legacy) its session for
/// server-to-client requests.
struct ResponseStream {
    tx: mpsc::Sender<Out>,
    cancel: CancellationToken,
    session: Option<Weak<HttpSession>>,
}

impl Outbound for ResponseStream {
    fn notify(&self, method: &str, params: Value) -> BoxFuture<Result<(), PeerError>> {
        let data = notification(method, &params);
        let (tx, cancel) = (self.tx.clone(), self.cancel.clone());
        Box::pin(async move {
            if cancel.is_cancelled() {
                return Err(PeerError::Cancelled);
            }
            tx.send(Out::message(data)).await.map_err(|_| closed())
        })
    }

    fn request(&self, method: &str, params: Value, options: RequestOptions) -> BoxFuture<Result<Value, PeerError>> {
        let Some(session) = self.session.as_ref().and_then(Weak::upgrade) else {
            let error = ErrorObject::internal("server-to-client requests need a legacy session");
            return Box::pin(std::future::ready(Err(PeerError::Rpc(error))));
        };
        let tx = self.tx.clone();
        let (method, cancel) = (method.to_owned(), self.cancel.clone());
        Box::pin(async move {
            let (id, data, answer) = session.outgoing_request(&method, &params);
            tx.send(Out::message(data)).await.map_err(|_| closed())?;
            let answered = async {
                tokio::select! {
                    answer = answer => answer.unwrap_or_else(|_| Err(closed())),
                    _ = cancel.cancelled() => Err(PeerError::Cancelled),
                }
            };
            // Without a timeout of its own the request lasts as long as the response stream.
            let Some(limit) = options.timeout else { return answered.await };
            match tokio::time::timeout(limit, answered).await {
                Ok(outcome) => outcome,
                Err(_) => {
                    session.forget_request(id);
                    Err(PeerError::Timeout(limit))
                }
            }
        })
    }

    fn can_request(&self) -> bool {
        self.session.as_ref().is_some_and(|session| session.strong_count() > 0)
    }

    fn can_close_stream(&self) -> bool {
        self.session.as_ref().and_then(Weak::upgrade).is_some_and(|session| session.primes())
    }

    fn close_stream(&self) -> bool {
        self.can_close_stream() && self.tx.try_send(Out::close(false)).is_ok()
    }

    fn close_standalone_stream(&self) -> bool {
        self.can_close_stream() && self.tx.try_send(Out::close(true)).is_ok()
    }
}

pub(crate) fn closed() -> PeerError {
    PeerError::Closed(CloseReason::Eof)
}

/// A JSON-RPC notification's text.
pub(crate) fn notification(method: &str, params: &Value) -> Bytes {
    let mut buf = Vec::with_capacity(128);
    encode::begin_notification(&mut buf, method);
    if !params.is_null() {
        encode::params(&mut buf, params).expect("a JSON value serialises");
    }
    encode::end(&mut buf);
    Bytes::from(buf)
}

/// Starts serving `request` (its `params` too when already parsed, and what the
/// 2026-07-28 checks found when they already passed) on `connection`;
/// returns the channel of what it sends. The
/// handler stops, sending nothing more, when `cancel` fires; its context carries `auth`,
/// the token its own HTTP request was accepted with.
pub(crate) fn start(
    connection: Arc<Connection>,
    request: Request,
    params: Option<FrontParams>,
    checked: Option<(String, Option<usize>)>,
    cancel: CancellationToken,
    session: Option<Weak<HttpSession>>,
    auth: Option<Arc<AuthInfo>>,
) -> mpsc::Receiver<Out> {
    let (tx, rx) = mpsc::channel(QUEUE);
    let outbound = Arc::new(ResponseStream { tx: tx.clone(), cancel: cancel.clone(), session });
    let id = request.id.clone();
    let incoming = Incoming { id: id.clone(), cancel: cancel.clone(), outbound, auth, params, checked };
    // Boxed: the handler's state machine is kilobytes, which tokio would otherwise copy
    // into the task and again on each change of the task's stage (see client/http/post.rs).
    tokio::spawn(Box::pin(async move {
        let served = tokio::select! {
            biased;
            _ = cancel.cancelled() => return,
            served = connection.serve_request(request, incoming) => served,
        };
        // A handler that saw the cancellation and returned is not answered either.
        if cancel.is_cancelled() {
            return;
        }
        let mut buf = Vec::with_capacity(256);
        let code = match &served {
            Ok(result) => {
                encode::result(&mut buf, &id, result.get());
                None
            }
            Err(error) => {
                encode::error(&mut buf, Some(&id), error);
                Some(error.code)
            }
        };
        let _ = tx.send(Out { data: Bytes::from(buf), last: true, code, standalone: false }).await;
    }));
    rx
}
