//! The task store of the 2025-11-25 revision's tasks (core protocol, experimental there):
//! the [`TaskStore`] trait a server keeps its tasks behind, and [`InMemoryTaskStore`], the
//! default.
//!
//! The trait has the six operations of the official TypeScript SDK 1.x `TaskStore`
//! (`experimental/tasks`): create, get, store the result (which ends the task), get the
//! result, update the status, list; a task's `ttl` is how long the store keeps it. Every
//! operation is a future over owned values, so a binding can implement it with calls into
//! its language (an application's own store) and a Redis or database store fits as well.
//! The store keeps data only: what runs (the handler, its cancellation) stays with the
//! server ([`super::spec`]).
//!
//! The in-memory store keeps the official one's rules (terminal states never change, a
//! result is stored once, a task is forgotten `ttl` after its creation and again `ttl`
//! after it ends, pages of 10 whose cursor is the last id), with two differences: expiry
//! is checked on access rather than by a timer per task, and a task belongs to the session
//! that created it (another session neither gets nor lists it), since a task id is the only
//! thing guarding a task's result.

use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use indexmap::IndexMap;
use serde_json::Value;

use super::clock::iso8601;
use super::store::new_id;
use crate::peer::BoxFuture;
use crate::protocol::{Task, TaskStatus};
use crate::wire::ErrorObject;

/// What a task-augmented request asks of its task (`CreateTaskOptions` in the official SDK).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CreateTaskOptions {
    /// How long to keep the task from its creation, in milliseconds; `None` for as long as
    /// the store likes.
    pub ttl: Option<u64>,
    /// The polling interval suggested to the client, in milliseconds.
    pub poll_interval: Option<u64>,
}

/// One page of [`TaskStore::list_tasks`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TaskPage {
    pub tasks: Vec<Task>,
    /// Where the next page starts; `None` on the last page.
    pub next_cursor: Option<String>,
}

/// Where a server keeps the tasks of 2025-11-25 task-augmented requests. `session` is the
/// session the request came on (its number, as text), for a store that scopes tasks.
/// A failing operation answers the request that needed it with its error.
pub trait TaskStore: Send + Sync + 'static {
    /// Creates a `working` task for `request` (the whole JSON-RPC request, `request_id`
    /// its id) and returns it.
    fn create_task(
        &self,
        options: CreateTaskOptions,
        request_id: Value,
        request: Value,
        session: Option<String>,
    ) -> BoxFuture<Result<Task, ErrorObject>>;

    /// The task, or `None` when it is unknown (or expired).
    fn get_task(&self, task_id: String, session: Option<String>) -> BoxFuture<Result<Option<Task>, ErrorObject>>;

    /// Ends the task `completed` or `failed` with `result`.
    fn store_task_result(
        &self,
        task_id: String,
        status: TaskStatus,
        result: Value,
        session: Option<String>,
    ) -> BoxFuture<Result<(), ErrorObject>>;

    /// The result stored for the task.
    fn get_task_result(&self, task_id: String, session: Option<String>) -> BoxFuture<Result<Value, ErrorObject>>;

    /// Sets the task's status (and message, when given).
    fn update_task_status(
        &self,
        task_id: String,
        status: TaskStatus,
        status_message: Option<String>,
        session: Option<String>,
    ) -> BoxFuture<Result<(), ErrorObject>>;

    /// A page of tasks, from `cursor` (a `next_cursor` this store gave).
    fn list_tasks(&self, cursor: Option<String>, session: Option<String>) -> BoxFuture<Result<TaskPage, ErrorObject>>;

    /// `session` has ended for good (its HTTP session was deleted, or expired with no other
    /// replica to serve it). A store that keeps each task for its session alone forgets the
    /// ones that would never expire (created without a `ttl`): nothing can reach them any
    /// more. Returns their ids (the server stops their handlers). By default nothing is
    /// forgotten: an application's store decides what it keeps.
    fn forget_session(&self, _session: &str) -> Vec<String> {
        Vec::new()
    }
}

/// Whether a task in `status` is over: it changes no more.
pub fn is_terminal(status: TaskStatus) -> bool {
    matches!(status, TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled)
}

/// The default polling interval of a task created without one, in milliseconds (the
/// official in-memory store's).
pub const DEFAULT_POLL_INTERVAL_MS: u64 = 1000;

const PAGE_SIZE: usize = 10;

struct Stored {
    task: Task,
    session: Option<String>,
    result: Option<Value>,
    expires: Option<Instant>,
}

/// Tasks kept in this process (see the module comment for its rules).
#[derive(Default)]
pub struct InMemoryTaskStore {
    tasks: Mutex<IndexMap<String, Stored>>,
}

