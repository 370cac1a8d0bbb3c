//! The 2026-07-28 era of the endpoint: every POST stands alone (no session), carries its
//! metadata in headers that must match the body, and is answered with JSON or with an SSE
//! stream that lives exactly as long as the request.
//!
//! Closing that stream is the cancellation, so the response body holds the request's
//! cancellation guard: when hyper drops the body, the handler stops. A request the inbound
//! ladder refuses is answered before dispatch with the status of the official
//! `ERROR_CODE_HTTP_STATUS` (400 for what it does not list); a dispatched request's error
//! answer gets the dialect's status (`Dialect::modern_status`).

use std::sync::Arc;

use http::request::Parts;
use http::{Response, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::body::{CancelOnDrop, Source, SseBody};
use super::exchange;
use super::reply::{self, ResponseBody, rpc_error};
use super::{HttpState, headers};
use crate::protocol::inbound;
use crate::protocol::{CallTool, RequestMethod, SubscriptionsListen};
use crate::server::context::level_rank;
use crate::server::{AuthInfo, FrontParams, era};
use crate::wire::Request;

pub(crate) async fn post(
    state: &Arc<HttpState>,
    parts: &Parts,
    request: Request,
    params: FrontParams,
    auth: Option<Arc<AuthInfo>>,
) -> Response<ResponseBody> {
    let method = request.method.as_str();
    let read = params.checked();
    let schema = (method == CallTool::METHOD)
        .then(|| read.get("name").and_then(Value::as_str).and_then(|name| state.server.tool_input_schema(name)))
        .flatten();
    let dialect = state.server.shared.options.dialect;
    let checked = headers::check(&parts.headers, method, read, schema.as_ref())
        .map_err(|rejection| dialect.inbound_rejection(rejection, || era::check_modern(method, read, dialect).err()))
        .and_then(|()| {
            let meta = era::check_modern(method, read, dialect)?;
            Ok((meta.version.to_owned(), meta.log_level.and_then(level_rank)))
        });
    let checked = match checked {
        Ok(checked) => checked,
        Err(error) => {
            let error = dialect.reword(method, error);
            // Refused before dispatch: the ladder's table, 400 for what it does not list.
            let status = inbound::http_status(error.code).unwrap_or(400);
            return rpc_error(status_code(status), Some(&request.id), &error);
        }
    };
    let cancel = CancellationToken::new();
    let listen = method == SubscriptionsListen::METHOD;
    if listen {
        let (stream, shutdown) = (cancel.clone(), state.shutdown.clone());
        tokio::spawn(async move {
            tokio::select! {
                _ = shutdown.cancelled() => stream.cancel(),
                _ = stream.cancelled() => {}
            }
        });
    }
    let guard = CancelOnDrop(cancel.clone());
    let end = cancel.clone();
    let mut rx = exchange::start(state.stateless.clone(), request, Some(params), Some(checked), cancel, None, auth);
    let Some(mut first) = rx.recv().await else {
        return reply::empty(StatusCode::SERVICE_UNAVAILABLE);
    };
    // JSON-response mode: only the answer goes back (what came before it is not delivered);
    // a listen stream is a stream in every mode (its answer comes only when it ends).
    let json_only = state.options.json_response && !listen;
    while json_only && !first.last {
        match rx.recv().await {
            Some(next) => first = next,
            None => return reply::empty(StatusCode::SERVICE_UNAVAILABLE),
        }
    }
    if first.last {
        let status = first.code.map_or(StatusCode::OK, |code| status_code(dialect.modern_status(code)));
        return reply::json(status, first.data);
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

fn status_code(status: u16) -> StatusCode {
    StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST)
}
