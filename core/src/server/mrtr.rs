//! Multi-round-trip requests (MCP 2026-07-28): how a stateless server asks the client for
//! input in the middle of `tools/call`, `prompts/get` or `resources/read`.
//!
//! The handler simply awaits `cx.elicit(...)`. On a modern request with no answer yet for
//! that input, the input is recorded and the handler is stopped; the server answers
//! `input_required` with every input asked for and a sealed `requestState`. The client
//! retries with `inputResponses`; the handler runs again from the start, and this time its
//! inputs are answered from the retry (and from earlier rounds, carried in the state).
//!
//! The state is HMAC-SHA256 sealed with the server's key (random per process unless one is
//! configured, which replicas must share: [`ServerOptions::state_key`], else the
//! `FERRYMCP_STATE_KEY` environment variable), bound to the method, the target and the
//! authenticated principal (the bearer token's client and subject, when the request had
//! one), and expires. Keys that no longer seal but still open
//! ([`ServerOptions::previous_state_keys`]) let replicas rotate without failing retries.
//!
//! [`ServerOptions::state_key`]: super::ServerOptions::state_key
//! [`ServerOptions::previous_state_keys`]: super::ServerOptions::previous_state_keys

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll, Waker};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use hmac::{Hmac, KeyInit, Mac};
use indexmap::IndexMap;
use serde_json::{Map, Value, json};
use sha2::Sha256;

use super::ServerShared;
use super::context::TaskSlot;
use crate::wire::ErrorObject;

type HmacSha256 = Hmac<Sha256>;

/// An application's own protection of `requestState` (a key held by a KMS, encryption):
/// core still writes and checks the envelope inside (method, target, principal, expiry);
/// the codec only turns its bytes into a token and back. `unseal` must fail for any token
/// it did not mint unmodified. Both are called on the request's thread, so keep them
/// fast (cache key material rather than calling a KMS per token).
pub trait StateCodec: Send + Sync {
    /// An opaque, URL-safe token protecting `payload`.
    fn seal(&self, payload: &[u8]) -> Result<String, String>;
    /// The payload `token` protects; an error for any token this codec did not mint.
    fn unseal(&self, token: &str) -> Result<Vec<u8>, String>;
}

/// A [`StateCodec`] in [`ServerOptions::state_codec`](super::ServerOptions::state_codec).
#[derive(Clone)]
pub struct StateCodecHandle(pub Arc<dyn StateCodec>);

impl std::fmt::Debug for StateCodecHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StateCodec")
    }
}

/// Seals and opens `requestState`.
pub(crate) struct Sealer {
    /// Seals and opens; then the previous keys, which only open.
    keys: Vec<Vec<u8>>,
    /// The application's codec, used instead of the keys when given.
    codec: Option<Arc<dyn StateCodec>>,
    ttl: Duration,
    /// The service the state is bound to ([`ServerOptions::state_audience`](super::ServerOptions::state_audience)).
    audience: Option<String>,
}

/// The shortest sealing key an application may configure, in bytes (the official Python
/// SDK's floor: a key is secret randomness, not a password).
pub const MIN_STATE_KEY_LEN: usize = 32;

/// Checks an application's ring of sealing keys (the first seals, all open): each at
/// least [`MIN_STATE_KEY_LEN`] bytes; the error names the first short one.
pub fn check_state_keys<K: AsRef<[u8]>>(keys: &[K]) -> Result<(), String> {
    match keys.iter().position(|key| key.as_ref().len() < MIN_STATE_KEY_LEN) {
        None => Ok(()),
        Some(i) => Err(format!(
            "request-state keys must be at least {MIN_STATE_KEY_LEN} bytes of secret randomness; keys[{i}] is {} bytes.",
            keys[i].as_ref().len()
        )),
    }
}

/// The environment variable a server's sealing key is read from when none is configured.
pub const STATE_KEY_ENV: &str = "FERRYMCP_STATE_KEY";

fn env_state_key() -> Option<Vec<u8>> {
    std::env::var(STATE_KEY_ENV).ok().filter(|k| !k.is_empty()).map(String::into_bytes)
}

