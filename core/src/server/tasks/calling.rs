//! A [`TaskStore`] whose six operations are calls of one function over JSON values: how a
//! binding keeps the tasks in a store written in its language (the official TypeScript
//! `TaskStore` object, the official Python `TaskStore` subclass). The binding converts and
//! calls; what each operation is given and must answer is decided here, once.
//!
//! The arguments, an array each (`session` is the session's key, or `null`):
//! - `createTask`: `[{ttl?, pollInterval?}, requestId, request, session]`, answers the task;
//! - `getTask`: `[taskId, session]`, answers the task or `null`;
//! - `storeTaskResult`: `[taskId, status, result, session]` (status `completed` or `failed`);
//! - `getTaskResult`: `[taskId, session]`, answers the result;
//! - `updateTaskStatus`: `[taskId, status, statusMessage | null, session]`;
//! - `listTasks`: `[cursor | null, session]`, answers `{tasks, nextCursor?}`.

use std::sync::Arc;

use serde_json::{Value, json};

use super::spec_store::{CreateTaskOptions, TaskPage, TaskStore};
use crate::peer::BoxFuture;
use crate::protocol::{Task, TaskStatus};
use crate::wire::ErrorObject;

/// One operation of a [`CallingTaskStore`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskStoreOperation {
    CreateTask,
    GetTask,
    StoreTaskResult,
    GetTaskResult,
    UpdateTaskStatus,
    ListTasks,
}

impl TaskStoreOperation {
    /// The operation's name (the official TypeScript `TaskStore` method's).
    pub fn name(self) -> &'static str {
        match self {
            Self::CreateTask => "createTask",
            Self::GetTask => "getTask",
            Self::StoreTaskResult => "storeTaskResult",
            Self::GetTaskResult => "getTaskResult",
            Self::UpdateTaskStatus => "updateTaskStatus",
            Self::ListTasks => "listTasks",
        }
    }
}

/// The function a [`CallingTaskStore`] calls: the operation and its arguments (see the
/// module comment), answering its JSON answer or the error to answer the request with.
pub type TaskStoreCall = Arc<dyn Fn(TaskStoreOperation, Value) -> BoxFuture<Result<Value, ErrorObject>> + Send + Sync>;

/// A [`TaskStore`] over a [`TaskStoreCall`] (see the module comment).
pub struct CallingTaskStore {
    call: TaskStoreCall,
}

impl CallingTaskStore {
    pub fn new(call: TaskStoreCall) -> Self {
        Self { call }
    }

    fn run(&self, operation: TaskStoreOperation, args: Value) -> BoxFuture<Result<Value, ErrorObject>> {
        (self.call)(operation, args)
    }
}

/// The store's answer to `operation` as `T`, or an error naming the operation.
fn answer<T: serde::de::DeserializeOwned>(operation: TaskStoreOperation, value: Value) -> Result<T, ErrorObject> {
    serde_json::from_value(value).map_err(|e| {
        ErrorObject::internal(format!("the task store's {} answered an unexpected value: {e}", operation.name()))
    })
}

fn status_text(status: TaskStatus) -> Value {
    serde_json::to_value(status).expect("a status serialises")
}

impl TaskStore for CallingTaskStore {
    fn create_task(
        &self,
        options: CreateTaskOptions,
        request_id: Value,
        request: Value,
        session: Option<String>,
    ) -> BoxFuture<Result<Task, ErrorObject>> {
        let mut params = json!({});
        if let Some(ttl) = options.ttl {
            params["ttl"] = json!(ttl);
        }
        if let Some(interval) = options.poll_interval {
            params["pollInterval"] = json!(interval);
        }
        let operation = TaskStoreOperation::CreateTask;
        let call = self.run(operation, json!([params, request_id, request, session]));
        Box::pin(async move { answer(operation, call.await?) })
    }

    fn get_task(&self, task_id: String, session: Option<String>) -> BoxFuture<Result<Option<Task>, ErrorObject>> {
        let operation = TaskStoreOperation::GetTask;
        let call = self.run(operation, json!([task_id, session]));
        Box::pin(async move { answer(operation, call.await?) })
    }

    fn store_task_result(
        &self,
        task_id: String,
        status: TaskStatus,
        result: Value,
        session: Option<String>,
    ) -> BoxFuture<Result<(), ErrorObject>> {
        let args = json!([task_id, status_text(status), result, session]);
        let call = self.run(TaskStoreOperation::StoreTaskResult, args);
        Box::pin(async move { call.await.map(drop) })
    }

