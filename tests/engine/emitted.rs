//! What the engine's client side writes, checked message by message against the official
//! schema: the other end of an in-memory pair reads the raw frames.

use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::framing::{FrameSink, FrameSource, SourceEvent};
use ferrymcp_core::peer::{MethodNotFound, Peer, PeerConfig, PeerError, RequestOptions};
use ferrymcp_core::transport::memory;
use ferrymcp_tests::schema::assert_valid;
use serde_json::{Value, json};

async fn next(source: &mut impl FrameSource) -> Value {
    let SourceEvent::Frame(frame) = source.next_event().await.unwrap() else { panic!("expected a frame") };
    let message: Value = serde_json::from_str(&frame).unwrap();
    assert_valid("2025-11-25", "JSONRPCMessage", &message);
    message
}

#[tokio::test]
async fn requests_progress_tokens_and_cancellations_match_the_schema() {
    let ((source, sink), (mut their_source, mut their_sink)) = memory::pair();
    let peer = Peer::spawn(source, sink, Arc::new(MethodNotFound), PeerConfig::default());

    let call = {
        let peer = peer.clone();
        tokio::spawn(async move {
            let options = RequestOptions::default().on_progress(Arc::new(|_| {}));
            peer.request("tools/call", Some(&json!({"name": "t", "arguments": {}})), options).await
        })
    };
    let request = next(&mut their_source).await;
    assert_valid("2025-11-25", "CallToolRequest", &request);
    assert_eq!(request["params"]["_meta"]["progressToken"], request["id"]);
    let progress = json!({"jsonrpc":"2.0","method":"notifications/progress",
        "params":{"progressToken": request["id"], "progress": 1}});
    let answer = json!({"jsonrpc":"2.0","id": request["id"], "result": {"content": []}});
    their_sink.send(format!("{progress}\n{answer}\n").into()).await.unwrap();
    assert_eq!(call.await.unwrap().unwrap().parse_owned::<Value>().unwrap(), json!({"content": []}));

    let options = RequestOptions::default().timeout(Duration::from_millis(20));
    let timed_out = peer.request("ping", None::<&()>, options).await;
    assert!(matches!(timed_out, Err(PeerError::Timeout(_))));
    let ping = next(&mut their_source).await;
    assert_valid("2025-11-25", "PingRequest", &ping);
    let cancel = next(&mut their_source).await;
    assert_valid("2025-11-25", "CancelledNotification", &cancel);
    assert_eq!(cancel["params"]["requestId"], ping["id"]);

    // A request to a method this side does not serve gets -32601 with its id.
    their_sink
        .send(bytes::Bytes::from_static(b"{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"roots/list\"}\n"))
        .await
        .unwrap();
    let refusal = next(&mut their_source).await;
    assert_eq!(
        refusal,
        json!({"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"Method not found: roots/list"}})
    );

    their_sink.close().await.unwrap();
    assert_eq!(peer.closed().await, ferrymcp_core::peer::CloseReason::Eof);
}