/// Holds the keys a server will seal with to [`check_state_keys`], whichever way they came:
/// `state_key` (else [`STATE_KEY_ENV`]) and `previous_state_keys`. No key configured (a
/// random one per process) or an application codec passes. The error names the variable
/// when the short key came from it.
pub fn check_state_key_config(options: &super::ServerOptions) -> Result<(), String> {
    if options.state_codec.is_some() {
        return Ok(());
    }
    let (key, from_env) = match &options.state_key {
        Some(key) => (Some(key.clone()), false),
        None => (env_state_key(), true),
    };
    let ring: Vec<&[u8]> = key.iter().chain(&options.previous_state_keys).map(Vec::as_slice).collect();
    check_state_keys(&ring).map_err(|e| if from_env && key.is_some() { format!("{STATE_KEY_ENV}: {e}") } else { e })
}

impl Sealer {
    pub fn new(key: Option<Vec<u8>>, previous: Vec<Vec<u8>>, codec: Option<StateCodecHandle>, ttl: Duration) -> Self {
        let key = key.or_else(env_state_key).unwrap_or_else(|| {
            let mut key = vec![0u8; 32];
            getrandom::fill(&mut key).expect("the OS has a random source");
            key
        });
        let mut keys = vec![key];
        keys.extend(previous);
        Self { keys, codec: codec.map(|c| c.0), ttl, audience: None }
    }

    /// Binds every state sealed from now on to `audience`, and opens only those.
    #[must_use]
    pub fn with_audience(mut self, audience: Option<String>) -> Self {
        self.audience = audience;
        self
    }

    fn mac(key: &[u8]) -> HmacSha256 {
        <HmacSha256 as KeyInit>::new_from_slice(key).expect("HMAC takes any key length")
    }

    /// Seals the answers gathered so far for one request target and principal (and the
    /// handler's own state, when it returned `input_required` itself); an error only when
    /// the application's codec fails.
    pub fn seal(
        &self,
        method: &str,
        target: &str,
        principal: Option<&str>,
        responses: &Map<String, Value>,
        handler_state: Option<&str>,
    ) -> Result<String, ErrorObject> {
        let expires = now() + self.ttl.as_secs();
        let mut body = json!({"m": method, "t": target, "p": principal, "r": responses, "x": expires});
        if let Some(state) = handler_state {
            body["a"] = Value::from(state);
        }
        if let Some(audience) = &self.audience {
            body["aud"] = Value::from(audience.as_str());
        }
        let body = body.to_string();
        if let Some(codec) = &self.codec {
            return codec
                .seal(body.as_bytes())
                .map_err(|e| ErrorObject::internal(format!("the request-state codec failed to seal: {e}")));
        }
        let mut mac = Self::mac(&self.keys[0]);
        mac.update(body.as_bytes());
        let tag = mac.finalize().into_bytes();
        Ok(format!("{}.{}", B64.encode(body), B64.encode(tag)))
    }

    /// Opens a state sealed for this method, target and principal under any of the keys:
    /// the answers of earlier rounds and the handler's own state. Every failure but expiry
    /// is the same error; the [`Rejected`] also says why, for the server's log.
    pub fn open(
        &self,
        state: &str,
        method: &str,
        target: &str,
        principal: Option<&str>,
    ) -> Result<(Map<String, Value>, Option<String>), Rejected> {
        let fail =
            |reason| Rejected { error: ErrorObject::invalid_params("requestState integrity check failed"), reason };
        let body = match &self.codec {
            Some(codec) => codec.unseal(state).map_err(|_| fail("codec error"))?,
            None => {
                let (body, tag) = state.split_once('.').ok_or_else(|| fail("malformed"))?;
                let body = B64.decode(body).map_err(|_| fail("malformed"))?;
                let tag = B64.decode(tag).map_err(|_| fail("malformed"))?;
                let sealed_here = self.keys.iter().any(|key| {
                    let mut mac = Self::mac(key);
                    mac.update(&body);
                    mac.verify_slice(&tag).is_ok()
                });
                if !sealed_here {
                    return Err(fail("seal"));
                }
                body
            }
        };
        let state: Value = serde_json::from_slice(&body).map_err(|_| fail("malformed"))?;
        if state["m"] != method || state["t"] != target {
            return Err(fail("request binding"));
        }
        if state["p"] != json!(principal) {
            return Err(fail("principal"));
        }
        if state.get("aud").and_then(Value::as_str) != self.audience.as_deref() {
            return Err(fail("audience"));
        }
        if state["x"].as_u64().is_none_or(|x| x < now()) {
            return Err(Rejected {
                error: ErrorObject::invalid_params("requestState has expired; send the request again"),
                reason: "expired",
            });
        }
        let handler_state = match state.get("a") {
            None => None,
            Some(Value::String(own)) => Some(own.clone()),
            Some(_) => return Err(fail("malformed")),
        };
        match state.get("r") {
            Some(Value::Object(responses)) => Ok((responses.clone(), handler_state)),
            _ => Err(fail("malformed")),
        }
    }
}

