//! core's client calling tools as tasks on a real ferrymcp server (in memory, 2026-07-28):
//! the task comes back in the official `Task` shape; polling follows its interval and
//! ends at a terminal state; input goes through the client's callbacks or `update_task`;
//! a failed task gives its JSON-RPC error; cancelling is final; `tasks/list` does not
//! exist in the extension. Handlers wait on gates the test opens.

use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::client::tasks::is_terminal;
use ferrymcp_core::client::{Client, ClientCallbacks, ClientError, ClientOptions, EraPreference, TaskCall};
use ferrymcp_core::peer::RequestOptions;
use ferrymcp_core::server::{Context, HandlerError, Server, ServerOptions, TaskOptions};
use ferrymcp_core::transport::memory;
use ferrymcp_core::wire::ErrorObject;
use serde_json::{Map, Value, json};
use tokio::sync::Semaphore;

fn tool(name: &str, support: &str) -> Value {
    json!({"name": name, "inputSchema": {"type": "object"}, "execution": {"taskSupport": support}})
}

fn text(value: &str) -> Result<Value, HandlerError> {
    Ok(json!({"content": [{"type": "text", "text": value}]}))
}

fn server(open: Arc<Semaphore>) -> Server {
    let tasks = TaskOptions { poll_interval: Duration::from_millis(20), ..TaskOptions::default() };
    let options = ServerOptions { tasks, ..ServerOptions::default() };
    let server = Server::with_info(json!({"name": "client-tasks", "version": "1.0.0"}), None, options);
    server
        .add_tool(tool("work", "optional"), move |_: Map<String, Value>, _: Context| {
            let open = open.clone();
            async move {
                open.acquire().await.unwrap().forget();
                text("done")
            }
        })
        .unwrap();
    server
        .add_tool(tool("ask", "optional"), |_: Map<String, Value>, cx: Context| async move {
            let params = json!({"message": "Name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}});
            let answer = cx.elicit(params).await?;
            text(answer["content"]["name"].as_str().unwrap_or("nobody"))
        })
        .unwrap();
    server
        .add_tool(tool("fails", "optional"), |_: Map<String, Value>, _: Context| async move {
            Err::<Value, _>(HandlerError::Rpc(ErrorObject::new(-32603, "internal trouble")))
        })
        .unwrap();
    server
        .add_tool(
            json!({"name": "plain", "inputSchema": {"type": "object"}}),
            |_: Map<String, Value>, _: Context| async { text("at once") },
        )
        .unwrap();
    server
}

async fn connect(server: &Server, callbacks: ClientCallbacks) -> Client {
    let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
    let serving = server.clone();
    tokio::spawn(async move { serving.serve(server_source, server_sink).await });
    let options = ClientOptions { era: EraPreference::Modern, ..ClientOptions::default() };
    Client::connect(client_source, client_sink, options, callbacks).await.unwrap()
}

async fn task(client: &Client, name: &str) -> Map<String, Value> {
    match client.call_tool_as_task(name, json!({}), None, None, RequestOptions::default()).await.unwrap() {
        TaskCall::Task(task) => task,
        TaskCall::Result(result) => panic!("{name} ran at once: {result}"),
    }
}

#[tokio::test]
async fn a_task_is_polled_at_its_interval_until_its_result() {
    let open = Arc::new(Semaphore::new(0));
    let server = server(open.clone());
    let client = connect(&server, ClientCallbacks::default()).await;
    let created = task(&client, "work").await;
    assert_eq!(created["status"], "working");
    assert_eq!(created["pollInterval"], 20);
    assert!(created.contains_key("ttl") && !created.contains_key("ttlMs") && !created.contains_key("resultType"));
    let id = created["taskId"].as_str().unwrap().to_owned();
    let first = client.poll_task_step(&id, None).await.unwrap().unwrap();
    assert_eq!(first["status"], "working");
    open.add_permits(1);
    let mut last = first;
    while let Some(next) = client.poll_task_step(&id, Some(&last)).await.unwrap() {
        last = next;
    }
    assert!(is_terminal(last["status"].as_str().unwrap()));
    assert_eq!(last["result"]["content"][0]["text"], "done");
    assert_eq!(client.task_result(&id).await.unwrap()["content"][0]["text"], "done");
}

#[tokio::test]
async fn input_goes_through_the_callbacks_or_update_task() {
    let server = server(Arc::new(Semaphore::new(0)));
    let callbacks = ClientCallbacks {
        elicitation: Some(Arc::new(|_| {
            Box::pin(async { Ok(json!({"action": "accept", "content": {"name": "Ada"}})) })
        })),
        ..ClientCallbacks::default()
    };
    let client = connect(&server, callbacks).await;
    let id = task(&client, "ask").await["taskId"].as_str().unwrap().to_owned();
    assert_eq!(client.task_result(&id).await.unwrap()["content"][0]["text"], "Ada");

    let id = task(&client, "ask").await["taskId"].as_str().unwrap().to_owned();
    let mut state = client.get_task(&id).await.unwrap();
    while state["status"] != "input_required" {
        state = client.poll_task_step(&id, Some(&state)).await.unwrap().unwrap();
    }
    let key = state["inputRequests"].as_object().unwrap().keys().next().unwrap().clone();
    let mut answers = Map::new();
    answers.insert(key, json!({"action": "accept", "content": {"name": "Grace"}}));
    client.update_task(&id, answers).await.unwrap();
    assert_eq!(client.task_result(&id).await.unwrap()["content"][0]["text"], "Grace");
}

#[tokio::test]
async fn failure_cancellation_a_tool_run_at_once_and_no_list() {
    let server = server(Arc::new(Semaphore::new(0)));
    let client = connect(&server, ClientCallbacks::default()).await;
    let id = task(&client, "fails").await["taskId"].as_str().unwrap().to_owned();
    let error = client.task_result(&id).await.unwrap_err();
    assert_eq!(error.rpc().map(|e| (e.code, e.message.as_str())), Some((-32603, "internal trouble")));

    let id = task(&client, "work").await["taskId"].as_str().unwrap().to_owned();
    assert_eq!(client.cancel_task(&id).await.unwrap()["status"], "cancelled");
    assert!(client.task_result(&id).await.unwrap_err().to_string().contains("cancelled"));

    let at_once = client.call_tool_as_task("plain", json!({}), None, None, RequestOptions::default()).await.unwrap();
    assert!(matches!(at_once, TaskCall::Result(result) if result["content"][0]["text"] == "at once"));
    assert!(matches!(client.list_tasks(None).await, Err(ClientError::Usage(why)) if why.contains("tasks/list")));
}
