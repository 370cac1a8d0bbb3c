//! The server's tasks: the state `tasks/get` reads and `tasks/update` / `tasks/cancel`
//! change, kept in memory, bounded, and dropped once their `ttlMs` has passed.
//!
//! A task is one `tools/call` whose handler runs on after the call was answered. Its entry
//! holds the status, the inlined result or error, the input requests the handler is
//! waiting on (each with the channel its answer goes back through), and the cancellation
//! token the handler runs under. Every change goes through one method here, so the rules
//! hold in one place: terminal states never change, input keys are never reused, and
//! answers for keys not outstanding are ignored.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use indexmap::IndexMap;
use serde_json::{Map, Value, json};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::clock::iso8601;
use crate::server::mrtr::check_response;
use crate::wire::ErrorObject;

/// How the server keeps tasks.
#[derive(Clone, Debug)]
pub struct TaskOptions {
    /// Most tasks kept at once. When full, the oldest finished task makes room; when every
    /// task is still running, no new task is created (the call answers -32603).
    pub max_tasks: usize,
    /// How long a task is kept after its creation (`ttlMs`); `None` keeps it until the
    /// store needs the room. A task still running when it expires is cancelled.
    pub ttl: Option<Duration>,
    /// The polling interval suggested to clients (`pollIntervalMs`).
    pub poll_interval: Duration,
}

impl Default for TaskOptions {
    fn default() -> Self {
        Self { max_tasks: 1024, ttl: Some(Duration::from_secs(3600)), poll_interval: Duration::from_millis(500) }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Self::Working => "working",
            Self::InputRequired => "input_required",
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }

    fn is_terminal(self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }
}

/// An input the handler waits on: what was asked, and where the answer goes.
struct Pending {
    method: String,
    request: Value,
    reply: oneshot::Sender<Value>,
}

struct State {
    status: Status,
    status_message: Option<String>,
    last_updated: SystemTime,
    result: Option<Value>,
    error: Option<Value>,
    pending: IndexMap<String, Pending>,
    /// Every key ever issued, so none is issued twice.
    issued: HashSet<String>,
    next_key: usize,
}

/// One task.
pub(crate) struct TaskEntry {
    pub id: String,
    created: SystemTime,
    expires: Option<Instant>,
    ttl_ms: Option<u64>,
    poll_ms: u64,
    /// What the handler runs under; `tasks/cancel` fires it.
    pub cancel: CancellationToken,
    state: Mutex<State>,
}

impl TaskEntry {
    fn new(id: String, options: &TaskOptions) -> Self {
        let now = SystemTime::now();
        Self {
            id,
            created: now,
            expires: options.ttl.map(|ttl| Instant::now() + ttl),
            ttl_ms: options.ttl.map(|ttl| ttl.as_millis() as u64),
            poll_ms: (options.poll_interval.as_millis() as u64).max(1),
            cancel: CancellationToken::new(),
            state: Mutex::new(State {
                status: Status::Working,
                status_message: None,
                last_updated: now,
                result: None,
                error: None,
                pending: IndexMap::new(),
                issued: HashSet::new(),
                next_key: 0,
            }),
        }
    }

    /// The `Task` members: what `CreateTaskResult` carries beside `resultType`.
    pub fn task(&self) -> Map<String, Value> {
        let state = self.state.lock().unwrap();
        self.members(&state)
    }

    /// The `DetailedTask`: the task with its result, error or input requests inlined, as
    /// `tasks/get` and `notifications/tasks` carry it.
    pub fn detailed(&self) -> Map<String, Value> {
        let state = self.state.lock().unwrap();
        let mut task = self.members(&state);
        match state.status {
            Status::Completed => task.insert("result".into(), state.result.clone().unwrap_or_else(|| json!({}))),
            Status::Failed => task.insert("error".into(), state.error.clone().unwrap_or_else(|| json!({}))),
            Status::InputRequired => {
                let requests: Map<String, Value> =
                    state.pending.iter().map(|(key, pending)| (key.clone(), pending.request.clone())).collect();
                task.insert("inputRequests".into(), Value::Object(requests))
            }
            Status::Working | Status::Cancelled => None,
        };
        task
    }

    fn members(&self, state: &State) -> Map<String, Value> {
        let mut task = Map::new();
        task.insert("taskId".into(), json!(self.id));
        task.insert("status".into(), json!(state.status.as_str()));
        if let Some(message) = &state.status_message {
            task.insert("statusMessage".into(), json!(message));
        }
        task.insert("createdAt".into(), json!(iso8601(self.created)));
        task.insert("lastUpdatedAt".into(), json!(iso8601(state.last_updated)));
        task.insert("ttlMs".into(), json!(self.ttl_ms));
        task.insert("pollIntervalMs".into(), json!(self.poll_ms));
        task
    }