/// A `requestState` that did not open: core's answer, and why (the official Python SDK's
/// reason words: `malformed`, `seal`, `request binding`, `principal`, `audience`,
/// `expired`, `codec error`), which only the server's log is told.
#[derive(Debug)]
pub(crate) struct Rejected {
    pub error: ErrorObject,
    pub reason: &'static str,
}

/// The log target of refused request state: the official Python SDK's logger
/// (`mcp.server.request_state`) in ferrymcp's namespace, which the Python binding forwards
/// to the `logging` module under that name.
pub const REQUEST_STATE_LOG: &str = "ferrymcp.server.request_state";

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// What a modern retry brings: every answer known (earlier rounds and this one), this
/// round's `inputResponses` as sent, and the handler's own state echoed back.
#[derive(Default)]
pub(crate) struct Retry {
    pub responses: Map<String, Value>,
    pub fresh: Option<Map<String, Value>>,
    pub handler_state: Option<String>,
}

/// The inputs of one modern request: answers known so far, and what is still missing.
pub(crate) struct Inputs {
    responses: Map<String, Value>,
    /// This round's `inputResponses` (`None` on a first request).
    fresh: Option<Map<String, Value>>,
    /// The state the handler put in its own `input_required` result, echoed back.
    handler_state: Option<String>,
    next_key: AtomicUsize,
    missing: Mutex<IndexMap<String, Value>>,
    /// The request waiting on the handler: an input asked from another task (a binding's
    /// event loop, a spawned task) must wake it, or it would never see the input.
    waiting: Mutex<Option<Waker>>,
}

impl Inputs {
    pub fn new(retry: Retry) -> Self {
        Self {
            responses: retry.responses,
            fresh: retry.fresh,
            handler_state: retry.handler_state,
            next_key: AtomicUsize::new(0),
            missing: Mutex::new(IndexMap::new()),
            waiting: Mutex::new(None),
        }
    }

    /// The next automatic key: the same sequence on every round, as the handler reruns.
    pub fn auto_key(&self) -> String {
        format!("input-{}", self.next_key.fetch_add(1, Ordering::Relaxed))
    }

    pub fn response(&self, key: &str) -> Option<&Value> {
        self.responses.get(key)
    }

    /// This round's `inputResponses` as the client sent them (`None` on a first request).
    pub fn fresh(&self) -> Option<&Map<String, Value>> {
        self.fresh.as_ref()
    }

    /// The handler's own state from its last `input_required` result, echoed back.
    pub fn handler_state(&self) -> Option<&str> {
        self.handler_state.as_deref()
    }

    pub fn ask(&self, key: String, method: &str, params: Value) {
        self.missing.lock().unwrap().insert(key, json!({"method": method, "params": params}));
        self.wake();
    }

    /// Wakes the request waiting on the handler (an input was asked, or the handler
    /// started its task, from another task or thread).
    pub fn wake(&self) {
        if let Some(waker) = self.waiting.lock().unwrap().take() {
            waker.wake();
        }
    }

    pub fn has_missing(&self) -> bool {
        !self.missing.lock().unwrap().is_empty()
    }

    /// The `input_required` result: every missing input and the sealed state.
    pub fn input_required(
        &self,
        sealer: &Sealer,
        method: &str,
        target: &str,
        principal: Option<&str>,
    ) -> Result<Value, ErrorObject> {
        let requests: Map<String, Value> = self.missing.lock().unwrap().drain(..).collect();
        Ok(json!({
            "resultType": "input_required",
            "inputRequests": requests,
            "requestState": sealer.seal(method, target, principal, &self.responses, self.handler_state.as_deref())?,
        }))
    }

