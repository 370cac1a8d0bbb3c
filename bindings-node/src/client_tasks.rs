//! Tasks from the client side (the official `client.experimental.tasks`): core's
//! [`Client`](ferrymcp_core::client::Client) task calls, values as JSON text. What to do
//! with a task (when to poll, which states end it, its outcome) is core's.

use ferrymcp_core::client::{ClientError, TaskCall};
use ferrymcp_core::peer::RequestOptions;
use napi_derive::napi;
use serde_json::{Map, Value, json};

use crate::client::NativeClient;
use ferrymcp_core::protocol::ErrorCode;

use crate::error::{from_client, mcp_error, no_panic, parse};

fn object(json: Option<String>, what: &str) -> napi::Result<Option<Map<String, Value>>> {
    match json.map(|text| parse(&text, what)).transpose()? {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(map)) => Ok(Some(map)),
        Some(_) => Err(mcp_error(ErrorCode::INVALID_PARAMS, &format!("{what} must be a JSON object"), None)),
    }
}

fn text(outcome: Result<Value, ClientError>) -> napi::Result<String> {
    outcome.map(|value| value.to_string()).map_err(from_client)
}

#[napi]
impl NativeClient {
    /// Calls a tool as a task: `{"task": Task}`, or `{"result": CallToolResult}` when the
    /// server answered at once.
    #[napi]
    pub async fn call_tool_as_task(
        &self,
        name: String,
        arguments_json: String,
        ttl_ms: Option<f64>,
        meta_json: Option<String>,
    ) -> napi::Result<String> {
        let client = self.client()?;
        let arguments = parse(&arguments_json, "arguments")?;
        let meta = object(meta_json, "_meta")?;
        let ttl = ttl_ms.filter(|ttl| ttl.is_finite() && *ttl >= 0.0).map(|ttl| ttl as u64);
        no_panic(async move {
            let call = client.call_tool_as_task(&name, arguments, ttl, meta, RequestOptions::default()).await;
            text(call.map(|call| match call {
                TaskCall::Task(task) => json!({ "task": task }),
                TaskCall::Result(result) => json!({ "result": result }),
            }))
        })
        .await
    }

    /// `tasks/get`.
    #[napi]
    pub async fn get_task(&self, task_id: String) -> napi::Result<String> {
        let client = self.client()?;
        no_panic(async move { text(client.get_task(&task_id).await.map(Value::Object)) }).await
    }

    /// One polling step after `previousJson` (the last state seen): `null` once that was
    /// terminal.
    #[napi]
    pub async fn poll_task_step(&self, task_id: String, previous_json: Option<String>) -> napi::Result<String> {
        let client = self.client()?;
        let previous = object(previous_json, "previous")?;
        no_panic(async move {
            let step = client.poll_task_step(&task_id, previous.as_ref()).await;
            text(step.map(|task| task.map_or(Value::Null, Value::Object)))
        })
        .await
    }

    /// `tasks/update` (2026-07-28).
    #[napi]
    pub async fn update_task(&self, task_id: String, input_responses_json: String) -> napi::Result<String> {
        let client = self.client()?;
        let responses = object(Some(input_responses_json), "inputResponses")?.unwrap_or_default();
        no_panic(async move { text(client.update_task(&task_id, responses).await) }).await
    }

    /// `tasks/cancel`: the task after cancelling.
    #[napi]
    pub async fn cancel_task(&self, task_id: String) -> napi::Result<String> {
        let client = self.client()?;
        no_panic(async move { text(client.cancel_task(&task_id).await.map(Value::Object)) }).await
    }

    /// `tasks/list` (2025-11-25).
    #[napi]
    pub async fn list_tasks(&self, cursor: Option<String>) -> napi::Result<String> {
        let client = self.client()?;
        no_panic(async move { text(client.list_tasks(cursor.as_deref()).await) }).await
    }

    /// The task's outcome once it has one.
    #[napi]
    pub async fn task_result(&self, task_id: String) -> napi::Result<String> {
        let client = self.client()?;
        no_panic(async move { text(client.task_result(&task_id).await) }).await
    }
}
