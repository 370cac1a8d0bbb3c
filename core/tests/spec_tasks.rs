//! The 2025-11-25 revision's tasks (core protocol, experimental) over Streamable HTTP and
//! over the in-memory transport, with core's own client speaking 2025-11-25 to core's own
//! server: a task-augmented `tools/call`, `tasks/get`, `tasks/result`, `tasks/list`,
//! `tasks/cancel`, `notifications/tasks/status`, a task's input request (related-task
//! `_meta`, `input_required` meanwhile), the `taskSupport` rules, and an application's
//! store plugged in with `Server::set_task_store`. Every task message the server emits is
//! checked against the 2025-11-25 schema.
//!
//! Handlers wait on gates the test opens, so the order of events is the test's.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use ferrymcp_core::client::http::HttpClientOptions;
use ferrymcp_core::client::{Client, ClientCallbacks, ClientError, ClientOptions, EraPreference};
use ferrymcp_core::peer::{BoxFuture, PeerError, RequestOptions};
use ferrymcp_core::protocol::{Task, TaskStatus};
use ferrymcp_core::server::http::{HttpHandler, HttpOptions, HttpServer, ServeOptions, serve};
use ferrymcp_core::server::{
    Context, CreateTaskOptions, HandlerError, InMemoryTaskStore, Server, TaskPage, TaskStart, TaskStore, ToolOptions,
};
use ferrymcp_core::transport::memory;
use ferrymcp_core::wire::ErrorObject;
use serde_json::{Map, Value, json};
use tokio::sync::{Notify, mpsc};

/// A guard against a hang, not a timing assertion.
const HANG_GUARD: Duration = Duration::from_secs(30);
const RELATED: &str = "io.modelcontextprotocol/related-task";

fn schema() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/mcp-schema/2025-11-25.schema.json");
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    })
}

/// Panics unless `instance` is a valid `name` of the 2025-11-25 schema.
fn valid(name: &str, instance: &Value) {
    let doc = schema();
    let root = json!({"$schema": doc["$schema"], "$ref": format!("#/$defs/{name}"), "$defs": doc["$defs"]});
    let validator = jsonschema::validator_for(&root).expect("the schema compiles");
    let errors: Vec<String> =
        validator.iter_errors(instance).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{instance} is not a valid {name}: {}", errors.join("; "));
}

fn tool(name: &str, support: &str) -> Value {
    json!({"name": name, "inputSchema": {"type": "object"}, "execution": {"taskSupport": support}})
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text in {result}"))
}

/// What the client saw: the elicitation requests (their params) and the status
/// notifications.
#[derive(Default)]
struct Seen {
    asked: Mutex<Vec<Value>>,
    statuses: Mutex<Vec<Value>>,
}

struct Fixture {
    server: Server,
    /// Opened by the test to let `gated` finish.
    gate: Arc<Notify>,
    /// Each elicitation as it arrives; the answer waits for `answer`.
    asked: mpsc::UnboundedReceiver<()>,
    answer: Arc<Notify>,
    seen: Arc<Seen>,
}

