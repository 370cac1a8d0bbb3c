//! Every method of the tasks extension over 2026-07-28 Streamable HTTP, with core's own
//! client against core's own server on 127.0.0.1: a task-creating `tools/call`, then
//! `tasks/get`, `tasks/update` and `tasks/cancel`.
//!
//! The server refuses a task request whose `Mcp-Name` header does not carry its `taskId`
//! (400, -32020), so these calls pass only because the client writes the header from the
//! same table the server checks it against (`protocol::headers::NAME_FIELDS`). Progress is
//! awaited by asking the server (`tasks/get`, one real round trip each), never by sleeping.

use std::time::Duration;

use ferrymcp_core::client::http::HttpClientOptions;
use ferrymcp_core::client::{Client, ClientCallbacks, ClientOptions, EraPreference};
use ferrymcp_core::peer::RequestOptions;
use ferrymcp_core::protocol::{ProtocolVersion, TASKS_EXTENSION};
use ferrymcp_core::server::http::{HttpHandler, HttpOptions, HttpServer, ServeOptions, serve};
use ferrymcp_core::server::{Context, HandlerError, Server};
use serde_json::{Map, Value, json};

/// A guard against a hang, not a timing assertion.
const HANG_GUARD: Duration = Duration::from_secs(30);

fn task_tool(name: &str) -> Value {
    json!({"name": name, "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}})
}

async fn start() -> (HttpServer, Client) {
    let server = Server::new("http-tasks", "1.0.0");
    let greet = |_: Map<String, Value>, cx: Context| async move {
        let ask = json!({"message": "name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}});
        let answer = cx.elicit(ask).await?;
        let name = answer["content"]["name"].as_str().unwrap_or("nobody").to_owned();
        Ok::<_, HandlerError>(json!({"content": [{"type": "text", "text": format!("Hello, {name}!")}]}))
    };
    server.add_tool(task_tool("greet"), greet).unwrap();
    let forever = |_: Map<String, Value>, _cx: Context| async move {
        std::future::pending::<()>().await;
        Ok::<_, HandlerError>(json!({"content": []}))
    };
    server.add_tool(task_tool("forever"), forever).unwrap();
    let http = serve(HttpHandler::new(server, HttpOptions::default()), ServeOptions::default()).await.unwrap();
    let options = ClientOptions {
        era: EraPreference::Modern,
        capabilities: json!({"elicitation": {}, "extensions": {TASKS_EXTENSION: {}}}),
        ..ClientOptions::default()
    };
    let url = format!("http://{}/mcp", http.local_addr());
    let client = Client::connect_http(HttpClientOptions::new(url), options, ClientCallbacks::default()).await.unwrap();
    assert!(client.server().modern);
    assert_eq!(client.server().protocol_version, ProtocolVersion::LATEST.as_str());
    (http, client)
}

async fn request(client: &Client, method: &str, params: Value) -> Value {
    client.request(method, params, RequestOptions::default()).await.unwrap_or_else(|e| panic!("{method}: {e}"))
}

/// `tools/call` of a task tool: the task handle.
async fn create(client: &Client, tool: &str) -> String {
    let created = request(client, "tools/call", json!({"name": tool, "arguments": {}})).await;
    assert_eq!(created["resultType"], "task", "{created}");
    created["taskId"].as_str().expect("a task id").to_owned()
}

/// `tasks/get` until the task's status is `status`.
async fn until(client: &Client, id: &str, status: &str) -> Value {
    let poll = async {
        loop {
            let task = request(client, "tasks/get", json!({"taskId": id})).await;
            assert_eq!(task["taskId"], id, "{task}");
            if task["status"] == status {
                return task;
            }
        }
    };
    tokio::time::timeout(HANG_GUARD, poll).await.unwrap_or_else(|_| panic!("task {id} never became {status}"))
}

#[tokio::test]
async fn tasks_get_and_tasks_update_carry_a_task_from_its_call_to_its_result() {
    let (http, client) = start().await;
    let id = create(&client, "greet").await;
    let asked = until(&client, &id, "input_required").await;
    let requests = asked["inputRequests"].as_object().expect("input requests");
    assert_eq!(requests.len(), 1, "{asked}");
    let (key, question) = requests.iter().next().unwrap();
    assert_eq!(question["method"], "elicitation/create");
    let answer = json!({"action": "accept", "content": {"name": "Ada"}});
    let ack = request(&client, "tasks/update", json!({"taskId": id, "inputResponses": {key: answer}})).await;
    assert!(ack.get("status").is_none(), "an acknowledgement, not the task: {ack}");
    let done = until(&client, &id, "completed").await;
    assert_eq!(done["result"]["content"][0]["text"], "Hello, Ada!");
    client.close().await;
    http.shutdown().await;
}

#[tokio::test]
async fn tasks_cancel_stops_a_task_over_http() {
    let (http, client) = start().await;
    let id = create(&client, "forever").await;
    assert_eq!(until(&client, &id, "working").await["status"], "working");
    let ack = request(&client, "tasks/cancel", json!({"taskId": id})).await;
    assert!(ack.get("status").is_none(), "an acknowledgement, not the task: {ack}");
    until(&client, &id, "cancelled").await;
    client.close().await;
    http.shutdown().await;
}
