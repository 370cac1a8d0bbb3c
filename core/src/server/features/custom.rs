//! A custom request (one the application registered with
//! [`Server::set_request_handler`](crate::server::Server::set_request_handler)): its handler
//! runs like a prompt's, so on a 2026-07-28 request it may stop for client input (MRTR)
//! and on a legacy one it asks the client directly. A method nobody registered answers
//! -32601, as any unknown method does.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{HandlerResult, Outcome, Ran, handler_error, run};
use crate::peer::BoxFuture;
use crate::server::ServerShared;
use crate::server::context::Context;
use crate::server::custom::{RawRequestHandler, RequestHandler, request_handler};
use crate::server::handlers::HandlerError;
use crate::server::params::Params;
use crate::server::reply::Reply;
use crate::wire::ErrorObject;

pub(crate) async fn serve(
    server: &Arc<ServerShared>,
    method: &str,
    params: Map<String, Value>,
    cx: Context,
) -> Outcome {
    let handler = request_handler(server, method).ok_or_else(|| server.options.dialect.method_not_found(method))?;
    serve_with(server, method, handler, params, cx).await
}

/// Serves `method` with `handler`: a custom request's, or the application's answer to one
/// of MCP's own methods (the low-level server APIs).
pub(crate) async fn serve_with(
    server: &Arc<ServerShared>,
    method: &str,
    handler: Arc<dyn RequestHandler>,
    params: Map<String, Value>,
    cx: Context,
) -> Outcome {
    let target = crate::server::router::mrtr_target(method, &params);
    serve_run(server, method, &target, params, cx, |params, cx| handler.handle(params, cx), |result| result).await
}

/// Serves `method` with a handler that answers JSON text ([`RawRequestHandler`]), as
/// [`serve_with`] serves one that answers a value: the text is not parsed here. `target` is
/// what a sealed MRTR state of the request is bound to ([`crate::server::router::mrtr_target`]).
pub(crate) async fn serve_raw(
    server: &Arc<ServerShared>,
    method: &str,
    target: &str,
    handler: Arc<dyn RawRequestHandler>,
    params: Params,
    cx: Context,
) -> Result<Reply, ErrorObject> {
    serve_run(server, method, target, params, cx, |params, cx| handler.handle(params, cx), Reply::Raw).await
}

/// What both handler kinds share: the handler's future run as a prompt's (it may stop for
/// client input), its answer made a reply by `answer`, its failure worded for `method`.
async fn serve_run<P: Clone, T: HandlerResult, R: From<Value>>(
    server: &Arc<ServerShared>,
    method: &str,
    target: &str,
    params: P,
    cx: Context,
    handle: impl Fn(P, Context) -> BoxFuture<Result<T, HandlerError>>,
    answer: impl FnOnce(T) -> R,
) -> Result<R, ErrorObject> {
    let start = |cx| handle(params.clone(), cx);
    match run(server, &cx, method, target, start).await {
        Ran::InputRequired(input_required) => Ok(R::from(input_required)),
        Ran::Done(Ok(result)) => Ok(answer(result)),
        Ran::Done(Err(error)) => Err(handler_error(server, error, |m| format!("{method} failed: {m}"), cx.is_modern())),
        Ran::Task(_) => unreachable!("only a tool call starts a task"),
    }
}
