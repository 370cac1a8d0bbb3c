//! The legacy shim: a handler written for 2026-07-28, which asks for client input by
//! returning its own `input_required` result, served to a 2025-era request (the official
//! TypeScript SDK's `inputRequired.legacyShim`, on by default there).
//!
//! The 2025 revisions have no `input_required` vocabulary, but their sessions carry
//! requests from server to client. So each embedded input request becomes a real request
//! to the client (`elicitation/create`, `sampling/createMessage`, `roots/list`), sent
//! within the originating request (on Streamable HTTP, on its response stream), all of a
//! round at once; the handler runs again with the answers as its `inputResponses` (that
//! round's only, as a 2026-07-28 client's retry brings them) and its `requestState` echoed
//! byte for byte, until it answers or [`InputRequiredOptions::max_rounds`] runs are spent.
//! A round that asks nothing and carries only state waits [`STATE_ONLY_PACING`] first, as a
//! 2026-07-28 client does.
//!
//! Failures answer as the request's family does: a tool call's as a result with `isError`
//! (what 2025 hosts show), a prompt's or a resource's as a `-32603` error. A result the
//! handler built wrong is a server bug and fails loudly in every family. The shim sends no
//! progress of its own: the request's progress token belongs to the handler.
//!
//! [`InputRequiredOptions::max_rounds`]: super::InputRequiredOptions::max_rounds

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::try_join_all;
use serde_json::{Map, Value, json};

use super::ServerShared;
use super::context::{Context, LegacyRound, missing_capability};
use super::features::HandlerResult;
use super::handlers::HandlerError;
use crate::peer::{BoxFuture, PeerError, RequestOptions};
use crate::protocol::{CallTool, CreateMessage, Elicit, GetPrompt, ListRoots, ReadResource, RequestMethod};
use crate::wire::{ErrorCode, ErrorObject};

/// How long a round that carries only `requestState` waits before the handler runs again
/// (the official SDKs' pacing, so such a loop never spins).
pub const STATE_ONLY_PACING: Duration = Duration::from_millis(250);

/// Whether a handler's own `input_required` result on `method` is the shim's to serve (the
/// methods whose results may ask for input).
pub(crate) fn serves(method: &str) -> bool {
    [CallTool::METHOD, GetPrompt::METHOD, ReadResource::METHOD].contains(&method)
}

/// Serves the handler's first `input_required` result (`own`) on the legacy request of
/// `cx`: rounds of real requests to the client, the handler run again by `start` after
/// each, until it answers.
pub(crate) async fn fulfil<T: HandlerResult>(
    server: &ServerShared,
    cx: &Context,
    method: &str,
    mut own: Map<String, Value>,
    mut start: impl FnMut(Context) -> BoxFuture<Result<T, HandlerError>>,
) -> Result<T, HandlerError> {
    let options = &server.options.input_required;
    let mut round = 0;
    loop {
        round += 1;
        if round > options.max_rounds {
            let rounds = options.max_rounds;
            return failure(
                method,
                format!(
                    "Multi-round-trip request '{method}' still required input after {rounds} rounds (inputRequired.maxRounds)"
                ),
            );
        }
        let (requests, state) = members(method, &mut own)?;
        let responses = if requests.is_empty() {
            tokio::select! {
                () = tokio::time::sleep(STATE_ONLY_PACING) => None,
                () = cx.cancellation().cancelled() => return Err(cancelled()),
            }
        } else {
            // The whole round is checked before anything is sent: a refusal asks nothing.
            let capabilities = cx.client_capabilities();
            for (key, request) in &requests {
                let (asked, params) = embedded(method, key, request)?;
                if missing_capability(capabilities, asked, params).is_some() {
                    return failure(
                        method,
                        format!(
                            "Cannot request input '{key}' ({asked}): the client on this 2025-era connection did not declare the required capability"
                        ),
                    );
                }
            }
            match ask_round(cx, options.round_timeout, requests).await {
                Ok(responses) => Some(responses),
                Err(_) if cx.is_cancelled() => return Err(cancelled()),
                Err(why) => return failure(method, format!("Fulfilling input required by '{method}' failed: {why}")),
            }
        };
        let outcome = start(cx.for_legacy_round(LegacyRound { responses, state })).await;
        match outcome.as_ref().ok().and_then(HandlerResult::own_input_required) {
            Some(next) => own = next,
            None => return outcome,
        }
    }
}

