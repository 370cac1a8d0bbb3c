//! The tasks extension (`io.modelcontextprotocol/tasks`) end to end: a real server and a
//! raw JSON-RPC peer over the in-memory transport, sending 2026-07-28 requests as a client
//! would. Every task message the server emits is checked against the extension's schema
//! (`tests/mcp-schema/ext-tasks.schema.json`), and every `tools/call` result also against
//! the 2026-07-28 core schema.
//!
//! Handlers wait on gates the test opens, so the order of events is the test's, not the
//! scheduler's; the only clock is the TTL test's, whose task must expire.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use ferrymcp_core::client::ClientCallbacks;
use ferrymcp_core::peer::{Peer, PeerConfig, PeerError, RequestOptions};
use ferrymcp_core::server::{Context, HandlerError, Server, ServerOptions, TaskOptions, TaskStart};
use ferrymcp_core::transport::memory;
use ferrymcp_core::wire::ErrorObject;
use serde_json::{Map, Value, json};
use tokio::sync::Semaphore;

const EXTENSION: &str = "io.modelcontextprotocol/tasks";

// ---------------------------------------------------------------------------------------
// Schemas

fn schema(file: &str) -> &'static Value {
    static DOCS: OnceLock<Mutex<Vec<(String, &'static Value)>>> = OnceLock::new();
    let mut docs = DOCS.get_or_init(Default::default).lock().unwrap();
    if let Some((_, doc)) = docs.iter().find(|(name, _)| name == file) {
        return doc;
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/mcp-schema").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let doc: &'static Value = Box::leak(Box::new(serde_json::from_str(&text).unwrap()));
    docs.push((file.to_owned(), doc));
    doc
}

/// Panics unless `instance` is a valid `name` of the schema in `file`.
fn assert_valid(file: &str, name: &str, instance: &Value) {
    let doc = schema(file);
    let root = json!({"$schema": doc["$schema"], "$ref": format!("#/$defs/{name}"), "$defs": doc["$defs"]});
    let validator = jsonschema::validator_for(&root).expect("the schema compiles");
    let errors: Vec<String> =
        validator.iter_errors(instance).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{instance} is not a valid {name} ({file}): {}", errors.join("; "));
}

fn ext_valid(name: &str, instance: &Value) {
    assert_valid("ext-tasks.schema.json", name, instance);
}

// ---------------------------------------------------------------------------------------
// A raw 2026-07-28 client

type Seen = Arc<Mutex<Vec<(String, Value)>>>;

struct Probe {
    peer: Peer,
    seen: Seen,
}

impl Probe {
    fn connect(server: &Server) -> Self {
        let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
        let serving = server.clone();
        tokio::spawn(async move { serving.serve(server_source, server_sink).await });
        let seen: Seen = Arc::default();
        let sink = seen.clone();
        let callbacks = ClientCallbacks {
            notification: Some(Arc::new(move |method: &str, params: Value| {
                sink.lock().unwrap().push((method.to_owned(), params))
            })),
            ..ClientCallbacks::default()
        };
        Self {
            peer: Peer::spawn(client_source, client_sink, callbacks.handler().unwrap(), PeerConfig::default()),
            seen,
        }
    }

    /// `method` with the 2026-07-28 `_meta`; the client declares elicitation, and the tasks
    /// extension when `tasks`.
    async fn request(&self, method: &str, mut params: Value, tasks: bool) -> Result<Value, ErrorObject> {
        let mut capabilities = json!({"elicitation": {}});
        if tasks {
            capabilities["extensions"] = json!({ EXTENSION: {} });
        }
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
            "io.modelcontextprotocol/clientInfo": {"name": "tasks-test", "version": "1.0.0"},
        });
        match self.peer.request(method, Some(&params), RequestOptions::default()).await {
            Ok(raw) => Ok(raw.parse_owned().unwrap()),
            Err(PeerError::Rpc(error)) => Err(error),
            Err(other) => panic!("{method}: {other}"),
        }
    }

    async fn call(&self, name: &str, arguments: Value) -> Value {
        let result = self.request("tools/call", json!({"name": name, "arguments": arguments}), true).await.unwrap();
        assert_valid("2026-07-28.schema.json", "CallToolResult", &result);
        result
    }

    /// Calls a task tool and returns the task id, checking the `CreateTaskResult`.
    async fn start(&self, name: &str, arguments: Value) -> String {
        let created = self.call(name, arguments).await;
        ext_valid("CreateTaskResult", &created);
        assert_eq!(created["resultType"], "task", "{created}");
        for absent in ["task", "result", "error", "inputRequests", "requestState", "ttl", "pollInterval"] {
            assert!(created.get(absent).is_none(), "{absent} in {created}");
        }
        created["taskId"].as_str().unwrap().to_owned()
    }

    async fn get(&self, id: &str) -> Value {
        let task = self.request("tasks/get", json!({"taskId": id}), true).await.unwrap();
        ext_valid("GetTaskResult", &task);
        assert_eq!(task["resultType"], "complete");
        task
    }

    /// Polls `tasks/get` until the task's status is one of `statuses`.
    async fn wait(&self, id: &str, statuses: &[&str]) -> Value {
        eventually(&format!("task {id} reaches {statuses:?}"), async || {
            let task = self.get(id).await;
            statuses.iter().any(|s| task["status"] == *s).then_some(task)
        })
        .await
    }

    async fn ack(&self, method: &str, params: Value) -> Value {
        let ack = self.request(method, params, true).await.unwrap();
        let name = if method == "tasks/cancel" { "CancelTaskResult" } else { "UpdateTaskResult" };
        ext_valid(name, &ack);
        for absent in ["taskId", "status", "result", "error", "inputRequests"] {
            assert!(ack.get(absent).is_none(), "{absent} in the {method} ack {ack}");
        }
        ack
    }
}