    pub fn is_terminal(&self) -> bool {
        self.state.lock().unwrap().status.is_terminal()
    }

    /// Records an input the handler needs, under `key` (made unique if it was issued
    /// before) or the next automatic key; the answer arrives on the returned channel.
    /// `None` once the task has ended.
    pub fn ask(&self, key: Option<&str>, method: &str, params: Value) -> Option<oneshot::Receiver<Value>> {
        let mut state = self.state.lock().unwrap();
        if state.status.is_terminal() {
            return None;
        }
        let key = unique_key(&mut state, key);
        let (reply, answer) = oneshot::channel();
        let request = json!({"method": method, "params": params});
        state.pending.insert(key, Pending { method: method.to_owned(), request, reply });
        state.status = Status::InputRequired;
        state.last_updated = SystemTime::now();
        Some(answer)
    }

    /// Delivers `tasks/update` answers. Answers for keys not outstanding are ignored; an
    /// answer that is not a result of what was asked fails the whole update, unapplied.
    /// Returns whether anything changed.
    pub fn answer(&self, responses: &Map<String, Value>) -> Result<bool, ErrorObject> {
        let mut state = self.state.lock().unwrap();
        for (key, response) in responses {
            if let Some(pending) = state.pending.get(key) {
                let kind = crate::server::router::client_input(&pending.method, &pending.request["params"]);
                check_response(key, &pending.method, kind, response)?;
            }
        }
        let mut changed = false;
        for (key, response) in responses {
            if let Some(pending) = state.pending.shift_remove(key) {
                let _ = pending.reply.send(response.clone());
                changed = true;
            }
        }
        if changed {
            if state.pending.is_empty() && state.status == Status::InputRequired {
                state.status = Status::Working;
            }
            state.last_updated = SystemTime::now();
        }
        Ok(changed)
    }

    /// Ends the task with the handler's outcome; a task already ended keeps its state.
    /// Returns whether this call ended it.
    pub fn finish(&self, outcome: Result<Value, ErrorObject>) -> bool {
        let mut state = self.state.lock().unwrap();
        if state.status.is_terminal() {
            return false;
        }
        match outcome {
            Ok(result) => {
                state.status = Status::Completed;
                state.result = Some(result);
            }
            Err(error) => {
                state.status = Status::Failed;
                state.status_message = Some(error.message.clone());
                state.error = Some(serde_json::to_value(&error).expect("an error object serialises"));
            }
        }
        state.pending.clear();
        state.last_updated = SystemTime::now();
        true
    }

    /// Cancels the task: it is `cancelled` from now on and its handler is stopped. A task
    /// already ended is left as it is. Returns whether this call cancelled it.
    pub fn cancel(&self, message: &str) -> bool {
        {
            let mut state = self.state.lock().unwrap();
            if state.status.is_terminal() {
                return false;
            }
            state.status = Status::Cancelled;
            state.status_message = Some(message.to_owned());
            state.pending.clear();
            state.last_updated = SystemTime::now();
        }
        self.cancel.cancel();
        true
    }

    fn expired(&self, now: Instant) -> bool {
        self.expires.is_some_and(|at| at <= now)
    }
}

fn unique_key(state: &mut State, key: Option<&str>) -> String {
    let mut candidate = match key {
        Some(key) => key.to_owned(),
        None => automatic_key(state),
    };
    while state.issued.contains(&candidate) {
        candidate = match key {
            Some(key) => format!("{key}-{}", state.next_key),
            None => automatic_key(state),
        };
        state.next_key += 1;
    }
    state.issued.insert(candidate.clone());
    candidate
}

fn automatic_key(state: &mut State) -> String {
    let key = format!("input-{}", state.next_key);
    state.next_key += 1;
    key
}

/// Every task of one server.
pub(crate) struct TaskTable {
    options: TaskOptions,
    tasks: Mutex<IndexMap<String, Arc<TaskEntry>>>,
}

impl TaskTable {
    pub fn new(options: TaskOptions) -> Self {
        Self { options, tasks: Mutex::new(IndexMap::new()) }
    }

