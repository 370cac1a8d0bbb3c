//! The context a tool, resource or prompt handler receives: who is asking, progress,
//! logging, cancellation, and input from the client, the same API in both eras.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use super::ServerShared;
use super::auth_info::AuthInfo;
use super::handlers::HandlerError;
use super::mrtr::{ClientInput, Inputs, check_response};
use super::outbound::Outbound;
use super::session_handle::ServerSession;
use super::tasks::TaskEntry;
use crate::peer::{PeerError, RequestOptions};
use crate::protocol::LoggingLevel;
use crate::protocol::{CreateMessage, Elicit, ListRoots, LoggingMessage, NotificationMethod, Progress, RequestMethod};
use crate::wire::{ErrorCode, ErrorObject, RawJson, RequestId};

pub(crate) fn level_rank(level: &str) -> Option<usize> {
    LoggingLevel::ALL.iter().position(|l| l.as_str() == level)
}

/// The client capability a request to the client needs and `capabilities` lacks, if any:
/// `elicitation` (with `url` for a URL-mode one), `sampling`, `roots`. Other methods
/// (`ping`, custom ones) need none.
pub(crate) fn missing_capability(capabilities: &Value, method: &str, params: &Value) -> Option<&'static str> {
    let (name, sub) = super::router::client_input(method, params).capability()?;
    let declared = capabilities.get(name).is_some_and(|c| sub.is_none_or(|sub| c.get(sub).is_some()));
    (!declared).then_some(name)
}

/// The `-32003`-style error a modern request gets when its client did not declare the
/// capability an input needs (`needed`: what must be declared under `name`).
/// The official Python SDK's `require_client_extension`: `Ok` when `capabilities` (what the
/// client declared, as JSON) lists extension `identifier` under `extensions`, else `-32021`
/// worded as the official helper words it, with `requiredCapabilities: {extensions:
/// {identifier: {}}}` as its data. One rule for every binding ([`Context::require_client_extension`]
/// applies it to a handler's own client).
pub fn require_client_extension(capabilities: &Value, identifier: &str) -> Result<(), ErrorObject> {
    let declared =
        capabilities.get("extensions").and_then(Value::as_object).is_some_and(|e| e.contains_key(identifier));
    if declared {
        return Ok(());
    }
    let data = crate::wire::RawJson::to_json(&json!({"requiredCapabilities": {"extensions": {identifier: {}}}}))
        .expect("JSON");
    Err(ErrorObject::new(
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
        format!("Client did not declare required extension {}", super::dialect::python_repr(identifier)),
    )
    .with_data(data))
}

fn missing_capability_error(name: &str, needed: Value) -> ErrorObject {
    let mut required = Map::new();
    required.insert(name.to_owned(), needed);
    let data = crate::wire::RawJson::to_json(&json!({"requiredCapabilities": required})).expect("JSON");
    ErrorObject::new(
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
        format!("Missing required client capability: {name}"),
    )
    .with_data(data)
}

/// [`missing_capability_error`] for a request to the client of `method` with `params`
/// (`name`: what [`missing_capability`] found missing).
pub(crate) fn capability_error(name: &str, method: &str, params: &Value) -> ErrorObject {
    let sub = super::router::client_input(method, params).capability().and_then(|(_, sub)| sub);
    missing_capability_error(name, sub.map_or_else(|| json!({}), |sub| json!({sub: {}})))
}

/// The context of one request being served. Cheap to clone.
#[derive(Clone)]
pub struct Context {
    pub(crate) inner: Arc<ContextInner>,
}

pub(crate) struct ContextInner {
    pub request_id: RequestId,
    pub cancel: CancellationToken,
    pub outbound: Arc<dyn Outbound>,
    /// The accepted bearer token of the HTTP request (none on stdio or without auth).
    pub auth: Option<Arc<AuthInfo>>,
    pub server: Arc<ServerShared>,
    pub protocol_version: String,
    /// What the client declared; `None` on a 2026-07-28 request, whose `meta` holds them
    /// (so they are not copied out of it).
    pub client_capabilities: Option<Value>,
    pub client_info: Option<Value>,
    /// Log messages at or above this rank are sent; `None` sends none.
    pub log_threshold: Option<usize>,
    /// The request's `_meta` as the client sent it (`Null` when absent).
    pub meta: Meta,
    pub last_progress: Mutex<Option<f64>>,
    /// Present on a modern (2026-07-28) request: inputs come by MRTR.
    pub inputs: Option<Arc<Inputs>>,
    /// The task this call runs as, once there is one.
    pub task: TaskSlot,
    /// The legacy session the request arrived in (none for a modern request).
    pub session: Option<ServerSession>,
    /// On a handler's run again by the legacy shim: what that round brings it.
    pub legacy_round: Option<LegacyRound>,
}