fn text(value: &str) -> Result<Value, HandlerError> {
    Ok(json!({"content": [{"type": "text", "text": value}]}))
}

fn support(name: &str, support: &str) -> Value {
    json!({"name": name, "inputSchema": {"type": "object"}, "execution": {"taskSupport": support}})
}

fn ask(field: &str) -> Value {
    json!({"message": format!("{field}?"), "requestedSchema": {"type": "object", "properties": {field: {"type": "string"}}}})
}

fn accept(field: &str, value: &str) -> Value {
    json!({"action": "accept", "content": {field: value}})
}

fn code(error: Result<Value, ErrorObject>) -> i64 {
    error.expect_err("an error").code
}

/// A gate a handler waits on until the test opens it.
fn gate() -> Arc<Semaphore> {
    Arc::new(Semaphore::new(0))
}

async fn pass(gate: &Semaphore) {
    gate.acquire().await.unwrap().forget();
}

/// Registers an `optional` task tool `name` that answers "done" once the returned gate
/// opens; it checks that it runs in a task, which sends no progress.
fn gated_tool(server: &Server, name: &str) -> Arc<Semaphore> {
    let open = gate();
    let waiting = open.clone();
    let handler = move |_: Map<String, Value>, cx: Context| {
        let waiting = waiting.clone();
        async move {
            assert!(cx.task_id().is_some());
            assert!(!cx.report_progress(1.0, None, None).await, "no progress from a task");
            pass(&waiting).await;
            text("done")
        }
    };
    server.add_tool(support(name, "optional"), handler).unwrap();
    open
}

// ---------------------------------------------------------------------------------------

