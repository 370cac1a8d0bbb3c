//! Calling a tool as a task, and following the task: both task protocols, one API.
//!
//! - 2026-07-28 (the `io.modelcontextprotocol/tasks` extension, SEP-2663): the request
//!   names the extension in its client capabilities; the server answers `tools/call` with
//!   a flat task (`resultType: "task"`); `tasks/get` inlines the result, the error or the
//!   input requests; input goes back with `tasks/update`; there is no `tasks/result` and
//!   no `tasks/list`.
//! - 2025-11-25 (the experimental tasks of the handshake era): `tools/call` carries
//!   `task: {ttl}` and is answered `{task: {...}}`; `tasks/result` waits for the outcome
//!   (the server's questions arrive meanwhile as ordinary requests on the session);
//!   `tasks/list` lists them.
//!
//! Every task this module hands back has the official SDKs' `Task` members (`taskId`,
//! `status`, `statusMessage`, `createdAt`, `lastUpdatedAt`, `ttl`, `pollInterval`), whichever
//! protocol carried it; a 2026-07-28 task keeps its inlined `result`, `error` or
//! `inputRequests` beside them. What a binding needs to decide (how long to wait between
//! polls, which states end a task, what a finished task's outcome is) is decided here.

use std::time::Duration;

use serde_json::{Map, Value, json};

use super::{Client, ClientError};
use crate::peer::{PeerError, RequestOptions};
use crate::protocol::{TASKS_EXTENSION, meta};
use crate::wire::ErrorObject;

/// How long to wait between polls when the server suggests nothing (the official SDKs'
/// default).
pub const DEFAULT_POLL_INTERVAL: Duration = Duration::from_millis(500);

/// The states a task never leaves.
pub fn is_terminal(status: &str) -> bool {
    matches!(status, "completed" | "failed" | "cancelled")
}

/// How long to wait before polling `task` again: its `pollInterval` (milliseconds), or
/// [`DEFAULT_POLL_INTERVAL`].
pub fn poll_interval(task: &Map<String, Value>) -> Duration {
    task.get("pollInterval").and_then(Value::as_u64).map_or(DEFAULT_POLL_INTERVAL, Duration::from_millis)
}

/// A task in the official `Task` shape: 2026-07-28's `ttlMs` and `pollIntervalMs` become
/// `ttl` and `pollInterval`; the other members stay as they came.
pub fn official_task(mut task: Map<String, Value>) -> Map<String, Value> {
    task.shift_remove("resultType");
    if let Some(ttl) = task.shift_remove("ttlMs") {
        task.entry("ttl").or_insert(ttl);
    }
    if let Some(interval) = task.shift_remove("pollIntervalMs") {
        task.entry("pollInterval").or_insert(interval);
    }
    task.entry("ttl").or_insert(Value::Null);
    task
}

/// What `tools/call` as a task gave.
#[derive(Clone, Debug)]
pub enum TaskCall {
    /// The server made a task (the official `Task` shape).
    Task(Map<String, Value>),
    /// The server answered at once (a tool that never runs as a task): the `CallToolResult`.
    Result(Value),
}

impl Client {
    /// Whether this connection speaks the 2026-07-28 tasks extension (else 2025-11-25's).
    fn modern_tasks(&self) -> bool {
        self.details.modern
    }

    /// The `_meta` of a 2026-07-28 request that accepts tasks: the client's capabilities
    /// with the extension named.
    fn accept_tasks(&self, params: &mut Map<String, Value>) {
        if !self.modern_tasks() {
            return;
        }
        let mut capabilities = self.options.capabilities.clone();
        if !capabilities.is_object() {
            capabilities = json!({});
        }
        let extensions = capabilities.as_object_mut().expect("an object").entry("extensions").or_insert(json!({}));
        if let Value::Object(extensions) = extensions {
            extensions.entry(TASKS_EXTENSION).or_insert(json!({}));
        }
        let fields = params.entry("_meta").or_insert_with(|| json!({}));
        if let Value::Object(fields) = fields {
            fields.insert(meta::CLIENT_CAPABILITIES.into(), capabilities);
        }
    }