/// What the legacy shim hands a handler it runs again on a 2025-era request: the answers
/// it collected for the handler's last `input_required` result (that round's only; none
/// after a round that asked nothing) and the `requestState` the result carried, byte for
/// byte.
pub(crate) struct LegacyRound {
    pub responses: Option<Map<String, Value>>,
    pub state: Option<String>,
}

/// A request's `_meta` as the client sent it: parsed, or kept as the text it came in
/// ([`super::params::TextParams`]) and parsed only if a handler reads it; its progress token
/// (which every forwarded call asks for) is read up front.
#[derive(Clone)]
pub(crate) struct Meta {
    value: OnceLock<Value>,
    text: Option<RawJson>,
    progress_token: Option<Value>,
}

impl Meta {
    pub fn from_value(value: Value) -> Self {
        let progress_token = token(value.get(crate::protocol::meta::PROGRESS_TOKEN));
        Self { value: OnceLock::from(value), text: None, progress_token }
    }

    /// `_meta` as `text`, whose members `fields` holds as the checks read them (the
    /// progress token among them).
    pub fn from_text(text: RawJson, fields: Option<&Value>) -> Self {
        let progress_token = token(fields.and_then(|f| f.get(crate::protocol::meta::PROGRESS_TOKEN)));
        Self { value: OnceLock::new(), text: Some(text), progress_token }
    }

    pub fn get(&self) -> &Value {
        self.value.get_or_init(|| self.text.as_ref().and_then(|t| t.parse_owned().ok()).unwrap_or(Value::Null))
    }
}

/// A progress token as the protocol allows it (a string or an integer).
fn token(token: Option<&Value>) -> Option<Value> {
    token.filter(|token| token.is_string() || token.is_i64()).cloned()
}

static NULL: Value = Value::Null;
static NO_CAPABILITIES: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| json!({}));

impl ContextInner {
    /// The client's capabilities: the session's, or the modern request's `_meta`'s.
    pub fn client_capabilities(&self) -> &Value {
        match &self.client_capabilities {
            Some(capabilities) => capabilities,
            None => self.meta.get().get(crate::protocol::meta::CLIENT_CAPABILITIES).unwrap_or(&NO_CAPABILITIES),
        }
    }

    /// The client's `clientInfo`: the session's, or the modern request's `_meta`'s.
    pub fn client_info(&self) -> &Value {
        match &self.client_info {
            Some(info) => info,
            None => self.meta.get().get(crate::protocol::meta::CLIENT_INFO).unwrap_or(&NULL),
        }
    }
}

/// Where a tool call's task goes once it exists, and whether the handler may start it.
#[derive(Default)]
pub(crate) struct TaskSlot {
    entry: OnceLock<Arc<TaskEntry>>,
    /// Set for a call whose tool starts its task itself ([`super::TaskStart::OnRequest`]).
    startable: AtomicBool,
    /// The 2025-11-25 task this call runs as (its id), once there is one.
    spec: OnceLock<String>,
    /// A call of a tool that makes its 2025-11-25 tasks itself: the call as received.
    own: OnceLock<OwnCall>,
    /// The first 2025-11-25 task such a call's handler created ([`RequestTaskStore`]
    /// (super::tasks::RequestTaskStore)): the work it left running after its answer asks
    /// the client for that task.
    made: OnceLock<String>,
}

/// A `tools/call` of a tool registered with [`TaskStart::Handler`](super::TaskStart::Handler):
/// the request a task its handler creates is for, and the `ttl` the client asked.
pub(crate) struct OwnCall {
    pub request: Value,
    pub ttl: Option<u64>,
}

impl TaskSlot {
    pub fn get(&self) -> Option<&Arc<TaskEntry>> {
        self.entry.get()
    }

    pub fn set(&self, task: Arc<TaskEntry>) {
        let _ = self.entry.set(task);
    }