    /// A handler's own `input_required` result (the manual multi-round API): its input
    /// requests go out as they are, checked against the client's declared capabilities;
    /// its `requestState` travels inside the sealed state (so it comes back intact, bound
    /// to this method, target and principal) together with the answers known so far.
    pub fn own_input_required(
        &self,
        server: &ServerShared,
        method: &str,
        target: &str,
        principal: Option<&str>,
        client_capabilities: &Value,
        mut result: Map<String, Value>,
    ) -> Result<Value, ErrorObject> {
        let requests = match result.shift_remove("inputRequests") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(requests)) => requests,
            Some(_) => {
                return Err(ErrorObject::internal(format!(
                    "The handler for {method} returned an input_required result whose inputRequests is not an object"
                )));
            }
        };
        let state = match result.shift_remove("requestState") {
            None | Some(Value::Null) => None,
            Some(Value::String(state)) => Some(state),
            Some(_) => {
                return Err(ErrorObject::internal(format!(
                    "The handler for {method} returned an input_required result whose requestState is not a string"
                )));
            }
        };
        if requests.is_empty() && state.is_none() {
            return Err(ErrorObject::internal(format!(
                "The handler for {method} returned an input_required result with neither inputRequests nor requestState (it must carry at least one)"
            )));
        }
        let dialect = server.options.dialect;
        for (key, request) in &requests {
            let Some(asked) = request.get("method").and_then(Value::as_str) else {
                return Err(ErrorObject::internal(format!(
                    "The handler for {method} returned inputRequests.{key} without a method"
                )));
            };
            let params = request.get("params").cloned().unwrap_or_else(|| json!({}));
            if !dialect.checks_own_input_requests() {
                continue;
            }
            if let Some(missing) = super::context::missing_capability(client_capabilities, asked, &params) {
                return Err(super::context::capability_error(missing, asked, &params));
            }
        }
        result.insert("resultType".into(), Value::from("input_required"));
        if !requests.is_empty() {
            result.insert("inputRequests".into(), Value::Object(requests));
        }
        let state = if !server.options.seal_handler_state {
            // The application protects its own state: it goes out as the handler gave it.
            state
        } else if state.is_none() && !dialect.seals_stateless_own_result() {
            None
        } else {
            Some(server.sealer.seal(method, target, principal, &self.responses, state.as_deref())?)
        };
        if let Some(state) = state {
            result.insert("requestState".into(), Value::from(state));
        }
        Ok(Value::Object(result))
    }
}

/// How a request whose `requestState` the application's own check rejected is answered
/// (the official SDKs' fixed answer, whatever the check said: its reason is the
/// application's to log): `-32602` with `data.reason` `invalid_request_state`.
pub fn request_state_rejected() -> ErrorObject {
    ErrorObject::invalid_params("Invalid or expired requestState")
        .with_data(crate::wire::RawJson::to_json(&json!({"reason": "invalid_request_state"})).expect("JSON"))
}

/// Whether a handler's result is an `input_required` one it built itself.
pub(crate) fn is_input_required(result: &Value) -> bool {
    result.get("resultType").and_then(Value::as_str) == Some("input_required")
}

/// Where a handler run inside its request stopped.
pub(crate) enum Stop<T> {
    /// It finished.
    Done(T),
    /// It waits for client input the request does not carry.
    Input,
    /// It started its task ([`super::Context::start_task`]) and goes on in it.
    Task,
}

/// Runs a handler until it finishes, stops to wait for client input, or starts its task.
pub(crate) struct UntilInput<'a, F> {
    pub future: F,
    pub inputs: &'a Inputs,
    pub task: &'a TaskSlot,
}

impl<F: Future + Unpin> Future for UntilInput<'_, F> {
    type Output = Stop<F::Output>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        if let Poll::Ready(output) = Pin::new(&mut self.future).poll(cx) {
            return Poll::Ready(Stop::Done(output));
        }
        // Register before checking, so an input asked (or a task started) in between still
        // wakes us.
        *self.inputs.waiting.lock().unwrap() = Some(cx.waker().clone());
        if self.inputs.has_missing() {
            Poll::Ready(Stop::Input)
        } else if self.task.get().is_some() {
            Poll::Ready(Stop::Task)
        } else {
            Poll::Pending
        }
    }
}

/// The answers a modern retry of `method` on `target` brings: earlier rounds (from the
/// sealed state) and this one.
pub(crate) fn gather_inputs(
    server: &ServerShared,
    method: &str,
    target: &str,
    principal: Option<&str>,
    params: &mut Map<String, Value>,
) -> Result<Retry, ErrorObject> {
    let mut retry = match params.shift_remove("requestState") {
        None | Some(Value::Null) => Retry::default(),
        Some(Value::String(state)) => match server.sealer.open(&state, method, target, principal) {
            Ok((responses, handler_state)) => Retry { responses, fresh: None, handler_state },
            // Not one core sealed: the application's own state, handed to its handler as
            // the client sent it (the application protects it).
            Err(_) if !server.options.seal_handler_state => {
                Retry { responses: Map::new(), fresh: None, handler_state: Some(state) }
            }
            Err(rejected) => {
                tracing::warn!(target: REQUEST_STATE_LOG, "requestState rejected on {method}: {}", rejected.reason);
                return Err(server.options.dialect.state_rejected(rejected.error));
            }
        },
        Some(_) => return Err(ErrorObject::invalid_params("Invalid params: requestState must be a string")),
    };
    match params.shift_remove("inputResponses") {
        None => {}
        Some(Value::Object(fresh)) => {
            retry.responses.extend(fresh.clone());
            retry.fresh = Some(fresh);
        }
        Some(_) => return Err(ErrorObject::invalid_params("Invalid params: inputResponses must be an object")),
    }
    Ok(retry)
}

