//! Sending one message: a POST, and whatever the server answers with.
//!
//! A request gets its own task, so a long answer never holds up the next message; its
//! answer is plain JSON or an SSE stream, followed to the end, or dropped (the stream
//! closed) once the request is cancelled. Notifications and
//! responses are sent in order and expect 202. An HTTP failure of a request becomes a
//! JSON-RPC error for its id (the server's own error object when the body holds one),
//! with the answer's status, body and content type in its data ([`HttpFailure`]); so does
//! a successful answer whose content type is neither JSON nor SSE.
//! The first `initialize` refused with 400, 404 or 405 and no modern error in the body
//! means a server of the deprecated HTTP+SSE transport: the client switches to it and
//! sends `initialize` again there. A 404 to a request of a session means the server
//! forgot the session: a new one is made and the request sent again.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::BodyExt;
use http_body_util::Collected;
use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, HeaderMap, WWW_AUTHENTICATE};
use serde_json::Value;

use super::connection::{Connection, EVENT_STREAM, Hook, Mode, Posted};
use super::failure::HttpFailure;
use super::headers::{Parsed, SESSION_ID, message_headers};
use super::{legacy_sse, resume, session, sse, standalone};
use crate::client::auth::{AuthError, Challenge};
use crate::wire::{ErrorCode, ErrorObject, RawJson, SharedStr};

/// Longest piece of an error body quoted in a message.
const QUOTE: usize = 300;
/// How many times one request may be sent again after a new authorization (a 401, then a
/// 403 `insufficient_scope`): a server that keeps refusing ends the loop.
const AUTH_TRIES: u8 = 2;

/// How long a notification or a response waits for the server's acknowledgement (202)
/// before it is abandoned (and logged). Such a POST is sent off the writer, so a server
/// that never acknowledges holds up nothing else; this bounds what it holds on to.
const ONE_WAY_WAIT: Duration = Duration::from_secs(30);

/// Sends one frame (a whole JSON-RPC message, as the peer encoded it).
pub(crate) async fn send(conn: &Arc<Connection>, frame: Bytes) {
    let (kind, headers) = {
        let Some(message) = Parsed::of(&frame) else { return };
        let method = message.method();
        let headers = headers_for(conn, &message, method);
        let kind = match (method, message.id()) {
            (Some(method), Some(id)) => {
                Kind::Request { id, initialize: method == "initialize", list: method == "tools/list" }
            }
            (Some("notifications/cancelled"), None) => Kind::Cancelled(message.request_id()),
            (Some("notifications/initialized"), None) => Kind::Initialized,
            _ => Kind::Other,
        };
        (kind, headers)
    };
    match kind {
        Kind::Request { id, initialize, list } => {
            if initialize {
                conn.hook(id, Hook::Initialize);
                conn.state.lock().unwrap().handshake.initialize = Some((frame.clone(), headers.clone()));
            } else if list {
                conn.hook(id, Hook::ToolsList);
            }
            let cancelled = conn.track(id);
            let conn = conn.clone();
            // Boxed: the request's state machine (reqwest's and hyper's futures inside) is
            // kilobytes, which tokio would otherwise copy into the task and again on each
            // change of the task's stage (callgrind: about 1,500 instructions of memcpy per
            // call in the gateway; benches/README.md).
            tokio::spawn(Box::pin(async move {
                tokio::select! {
                    () = request(conn.clone(), Outgoing { frame, headers, id, initialize, auth_tries: AUTH_TRIES }, true) => {}
                    () = cancelled.cancelled() => {}
                }
                conn.forget(id);
            }));
        }
        Kind::Cancelled(request_id) => {
            // Nobody waits for that answer any more; on a 2026-07-28 server closing its
            // stream is the cancellation itself. Closed at once, before anything the client
            // sends next (a cancelled listen stream delivers nothing more); the notification
            // itself is not awaited (see `Kind::Other`).
            if let Some(id) = request_id {
                conn.forget(id);
            }
            let conn = conn.clone();
            tokio::spawn(Box::pin(async move { one_way(&conn, frame, headers).await }));
        }
        Kind::Initialized => {
            // Awaited here: what the client sends next must not overtake it.
            conn.state.lock().unwrap().handshake.initialized = Some((frame.clone(), headers.clone()));
            one_way(conn, frame, headers).await;
            if conn.mode() == Mode::Streamable {
                standalone::start(conn).await;
            }
        }
        // Not awaited: a server that never acknowledges a notification must not stop the
        // requests behind it (nor `close()`, which waits for the writer).
        Kind::Other => {
            let conn = conn.clone();
            tokio::spawn(Box::pin(async move { one_way(&conn, frame, headers).await }));
        }
    }
}

/// What a frame is, for [`send`].
enum Kind {
    Request { id: i64, initialize: bool, list: bool },
    Cancelled(Option<i64>),
    Initialized,
    Other,
}