    pub fn allow_start(&self) {
        self.startable.store(true, Ordering::Release);
    }

    pub fn spec(&self) -> Option<&str> {
        self.spec.get().map(String::as_str)
    }

    pub fn own(&self) -> Option<&OwnCall> {
        self.own.get()
    }

    pub fn set_own(&self, own: OwnCall) {
        let _ = self.own.set(own);
    }

    /// The task this call's handler created itself, if it did.
    pub fn made(&self) -> Option<&str> {
        self.made.get().map(String::as_str)
    }

    pub fn set_made(&self, id: String) {
        let _ = self.made.set(id);
    }
}

impl Context {
    pub fn request_id(&self) -> &RequestId {
        &self.inner.request_id
    }

    /// The negotiated (legacy) or requested (modern) protocol revision.
    pub fn protocol_version(&self) -> &str {
        &self.inner.protocol_version
    }

    /// The legacy session this request arrived in, to keep and use outside the handler
    /// (requests and notifications to the client later on); `None` for a 2026-07-28
    /// request, which has no session.
    pub fn session(&self) -> Option<&ServerSession> {
        self.inner.session.as_ref()
    }

    /// Whether this request was served statelessly (2026-07-28).
    pub fn is_modern(&self) -> bool {
        self.inner.inputs.is_some()
    }

    /// Whether a server-to-client request of this request's can reach the client: a
    /// legacy session with a way back (stdio, or Streamable HTTP with a session and SSE
    /// answers); not at 2026-07-28 (a request asks with `input_required` there), nor a
    /// stateless or JSON-response HTTP request (the official SDK's `can_send_request`).
    pub fn can_send_request(&self) -> bool {
        !self.is_modern() && self.inner.outbound.can_request()
    }

    /// The bearer token the request was accepted with (HTTP with auth only).
    pub fn auth_info(&self) -> Option<&AuthInfo> {
        self.inner.auth.as_deref()
    }

    pub fn client_info(&self) -> &Value {
        self.inner.client_info()
    }

    pub fn client_capabilities(&self) -> &Value {
        self.inner.client_capabilities()
    }

    /// Fires when the client cancels the request (or goes away); in a task, when the
    /// client cancels the task (`tasks/cancel`) or it expires.
    pub fn cancellation(&self) -> &CancellationToken {
        self.inner.task.get().map_or(&self.inner.cancel, |task| &task.cancel)
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancellation().is_cancelled()
    }

    /// Whether this call's handler runs as a task (a 2025-11-25 task, or the tasks
    /// extension's started at call time): it is bounded by the task (its cancellation,
    /// its ttl), not by a request's deadline.
    pub fn runs_as_task(&self) -> bool {
        self.inner.task.spec().is_some() || self.inner.task.get().is_some()
    }

    /// The 2025-11-25 task store as this request's handler uses it (the official v1
    /// `extra.taskStore`): see [`RequestTaskStore`](super::tasks::RequestTaskStore).
    pub fn task_store(&self) -> super::tasks::RequestTaskStore {
        super::tasks::RequestTaskStore::new(self.clone())
    }

    /// The `ttl` a task-augmented call of a tool that makes its tasks itself asked for
    /// (the official `extra.taskRequestedTtl`).
    pub fn task_requested_ttl(&self) -> Option<u64> {
        self.inner.task.own().and_then(|own| own.ttl)
    }

    /// The id of the task this call runs as (tasks extension), if it runs as one.
    pub fn task_id(&self) -> Option<&str> {
        self.inner.task.get().map(|task| task.id.as_str())
    }

    /// Turns this call into a task, for a tool registered with
    /// [`TaskStart::OnRequest`](super::TaskStart::OnRequest): the client gets the task
    /// handle as soon as this handler next waits, and the handler goes on in the task;
    /// input it asks for from here on goes through the task, not by MRTR rounds. Returns
    /// whether the call runs as a task now: `false` when it cannot (the client does not
    /// accept tasks, or the tool starts its tasks itself at call time), and the handler
    /// simply goes on answering the call.
    pub fn start_task(&self) -> Result<bool, HandlerError> {
        if self.inner.task.get().is_some() {
            return Ok(true);
        }
        if !self.inner.task.startable.swap(false, Ordering::AcqRel) {
            return Ok(false);
        }
        let task = self.inner.server.tasks.create().map_err(HandlerError::Rpc)?;
        self.inner.task.set(task);
        if let Some(inputs) = &self.inner.inputs {
            inputs.wake();
        }
        Ok(true)
    }

