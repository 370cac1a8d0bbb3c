//! The legacy era of the endpoint (2025-03-26 .. 2025-11-25): sessions opened by
//! `initialize`, POSTs that name their session, the standalone GET stream, DELETE, and
//! resumable event streams.
//!
//! Requests are served by the session's [`Connection`](crate::server::Connection) exactly
//! as on stdio; this file only moves messages between HTTP and the session. A dropped
//! connection is not a cancellation here (the specification says so): the handler goes on
//! and its events wait in the store for the client to resume.

use std::sync::Arc;

use http::request::Parts;
use http::{HeaderValue, Response, StatusCode};
use http_body_util::BodyExt;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::body::{Source, SseBody};
use super::events::Followed;
use super::exchange::{self, Out};
use super::reply::{self, ResponseBody, refuse};
use super::sessions::{HttpSession, Refused};
use super::{HttpState, SESSION_HEADER, guard};
use crate::protocol::{Cancelled, Initialize, NotificationMethod, Progress, RequestMethod};
use crate::server::{AuthInfo, FrontParams};
use crate::wire::{ErrorCode, ErrorObject, Message, Request, RequestId};

type Reply = Response<ResponseBody>;
/// Boxed: refusals are the rare path, and a response is large.
type Refusal = Box<Reply>;

/// The session a request names: 400 without one, 404 for one that is unknown or ended,
/// 503 when the session store cannot say.
async fn session(state: &HttpState, parts: &Parts) -> Result<Arc<HttpSession>, Refusal> {
    let Some(id) = parts.headers.get(SESSION_HEADER) else {
        return Err(Box::new(refuse(
            StatusCode::BAD_REQUEST,
            ErrorCode::CONNECTION_CLOSED,
            "Bad Request: Mcp-Session-Id header is required",
        )));
    };
    let found = match id.to_str() {
        Ok(id) => {
            state.sessions.find(id, || state.server.connection()).await.map_err(|e| unavailable(&state.options, e))?
        }
        Err(_) => None,
    };
    found.ok_or_else(|| Box::new(unknown_session(state)))
}

/// The 404 of a session this server does not have, in the server's dialect.
fn unknown_session(state: &HttpState) -> Reply {
    match state.server.shared.options.dialect.unknown_session() {
        (error, true) => reply::refuse_with_null_id(StatusCode::NOT_FOUND, &error),
        (error, false) => reply::rpc_error(StatusCode::NOT_FOUND, None, &error),
    }
}

/// 503, with the reason, when a session cannot be opened or served here now.
fn unavailable(options: &super::HttpOptions, refused: Refused) -> Refusal {
    let message = match refused {
        Refused::Full => {
            format!("Service unavailable: the server holds its limit of {} sessions", options.max_sessions)
        }
        Refused::Store(e) => format!("Service unavailable: {e}"),
    };
    let mut reply = refuse(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::CONNECTION_CLOSED, message);
    reply.headers_mut().insert(http::header::RETRY_AFTER, HeaderValue::from_static("5"));
    Box::new(reply)
}

/// A legacy request must not name a revision this server does not speak.
fn check_version(state: &HttpState, parts: &Parts) -> Result<(), Refusal> {
    let Some(version) = parts.headers.get(super::VERSION_HEADER) else { return Ok(()) };
    let version = version.to_str().unwrap_or("");
    let options = &state.server.shared.options;
    if options.legacy_revision(version).is_some() {
        return Ok(());
    }
    let message = format!(
        "Bad Request: unsupported MCP-Protocol-Version {version:?} (supported: {})",
        options.legacy_version_strings().join(", ")
    );
    Err(Box::new(refuse(StatusCode::BAD_REQUEST, ErrorCode::CONNECTION_CLOSED, message)))
}