/// The server and what the test drives it with, and the sender the client's elicitation
/// callback tells each request on.
fn fixture() -> (Fixture, mpsc::UnboundedSender<()>) {
    let server = Server::new("spec-tasks", "1.0.0");
    let greet = |_: Map<String, Value>, cx: Context| async move {
        let ask = json!({"message": "name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}});
        let answer = cx.elicit(ask).await?;
        let name = answer["content"]["name"].as_str().unwrap_or("nobody").to_owned();
        Ok::<_, HandlerError>(json!({"content": [{"type": "text", "text": format!("Hello, {name}!")}]}))
    };
    server.add_tool(tool("greet", "required"), greet).unwrap();
    let gate = Arc::new(Notify::new());
    let opened = gate.clone();
    let gated = move |_: Map<String, Value>, _: Context| {
        let opened = opened.clone();
        async move {
            opened.notified().await;
            Ok::<_, HandlerError>(json!({"content": [{"type": "text", "text": "done"}]}))
        }
    };
    server.add_tool(tool("gated", "optional"), gated).unwrap();
    let failing = |_: Map<String, Value>, _: Context| async move {
        Err::<Value, _>(HandlerError::Rpc(ErrorObject::invalid_params("bad input")))
    };
    server.add_tool(tool("failing", "optional"), failing).unwrap();
    let plain = |_: Map<String, Value>, _: Context| async move {
        Ok::<_, HandlerError>(json!({"content": [{"type": "text", "text": "plain"}]}))
    };
    server.add_tool(json!({"name": "plain", "inputSchema": {"type": "object"}}), plain).unwrap();
    server.add_tool(tool("quick", "optional"), plain).unwrap();
    let (tell, asked) = mpsc::unbounded_channel();
    (Fixture { server, gate, asked, answer: Arc::new(Notify::new()), seen: Arc::new(Seen::default()) }, tell)
}

fn callbacks(fixture: &Fixture, tell: mpsc::UnboundedSender<()>) -> ClientCallbacks {
    let (seen, answer) = (fixture.seen.clone(), fixture.answer.clone());
    let elicit = Arc::new(move |params: Value| -> BoxFuture<Result<Value, ErrorObject>> {
        seen.asked.lock().unwrap().push(params);
        let _ = tell.send(());
        let answer = answer.clone();
        Box::pin(async move {
            answer.notified().await;
            Ok(json!({"action": "accept", "content": {"name": "Ada"}}))
        })
    });
    let seen = fixture.seen.clone();
    let notification = Arc::new(move |method: &str, params: Value| {
        if method == "notifications/tasks/status" {
            seen.statuses.lock().unwrap().push(params);
        }
    });
    ClientCallbacks { elicitation: Some(elicit), notification: Some(notification), ..ClientCallbacks::default() }
}

fn options(version: &str) -> ClientOptions {
    ClientOptions {
        era: EraPreference::Legacy,
        legacy_version: version.into(),
        capabilities: json!({"elicitation": {"form": {}}}),
        ..ClientOptions::default()
    }
}

async fn over_http(server: Server, callbacks: ClientCallbacks, version: &str) -> (HttpServer, Client) {
    let http = serve(HttpHandler::new(server, HttpOptions::default()), ServeOptions::default()).await.unwrap();
    let url = format!("http://{}/mcp", http.local_addr());
    let client = Client::connect_http(HttpClientOptions::new(url), options(version), callbacks).await.unwrap();
    assert_eq!(client.server().protocol_version, version);
    (http, client)
}

async fn in_memory(server: &Server, callbacks: ClientCallbacks, version: &str) -> Client {
    let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
    let serving = server.clone();
    tokio::spawn(async move { serving.serve(server_source, server_sink).await });
    Client::connect(client_source, client_sink, options(version), callbacks).await.unwrap()
}

async fn request(client: &Client, method: &str, params: Value) -> Value {
    let call = client.request(method, params, RequestOptions::default());
    let result = tokio::time::timeout(HANG_GUARD, call).await.unwrap_or_else(|_| panic!("{method} hung"));
    result.unwrap_or_else(|e| panic!("{method}: {e}"))
}

async fn refused(client: &Client, method: &str, params: Value) -> ErrorObject {
    match client.request(method, params, RequestOptions::default()).await {
        Err(ClientError::Peer(PeerError::Rpc(error))) => error,
        other => panic!("{method} was not refused: {other:?}"),
    }
}

/// A task-augmented `tools/call`: the new task's id.
async fn create(client: &Client, tool: &str) -> String {
    let created = request(client, "tools/call", json!({"name": tool, "arguments": {}, "task": {"ttl": 60_000}})).await;
    valid("CreateTaskResult", &created);
    assert_eq!(created["task"]["status"], "working", "{created}");
    assert_eq!(created["task"]["ttl"], 60_000);
    created["task"]["taskId"].as_str().unwrap().to_owned()
}

/// The whole life of tasks on one connection.
async fn lifecycle(client: &Client, fixture: &mut Fixture) {
    let capabilities = &client.server().capabilities;
    assert_eq!(capabilities["tasks"], json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}));
    valid("ServerCapabilities", capabilities);

    // A task that asks the client for input: input_required while it waits.
    let greet = create(client, "greet").await;
    fixture.asked.recv().await.expect("the elicitation arrives");
    let asked = fixture.seen.asked.lock().unwrap()[0].clone();
    assert_eq!(asked["_meta"][RELATED], json!({"taskId": greet}), "{asked}");
    let waiting = request(client, "tasks/get", json!({"taskId": greet})).await;
    valid("GetTaskResult", &waiting);
    assert_eq!(waiting["status"], "input_required", "{waiting}");
    fixture.answer.notify_one();
    let result = request(client, "tasks/result", json!({"taskId": greet})).await;
    valid("CallToolResult", &result);
    assert_eq!(text(&result), "Hello, Ada!");
    assert_eq!(result["_meta"][RELATED], json!({"taskId": greet}));
    let done = request(client, "tasks/get", json!({"taskId": greet})).await;
    assert_eq!(done["status"], "completed");

    // tasks/result waits for a task that is still working.
    let gated = create(client, "gated").await;
    let waiting = client.request("tasks/result", json!({"taskId": gated}), RequestOptions::default());
    let opener = async {
        let working = request(client, "tasks/get", json!({"taskId": gated})).await;
        assert_eq!(working["status"], "working");
        fixture.gate.notify_one();
    };
    let (result, ()) = tokio::join!(waiting, opener);
    assert_eq!(text(&result.unwrap()), "done");

    // A JSON-RPC error fails the task.
    let failing = create(client, "failing").await;
    let result = request(client, "tasks/result", json!({"taskId": failing})).await;
    assert_eq!(result["isError"], true, "{result}");
    let failed = request(client, "tasks/get", json!({"taskId": failing})).await;
    assert_eq!(failed["status"], "failed");

    // Cancelling stops a task once.
    let stopped = create(client, "gated").await;
    let cancelled = request(client, "tasks/cancel", json!({"taskId": stopped})).await;
    valid("CancelTaskResult", &cancelled);
    assert_eq!(cancelled["status"], "cancelled");
    assert_eq!(refused(client, "tasks/cancel", json!({"taskId": stopped})).await.code, -32602);
    assert_eq!(refused(client, "tasks/get", json!({"taskId": "unknown"})).await.code, -32602);

    let listed = request(client, "tasks/list", json!({})).await;
    valid("ListTasksResult", &listed);
    let ids: Vec<&str> = listed["tasks"].as_array().unwrap().iter().map(|t| t["taskId"].as_str().unwrap()).collect();
    assert_eq!(ids, [greet.as_str(), gated.as_str(), failing.as_str(), stopped.as_str()]);

    // taskSupport: required refuses a plain call, forbidden ignores `task`, optional runs
    // a plain call as usual.
    let error = refused(client, "tools/call", json!({"name": "greet", "arguments": {}})).await;
    assert_eq!(error.code, -32601, "{error:?}");
    let plain = request(client, "tools/call", json!({"name": "plain", "arguments": {}, "task": {}})).await;
    assert_eq!(text(&plain), "plain");
    let optional = request(client, "tools/call", json!({"name": "quick", "arguments": {}})).await;
    assert_eq!(text(&optional), "plain");

    // Every change was announced.
    let statuses = fixture.seen.statuses.lock().unwrap().clone();
    for status in &statuses {
        valid("TaskStatusNotificationParams", status);
    }
    let of = |id: &str| -> Vec<String> {
        statuses.iter().filter(|s| s["taskId"] == id).map(|s| s["status"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(of(&greet), ["input_required", "working", "completed"]);
    assert_eq!(of(&stopped), ["cancelled"]);
}

#[tokio::test]
async fn tasks_over_streamable_http() {
    let (mut fixture, tell) = fixture();
    let callbacks = callbacks(&fixture, tell);
    let (_http, client) = over_http(fixture.server.clone(), callbacks, "2025-11-25").await;
    lifecycle(&client, &mut fixture).await;
}

#[tokio::test]
async fn tasks_over_a_connection() {
    let (mut fixture, tell) = fixture();
    let callbacks = callbacks(&fixture, tell);
    let client = in_memory(&fixture.server, callbacks, "2025-11-25").await;
    lifecycle(&client, &mut fixture).await;
}

#[tokio::test]
async fn an_earlier_revision_has_no_tasks() {
    let (fixture, tell) = fixture();
    let callbacks = callbacks(&fixture, tell);
    let client = in_memory(&fixture.server, callbacks, "2025-06-18").await;
    assert!(client.server().capabilities.get("tasks").is_none());
    assert_eq!(refused(&client, "tasks/list", json!({})).await.code, -32601);
    let plain = request(&client, "tools/call", json!({"name": "gated", "arguments": {}, "task": {"ttl": 1}}));
    let opener = async { fixture.gate.notify_one() };
    let (plain, ()) = tokio::join!(plain, opener);
    assert_eq!(text(&plain), "done");
}

/// An application's store: core's in-memory one, counting what core asks of it.
struct Counting {
    inner: InMemoryTaskStore,
    calls: AtomicUsize,
    /// The session key of each `create_task` and `get_task`.
    sessions: Mutex<Vec<Option<String>>>,
}

impl TaskStore for Counting {
    fn create_task(
        &self,
        o: CreateTaskOptions,
        id: Value,
        r: Value,
        s: Option<String>,
    ) -> BoxFuture<Result<Task, ErrorObject>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.sessions.lock().unwrap().push(s.clone());
        self.inner.create_task(CreateTaskOptions { poll_interval: Some(25), ..o }, id, r, s)
    }
    fn get_task(&self, id: String, s: Option<String>) -> BoxFuture<Result<Option<Task>, ErrorObject>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.sessions.lock().unwrap().push(s.clone());
        self.inner.get_task(id, s)
    }
    fn store_task_result(
        &self,
        id: String,
        st: TaskStatus,
        r: Value,
        s: Option<String>,
    ) -> BoxFuture<Result<(), ErrorObject>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.inner.store_task_result(id, st, r, s)
    }
    fn get_task_result(&self, id: String, s: Option<String>) -> BoxFuture<Result<Value, ErrorObject>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.inner.get_task_result(id, s)
    }
    fn update_task_status(
        &self,
        id: String,
        st: TaskStatus,
        m: Option<String>,
        s: Option<String>,
    ) -> BoxFuture<Result<(), ErrorObject>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.inner.update_task_status(id, st, m, s)
    }
    fn list_tasks(&self, c: Option<String>, s: Option<String>) -> BoxFuture<Result<TaskPage, ErrorObject>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.inner.list_tasks(c, s)
    }
}