/// The headers of `message`. A 2026-07-28 message names its version in `_meta`; one
/// without (a notification, a response) gets the version of the session or of the last
/// modern request; `initialize` gets none, as nothing is agreed before it.
fn headers_for(conn: &Connection, message: &Parsed<'_>, method: Option<&str>) -> HeaderMap {
    let mut state = conn.state.lock().unwrap();
    if let Some(version) = message.meta_version() {
        state.modern_version = Some(version.to_owned());
    }
    let version = match method {
        Some("initialize") => None,
        _ => state.version.as_deref().or(state.modern_version.as_deref()),
    };
    message_headers(message, version, &state.tools)
}

fn target(conn: &Connection) -> reqwest::Url {
    match conn.mode() {
        Mode::Streamable => conn.url.clone(),
        Mode::LegacySse(endpoint) => endpoint,
    }
}

/// A notification or a response: the server acknowledges it, nothing comes back. Given
/// up after [`ONE_WAY_WAIT`].
async fn one_way(conn: &Connection, frame: Bytes, headers: HeaderMap) {
    let url = target(conn);
    if tokio::time::timeout(ONE_WAY_WAIT, post_one_way(conn, &url, frame, headers)).await.is_err() {
        tracing::warn!("POST {url} of a notification or response got no answer in {ONE_WAY_WAIT:?}; given up");
    }
}

async fn post_one_way(conn: &Connection, url: &reqwest::Url, frame: Bytes, headers: HeaderMap) {
    let token = match conn.bearer().await {
        Ok(token) => token,
        Err(e) => return tracing::warn!("no token for a notification or response: {e}"),
    };
    let mut sent = conn.send(conn.post(url.clone(), frame.clone(), headers.clone())).await;
    if let (Ok(response), Some(oauth)) = (&sent, &conn.oauth)
        && response.status() == StatusCode::UNAUTHORIZED
    {
        let challenge = Challenge::parse(www_authenticate(response.headers()));
        if oauth.unauthorized(challenge, token.as_deref()).await.is_ok() && conn.bearer().await.is_ok() {
            sent = conn.send(conn.post(url.clone(), frame, headers)).await;
        }
    }
    match sent {
        Ok(response) if response.status().is_success() => {}
        Ok(response) => tracing::warn!("POST {url} of a notification or response answered HTTP {}", response.status()),
        Err(e) => tracing::warn!("POST {url} of a notification or response failed: {e}"),
    }
}

/// One request, as sent.
struct Outgoing {
    frame: Bytes,
    headers: HeaderMap,
    id: i64,
    initialize: bool,
    /// How many more times a new authorization may send it again.
    auth_tries: u8,
}

/// Sends a request and routes its answer; `may_renew` allows one new session when the
/// server has forgotten ours.
async fn request(conn: Arc<Connection>, outgoing: Outgoing, may_renew: bool) {
    let Outgoing { frame, headers, id, initialize, .. } = &outgoing;
    let (id, initialize) = (*id, *initialize);
    let url = target(&conn);
    let legacy_sse = matches!(conn.mode(), Mode::LegacySse(_));
    let session = conn.session();
    let token = match conn.bearer().await {
        Ok(token) => token,
        Err(e) => return conn.fail_with(id, &auth_error(&e)).await,
    };
    let sent = tokio::select! {
        sent = conn.send_post(&url, frame.clone(), headers) => sent,
        () = conn.stop.cancelled() => return,
    };
    let response = match sent {
        // The usual answer, straight from hyper: the JSON response, read here.
        Ok(Posted::Direct(response)) if plain(response.status(), response.headers(), initialize) => {
            let status = response.status();
            let body = response.into_body().collect().await.map(Collected::to_bytes);
            let body = body.map_err(|e| format!("error decoding response body: {}", super::chain(&e)));
            return answer(&conn, body, id, &url, status).await;
        }
        Ok(posted) => posted.into_reqwest(),
        Err(e) => return conn.lost(id, format!("POST {url} failed: {e}")).await,
    };
    let status = response.status();
    if let Some(oauth) = conn.oauth.clone().filter(|_| outgoing.auth_tries > 0) {
        let challenge = Challenge::parse(www_authenticate(response.headers()));
        let step_up = status == StatusCode::FORBIDDEN && challenge.error.as_deref() == Some("insufficient_scope");
        if status == StatusCode::UNAUTHORIZED || step_up {
            let authorized = if step_up {
                oauth.forbidden(challenge, token.as_deref()).await
            } else {
                oauth.unauthorized(challenge, token.as_deref()).await
            };
            return match authorized {
                Ok(()) => {
                    let outgoing = Outgoing { auth_tries: outgoing.auth_tries - 1, ..outgoing };
                    Box::pin(request(conn, outgoing, may_renew)).await
                }
                Err(e) => conn.fail_with(id, &auth_error(&e)).await,
            };
        }
    }
    if !status.is_success() {
        let mut failure = HttpFailure::of(&response);
        let body = response.text().await.unwrap_or_default();
        let refused =
            matches!(status, StatusCode::BAD_REQUEST | StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED);
        if initialize && !legacy_sse && refused && !is_modern_error(&body) {
            match legacy_sse::open(&conn).await {
                Ok(()) => return Box::pin(request(conn, outgoing, may_renew)).await,
                Err(refused) => {
                    tracing::debug!("no HTTP+SSE fallback either: {}", refused.why);
                    failure.sse = refused.failure.map(Box::new);
                }
            }
        }
        if let Some(stale) = session.filter(|_| status == StatusCode::NOT_FOUND && may_renew && !initialize) {
            match session::renew(&conn, &stale).await {
                Ok(()) => return Box::pin(request(conn, outgoing, false)).await,
                Err(why) => {
                    let why = format!("the server ended the session (HTTP 404) and a new one failed: {why}");
                    return conn.fail_http(id, why, &failure.with_body(body)).await;
                }
            }
        }
        return match rpc_error(&body) {
            Some(error) => conn.fail_with(id, &error).await,
            None => {
                let why = format!("POST {url} answered HTTP {status}: {}", quote(&body));
                conn.fail_http(id, why, &failure.with_body(body)).await;
            }
        };
    }
    if initialize && let Some(session) = response.headers().get(SESSION_ID) {
        conn.state.lock().unwrap().session = Some(session.clone());
    }
    if legacy_sse || status == StatusCode::ACCEPTED {
        // The answer comes on a stream of its own.
        return;
    }
    if sse::is_event_stream(&response) {
        return resume::follow(&conn, response, id).await;
    }
    if let Some(other) = unexpected_content(response.headers()) {
        let why =
            format!("POST {url} answered HTTP {status} with a body of type {other}, neither JSON nor an SSE stream");
        return conn.fail_http(id, why, &HttpFailure::of(&response)).await;
    }
    let body = response.bytes().await.map_err(|e| super::chain(&e));
    answer(&conn, body, id, &url, status).await;
}