#[tokio::test]
async fn a_task_tool_answers_with_a_task_and_tasks_get_inlines_the_outcome() {
    let server = Server::new("tasks", "1.0.0");
    let open = gated_tool(&server, "work");
    server
        .add_tool(support("tool_error", "required"), |_: Map<String, Value>, _cx: Context| async {
            Err(HandlerError::from("it broke"))
        })
        .unwrap();
    server
        .add_tool(support("rpc_error", "optional"), |_: Map<String, Value>, _cx: Context| async {
            Err(HandlerError::Rpc(ErrorObject::new(-32603, "internal trouble")))
        })
        .unwrap();
    server
        .add_tool(json!({"name": "plain", "inputSchema": {"type": "object"}}), |_, _cx| async { text("plain") })
        .unwrap();
    let probe = Probe::connect(&server);

    let discovered = probe.request("server/discover", json!({}), true).await.unwrap();
    assert_eq!(discovered["capabilities"]["extensions"][EXTENSION], json!({}));
    assert!(discovered["capabilities"].get("tasks").is_none());

    let id = probe.start("work", json!({})).await;
    let working = probe.get(&id).await;
    assert_eq!((working["taskId"].as_str(), working["status"].as_str()), (Some(id.as_str()), Some("working")));
    assert!(working.get("result").is_none());
    assert!(working["ttlMs"].as_u64().unwrap() > 0 && working["pollIntervalMs"].as_u64().unwrap() > 0);
    assert!(working["createdAt"].as_str().unwrap().ends_with('Z'));
    open.add_permits(1);
    let done = probe.wait(&id, &["completed"]).await;
    assert_eq!(done["result"]["content"][0]["text"], "done");
    assert_valid("2026-07-28.schema.json", "CallToolResult", &done["result"]);
    assert!(done["result"]["_meta"].get("io.modelcontextprotocol/related-task").is_none());

    let failed_tool = probe.start("tool_error", json!({})).await;
    let failed_tool = probe.wait(&failed_tool, &["completed", "failed"]).await;
    assert_eq!((failed_tool["status"].as_str(), &failed_tool["result"]["isError"]), (Some("completed"), &json!(true)));

    let failed = probe.start("rpc_error", json!({})).await;
    let failed = probe.wait(&failed, &["completed", "failed"]).await;
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["error"], json!({"code": -32603, "message": "internal trouble"}));
    assert!(failed.get("result").is_none());

    // A tool that does not support tasks, and the v1 `task` param, change nothing.
    let plain = probe.request("tools/call", json!({"name": "plain", "task": {"ttl": 1000}}), true).await.unwrap();
    assert_eq!((plain["resultType"].as_str(), plain.get("taskId")), (Some("complete"), None));
    for removed in ["tasks/result", "tasks/list"] {
        assert_eq!(code(probe.request(removed, json!({"taskId": id}), true).await), -32601, "{removed}");
    }
    assert_eq!(code(probe.request("tasks/get", json!({"taskId": "no-such-task"}), true).await), -32602);
}

