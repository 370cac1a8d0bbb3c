//! The manual multi-round API (2026-07-28): a handler that builds its own `input_required`
//! result and reads the retry's `inputResponses` (this round's only) and the `requestState`
//! it gave (echoed intact, inside core's seal). A real server serves a raw JSON-RPC peer
//! over the in-memory transport; core checks the result (a member present, each input's
//! client capability) and, with the legacy shim off, refuses it on a 2025-era session.

use ferrymcp_core::client::ClientCallbacks;
use ferrymcp_core::peer::{Peer, PeerConfig, PeerError, RequestOptions};
use ferrymcp_core::server::{
    Context, Dialect, HandlerFuture, InputRequiredOptions, Server, ServerOptions, ToolHandler,
};
use ferrymcp_core::transport::memory;
use serde_json::{Map, Value, json};

/// Round 1 asks `confirm` (state `step-1`); round 2 asks `sign_in` by URL (state
/// `step-2`); then it answers with what the last retry carried.
struct Manual;

impl ToolHandler for Manual {
    fn call(&self, _arguments: Map<String, Value>, cx: Context) -> HandlerFuture {
        let fresh: Vec<String> = cx.input_responses().map(|r| r.keys().cloned().collect()).unwrap_or_default();
        let state = cx.request_state().map(str::to_owned);
        Box::pin(async move {
            Ok(match state.as_deref() {
                None => json!({
                    "resultType": "input_required",
                    "inputRequests": {"confirm": {"method": "elicitation/create", "params": {"mode": "form", "message": "ok?", "requestedSchema": {"type": "object", "properties": {}}}}},
                    "requestState": "step-1",
                }),
                Some("step-1") => json!({
                    "resultType": "input_required",
                    "inputRequests": {"sign_in": {"method": "elicitation/create", "params": {"mode": "url", "message": "sign in", "url": "https://example.com"}}},
                    "requestState": "step-2",
                }),
                Some(other) => json!({"content": [{"type": "text", "text": format!("{other}: {}", fresh.join(","))}]}),
            })
        })
    }
}

fn peer() -> Peer {
    peer_with(ServerOptions::default())
}

fn peer_with(options: ServerOptions) -> Peer {
    let server = Server::with_info(json!({"name": "manual", "version": "1.0.0"}), None, options);
    server.add_tool(json!({"name": "deploy", "inputSchema": {"type": "object"}}), Manual).unwrap();
    let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
    tokio::spawn(async move { server.serve(server_source, server_sink).await });
    Peer::spawn(client_source, client_sink, ClientCallbacks::default().handler().unwrap(), PeerConfig::default())
}

async fn request(peer: &Peer, method: &str, params: Value) -> Result<Value, ferrymcp_core::wire::ErrorObject> {
    match peer.request(method, Some(&params), RequestOptions::default()).await {
        Ok(raw) => Ok(raw.parse_owned().unwrap()),
        Err(PeerError::Rpc(error)) => Err(error),
        Err(other) => panic!("{method}: {other}"),
    }
}

fn modern(mut params: Value, capabilities: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    params
}

#[tokio::test]
async fn a_handler_runs_its_own_rounds_with_its_state_sealed_by_core() {
    let peer = peer();
    let caps = json!({"elicitation": {"form": {}, "url": {}}});
    let call = json!({"name": "deploy", "arguments": {}});
    let round = request(&peer, "tools/call", modern(call.clone(), caps.clone())).await.unwrap();
    assert_eq!(round["resultType"], "input_required", "{round}");
    assert_eq!(round["inputRequests"]["confirm"]["params"]["message"], "ok?");
    let state = round["requestState"].as_str().unwrap().to_owned();
    assert_ne!(state, "step-1", "the handler's state travels inside core's seal");

    let mut retry = call.clone();
    retry["inputResponses"] = json!({"confirm": {"action": "accept", "content": {}}});
    retry["requestState"] = json!(state);
    let round = request(&peer, "tools/call", modern(retry.clone(), caps.clone())).await.unwrap();
    assert_eq!(round["inputRequests"]["sign_in"]["params"]["mode"], "url", "{round}");

    // A client that declared form elicitation only is not asked for a URL one.
    let refused = request(&peer, "tools/call", modern(retry, json!({"elicitation": {"form": {}}}))).await.unwrap_err();
    assert_eq!(refused.code, -32021, "{refused:?}");

    let mut last = call.clone();
    last["inputResponses"] = json!({"sign_in": {"action": "accept"}});
    last["requestState"] = round["requestState"].clone();
    let done = request(&peer, "tools/call", modern(last, caps.clone())).await.unwrap();
    assert_eq!(done["resultType"], "complete", "{done}");
    assert_eq!(done["content"][0]["text"], "step-2: sign_in", "this round's answers only, and the handler's own state");

    // A state changed by the client is refused before the handler runs.
    let mut forged = call;
    forged["requestState"] = json!(format!("{state}x"));
    let error = request(&peer, "tools/call", modern(forged, caps)).await.unwrap_err();
    assert_eq!(error.code, -32602);
}