    fn get_task_result(&self, task_id: String, session: Option<String>) -> BoxFuture<Result<Value, ErrorObject>> {
        self.run(TaskStoreOperation::GetTaskResult, json!([task_id, session]))
    }

    fn update_task_status(
        &self,
        task_id: String,
        status: TaskStatus,
        status_message: Option<String>,
        session: Option<String>,
    ) -> BoxFuture<Result<(), ErrorObject>> {
        let args = json!([task_id, status_text(status), status_message, session]);
        let call = self.run(TaskStoreOperation::UpdateTaskStatus, args);
        Box::pin(async move { call.await.map(drop) })
    }

    fn list_tasks(&self, cursor: Option<String>, session: Option<String>) -> BoxFuture<Result<TaskPage, ErrorObject>> {
        let operation = TaskStoreOperation::ListTasks;
        let call = self.run(operation, json!([cursor, session]));
        Box::pin(async move {
            let page = call.await?;
            let tasks = answer(operation, page.get("tasks").cloned().unwrap_or(Value::Null))?;
            let next_cursor = page.get("nextCursor").and_then(Value::as_str).map(str::to_owned);
            Ok(TaskPage { tasks, next_cursor })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a test store was asked: each operation's name and arguments.
    type Asked = Arc<std::sync::Mutex<Vec<(String, Value)>>>;

    /// A store answering from a fixed table, recording what it was asked.
    fn store(answers: Value) -> (CallingTaskStore, Asked) {
        let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = asked.clone();
        let call: TaskStoreCall = Arc::new(move |operation, args| {
            seen.lock().unwrap().push((operation.name().to_owned(), args));
            let answer = answers[operation.name()].clone();
            Box::pin(async move { Ok(answer) })
        });
        (CallingTaskStore::new(call), asked)
    }

    #[tokio::test]
    async fn each_operation_is_asked_with_its_arguments_and_its_answer_checked() {
        let task = json!({"taskId": "t", "status": "working", "createdAt": "2026-01-01T00:00:00Z",
            "lastUpdatedAt": "2026-01-01T00:00:00Z", "ttl": 5, "pollInterval": 50});
        let (store, asked) = store(json!({
            "createTask": task, "getTask": null, "listTasks": {"tasks": [task], "nextCursor": "t"},
            "getTaskResult": {"content": []}, "storeTaskResult": null, "updateTaskStatus": {"ignored": true},
        }));
        let session = Some("7".to_owned());
        let options = CreateTaskOptions { ttl: Some(5), poll_interval: None };
        let created = store.create_task(options, json!(1), json!({"method": "tools/call"}), session.clone()).await;
        assert_eq!(created.unwrap().task_id, "t");
        assert_eq!(store.get_task("t".into(), None).await.unwrap(), None);
        store.store_task_result("t".into(), TaskStatus::Failed, json!({"isError": true}), None).await.unwrap();
        assert_eq!(store.get_task_result("t".into(), None).await.unwrap(), json!({"content": []}));
        store.update_task_status("t".into(), TaskStatus::Working, Some("m".into()), None).await.unwrap();
        let page = store.list_tasks(Some("c".into()), session).await.unwrap();
        assert_eq!((page.tasks.len(), page.next_cursor.as_deref()), (1, Some("t")));
        let asked = asked.lock().unwrap().clone();
        assert_eq!(
            asked,
            [
                ("createTask".into(), json!([{"ttl": 5}, 1, {"method": "tools/call"}, "7"])),
                ("getTask".into(), json!(["t", null])),
                ("storeTaskResult".into(), json!(["t", "failed", {"isError": true}, null])),
                ("getTaskResult".into(), json!(["t", null])),
                ("updateTaskStatus".into(), json!(["t", "working", "m", null])),
                ("listTasks".into(), json!(["c", "7"])),
            ]
        );
    }

    #[tokio::test]
    async fn an_answer_of_the_wrong_shape_is_an_error_naming_the_operation() {
        let (store, _) = store(json!({"createTask": {"taskId": 1}}));
        let options = CreateTaskOptions::default();
        let error = store.create_task(options, Value::Null, Value::Null, None).await.unwrap_err();
        assert!(error.message.starts_with("the task store's createTask answered an unexpected value"), "{error:?}");
    }
}