    /// The `inputResponses` of a modern retry as the client sent them (this round's only:
    /// the official SDKs' `ctx.mcpReq.inputResponses`), or on a 2025-era request the
    /// answers the legacy shim collected for the handler's last `input_required` result;
    /// `None` on a first request.
    pub fn input_responses(&self) -> Option<&Map<String, Value>> {
        match &self.inner.legacy_round {
            Some(round) => round.responses.as_ref(),
            None => self.inner.inputs.as_deref().and_then(Inputs::fresh),
        }
    }

    /// The `requestState` the handler put in its own `input_required` result, as it gave
    /// it, on the client's retry (core sealed it, so it is intact and bound to this
    /// method, target and principal) or on the legacy shim's run again; `None` otherwise.
    pub fn request_state(&self) -> Option<&str> {
        match &self.inner.legacy_round {
            Some(round) => round.state.as_deref(),
            None => self.inner.inputs.as_deref().and_then(Inputs::handler_state),
        }
    }

    /// This request's context for the legacy shim's next run of its handler: the same
    /// request (id, cancellation, way back, session, progress so far) with `round`.
    pub(crate) fn for_legacy_round(&self, round: LegacyRound) -> Context {
        self.derived(self.inner.cancel.clone(), self.inner.outbound.clone(), TaskSlot::default(), Some(round))
    }

    /// Turns this request into a 2025-11-25 task its handler drives (the official Python
    /// SDK's `run_task`): `task` is the request's `task` params. The `CreateTaskResult` to
    /// answer with and the task, whose work runs under [`SpecTask::context`] and ends with
    /// [`SpecTask::finish`]. -32601 on a session without core tasks.
    pub async fn begin_spec_task(
        &self,
        task: &Map<String, Value>,
    ) -> Result<(Value, super::tasks::SpecTask), ErrorObject> {
        super::tasks::spec::begin_for_handler(self, task).await
    }

    /// This request's context for the rest of a tool call run as a 2025-11-25 task: the
    /// same request, stopped by the task's `cancel` (not the answered request's), and
    /// reaching the client through the session (the call's own stream is closed).
    pub(crate) fn for_spec_task(&self, id: String, cancel: CancellationToken) -> Context {
        let inner = &self.inner;
        let outbound =
            inner.session.as_ref().and_then(ServerSession::outbound).unwrap_or_else(|| inner.outbound.clone());
        let task = TaskSlot::default();
        let _ = task.spec.set(id);
        self.derived(cancel, outbound, task, None)
    }

    /// A new context for the same request (id, way back's session, client, `_meta`,
    /// progress so far: progress spans the whole flow, so a later run must go on
    /// increasing it), with its own cancellation, outbound, task slot and legacy round,
    /// and no inputs.
    fn derived(
        &self,
        cancel: CancellationToken,
        outbound: Arc<dyn Outbound>,
        task: TaskSlot,
        legacy_round: Option<LegacyRound>,
    ) -> Context {
        let inner = &self.inner;
        Context {
            inner: Arc::new(ContextInner {
                request_id: inner.request_id.clone(),
                cancel,
                outbound,
                auth: inner.auth.clone(),
                server: inner.server.clone(),
                protocol_version: inner.protocol_version.clone(),
                client_capabilities: inner.client_capabilities.clone(),
                client_info: inner.client_info.clone(),
                log_threshold: inner.log_threshold,
                meta: inner.meta.clone(),
                last_progress: Mutex::new(*inner.last_progress.lock().unwrap()),
                inputs: None,
                task,
                session: inner.session.clone(),
                legacy_round,
            }),
        }
    }

    /// A request to the client over the legacy session; in a 2025-11-25 task it carries
    /// the related-task `_meta` and the task is `input_required` while it waits.
    async fn session_request(
        &self,
        method: &str,
        mut params: Value,
        options: RequestOptions,
    ) -> Result<Value, HandlerError> {
        let Some(task) = self.inner.task.spec() else {
            return self.inner.outbound.request(method, params, options).await.map_err(|e| request_failed(method, e));
        };
        super::tasks::spec::relate(&mut params, task);
        super::tasks::spec::waiting_on_client(self, task, true).await;
        // On the stream of a `tasks/result` waiting on this task when there is one (as the
        // official SDK's task message queue delivers it), else on the session's channel.
        let way = self.inner.server.spec_tasks.result_stream(task).unwrap_or_else(|| self.inner.outbound.clone());
        let answer = way.request(method, params, options).await;
        super::tasks::spec::waiting_on_client(self, task, false).await;
        answer.map_err(|e| request_failed(method, e))
    }