#[tokio::test]
async fn a_legacy_session_gets_a_loud_error_with_the_shim_off() {
    let shim_off = InputRequiredOptions { legacy_shim: Some(false), ..InputRequiredOptions::default() };
    let peer = peer_with(ServerOptions { input_required: shim_off, ..ServerOptions::default() });
    let init = json!({"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}}, "clientInfo": {"name": "t", "version": "1"}});
    request(&peer, "initialize", init).await.unwrap();
    peer.notify("notifications/initialized", None::<&Value>).await.unwrap();
    let error = request(&peer, "tools/call", json!({"name": "deploy", "arguments": {}})).await.unwrap_err();
    assert_eq!(error.code, -32603);
    assert!(error.message.contains("input_required"), "{}", error.message);
}

/// `round 1` without a `requestState` of its own, then the answer it got.
struct Stateless;

impl ToolHandler for Stateless {
    fn call(&self, _arguments: Map<String, Value>, cx: Context) -> HandlerFuture {
        let answered = cx.input_responses().is_some_and(|r| r.contains_key("confirm"));
        let state = cx.request_state().map(str::to_owned);
        Box::pin(async move {
            Ok(if answered {
                json!({"content": [{"type": "text", "text": format!("done {state:?}")}]})
            } else {
                json!({
                    "resultType": "input_required",
                    "inputRequests": {"confirm": {"method": "elicitation/create", "params": {"message": "ok?", "requestedSchema": {"type": "object"}}}},
                })
            })
        })
    }
}

#[tokio::test]
async fn the_python_dialect_sends_the_result_as_built_and_freezes_the_refusal() {
    let options = ServerOptions {
        dialect: Dialect::PythonSdk,
        state_key: Some(b"0123456789abcdef0123456789abcdef".to_vec()),
        state_audience: Some("billing".into()),
        ..ServerOptions::default()
    };
    let peer = peer_with(options.clone());
    // No capability check (the client answers what it cannot do), and the handler's state
    // still travels sealed.
    let call = json!({"name": "deploy", "arguments": {}});
    let round = request(&peer, "tools/call", modern(call.clone(), json!({}))).await.unwrap();
    assert_eq!(round["resultType"], "input_required", "{round}");
    let state = round["requestState"].as_str().unwrap().to_owned();
    assert_ne!(state, "step-1");
    // Same key, another audience: the frozen refusal, whatever the reason.
    let other = peer_with(ServerOptions { state_audience: Some("billing-2".into()), ..options.clone() });
    let mut retry = call.clone();
    retry["inputResponses"] = json!({"confirm": {"action": "accept"}});
    retry["requestState"] = json!(state);
    let refused = request(&other, "tools/call", modern(retry.clone(), json!({}))).await.unwrap_err();
    assert_eq!((refused.code, refused.message.as_str()), (-32602, "Invalid or expired requestState"));
    assert_eq!(refused.data.unwrap().get(), r#"{"reason":"invalid_request_state"}"#);
    // The same audience opens it.
    let same = peer_with(options.clone());
    let round = request(&same, "tools/call", modern(retry, json!({}))).await.unwrap();
    assert_eq!(round["inputRequests"]["sign_in"]["params"]["mode"], "url", "{round}");

    // A result without a state of its own gets none.
    let server = Server::with_info(json!({"name": "s", "version": "1"}), None, options);
    server.add_tool(json!({"name": "ask", "inputSchema": {"type": "object"}}), Stateless).unwrap();
    let ((client_source, client_sink), (server_source, server_sink)) = memory::pair();
    tokio::spawn(async move { server.serve(server_source, server_sink).await });
    let peer =
        Peer::spawn(client_source, client_sink, ClientCallbacks::default().handler().unwrap(), PeerConfig::default());
    let ask = json!({"name": "ask", "arguments": {}});
    let round = request(&peer, "tools/call", modern(ask.clone(), json!({}))).await.unwrap();
    assert!(round.get("requestState").is_none(), "{round}");
    let mut retry = ask;
    retry["inputResponses"] = json!({"confirm": {"action": "accept"}});
    let done = request(&peer, "tools/call", modern(retry, json!({}))).await.unwrap();
    assert_eq!(done["content"][0]["text"], "done None");
}

#[tokio::test]
async fn an_application_owned_state_goes_out_and_comes_back_as_written() {
    let peer = peer_with(ServerOptions { seal_handler_state: false, ..ServerOptions::default() });
    let caps = json!({"elicitation": {"form": {}, "url": {}}});
    let call = json!({"name": "deploy", "arguments": {}});
    let round = request(&peer, "tools/call", modern(call.clone(), caps.clone())).await.unwrap();
    assert_eq!(round["requestState"], "step-1", "{round}");
    // Whatever the client sends is the application's to check: here, a state it never sent.
    let mut retry = call;
    retry["inputResponses"] = json!({"sign_in": {"action": "accept"}});
    retry["requestState"] = json!("made-up");
    let done = request(&peer, "tools/call", modern(retry, caps)).await.unwrap();
    assert_eq!(done["content"][0]["text"], "made-up: sign_in");
}

#[tokio::test]
async fn the_python_dialect_words_the_legacy_refusal_as_its_runner() {
    let peer = peer_with(ServerOptions { dialect: Dialect::PythonSdk, ..ServerOptions::default() });
    let init =
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
    request(&peer, "initialize", init).await.unwrap();
    peer.notify("notifications/initialized", None::<&Value>).await.unwrap();
    let error = request(&peer, "tools/call", json!({"name": "deploy", "arguments": {}})).await.unwrap_err();
    assert_eq!((error.code, error.message.as_str()), (-32603, "Handler returned an invalid result"));
}