#[tokio::test]
async fn an_application_store_keeps_the_tasks() {
    let (fixture, tell) = fixture();
    let store =
        Arc::new(Counting { inner: InMemoryTaskStore::new(), calls: AtomicUsize::new(0), sessions: Mutex::default() });
    fixture.server.set_task_store(store.clone());
    let callbacks = callbacks(&fixture, tell);
    let (_http, client) = over_http(fixture.server.clone(), callbacks, "2025-11-25").await;
    let id = create(&client, "gated").await;
    let got = request(&client, "tasks/get", json!({"taskId": id})).await;
    assert_eq!(got["pollInterval"], 25, "the application's store made the task");
    fixture.gate.notify_one();
    let result = request(&client, "tasks/result", json!({"taskId": id})).await;
    assert_eq!(text(&result), "done");
    assert_eq!(store.inner.all_tasks().len(), 1);
    assert!(store.calls.load(Ordering::SeqCst) >= 4);
}

/// A tool that makes its tasks itself (`TaskStart::Handler`, the official v1
/// `registerToolTask`): its handler creates the task with the request's store and ends it
/// later; a task-augmented call answers its `CreateTaskResult`, `tasks/result` the stored
/// result, a plain call of the `optional` tool the result of the task it made. The store's
/// session key is the HTTP session's id, the one the handler sees.
#[tokio::test]
async fn a_tool_makes_its_own_tasks_and_the_store_gets_the_http_session_id() {
    let (fixture, tell) = fixture();
    let store =
        Arc::new(Counting { inner: InMemoryTaskStore::new(), calls: AtomicUsize::new(0), sessions: Mutex::default() });
    fixture.server.set_task_store(store.clone());
    let transport_ids = Arc::new(Mutex::new(Vec::new()));
    let seen = transport_ids.clone();
    let own = move |arguments: Map<String, Value>, cx: Context| {
        let seen = seen.clone();
        async move {
            seen.lock().unwrap().push(cx.session().and_then(|s| s.transport_session_id()));
            let tasks = cx.task_store();
            let task =
                tasks.create_task(CreateTaskOptions { ttl: cx.task_requested_ttl(), poll_interval: None }).await?;
            let id = task.task_id.clone();
            let label = arguments["label"].as_str().unwrap_or_default().to_owned();
            tokio::spawn(async move {
                let result = json!({"content": [{"type": "text", "text": format!("made {label}")}]});
                tasks.store_task_result(&id, TaskStatus::Completed, result).await.unwrap();
            });
            Ok::<_, HandlerError>(json!({"task": task}))
        }
    };
    let options = ToolOptions { task_start: TaskStart::Handler, ..ToolOptions::default() };
    fixture.server.add_tool_with(tool("own", "optional"), own, options).unwrap();
    let callbacks = callbacks(&fixture, tell);
    let (_http, client) = over_http(fixture.server.clone(), callbacks, "2025-11-25").await;

    let created =
        request(&client, "tools/call", json!({"name": "own", "arguments": {"label": "a"}, "task": {"ttl": 45_000}}))
            .await;
    valid("CreateTaskResult", &created);
    assert_eq!(created["task"]["ttl"], 45_000, "{created}");
    let id = created["task"]["taskId"].as_str().unwrap().to_owned();
    let result = request(&client, "tasks/result", json!({"taskId": id})).await;
    assert_eq!(text(&result), "made a");
    assert_eq!(result["_meta"][RELATED]["taskId"], id.as_str());

    let plain = request(&client, "tools/call", json!({"name": "own", "arguments": {"label": "b"}})).await;
    assert_eq!(text(&plain), "made b");
    assert_eq!(store.inner.all_tasks().len(), 2);

    let ids = transport_ids.lock().unwrap().clone();
    let session = ids[0].clone().expect("an HTTP session has an id");
    assert!(session.parse::<u64>().is_err(), "the Mcp-Session-Id, not the connection's number: {session}");
    assert!(ids.iter().all(|id| id.as_deref() == Some(session.as_str())));
    let keys = store.sessions.lock().unwrap().clone();
    assert!(!keys.is_empty());
    assert!(keys.iter().all(|key| key.as_deref() == Some(session.as_str())), "{keys:?} / {session}");
}