/// Serves one message; `params` are a request's, when already parsed.
pub(crate) async fn post(
    state: &Arc<HttpState>,
    parts: &Parts,
    message: Message,
    params: Option<Map<String, Value>>,
    auth: Option<Arc<AuthInfo>>,
) -> Reply {
    if state.options.stateless {
        return stateless(state, parts, message, params, auth).await;
    }
    if let Message::Request(request) = &message
        && request.method == Initialize::METHOD
    {
        return initialize(state, request.clone(), auth).await;
    }
    if let Err(reply) = check_version(state, parts) {
        return *reply;
    }
    let session = match session(state, parts).await {
        Ok(session) => session,
        Err(reply) => return *reply,
    };
    match message {
        Message::Request(request) => serve(state, session, request, params, auth).await,
        Message::Notification(notification) => {
            let params = notification.params.as_ref().map(|p| p.get());
            if notification.method == Cancelled::METHOD {
                if let Some(id) = cancelled_id(params) {
                    session.cancel(&id);
                }
            } else if notification.method != Progress::METHOD {
                let params = params.and_then(|p| serde_json::from_str(p).ok()).unwrap_or(Value::Null);
                tokio::spawn(session.connection.notification(&notification.method, params));
            }
            reply::empty(StatusCode::ACCEPTED)
        }
        Message::Response(response) => {
            if let Some(id) = &response.id {
                let outcome = response
                    .outcome
                    .and_then(|raw| raw.parse_owned::<Value>().map_err(|e| ErrorObject::parse_error(e.to_string())));
                if !session.answer(id, outcome.clone())
                    && let Some(bus) = &state.bus
                {
                    bus.answer(&session.id, id, outcome);
                }
            }
            reply::empty(StatusCode::ACCEPTED)
        }
    }
}

/// A POST in stateless mode: a request is served by a connection of its own, initialized
/// by it (`initialize`) or as the revision its `MCP-Protocol-Version` names; notifications
/// and responses have nothing to reach and are accepted (202).
async fn stateless(
    state: &Arc<HttpState>,
    parts: &Parts,
    message: Message,
    params: Option<Map<String, Value>>,
    auth: Option<Arc<AuthInfo>>,
) -> Reply {
    let Message::Request(request) = message else {
        return reply::empty(StatusCode::ACCEPTED);
    };
    if let Err(reply) = check_version(state, parts) {
        return *reply;
    }
    let connection = state.server.connection();
    if request.method != Initialize::METHOD {
        let version = parts.headers.get(super::VERSION_HEADER).and_then(|v| v.to_str().ok());
        connection.assume_initialized(version);
    }
    // The request lives as long as its client reads the answer: there is no session to
    // resume it from.
    let cancel = CancellationToken::new();
    let guard = super::body::CancelOnDrop(cancel.clone());
    let rx = exchange::start(connection, request, params.map(FrontParams::Parsed), None, cancel.clone(), None, auth);
    respond(state, rx, cancel, guard).await
}

/// The answer to one request from its messages: JSON when the answer is all there is (or
/// in JSON-response mode, where earlier messages are not delivered), else an SSE stream
/// that ends with the answer.
async fn respond(
    state: &Arc<HttpState>,
    mut rx: tokio::sync::mpsc::Receiver<Out>,
    end: CancellationToken,
    guard: super::body::CancelOnDrop,
) -> Reply {
    let Some(mut first) = rx.recv().await else {
        return reply::empty(StatusCode::SERVICE_UNAVAILABLE);
    };
    if state.options.json_response {
        while !first.last {
            match rx.recv().await {
                Some(next) => first = next,
                None => return reply::empty(StatusCode::SERVICE_UNAVAILABLE),
            }
        }
    }
    if first.last {
        return reply::json(StatusCode::OK, first.data);
    }
    let head = crate::framing::sse::event(None, &first.data);
    let body = SseBody::new(
        Some((head, false)),
        Source::Messages(rx),
        state.options.keep_alive,
        &[&end],
        Some(Box::new(guard)),
    );
    reply::event_stream(body.boxed())
}

fn cancelled_id(params: Option<&str>) -> Option<RequestId> {
    let params: Value = serde_json::from_str(params?).ok()?;
    serde_json::from_value(params.get("requestId")?.clone()).ok()
}

async fn initialize(state: &Arc<HttpState>, request: Request, auth: Option<Arc<AuthInfo>>) -> Reply {
    let session = match state.sessions.create(state.server.connection()) {
        Ok(session) => session,
        Err(refused) => return *unavailable(&state.options, refused),
    };
    let mut rx =
        exchange::start(session.connection.clone(), request, None, None, session.ended.child_token(), None, auth);
    let Some(Out { data, code, .. }) = rx.recv().await else {
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::CONNECTION_CLOSED,
            "Service unavailable: the server is shutting down",
        );
    };
    if code.is_some() {
        let _ = state.sessions.remove(&session.id).await;
        return reply::json(StatusCode::OK, data);
    }
    if let Err(e) = state.sessions.persist(&session).await {
        let _ = state.sessions.remove(&session.id).await;
        return *unavailable(&state.options, Refused::Store(e));
    }
    let mut reply = reply::json(StatusCode::OK, data);
    reply
        .headers_mut()
        .insert(SESSION_HEADER, HeaderValue::from_str(&session.id).expect("hex is a valid header value"));
    reply
}