#[tokio::test]
async fn tasks_cancel_stops_the_handler_and_is_acknowledged_even_when_done() {
    let server = Server::new("tasks", "1.0.0");
    let stopped = Arc::new(AtomicBool::new(false));
    let seen_cancel = Arc::new(AtomicBool::new(false));
    let (flag, cancel_flag) = (stopped.clone(), seen_cancel.clone());
    server
        .add_tool(support("forever", "optional"), move |_: Map<String, Value>, cx: Context| {
            let guard = DropFlag(flag.clone());
            let cancel_flag = cancel_flag.clone();
            async move {
                let _guard = guard;
                let token = cx.cancellation().clone();
                tokio::spawn(async move {
                    token.cancelled().await;
                    cancel_flag.store(true, Ordering::SeqCst);
                });
                std::future::pending::<()>().await;
                text("never")
            }
        })
        .unwrap();
    let probe = Probe::connect(&server);
    let id = probe.start("forever", json!({})).await;
    assert_eq!(probe.get(&id).await["status"], "working");
    probe.ack("tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(probe.get(&id).await["status"], "cancelled");
    eventually("the handler is dropped and sees its cancellation", async || {
        (stopped.load(Ordering::SeqCst) && seen_cancel.load(Ordering::SeqCst)).then_some(())
    })
    .await;
    probe.ack("tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(probe.get(&id).await["status"], "cancelled");
    assert_eq!(code(probe.request("tasks/cancel", json!({"taskId": "no-such-task"}), true).await), -32602);
}

struct DropFlag(Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[tokio::test]
async fn a_task_lives_for_its_ttl_and_not_beyond() {
    let options = ServerOptions {
        tasks: TaskOptions { ttl: Some(Duration::from_millis(300)), ..TaskOptions::default() },
        ..ServerOptions::default()
    };
    let server = Server::with_info(json!({"name": "tasks", "version": "1.0.0"}), None, options);
    server.add_tool(support("quick", "optional"), |_, _cx| async { text("quick") }).unwrap();
    let probe = Probe::connect(&server);
    let id = probe.start("quick", json!({})).await;
    let done = probe.wait(&id, &["completed"]).await;
    assert_eq!(done["ttlMs"], 300);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(code(probe.request("tasks/get", json!({"taskId": id}), true).await), -32602);
}

#[tokio::test]
async fn without_the_extension_tasks_are_refused_or_run_synchronously() {
    let server = Server::new("tasks", "1.0.0");
    server.add_tool(support("optional", "optional"), |_, _cx| async { text("sync") }).unwrap();
    server.add_tool(support("required", "required"), |_, _cx| async { text("never") }).unwrap();
    let probe = Probe::connect(&server);
    let sync = probe.request("tools/call", json!({"name": "optional"}), false).await.unwrap();
    assert_eq!((sync["resultType"].as_str(), sync.get("taskId")), (Some("complete"), None));
    assert_eq!(sync["content"][0]["text"], "sync");
    let refused = probe.request("tools/call", json!({"name": "required"}), false).await.unwrap_err();
    assert_eq!(refused.code, -32021);
    let data: Value = refused.data.unwrap().parse_owned().unwrap();
    assert_eq!(data["requiredCapabilities"]["extensions"][EXTENSION], json!({}));
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        let params = json!({"taskId": "any", "inputResponses": {}});
        assert_eq!(code(probe.request(method, params, false).await), -32021, "{method}");
    }
    let listen = json!({"notifications": {"taskIds": ["any"]}});
    assert_eq!(code(probe.request("subscriptions/listen", listen, false).await), -32021);

    // A legacy session knows no extension: before 2025-11-25 (which has tasks of its own,
    // core/tests/spec_tasks.rs) tasks/* do not exist there, and a required tool simply runs.
    let init =
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "legacy", "version": "1"}});
    probe.peer.request("initialize", Some(&init), RequestOptions::default()).await.unwrap();
    let legacy = probe.peer.request("tools/call", Some(&json!({"name": "required"})), RequestOptions::default()).await;
    let legacy: Value = legacy.unwrap().parse_owned().unwrap();
    assert_eq!(legacy["content"][0]["text"], "never");
    let get = probe.peer.request("tasks/get", Some(&json!({"taskId": "any"})), RequestOptions::default()).await;
    assert!(matches!(get, Err(PeerError::Rpc(e)) if e.code == -32601));
}

#[tokio::test]
async fn input_inside_a_task_goes_through_tasks_get_and_tasks_update() {
    let server = Server::new("tasks", "1.0.0");
    server
        .add_tool(support("two_questions", "optional"), |_: Map<String, Value>, cx: Context| async move {
            let (a, b) = tokio::try_join!(cx.elicit(ask("first")), cx.elicit(ask("second")))?;
            text(&format!(
                "{} and {}",
                a["content"]["first"].as_str().unwrap(),
                b["content"]["second"].as_str().unwrap()
            ))
        })
        .unwrap();
    let probe = Probe::connect(&server);
    let id = probe.start("two_questions", json!({})).await;
    let mut asked = probe.wait(&id, &["input_required"]).await;
    while asked["inputRequests"].as_object().unwrap().len() < 2 {
        asked = probe.get(&id).await;
    }
    let keys: Vec<String> = asked["inputRequests"].as_object().unwrap().keys().cloned().collect();
    assert!(asked["inputRequests"].as_object().unwrap().values().all(|r| r["method"] == "elicitation/create"));
    let (first, second) = if asked["inputRequests"][&keys[0]]["params"]["message"] == "first?" {
        (keys[0].clone(), keys[1].clone())
    } else {
        (keys[1].clone(), keys[0].clone())
    };

    // A malformed answer is refused, a stray key ignored, a partial answer keeps it waiting.
    let bad = json!({"taskId": id, "inputResponses": {first.clone(): {"content": {}}}});
    assert_eq!(code(probe.request("tasks/update", bad, true).await), -32602);
    probe.ack("tasks/update", json!({"taskId": id, "inputResponses": {"stray": {"ignored": true}}})).await;
    probe.ack("tasks/update", json!({"taskId": id, "inputResponses": {first.clone(): accept("first", "A")}})).await;
    let partial = probe.get(&id).await;
    assert_eq!(partial["status"], "input_required");
    assert_eq!(partial["inputRequests"].as_object().unwrap().keys().collect::<Vec<_>>(), vec![&second]);
    probe.ack("tasks/update", json!({"taskId": id, "inputResponses": {second.clone(): accept("second", "B")}})).await;
    let done = probe.wait(&id, &["completed"]).await;
    assert_eq!(done["result"]["content"][0]["text"], "A and B");
}