/// The round's input requests and state; a result with neither, or with either of the
/// wrong type, is the handler's bug.
fn members(method: &str, own: &mut Map<String, Value>) -> Result<(Map<String, Value>, Option<String>), HandlerError> {
    let requests = match own.shift_remove("inputRequests") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(requests)) => requests,
        Some(_) => {
            return Err(bug(format!(
                "Handler for {method} returned an input-required result whose inputRequests is not an object"
            )));
        }
    };
    let state = match own.shift_remove("requestState") {
        None | Some(Value::Null) => None,
        Some(Value::String(state)) => Some(state),
        Some(_) => {
            return Err(bug(format!(
                "Handler for {method} returned an input-required result whose requestState is not a string"
            )));
        }
    };
    if requests.is_empty() && state.is_none() {
        return Err(bug(format!(
            "Handler for {method} returned an input-required result with neither inputRequests nor requestState (every InputRequiredResult must include at least one of the two)"
        )));
    }
    Ok((requests, state))
}

/// One embedded request's method and params: one of the three kinds 2026-07-28 defines,
/// with params unless it is `roots/list`.
fn embedded<'a>(method: &str, key: &str, request: &'a Value) -> Result<(&'a str, &'a Value), HandlerError> {
    static NO_PARAMS: Value = Value::Null;
    let asked = request.get("method").and_then(Value::as_str).ok_or_else(|| {
        bug(format!(
            "Handler for {method} returned an invalid input request '{key}': each inputRequests entry must be an embedded elicitation/create, sampling/createMessage, or roots/list request"
        ))
    })?;
    if ![Elicit::METHOD, CreateMessage::METHOD, ListRoots::METHOD].contains(&asked) {
        return Err(bug(format!(
            "Handler for {method} returned an input request '{key}' of kind '{asked}', which is not an embedded request the 2026-07-28 revision defines"
        )));
    }
    match request.get("params") {
        Some(params) if !params.is_null() => Ok((asked, params)),
        _ if asked == ListRoots::METHOD => Ok((asked, &NO_PARAMS)),
        _ => {
            Err(bug(format!("Handler for {method} returned an input request '{key}' of kind '{asked}' without params")))
        }
    }
}

/// Sends every request of a round at once and collects the answers by key; the first
/// failure ends the others (they are cancelled).
async fn ask_round(
    cx: &Context,
    timeout: Duration,
    requests: Map<String, Value>,
) -> Result<Map<String, Value>, String> {
    let round = cx.cancellation().child_token();
    let _end = round.clone().drop_guard();
    // A progress callback puts a progress token on each request, so the client's progress
    // on it can start its wait again.
    let on_progress: crate::peer::ProgressCallback = Arc::new(|_| {});
    let options = RequestOptions::default()
        .timeout(timeout)
        .on_progress(on_progress)
        .reset_timeout_on_progress(None)
        .cancel(round.clone());
    let legs = requests.into_iter().map(|(key, request)| {
        let asked = request.get("method").and_then(Value::as_str).unwrap_or_default().to_owned();
        let params = outgoing_params(&asked, request.get("params").cloned());
        let sent = cx.inner.outbound.request(&asked, params, options.clone());
        let round = round.clone();
        async move {
            match sent.await {
                Ok(answer) => Ok((key, answer)),
                Err(error) => {
                    round.cancel();
                    Err(describe(&error))
                }
            }
        }
    });
    Ok(try_join_all(legs).await?.into_iter().collect())
}

/// The params a 2025-era request of `method` goes out with: a URL-mode elicitation gets
/// the `elicitationId` the 2025-11-25 revision requires (the 2026-07-28 shape has none).
fn outgoing_params(method: &str, params: Option<Value>) -> Value {
    let mut params = params.filter(|p| !p.is_null()).unwrap_or_else(|| json!({}));
    if method == Elicit::METHOD
        && params.get("mode") == Some(&json!("url"))
        && params.get("elicitationId").is_none()
        && let Value::Object(map) = &mut params
    {
        map.insert("elicitationId".into(), json!(elicitation_id()));
    }
    params
}

/// A random (version 4) UUID from the OS's source.
fn elicitation_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the OS has a random source");
    uuid::Builder::from_random_bytes(bytes).into_uuid().hyphenated().to_string()
}

fn describe(error: &PeerError) -> String {
    match error {
        PeerError::Rpc(error) => format!("MCP error {}: {}", error.code, error.message),
        PeerError::Timeout(after) => format!("Request timed out after {} ms", after.as_millis()),
        other => other.to_string(),
    }
}

/// How the shim's failure answers `method`: a tool call's is a result with `isError`, a
/// prompt's or a resource's a `-32603` error.
fn failure<T: HandlerResult>(method: &str, message: String) -> Result<T, HandlerError> {
    if method == CallTool::METHOD {
        return Ok(T::from_value(json!({"content": [{"type": "text", "text": message}], "isError": true})));
    }
    Err(HandlerError::Rpc(ErrorObject::internal(message)))
}

/// A handler's malformed result: loud, in every family.
fn bug(message: String) -> HandlerError {
    HandlerError::Rpc(ErrorObject::internal(message))
}

fn cancelled() -> HandlerError {
    HandlerError::Rpc(ErrorObject::new(ErrorCode::REQUEST_CANCELLED, "The request was cancelled"))
}