    /// The progress token the client sent, if any.
    pub fn progress_token(&self) -> Option<&Value> {
        self.inner.meta.progress_token.as_ref()
    }

    /// The request's `_meta` object as sent (progress token, the 2026-07-28 keys, and any
    /// the client added); `None` when the request had none.
    pub fn meta(&self) -> Option<&Value> {
        Some(self.inner.meta.get()).filter(|meta| meta.is_object())
    }

    /// Reports progress, when the client asked for it. Values must increase; a value that
    /// does not is skipped, as is anything after cancellation. Returns whether it was sent.
    pub async fn report_progress(&self, progress: f64, total: Option<f64>, message: Option<String>) -> bool {
        let Some(token) = self.progress_token().filter(|_| self.task_id().is_none()) else { return false };
        {
            let mut last = self.inner.last_progress.lock().unwrap();
            if self.is_cancelled() || last.is_some_and(|l| progress <= l) {
                return false;
            }
            *last = Some(progress);
        }
        let mut params = json!({"progressToken": token, "progress": progress});
        if let Some(total) = total {
            params["total"] = json!(total);
        }
        if let Some(message) = message {
            params["message"] = json!(message);
        }
        self.inner.outbound.notify(Progress::METHOD, params).await.is_ok()
    }

    /// Sends a log message (`notifications/message`) if the client's level lets it
    /// through: the session's `logging/setLevel` (legacy), or the request's
    /// `_meta` logLevel (modern, which otherwise gets none).
    pub async fn log(&self, level: &str, data: Value, logger: Option<&str>) -> bool {
        let (Some(threshold), Some(rank)) = (self.inner.log_threshold, level_rank(level)) else {
            return false;
        };
        if rank < threshold || self.is_cancelled() || self.task_id().is_some() {
            return false;
        }
        let server = &self.inner.server;
        if !server.options.dialect.sends_logs(super::capabilities::logging_declared(server)) {
            return false;
        }
        let mut params = json!({"level": level, "data": data});
        if let Some(logger) = logger {
            params["logger"] = json!(logger);
        }
        self.inner.outbound.notify(LoggingMessage::METHOD, params).await.is_ok()
    }

    /// Sends any other notification about this request (a custom one, say) to the client
    /// on the way this request answers. Progress and log messages belong to
    /// [`Context::report_progress`] and [`Context::log`], which apply the client's token
    /// and level. Returns whether it was sent.
    pub async fn notify(&self, method: &str, params: Value) -> bool {
        !self.is_cancelled() && self.task_id().is_none() && self.inner.outbound.notify(method, params).await.is_ok()
    }

    /// Closes this request's SSE stream while the request goes on (SEP-1699 polling): the
    /// client reconnects with `Last-Event-ID` and gets what follows. Only legacy
    /// Streamable HTTP sessions (2025-11-25) can; elsewhere nothing happens and this
    /// returns `false`.
    pub fn close_sse_stream(&self) -> bool {
        self.inner.outbound.close_stream()
    }

    /// Whether [`Context::close_sse_stream`] and [`Context::close_standalone_sse_stream`]
    /// can do anything for this request (a legacy Streamable HTTP session at 2025-11-25 or
    /// later: its events are kept for the client to resume, core always has an event store).
    pub fn can_close_sse_stream(&self) -> bool {
        self.inner.outbound.can_close_stream()
    }

    /// Closes the session's standalone GET stream while it goes on (SEP-1699 polling): the
    /// client reconnects with `Last-Event-ID`. Where [`Context::close_sse_stream`] can;
    /// elsewhere nothing happens and this returns `false`.
    pub fn close_standalone_sse_stream(&self) -> bool {
        self.inner.outbound.close_standalone_stream()
    }

    /// Asks the user for input (`elicitation/create`); returns the `ElicitResult`.
    /// See [`Context::ask`] for how, per era and dialect.
    pub async fn elicit(&self, params: Value) -> Result<Value, HandlerError> {
        self.ask(Elicit::METHOD, params).await
    }