/// What kind of client request an input is, as the router decides from its method: what
/// the client must have declared to be asked it, and what its answer must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClientInput {
    /// A form elicitation, or (`url`) a URL-mode one.
    Elicit {
        url: bool,
    },
    Sample,
    Roots,
    /// Any other method: no capability needed, any object answers it.
    Other,
}

impl ClientInput {
    /// The client capability asking needs, and the member of it that must be declared.
    pub fn capability(self) -> Option<(&'static str, Option<&'static str>)> {
        match self {
            Self::Elicit { url: true } => Some(("elicitation", Some("url"))),
            Self::Elicit { url: false } => Some(("elicitation", None)),
            Self::Sample => Some(("sampling", None)),
            Self::Roots => Some(("roots", None)),
            Self::Other => None,
        }
    }

    /// Whether `response` has the shape of this request's result.
    fn answered_by(self, response: &Value) -> bool {
        match self {
            Self::Elicit { .. } => response.get("action").and_then(Value::as_str).is_some(),
            Self::Sample => response.get("role").is_some() && response.get("content").is_some(),
            Self::Roots => response.get("roots").is_some_and(Value::is_array),
            Self::Other => response.is_object(),
        }
    }
}

/// Checks one answer against the shape its method's result must have.
pub(crate) fn check_response(key: &str, method: &str, kind: ClientInput, response: &Value) -> Result<(), ErrorObject> {
    if kind.answered_by(response) {
        Ok(())
    } else {
        Err(ErrorObject::invalid_params(format!("inputResponses.{key} is not a valid result of {method}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configured_key_is_held_to_the_floor_and_a_codec_or_random_key_is_not() {
        let mut options = super::super::ServerOptions { state_key: Some(vec![7; 32]), ..Default::default() };
        assert_eq!(check_state_key_config(&options), Ok(()));
        options.previous_state_keys = vec![b"hunter2".to_vec()];
        assert!(check_state_key_config(&options).unwrap_err().ends_with("keys[1] is 7 bytes."));
        options.state_key = Some(b"short".to_vec());
        options.previous_state_keys.clear();
        assert!(check_state_key_config(&options).unwrap_err().starts_with("request-state keys must be"));
    }

    #[test]
    fn state_round_trips_and_tampering_fails() {
        let sealer = Sealer::new(None, Vec::new(), None, Duration::from_secs(60));
        let mut responses = Map::new();
        responses.insert("a".into(), json!({"action": "accept"}));
        let state = sealer.seal("tools/call", "t", None, &responses, None).unwrap();
        assert_eq!(sealer.open(&state, "tools/call", "t", None).unwrap().0, responses);
        assert!(sealer.open(&format!("{state}-TAMPERED"), "tools/call", "t", None).is_err());
        assert!(sealer.open(&state, "tools/call", "other", None).is_err());
        // The handler's own state travels inside, and a tampered one does not open.
        let own = sealer.seal("tools/call", "t", None, &responses, Some("step-2")).unwrap();
        assert_eq!(sealer.open(&own, "tools/call", "t", None).unwrap().1.as_deref(), Some("step-2"));
        let other = Sealer::new(None, Vec::new(), None, Duration::from_secs(60));
        assert!(other.open(&state, "tools/call", "t", None).is_err());
        // Bound to the principal: another client's token cannot take the retry.
        let alices = sealer.seal("tools/call", "t", Some("alice"), &responses, None).unwrap();
        assert!(sealer.open(&alices, "tools/call", "t", Some("alice")).is_ok());
        assert!(sealer.open(&alices, "tools/call", "t", Some("bob")).is_err());
        assert!(sealer.open(&alices, "tools/call", "t", None).is_err());
        assert_eq!(check_state_keys(&[[7u8; 32]]), Ok(()));
        assert_eq!(
            check_state_keys(&[&[7u8; 32][..], b"hunter2"]).unwrap_err(),
            "request-state keys must be at least 32 bytes of secret randomness; keys[1] is 7 bytes."
        );
        // Why, for the server's log (the official Python SDK's reason words).
        let reason = |state: &str, target: &str, principal: Option<&str>| {
            sealer.open(state, "tools/call", target, principal).unwrap_err().reason
        };
        assert_eq!(reason("round-1-from-worker-a", "t", None), "malformed");
        assert_eq!(reason(&other.seal("tools/call", "t", None, &responses, None).unwrap(), "t", None), "seal");
        assert_eq!(reason(&state, "other", None), "request binding");
        assert_eq!(reason(&alices, "t", Some("bob")), "principal");
        // Rotation: a state sealed under the old key opens while it is a previous key.
        let old = Sealer::new(Some(b"old".to_vec()), Vec::new(), None, Duration::from_secs(60));
        let rotated = Sealer::new(Some(b"new".to_vec()), vec![b"old".to_vec()], None, Duration::from_secs(60));
        let sealed = old.seal("tools/call", "t", None, &responses, None).unwrap();
        assert!(rotated.open(&sealed, "tools/call", "t", None).is_ok());
        let retired = Sealer::new(Some(b"new".to_vec()), Vec::new(), None, Duration::from_secs(60));
        assert!(retired.open(&sealed, "tools/call", "t", None).is_err());
        // Bound to an audience: the same key under another service's name does not open it.
        let billing = Sealer::new(Some(b"k".to_vec()), Vec::new(), None, Duration::from_secs(60))
            .with_audience(Some("billing".into()));
        let other = Sealer::new(Some(b"k".to_vec()), Vec::new(), None, Duration::from_secs(60))
            .with_audience(Some("billing-2".into()));
        let none = Sealer::new(Some(b"k".to_vec()), Vec::new(), None, Duration::from_secs(60));
        let sealed = billing.seal("tools/call", "t", None, &responses, None).unwrap();
        assert!(billing.open(&sealed, "tools/call", "t", None).is_ok());
        assert!(other.open(&sealed, "tools/call", "t", None).is_err());
        assert!(none.open(&sealed, "tools/call", "t", None).is_err());
        assert!(
            billing
                .open(&none.seal("tools/call", "t", None, &responses, None).unwrap(), "tools/call", "t", None)
                .is_err()
        );
    }

    /// A codec that "protects" by reversing the bytes and marking them: enough to see that
    /// core seals through it, still checks the envelope, and fails what it cannot unseal.
    struct Reversing;

    impl StateCodec for Reversing {
        fn seal(&self, payload: &[u8]) -> Result<String, String> {
            Ok(format!("rev.{}", B64.encode(payload.iter().rev().copied().collect::<Vec<_>>())))
        }

        fn unseal(&self, token: &str) -> Result<Vec<u8>, String> {
            let body = token.strip_prefix("rev.").ok_or("not ours")?;
            Ok(B64.decode(body).map_err(|e| e.to_string())?.into_iter().rev().collect())
        }
    }

    struct Broken;

    impl StateCodec for Broken {
        fn seal(&self, _: &[u8]) -> Result<String, String> {
            Err("the KMS is down".into())
        }

        fn unseal(&self, _: &str) -> Result<Vec<u8>, String> {
            Err("the KMS is down".into())
        }
    }

    #[test]
    fn an_application_codec_seals_and_core_still_checks_the_envelope() {
        let codec = Some(StateCodecHandle(Arc::new(Reversing)));
        let sealer = Sealer::new(None, Vec::new(), codec, Duration::from_secs(60));
        let mut responses = Map::new();
        responses.insert("a".into(), json!(1));
        let state = sealer.seal("tools/call", "t", Some("alice"), &responses, None).unwrap();
        assert!(state.starts_with("rev."));
        assert_eq!(sealer.open(&state, "tools/call", "t", Some("alice")).unwrap().0, responses);
        assert!(sealer.open(&state, "tools/call", "other", Some("alice")).is_err());
        assert!(sealer.open(&state, "tools/call", "t", Some("bob")).is_err());
        assert!(sealer.open("forged", "tools/call", "t", Some("alice")).is_err());
        let broken = Sealer::new(None, Vec::new(), Some(StateCodecHandle(Arc::new(Broken))), Duration::from_secs(60));
        let error = broken.seal("tools/call", "t", None, &responses, None).unwrap_err();
        assert!(error.message.contains("the KMS is down"), "{}", error.message);
    }
}