    async fn task_request(&self, method: &str, mut params: Map<String, Value>) -> Result<Value, ClientError> {
        self.accept_tasks(&mut params);
        self.request(method, Value::Object(params), RequestOptions::default()).await
    }

    /// Calls a tool as a task (the official `call_tool_as_task` / `callToolStream`'s first
    /// step). `ttl_ms` is the lifetime asked for (2025-11-25 only: a 2026-07-28 server
    /// decides it); `meta` goes into the request's `_meta`.
    pub async fn call_tool_as_task(
        &self,
        name: &str,
        arguments: Value,
        ttl_ms: Option<u64>,
        meta: Option<Map<String, Value>>,
        options: RequestOptions,
    ) -> Result<TaskCall, ClientError> {
        let mut params = Map::new();
        params.insert("name".into(), json!(name));
        params.insert("arguments".into(), if arguments.is_null() { json!({}) } else { arguments });
        if let Some(meta) = meta {
            params.insert("_meta".into(), Value::Object(meta));
        }
        if !self.modern_tasks() {
            params.insert("task".into(), ttl_ms.map_or_else(|| json!({}), |ttl| json!({"ttl": ttl})));
        }
        self.accept_tasks(&mut params);
        let result = self.request("tools/call", Value::Object(params), options).await?;
        let Value::Object(mut result) = result else {
            return Err(ClientError::Protocol("tools/call result is not an object".into()));
        };
        if result.get("resultType") == Some(&json!("task")) {
            result.shift_remove("content");
            return Ok(TaskCall::Task(official_task(result)));
        }
        match result.shift_remove("task") {
            Some(Value::Object(task)) => Ok(TaskCall::Task(official_task(task))),
            Some(_) => Err(ClientError::Protocol("tools/call answered a task that is not an object".into())),
            None => Ok(TaskCall::Result(Value::Object(result))),
        }
    }

    /// `tasks/get`: the task as it stands.
    pub async fn get_task(&self, task_id: &str) -> Result<Map<String, Value>, ClientError> {
        match self.task_request("tasks/get", task_params(task_id)).await? {
            Value::Object(task) => Ok(official_task(task)),
            _ => Err(ClientError::Protocol("tasks/get result is not an object".into())),
        }
    }

    /// One step of polling: the task's state, fetched after waiting the interval that
    /// `previous` (the last state seen, if any) suggests; `None` once `previous` was
    /// terminal. The official `poll_task` is this in a loop.
    pub async fn poll_task_step(
        &self,
        task_id: &str,
        previous: Option<&Map<String, Value>>,
    ) -> Result<Option<Map<String, Value>>, ClientError> {
        if let Some(previous) = previous {
            if previous.get("status").and_then(Value::as_str).is_some_and(is_terminal) {
                return Ok(None);
            }
            tokio::time::sleep(poll_interval(previous)).await;
        }
        self.get_task(task_id).await.map(Some)
    }

    /// `tasks/update` (2026-07-28): answers to the task's input requests, by key.
    pub async fn update_task(&self, task_id: &str, input_responses: Map<String, Value>) -> Result<Value, ClientError> {
        if !self.modern_tasks() {
            return Err(ClientError::Usage(format!(
                "tasks/update does not exist in {}: the server asks for input with requests on the session",
                self.details.protocol_version
            )));
        }
        let mut params = task_params(task_id);
        params.insert("inputResponses".into(), Value::Object(input_responses));
        self.task_request("tasks/update", params).await
    }

    /// `tasks/cancel`: on 2025-11-25 the task as it stands after cancelling; on 2026-07-28
    /// (whose answer is empty) the task fetched afterwards, so both give the official
    /// `CancelTaskResult`.
    pub async fn cancel_task(&self, task_id: &str) -> Result<Map<String, Value>, ClientError> {
        let result = self.task_request("tasks/cancel", task_params(task_id)).await?;
        if self.modern_tasks() {
            return self.get_task(task_id).await;
        }
        match result {
            Value::Object(task) => Ok(official_task(task)),
            _ => Err(ClientError::Protocol("tasks/cancel result is not an object".into())),
        }
    }