    /// Asks the client's model for a completion (`sampling/createMessage`).
    pub async fn sample(&self, params: Value) -> Result<Value, HandlerError> {
        self.ask(CreateMessage::METHOD, params).await
    }

    /// Asks the client for its roots (`roots/list`).
    pub async fn list_roots(&self) -> Result<Value, HandlerError> {
        self.ask(ListRoots::METHOD, json!({})).await
    }

    /// How [`elicit`](Self::elicit), [`sample`](Self::sample) and
    /// [`list_roots`](Self::list_roots) reach the client, in the server's
    /// [`Dialect`](super::Dialect): by default as an [`input`](Self::input) (a request on
    /// a legacy session, an `input_required` round at 2026-07-28, a task's input in a
    /// task). In the official Python SDK's, as its session's request: sent on a legacy
    /// session whatever the client declared (the client answers what it cannot do), and
    /// refused at 2026-07-28, which has no back-channel (`-32600 Cannot send
    /// 'elicitation/create': ...`); rounds there are [`input`](Self::input)'s, which a
    /// binding's resolvers and explicit-key inputs use.
    async fn ask(&self, method: &str, params: Value) -> Result<Value, HandlerError> {
        self.ask_with(method, params, RequestOptions::default()).await
    }

    /// [`Context::ask`] with the options of the request a legacy session sends.
    pub(crate) async fn ask_with(
        &self,
        method: &str,
        params: Value,
        options: RequestOptions,
    ) -> Result<Value, HandlerError> {
        let dialect = self.inner.server.options.dialect;
        if dialect.asks_in_rounds() || self.inner.task.get().is_some() {
            return self.input_with(None, method, params, options).await;
        }
        if !self.can_send_request() {
            // At 2026-07-28, or a legacy request with no way back (stateless or
            // JSON-response HTTP).
            return Err(HandlerError::Rpc(dialect.no_back_channel(method)));
        }
        self.session_request(method, params, options).await
    }

    /// Any client input, under an explicit key on a modern request (the key names the
    /// input in `inputRequests`; `None` numbers them). On a legacy session the request
    /// goes to the client and is awaited; on a modern one the handler pauses here and the
    /// answer arrives with the client's retry; in a task the input waits in the task
    /// (`tasks/get` shows it) until `tasks/update` answers it. A legacy client's JSON-RPC
    /// error is handed to the handler as that error (the official SDKs raise it as
    /// `McpError`), so code and data survive.
    pub async fn input(&self, key: Option<&str>, method: &str, params: Value) -> Result<Value, HandlerError> {
        self.input_with(key, method, params, RequestOptions::default()).await
    }

    /// [`Context::input`] with the options of the request a legacy session sends (its
    /// timeout, say: an expired wait fails with `-32001` [`ErrorCode::REQUEST_TIMEOUT`], as
    /// in the official SDKs, and the client hears `notifications/cancelled` where the
    /// transport can tell it). A modern round or a task has no request to time: there the
    /// options are not used.
    pub async fn input_with(
        &self,
        key: Option<&str>,
        method: &str,
        params: Value,
        options: RequestOptions,
    ) -> Result<Value, HandlerError> {
        let kind = super::router::client_input(method, &params);
        if self.inner.task.get().is_none() && self.inner.inputs.is_none() && !self.can_send_request() {
            // A legacy request with no way back (stateless or JSON-response HTTP): nothing
            // can be sent, whatever the client declared (a stateless request carries no
            // capabilities), so the refusal names the missing back-channel first, as the
            // official SDK does.
            return Err(HandlerError::Rpc(self.inner.server.options.dialect.no_back_channel(method)));
        }
        self.require_capability(kind)?;
        if let Some(task) = self.inner.task.get() {
            let answer =
                task.ask(key, method, params).ok_or_else(|| HandlerError::Failed("The task has ended".into()))?;
            super::notify::task_changed(&self.inner.server, task);
            return answer.await.map_err(|_| HandlerError::Failed("The task ended before the input arrived".into()));
        }
        let Some(inputs) = &self.inner.inputs else {
            return self.session_request(method, params, options).await;
        };
        let key = key.map_or_else(|| inputs.auto_key(), str::to_owned);
        if let Some(response) = inputs.response(&key) {
            check_response(&key, method, kind, response)?;
            return Ok(response.clone());
        }
        inputs.ask(key, method, params);
        std::future::pending().await
    }