async fn serve(
    state: &Arc<HttpState>,
    session: Arc<HttpSession>,
    request: Request,
    params: Option<Map<String, Value>>,
    auth: Option<Arc<AuthInfo>>,
) -> Reply {
    let busy = session.busy();
    let id = request.id.clone();
    let cancel = session.register(&id);
    let mut rx = exchange::start(
        session.connection.clone(),
        request,
        params.map(FrontParams::Parsed),
        None,
        cancel,
        // JSON-response mode delivers only the answer: no way back for a request of the
        // server's, nor a stream to close (the official transport's `can_send_request`).
        (!state.options.json_response).then(|| Arc::downgrade(&session)),
        auth,
    );
    let mut first = rx.recv().await;
    // JSON-response mode: only the answer goes back (what came before it is not delivered).
    while state.options.json_response && first.as_ref().is_some_and(|out| !out.last) {
        first = rx.recv().await;
    }
    if let Some(first) = &first
        && first.last
    {
        session.unregister(&id);
        let data = persisted(state, &session, &id, first.data.clone()).await;
        return reply::json(StatusCode::OK, data);
    }
    let stream = session.open_stream(state.sessions.stream_id(), &id).await;
    let prime = session.primes().then_some(state.options.retry.as_millis() as u64);
    let live = stream.attach(None, prime).await.expect("a new stream has nothing to replay");
    let pump_session = session.clone();
    let pump_state = state.clone();
    tokio::spawn(async move {
        let mut next = first;
        while let Some(out) = next {
            if out.is_close() && out.standalone {
                pump_session.standalone.detach().await;
            } else if out.is_close() {
                stream.detach().await;
            } else if out.last {
                stream.emit(persisted(&pump_state, &pump_session, &id, out.data).await).await;
            } else {
                stream.emit(out.data).await;
            }
            if out.last {
                break;
            }
            next = rx.recv().await;
        }
        stream.finish().await;
        pump_session.unregister(&id);
        pump_session.finished(stream.id).await;
        drop(busy);
    });
    let body = SseBody::new(None, Source::Events(live), state.options.keep_alive, &[&session.ended], None);
    reply::event_stream(body.boxed())
}

/// A request's answer, once what it changed in the session is in the session store; if
/// that fails, an error in its place (the client must not believe a change that the next
/// replica will not know).
async fn persisted(state: &HttpState, session: &HttpSession, id: &RequestId, answer: bytes::Bytes) -> bytes::Bytes {
    match state.sessions.persist(session).await {
        Ok(()) => answer,
        Err(e) => {
            tracing::warn!("{e}");
            let error = ErrorObject::new(ErrorCode::INTERNAL_ERROR, format!("The change was not kept: {e}"));
            let mut buf = Vec::with_capacity(128);
            crate::wire::encode::error(&mut buf, Some(id), &error);
            bytes::Bytes::from(buf)
        }
    }
}