    /// `tasks/list` (2025-11-25; the 2026-07-28 extension has none): one page.
    pub async fn list_tasks(&self, cursor: Option<&str>) -> Result<Value, ClientError> {
        if self.modern_tasks() {
            return Err(ClientError::Usage(format!(
                "tasks/list does not exist in the {TASKS_EXTENSION} extension of {}: keep the ids of the tasks you \
                 create",
                self.details.protocol_version
            )));
        }
        let mut params = Map::new();
        if let Some(cursor) = cursor {
            params.insert("cursor".into(), json!(cursor));
        }
        let mut result = self.task_request("tasks/list", params).await?;
        if let Some(Value::Array(tasks)) = result.get_mut("tasks") {
            for task in tasks.iter_mut() {
                if let Value::Object(map) = task.take() {
                    *task = Value::Object(official_task(map));
                }
            }
        }
        Ok(result)
    }

    /// The task's outcome, once it has one (the official `get_task_result`): its result,
    /// or the JSON-RPC error it failed with. On 2025-11-25 `tasks/result` waits for it; on
    /// 2026-07-28 the task is polled at its interval, and its input requests are answered
    /// through the client's callbacks (sampling, elicitation, roots) with `tasks/update`.
    pub async fn task_result(&self, task_id: &str) -> Result<Value, ClientError> {
        if !self.modern_tasks() {
            return self.task_request("tasks/result", task_params(task_id)).await;
        }
        let mut previous: Option<Map<String, Value>> = None;
        loop {
            let Some(task) = self.poll_task_step(task_id, previous.as_ref()).await? else {
                unreachable!("a terminal task returns before the next step");
            };
            match task.get("status").and_then(Value::as_str).unwrap_or_default() {
                "completed" => return Ok(task.get("result").cloned().unwrap_or_else(|| json!({}))),
                "failed" => return Err(task_failure(&task)),
                "cancelled" => {
                    let why = task.get("statusMessage").and_then(Value::as_str).unwrap_or("cancelled");
                    return Err(ClientError::Peer(PeerError::Rpc(ErrorObject::new(
                        crate::wire::ErrorCode::INVALID_REQUEST,
                        format!("Task {task_id} was cancelled: {why}"),
                    ))));
                }
                "input_required" => {
                    let responses = self.answer_inputs(&Value::Object(task.clone())).await?;
                    if !responses.is_empty() {
                        self.update_task(task_id, responses).await?;
                        previous = None;
                        continue;
                    }
                }
                _ => {}
            }
            previous = Some(task);
        }
    }
}

fn task_params(task_id: &str) -> Map<String, Value> {
    let mut params = Map::new();
    params.insert("taskId".into(), json!(task_id));
    params
}

/// The error a failed 2026-07-28 task carries, as the error its call would have answered.
fn task_failure(task: &Map<String, Value>) -> ClientError {
    let error = task.get("error").cloned().and_then(|e| serde_json::from_value::<ErrorObject>(e).ok());
    let error = error.unwrap_or_else(|| {
        let message = task.get("statusMessage").and_then(Value::as_str).unwrap_or("the task failed");
        ErrorObject::internal(message)
    });
    ClientError::Peer(PeerError::Rpc(error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_modern_task_reads_as_the_official_task() {
        let task = json!({"resultType": "task", "taskId": "t", "status": "working", "createdAt": "a",
            "lastUpdatedAt": "b", "ttlMs": 60000, "pollIntervalMs": 250});
        let Value::Object(task) = task else { unreachable!() };
        let task = official_task(task);
        assert_eq!(
            Value::Object(task.clone()),
            json!({"taskId": "t", "status": "working", "createdAt": "a",
            "lastUpdatedAt": "b", "ttl": 60000, "pollInterval": 250})
        );
        assert_eq!(poll_interval(&task), Duration::from_millis(250));
        assert_eq!(poll_interval(&Map::new()), DEFAULT_POLL_INTERVAL);
        assert!(is_terminal("cancelled") && !is_terminal("input_required"));
    }
}