/// Whether an answer of the direct path is the plain JSON response [`answer`] reads (no
/// stream, no error, nothing the transport keeps from it; the direct path has no OAuth
/// and no HTTP+SSE).
fn plain(status: StatusCode, headers: &HeaderMap, initialize: bool) -> bool {
    status.is_success()
        && status != StatusCode::ACCEPTED
        && !initialize
        && !sse::is_event_stream_type(headers)
        && unexpected_content(headers).is_none()
}

/// The content type of an answer that can hold no response: neither JSON nor SSE (the
/// official clients refuse those too). An answer without a content type is read as JSON.
fn unexpected_content(headers: &HeaderMap) -> Option<&str> {
    let content_type = headers.get(CONTENT_TYPE)?.to_str().unwrap_or("(not text)");
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    let known = essence.eq_ignore_ascii_case("application/json") || essence.eq_ignore_ascii_case(EVENT_STREAM);
    (!known).then_some(content_type)
}

/// Delivers the response in the body of a successful POST's answer (`status`).
async fn answer(conn: &Connection, body: Result<Bytes, String>, id: i64, url: &reqwest::Url, status: StatusCode) {
    match body.map(SharedStr::from_utf8) {
        Ok(Ok(text)) => {
            if conn.deliver(text.clone()).await.and_then(|answered| answered.as_i64()) != Some(id) {
                let body = quote(&text);
                conn.fail(id, format!("POST {url} answered HTTP {status} without the response: {body:?}")).await;
            }
        }
        Ok(Err(e)) => conn.fail(id, format!("POST {url} answered with a body that is not UTF-8: {e}")).await,
        Err(e) => conn.lost(id, format!("reading the answer of POST {url} failed: {e}")).await,
    }
}

fn www_authenticate(headers: &HeaderMap) -> &str {
    headers.get(WWW_AUTHENTICATE).and_then(|v| v.to_str().ok()).unwrap_or_default()
}

/// A failed authorization, as the error of the request that needed it: `data.oauth` says
/// so (and whether the host must finish the authorization), for the bindings' own
/// `UnauthorizedError`.
fn auth_error(error: &AuthError) -> ErrorObject {
    ErrorObject::new(ErrorCode::CONNECTION_CLOSED, format!("unauthorized: {}", error.message))
        .with_data(RawJson::from_value(&error.data()))
}

/// The JSON-RPC error object in an error body, if it holds one.
fn rpc_error(body: &str) -> Option<ErrorObject> {
    let mut message: Value = serde_json::from_str(body).ok()?;
    serde_json::from_value(message.get_mut("error")?.take()).ok()
}

/// Whether the body is an error only a 2026-07-28 server gives: an unsupported version, a
/// missing capability, a header mismatch, or an unknown method.
fn is_modern_error(body: &str) -> bool {
    rpc_error(body)
        .is_some_and(|e| ErrorCode::TRANSPORT_PROTOCOL.contains(&e.code) || e.code == ErrorCode::METHOD_NOT_FOUND)
}

fn quote(body: &str) -> &str {
    let body = body.trim();
    match body.char_indices().nth(QUOTE) {
        Some((at, _)) => &body[..at],
        None => body,
    }
}