/// GET: the session's standalone stream, or the resumption of any of its streams.
pub(crate) async fn get(state: &Arc<HttpState>, parts: &Parts) -> Reply {
    let session = match session(state, parts).await {
        Ok(session) => session,
        Err(reply) => return *reply,
    };
    if !guard::accepts(&parts.headers).1 {
        return refuse(
            StatusCode::NOT_ACCEPTABLE,
            ErrorCode::CONNECTION_CLOSED,
            "Not Acceptable: Client must accept text/event-stream",
        );
    }
    let last = parts.headers.get("last-event-id").and_then(|v| v.to_str().ok());
    let (stream, after) = match last {
        Some(last) => {
            let parsed = state.options.event_store.locate(last);
            let found = parsed.and_then(|(stream, seq)| Some((session.stream(stream)?, seq)));
            match found {
                Some((stream, seq)) => (stream, Some(seq)),
                None if parsed.is_some() && state.options.event_store.shared() => {
                    let (stream, seq) = parsed.expect("checked");
                    return follow(state, &session, stream, seq).await;
                }
                None => {
                    return refuse(
                        StatusCode::NOT_FOUND,
                        ErrorCode::CONNECTION_CLOSED,
                        format!("Not Found: no stream to resume from event {last:?}"),
                    );
                }
            }
        }
        None => {
            if session.standalone.is_read().await {
                return refuse(
                    StatusCode::CONFLICT,
                    ErrorCode::CONNECTION_CLOSED,
                    "Conflict: only one standalone SSE stream is allowed per session",
                );
            }
            (session.standalone.clone(), None)
        }
    };
    let prime = session.primes().then_some(state.options.retry.as_millis() as u64);
    let Some(live) = stream.attach(after, prime).await else {
        return refuse(
            StatusCode::NOT_FOUND,
            ErrorCode::CONNECTION_CLOSED,
            "Not Found: the events after that id are no longer kept",
        );
    };
    // A resumed request stream ends with its response; a standalone one also at shutdown.
    let ends: &[&CancellationToken] =
        if last.is_none() { &[&session.ended, &state.shutdown] } else { &[&session.ended] };
    let body = SseBody::new(None, Source::Events(live), state.options.keep_alive, ends, Some(Box::new(session.busy())));
    reply::event_stream(body.boxed())
}

/// A GET resuming a stream that another replica writes (or wrote): its events from the
/// shared store, stored and then live, until the answer; if that replica is gone first, an
/// error in place of the answer, so the client is not left waiting for one.
async fn follow(state: &Arc<HttpState>, session: &Arc<HttpSession>, stream: u64, seq: u64) -> Reply {
    let Some(mut followed) = state.options.event_store.follow(stream, seq).await else {
        return refuse(
            StatusCode::NOT_FOUND,
            ErrorCode::CONNECTION_CLOSED,
            format!("Not Found: no stream to resume from event {}", super::stream::event_id(stream, seq)),
        );
    };
    let (tx, rx) = tokio::sync::mpsc::channel(64);
    if session.primes() {
        let _ = tx.try_send(crate::framing::sse::priming(
            &super::stream::event_id(stream, seq),
            state.options.retry.as_millis() as u64,
        ));
    }
    tokio::spawn(async move {
        let mut last = seq;
        while let Some(next) = followed.recv().await {
            let event = match next {
                Followed::Event(seq, data) => {
                    last = seq;
                    let end = is_answer(&data);
                    let event = crate::framing::sse::event(Some(&super::stream::event_id(stream, seq)), &data);
                    if tx.send(event).await.is_err() || end {
                        return;
                    }
                    continue;
                }
                Followed::WriterGone(request) => {
                    let error = ErrorObject::new(
                        ErrorCode::INTERNAL_ERROR,
                        "The server replica handling this request stopped before answering it",
                    );
                    let mut buf = Vec::with_capacity(128);
                    crate::wire::encode::error(&mut buf, request.as_ref(), &error);
                    crate::framing::sse::event(Some(&super::stream::event_id(stream, last + 1)), &buf)
                }
            };
            let _ = tx.send(event).await;
            return;
        }
    });
    let ends: &[&CancellationToken] = &[&session.ended];
    let body = SseBody::new(None, Source::Events(rx), state.options.keep_alive, ends, Some(Box::new(session.busy())));
    reply::event_stream(body.boxed())
}

/// Whether a message is a JSON-RPC response (the end of a request's stream).
fn is_answer(data: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Shape<'a> {
        #[serde(borrow)]
        method: Option<&'a serde_json::value::RawValue>,
        #[serde(borrow)]
        result: Option<&'a serde_json::value::RawValue>,
        #[serde(borrow)]
        error: Option<&'a serde_json::value::RawValue>,
    }
    serde_json::from_slice::<Shape>(data)
        .is_ok_and(|shape| shape.method.is_none() && (shape.result.is_some() || shape.error.is_some()))
}

/// DELETE: ends the session.
pub(crate) async fn delete(state: &Arc<HttpState>, parts: &Parts) -> Reply {
    match session(state, parts).await {
        Ok(session) => match state.sessions.remove(&session.id).await {
            Ok(_) => reply::empty(StatusCode::OK),
            Err(e) => *unavailable(&state.options, Refused::Store(e)),
        },
        Err(reply) => *reply,
    }
}