impl InMemoryTaskStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// Every task still kept, of every session.
    pub fn all_tasks(&self) -> Vec<Task> {
        let mut tasks = self.tasks.lock().unwrap();
        purge(&mut tasks);
        tasks.values().map(|stored| stored.task.clone()).collect()
    }

    /// Forgets every task.
    pub fn clear(&self) {
        self.tasks.lock().unwrap().clear();
    }

    /// Runs `change` on the task this session may see, if it is kept.
    fn with_task<T>(
        &self,
        task_id: &str,
        session: &Option<String>,
        change: impl FnOnce(&mut Stored) -> Result<T, ErrorObject>,
    ) -> Result<T, ErrorObject> {
        let mut tasks = self.tasks.lock().unwrap();
        purge(&mut tasks);
        match tasks.get_mut(task_id).filter(|stored| visible(stored, session)) {
            Some(stored) => change(stored),
            None => Err(ErrorObject::invalid_params(format!("Task not found: {task_id}"))),
        }
    }

    fn create(&self, options: CreateTaskOptions, session: Option<String>) -> Task {
        let now = iso8601(SystemTime::now());
        let task = Task {
            task_id: new_id(),
            status: TaskStatus::Working,
            status_message: None,
            created_at: now.clone(),
            last_updated_at: now,
            ttl: options.ttl,
            poll_interval: Some(options.poll_interval.unwrap_or(DEFAULT_POLL_INTERVAL_MS)),
        };
        let expires = expiry(task.ttl);
        let stored = Stored { task: task.clone(), session, result: None, expires };
        let mut tasks = self.tasks.lock().unwrap();
        purge(&mut tasks);
        tasks.insert(task.task_id.clone(), stored);
        task
    }

    fn get(&self, task_id: &str, session: &Option<String>) -> Option<Task> {
        self.with_task(task_id, session, |stored| Ok(stored.task.clone())).ok()
    }

    fn store_result(
        &self,
        task_id: &str,
        status: TaskStatus,
        result: Value,
        session: &Option<String>,
    ) -> Result<(), ErrorObject> {
        if !matches!(status, TaskStatus::Completed | TaskStatus::Failed) {
            return Err(ErrorObject::invalid_params("A task's result is stored with status completed or failed"));
        }
        self.with_task(task_id, session, |stored| {
            refuse_terminal(stored, "store a result for")?;
            stored.result = Some(result);
            stored.task.status = status;
            touch(stored);
            Ok(())
        })
    }

    fn result(&self, task_id: &str, session: &Option<String>) -> Result<Value, ErrorObject> {
        self.with_task(task_id, session, |stored| {
            stored
                .result
                .clone()
                .ok_or_else(|| ErrorObject::invalid_params(format!("Task {task_id} has no result stored")))
        })
    }

    fn update(
        &self,
        task_id: &str,
        status: TaskStatus,
        message: Option<String>,
        session: &Option<String>,
    ) -> Result<(), ErrorObject> {
        self.with_task(task_id, session, |stored| {
            refuse_terminal(stored, "update")?;
            stored.task.status = status;
            if message.is_some() {
                stored.task.status_message = message;
            }
            touch(stored);
            Ok(())
        })
    }

    fn list(&self, cursor: Option<String>, session: &Option<String>) -> Result<TaskPage, ErrorObject> {
        let mut tasks = self.tasks.lock().unwrap();
        purge(&mut tasks);
        let mine: Vec<&Stored> = tasks.values().filter(|stored| visible(stored, session)).collect();
        let start = match cursor {
            None => 0,
            Some(cursor) => match mine.iter().position(|stored| stored.task.task_id == cursor) {
                Some(index) => index + 1,
                None => return Err(ErrorObject::invalid_params(format!("Invalid cursor: {cursor}"))),
            },
        };
        let page: Vec<Task> = mine.iter().skip(start).take(PAGE_SIZE).map(|stored| stored.task.clone()).collect();
        let next_cursor = (start + PAGE_SIZE < mine.len()).then(|| page.last().map(|t| t.task_id.clone())).flatten();
        Ok(TaskPage { tasks: page, next_cursor })
    }
}

impl TaskStore for InMemoryTaskStore {
    fn create_task(
        &self,
        options: CreateTaskOptions,
        _request_id: Value,
        _request: Value,
        session: Option<String>,
    ) -> BoxFuture<Result<Task, ErrorObject>> {
        let task = self.create(options, session);
        Box::pin(std::future::ready(Ok(task)))
    }

    fn get_task(&self, task_id: String, session: Option<String>) -> BoxFuture<Result<Option<Task>, ErrorObject>> {
        Box::pin(std::future::ready(Ok(self.get(&task_id, &session))))
    }

    fn store_task_result(
        &self,
        task_id: String,
        status: TaskStatus,
        result: Value,
        session: Option<String>,
    ) -> BoxFuture<Result<(), ErrorObject>> {
        Box::pin(std::future::ready(self.store_result(&task_id, status, result, &session)))
    }

    fn get_task_result(&self, task_id: String, session: Option<String>) -> BoxFuture<Result<Value, ErrorObject>> {
        Box::pin(std::future::ready(self.result(&task_id, &session)))
    }