/// A task created without a `ttl` is never expired by the store and only its session can
/// reach it: when that HTTP session ends (the client's DELETE), core's in-memory store
/// forgets it and its handler is stopped, so a client that goes away leaves nothing behind.
/// A task with a `ttl` is kept until it expires, as before.
#[tokio::test]
async fn an_unexpiring_task_is_forgotten_and_stopped_when_its_session_ends() {
    let (fixture, tell) = fixture();
    let store = Arc::new(InMemoryTaskStore::new());
    fixture.server.set_task_store(store.clone());
    let (held, released) = tokio::sync::oneshot::channel::<()>();
    let held = Arc::new(Mutex::new(Some(held)));
    let hold = move |_: Map<String, Value>, _: Context| {
        // Kept by the handler's future until it ends or is dropped.
        let guard = held.lock().unwrap().take();
        async move {
            let _guard = guard;
            std::future::pending::<()>().await;
            Ok::<_, HandlerError>(json!({}))
        }
    };
    fixture.server.add_tool(tool("hold", "required"), hold).unwrap();
    let callbacks = callbacks(&fixture, tell);
    let (_http, client) = over_http(fixture.server.clone(), callbacks, "2025-11-25").await;
    let forever = request(&client, "tools/call", json!({"name": "hold", "arguments": {}, "task": {}})).await;
    assert_eq!(forever["task"]["ttl"], Value::Null, "{forever}");
    let kept = create(&client, "gated").await;
    assert_eq!(store.all_tasks().len(), 2);

    client.close().await;
    let ids: Vec<String> = store.all_tasks().into_iter().map(|task| task.task_id).collect();
    assert_eq!(ids, [kept], "only the task with a ttl is kept");
    let stopped = tokio::time::timeout(HANG_GUARD, released).await.expect("the handler was stopped");
    assert!(stopped.is_err(), "the handler's future was dropped, not finished");
}