    /// A new working task, stored before it is returned (so a `tasks/get` for it resolves
    /// as soon as the client can know its id).
    pub fn create(&self) -> Result<Arc<TaskEntry>, ErrorObject> {
        let mut tasks = self.tasks.lock().unwrap();
        purge_expired(&mut tasks);
        if tasks.len() >= self.options.max_tasks.max(1) {
            let oldest_finished = tasks.iter().position(|(_, task)| task.is_terminal());
            match oldest_finished {
                Some(index) => drop(tasks.shift_remove_index(index)),
                None => return Err(ErrorObject::internal("Too many tasks are running; try again later")),
            }
        }
        let entry = Arc::new(TaskEntry::new(new_id(), &self.options));
        tasks.insert(entry.id.clone(), entry.clone());
        Ok(entry)
    }

    /// The task with this id, unless it is unknown or has expired.
    pub fn get(&self, id: &str) -> Option<Arc<TaskEntry>> {
        let mut tasks = self.tasks.lock().unwrap();
        purge_expired(&mut tasks);
        tasks.get(id).cloned()
    }

    /// Forgets a task that was never handed to the client.
    pub fn discard(&self, id: &str) {
        self.tasks.lock().unwrap().shift_remove(id);
    }
}

fn purge_expired(tasks: &mut IndexMap<String, Arc<TaskEntry>>) {
    let now = Instant::now();
    tasks.retain(|_, task| {
        let expired = task.expired(now);
        if expired {
            task.cancel("The task expired");
        }
        !expired
    });
}

/// 128 random bits: a task id is the only thing that names a task, so it must not be
/// guessable. The 2025-11-25 tasks' store draws its ids here too.
pub(super) fn new_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the OS has a random source");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(max_tasks: usize, ttl: Option<Duration>) -> TaskTable {
        TaskTable::new(TaskOptions { max_tasks, ttl, poll_interval: Duration::from_millis(100) })
    }

    #[test]
    fn keys_are_never_reused_and_stray_answers_are_ignored() {
        let tasks = store(4, None);
        let task = tasks.create().unwrap();
        let first = task.ask(Some("name"), "elicitation/create", json!({})).unwrap();
        assert_eq!(task.detailed()["status"], "input_required");
        let answer = json!({"action": "accept", "content": {}});
        let mut responses = Map::new();
        responses.insert("name".into(), answer.clone());
        responses.insert("unknown".into(), json!({"ignored": true}));
        assert!(task.answer(&responses).unwrap());
        assert_eq!(first.blocking_recv().unwrap(), answer);
        assert_eq!(task.detailed()["status"], "working");
        assert!(!task.answer(&responses).unwrap(), "an answered key is not outstanding any more");
        let _second = task.ask(Some("name"), "elicitation/create", json!({})).unwrap();
        let keys: Vec<String> = task.detailed()["inputRequests"].as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys.len(), 1);
        assert_ne!(keys[0], "name");
    }

    #[test]
    fn a_malformed_answer_fails_the_update_unapplied() {
        let task = store(4, None).create().unwrap();
        let _answer = task.ask(None, "elicitation/create", json!({})).unwrap();
        let mut responses = Map::new();
        responses.insert("input-0".into(), json!({"no": "action"}));
        assert_eq!(task.answer(&responses).unwrap_err().code, -32602);
        assert_eq!(task.detailed()["status"], "input_required");
    }

    #[test]
    fn terminal_states_do_not_change() {
        let task = store(4, None).create().unwrap();
        assert!(task.cancel("stop"));
        assert!(task.cancel.is_cancelled());
        assert!(!task.finish(Ok(json!({"content": []}))));
        assert_eq!(task.detailed()["status"], "cancelled");
        assert!(task.detailed().get("result").is_none());
    }

    #[test]
    fn full_store_evicts_the_oldest_finished_task_only() {
        let tasks = store(2, None);
        let (a, b) = (tasks.create().unwrap(), tasks.create().unwrap());
        assert_eq!(tasks.create().err().map(|e| e.code), Some(-32603));
        b.finish(Err(ErrorObject::internal("boom")));
        let c = tasks.create().unwrap();
        assert!(tasks.get(&b.id).is_none());
        assert!(tasks.get(&a.id).is_some() && tasks.get(&c.id).is_some());
        assert_eq!(a.id.len(), 32);
    }

    #[test]
    fn expired_tasks_are_gone_and_stopped() {
        let tasks = store(4, Some(Duration::ZERO));
        let task = tasks.create().unwrap();
        assert_eq!(task.task()["ttlMs"], 0);
        assert!(tasks.get(&task.id).is_none());
        assert!(task.cancel.is_cancelled());
    }
}