    fn update_task_status(
        &self,
        task_id: String,
        status: TaskStatus,
        status_message: Option<String>,
        session: Option<String>,
    ) -> BoxFuture<Result<(), ErrorObject>> {
        Box::pin(std::future::ready(self.update(&task_id, status, status_message, &session)))
    }

    fn list_tasks(&self, cursor: Option<String>, session: Option<String>) -> BoxFuture<Result<TaskPage, ErrorObject>> {
        Box::pin(std::future::ready(self.list(cursor, &session)))
    }

    fn forget_session(&self, session: &str) -> Vec<String> {
        let mut tasks = self.tasks.lock().unwrap();
        let gone: Vec<String> = tasks
            .values()
            .filter(|stored| stored.session.as_deref() == Some(session) && stored.task.ttl.is_none())
            .map(|stored| stored.task.task_id.clone())
            .collect();
        for id in &gone {
            tasks.shift_remove(id);
        }
        gone
    }
}

/// A task belongs to the session that created it; one created outside any session (or a
/// look-up outside any) is everyone's.
fn visible(stored: &Stored, session: &Option<String>) -> bool {
    stored.session.is_none() || session.is_none() || stored.session == *session
}

fn refuse_terminal(stored: &Stored, what: &str) -> Result<(), ErrorObject> {
    if is_terminal(stored.task.status) {
        let status = serde_json::to_value(stored.task.status).unwrap_or_default();
        return Err(ErrorObject::invalid_params(format!(
            "Cannot {what} task {} in terminal status {status}",
            stored.task.task_id
        )));
    }
    Ok(())
}

/// Records a change: the time, and a task that just ended is kept `ttl` from now.
fn touch(stored: &mut Stored) {
    stored.task.last_updated_at = iso8601(SystemTime::now());
    if is_terminal(stored.task.status) {
        stored.expires = expiry(stored.task.ttl);
    }
}

fn expiry(ttl: Option<u64>) -> Option<Instant> {
    ttl.map(|ms| Instant::now() + Duration::from_millis(ms))
}

fn purge(tasks: &mut IndexMap<String, Stored>) {
    let now = Instant::now();
    tasks.retain(|_, stored| stored.expires.is_none_or(|at| at > now));
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn session(name: &str) -> Option<String> {
        Some(name.to_owned())
    }

    #[test]
    fn results_are_stored_once_and_terminal_states_stay() {
        let store = InMemoryTaskStore::new();
        let task = store.create(CreateTaskOptions { ttl: Some(60_000), poll_interval: None }, session("a"));
        assert_eq!((task.status, task.poll_interval, task.ttl), (TaskStatus::Working, Some(1000), Some(60_000)));
        assert_eq!(store.result(&task.task_id, &session("a")).unwrap_err().code, -32602);
        store.update(&task.task_id, TaskStatus::InputRequired, Some("asking".into()), &session("a")).unwrap();
        store.store_result(&task.task_id, TaskStatus::Completed, json!({"content": []}), &session("a")).unwrap();
        let done = store.get(&task.task_id, &session("a")).unwrap();
        assert_eq!((done.status, done.status_message.as_deref()), (TaskStatus::Completed, Some("asking")));
        assert!(store.store_result(&task.task_id, TaskStatus::Failed, json!({}), &session("a")).is_err());
        assert!(store.update(&task.task_id, TaskStatus::Cancelled, None, &session("a")).is_err());
        assert_eq!(store.result(&task.task_id, &session("a")).unwrap(), json!({"content": []}));
    }

    #[test]
    fn a_task_is_its_sessions() {
        let store = InMemoryTaskStore::new();
        let task = store.create(CreateTaskOptions::default(), session("a"));
        assert!(store.get(&task.task_id, &session("b")).is_none());
        assert!(store.list(None, &session("b")).unwrap().tasks.is_empty());
        assert_eq!(store.list(None, &session("a")).unwrap().tasks.len(), 1);
        assert_eq!(task.ttl, None);
    }

    #[test]
    fn pages_of_ten_follow_their_cursor() {
        let store = InMemoryTaskStore::new();
        let ids: Vec<String> = (0..12).map(|_| store.create(CreateTaskOptions::default(), None).task_id).collect();
        let first = store.list(None, &None).unwrap();
        assert_eq!(first.tasks.len(), 10);
        assert_eq!(first.next_cursor.as_deref(), Some(ids[9].as_str()));
        let second = store.list(first.next_cursor, &None).unwrap();
        let rest: Vec<&str> = second.tasks.iter().map(|t| t.task_id.as_str()).collect();
        assert_eq!(rest, [ids[10].as_str(), ids[11].as_str()]);
        assert_eq!(second.next_cursor, None);
        assert_eq!(store.list(Some("nope".into()), &None).unwrap_err().code, -32602);
    }

    #[test]
    fn expired_tasks_are_gone() {
        let store = InMemoryTaskStore::new();
        let task = store.create(CreateTaskOptions { ttl: Some(0), poll_interval: Some(5) }, None);
        assert!(store.get(&task.task_id, &None).is_none());
        assert!(store.all_tasks().is_empty());
    }
}