    /// The input a binding's resolver asks (the official Python SDK's `Resolve`
    /// parameters): [`Context::input_with`] keyed by `resolver`, the resolver's stable name
    /// (its key in a 2026-07-28 `inputRequests`, as the official resolvers key theirs).
    /// In [`Dialect::PythonSdk`](super::Dialect::PythonSdk) a client that did not declare
    /// what the input needs is refused before anything is asked, in either era where the
    /// request could be sent, with the official resolvers' `-32021` naming the resolver.
    pub async fn resolver_input(
        &self,
        resolver: &str,
        method: &str,
        params: Value,
        options: RequestOptions,
    ) -> Result<Value, HandlerError> {
        let dialect = self.inner.server.options.dialect;
        let gated = self.inner.task.get().is_none() && (self.is_modern() || self.can_send_request());
        if gated
            && let Some(error) = dialect.resolver_refused(resolver, self.inner.client_capabilities(), method, &params)
        {
            return Err(HandlerError::Rpc(error));
        }
        self.input_with(Some(resolver), method, params, options).await
    }

    /// The official Python SDK's `require_client_extension` for this handler's client
    /// (what it declared for this message: a 2026-07-28 request's own capabilities, else
    /// the session's): see [`require_client_extension`].
    pub fn require_client_extension(&self, identifier: &str) -> Result<(), HandlerError> {
        require_client_extension(self.inner.client_capabilities(), identifier).map_err(HandlerError::Rpc)
    }

    /// Reads one of this server's own resources.
    pub async fn read_resource(&self, uri: &str) -> Result<Value, HandlerError> {
        let found = self.inner.server.registry.read().unwrap().find_resource(uri);
        let Some(found) = found else {
            return Err(HandlerError::ResourceNotFound(uri.to_owned()));
        };
        found.handler.read(uri.to_owned(), found.variables, self.clone()).await
    }

    fn require_capability(&self, kind: ClientInput) -> Result<(), HandlerError> {
        let Some((name, sub)) = kind.capability() else { return Ok(()) };
        let needed = match sub {
            Some(sub) => json!({sub: {}}),
            None => json!({}),
        };
        let declared =
            self.inner.client_capabilities().get(name).is_some_and(|c| sub.is_none_or(|sub| c.get(sub).is_some()));
        if declared {
            return Ok(());
        }
        if self.is_modern() {
            return Err(HandlerError::Rpc(missing_capability_error(name, needed)));
        }
        Err(HandlerError::Failed(format!("The client does not support {name} (it did not declare the capability)")))
    }
}

/// How a server-to-client request's failure reaches the handler: the client's JSON-RPC
/// error as it is, an expired wait as `-32001` (the official SDKs' `REQUEST_TIMEOUT`),
/// anything else as a failure naming the method.
pub(crate) fn request_failed(method: &str, error: PeerError) -> HandlerError {
    match error {
        PeerError::Rpc(error) => HandlerError::Rpc(error),
        PeerError::Timeout(after) => HandlerError::Rpc(ErrorObject::new(
            ErrorCode::REQUEST_TIMEOUT,
            format!("Timed out while waiting for response to {method}. Waited {} seconds.", after.as_secs_f64()),
        )),
        other => HandlerError::Failed(format!("{method} failed: {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn require_client_extension_words_the_refusal_as_the_official_helper() {
        let declared = json!({"extensions": {"io.example/tickets": {}}});
        assert!(require_client_extension(&declared, "io.example/tickets").is_ok());
        for capabilities in [json!({}), json!({"extensions": {}}), json!({"extensions": {"other": {}}})] {
            let error = require_client_extension(&capabilities, "io.example/tickets").unwrap_err();
            assert_eq!(error.code, ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY);
            assert_eq!(error.message, "Client did not declare required extension 'io.example/tickets'");
            let data: Value = error.data.unwrap().parse_owned().unwrap();
            assert_eq!(data, json!({"requiredCapabilities": {"extensions": {"io.example/tickets": {}}}}));
        }
        let error = require_client_extension(&json!({}), "it's").unwrap_err();
        assert_eq!(error.message, "Client did not declare required extension \"it's\"");
    }
}