#[tokio::test]
async fn a_handler_gathers_input_by_mrtr_then_starts_its_task() {
    let server = Server::new("tasks", "1.0.0");
    let open = gate();
    let waiting = open.clone();
    let definition = support("then_task", "required");
    let handler = move |_: Map<String, Value>, cx: Context| {
        let waiting = waiting.clone();
        async move {
            let name = cx.input(Some("user_name"), "elicitation/create", ask("name")).await?;
            assert!(cx.start_task()?);
            pass(&waiting).await;
            text(&format!("Hello, {}!", name["content"]["name"].as_str().unwrap()))
        }
    };
    server.add_tool_with_task_start(definition, handler, TaskStart::OnRequest).unwrap();
    let probe = Probe::connect(&server);
    let round1 = probe.request("tools/call", json!({"name": "then_task"}), true).await.unwrap();
    assert_eq!((round1["resultType"].as_str(), round1.get("taskId")), (Some("input_required"), None));
    assert_valid("2026-07-28.schema.json", "InputRequiredResult", &round1);
    let retry = json!({
        "name": "then_task",
        "inputResponses": {"user_name": accept("name", "Alice")},
        "requestState": round1["requestState"],
    });
    let round2 = probe.request("tools/call", retry, true).await.unwrap();
    ext_valid("CreateTaskResult", &round2);
    assert!(round2.get("requestState").is_none() && round2.get("inputRequests").is_none());
    let id = round2["taskId"].as_str().unwrap();
    assert_eq!(probe.get(id).await["status"], "working");
    open.add_permits(1);
    let done = probe.wait(id, &["completed"]).await;
    assert_eq!(done["result"]["content"][0]["text"], "Hello, Alice!");
}

#[tokio::test]
async fn a_listen_stream_following_a_task_gets_its_status_changes() {
    let server = Server::new("tasks", "1.0.0");
    let open = gated_tool(&server, "work");
    let probe = Arc::new(Probe::connect(&server));
    let id = probe.start("work", json!({})).await;
    let listening = probe.clone();
    let params = json!({"notifications": {"taskIds": [id, "unknown"]}});
    let listen = tokio::spawn(async move { listening.request("subscriptions/listen", params, true).await });
    let acked = wait_for(&probe.seen, "notifications/subscriptions/acknowledged").await;
    assert_eq!(acked["notifications"]["taskIds"], json!([id]));
    open.add_permits(1);
    let notified = wait_for(&probe.seen, "notifications/tasks").await;
    let notification = json!({"jsonrpc": "2.0", "method": "notifications/tasks", "params": notified});
    ext_valid("TaskStatusNotification", &notification);
    assert_eq!((notified["taskId"].as_str(), notified["status"].as_str()), (Some(id.as_str()), Some("completed")));
    assert_eq!(notified["result"]["content"][0]["text"], "done");
    assert!(notified["_meta"].get("io.modelcontextprotocol/subscriptionId").is_some());
    listen.abort();
}

async fn wait_for(seen: &Seen, method: &str) -> Value {
    eventually(method, async || {
        seen.lock().unwrap().iter().find(|(m, _)| m == method).map(|(_, params)| params.clone())
    })
    .await
}

/// Retries `check` until it gives a value, for five seconds at most.
async fn eventually<T>(what: &str, mut check: impl AsyncFnMut() -> Option<T>) -> T {
    for _ in 0..500 {
        if let Some(value) = check().await {
            return value;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("never happened: {what}");
}
