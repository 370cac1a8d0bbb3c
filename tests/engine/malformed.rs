//! Malformed input of every kind gets the precise error (with the id when it can be
//! known) and the stream carries on: each case is followed by an echo that must succeed.

use ferrymcp_tests::raw::RawChild;
use ferrymcp_tests::schema;
use serde_json::{Value, json};

use crate::FIXTURE;

/// (what is sent, the error code expected, the id expected in the error; `None` for
/// "no id member"). A code of 0 means no answer at all.
fn cases() -> Vec<(Vec<u8>, i64, Option<Value>)> {
    let s = |t: &str| t.as_bytes().to_vec();
    let big = format!(r#"{{"jsonrpc":"2.0","id":77,"method":"echo","params":{{"t":"{}"}}}}"#, "x".repeat(4096));
    vec![
        (s(r#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":"#), -32700, Some(json!(1))),
        (s("not json at all"), -32700, None),
        (s("42"), -32600, None),
        (s("[]"), -32600, None),
        (s(r#"[{"jsonrpc":"2.0","id":2,"method":"echo"}]"#), -32600, None),
        (s(r#"{"id":3,"method":"echo"}"#), -32600, Some(json!(3))),
        (s(r#"{"jsonrpc":"1.0","id":4,"method":"echo"}"#), -32600, Some(json!(4))),
        (s(r#"{"jsonrpc":"2.0","id":null,"method":"echo"}"#), -32600, None),
        (s(r#"{"jsonrpc":"2.0","id":{"a":1},"method":"echo"}"#), -32600, None),
        (s(r#"{"jsonrpc":"2.0","id":1.5,"method":"echo"}"#), -32600, None),
        (s(r#"{"jsonrpc":"2.0","id":5,"method":7}"#), -32600, Some(json!(5))),
        (s(r#"{"jsonrpc":"2.0","id":6,"method":"echo","result":{}}"#), -32600, Some(json!(6))),
        (s(r#"{"jsonrpc":"2.0","id":7,"method":"echo","params":"x"}"#), -32600, Some(json!(7))),
        (s(r#"{"jsonrpc":"2.0","id":8,"id":9,"method":"echo"}"#), -32600, Some(json!(9))),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"echo\",\"params\":{\"t\":\"\xff\"}}".to_vec(),
            -32700,
            Some(json!(10)),
        ),
        (big.into_bytes(), -32600, Some(json!(77))),
        (s(r#"{"jsonrpc":"2.0","id":11,"method":"no/such/method"}"#), -32601, Some(json!(11))),
        (s(r#"{"jsonrpc":"2.0","id":12,"method":"panic"}"#), -32603, Some(json!(12))),
        (s(r#"{"jsonrpc":"2.0","id":13,"method":"sleep","params":{"ms":"soon"}}"#), -32602, Some(json!(13))),
        // Responses, good or bad, to requests this side never sent: dropped silently.
        (s(r#"{"jsonrpc":"2.0","id":999,"result":{}}"#), 0, None),
        (s(r#"{"jsonrpc":"2.0","id":998,"result":{},"error":{"code":1,"message":"m"}}"#), 0, None),
        (s(r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"m"}}"#), 0, None),
        // Notifications are never answered, even broken ones.
        (s(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"nope":1}}"#), 0, None),
        (s(r#"{"jsonrpc":"2.0","method":"notifications/unknown"}"#), 0, None),
        (s("\r\n   \n"), 0, None),
    ]
}

#[tokio::test]
async fn every_malformed_frame_gets_its_error_and_the_stream_continues() {
    let mut server = RawChild::spawn(FIXTURE, &["--max-frame", "1024"]);
    for (n, (input, code, id)) in cases().into_iter().enumerate() {
        let shown = String::from_utf8_lossy(&input).chars().take(80).collect::<String>();
        let mut bytes = input;
        bytes.extend_from_slice(b"\r\n");
        server.send_raw(&bytes).await;
        server.send(&json!({"jsonrpc":"2.0","id":format!("after-{n}"),"method":"echo","params":{"n":n}})).await;
        if code != 0 {
            let error = server.recv().await;
            assert_eq!(error["error"]["code"], code, "case {n} ({shown}): {error}");
            assert_eq!(error.get("id"), id.as_ref(), "case {n} ({shown}): {error}");
            assert!(error["error"]["message"].as_str().unwrap().len() > 10, "vague message: {error}");
        }
        let echo = server.recv().await;
        assert_eq!(echo["id"], format!("after-{n}"), "case {n} ({shown}) left an extra answer: {echo}");
        assert_eq!(echo["result"], json!({"n": n}));
    }
    server.close_stdin();
    assert!(server.wait().await.success());
}

#[tokio::test]
async fn ids_of_both_types_come_back_exactly() {
    let mut server = RawChild::spawn(FIXTURE, &[]);
    let ids = [json!(0), json!(-5), json!(i64::MAX), json!("s-1"), json!("a\"b\\c\u{e9}"), json!("")];
    for id in &ids {
        server.send(&json!({"jsonrpc":"2.0","id":id,"method":"echo","params":{"x":[1,2]}})).await;
        let answer = server.recv().await;
        assert_eq!(&answer["id"], id);
        assert_eq!(answer["result"], json!({"x":[1,2]}));
    }
}

#[tokio::test]
async fn a_slow_request_does_not_hold_up_later_ones_and_cancel_silences_it() {
    let mut server = RawChild::spawn(FIXTURE, &[]);
    server.send(&json!({"jsonrpc":"2.0","id":"slow","method":"sleep","params":{"ms":60000}})).await;
    server.send(&json!({"jsonrpc":"2.0","id":"fast","method":"echo","params":{}})).await;
    assert_eq!(server.recv().await["id"], "fast");
    server
        .send(
            &json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow","reason":"test"}}),
        )
        .await;
    // The cancelled handler is dropped (counted) and never answers: the next thing on the
    // wire is the answer to `stats`, once the drop has happened.
    loop {
        server.send(&json!({"jsonrpc":"2.0","id":"stats","method":"stats"})).await;
        let stats = server.recv().await;
        assert_eq!(stats["id"], "stats", "an answer for a cancelled request: {stats}");
        if stats["result"]["cancelled"] == 1 {
            assert_eq!(stats["result"]["in_flight"], 0);
            break;
        }
        tokio::task::yield_now().await;
    }
}

#[tokio::test]
async fn progress_notifications_are_valid_and_strictly_increasing() {
    let mut server = RawChild::spawn(FIXTURE, &[]);
    let params = json!({"steps": 4, "ms": 0, "_meta": {"progressToken": "tok"}});
    server.send(&json!({"jsonrpc":"2.0","id":1,"method":"progress","params":params})).await;
    let mut seen = Vec::new();
    loop {
        let message = server.recv().await;
        if message.get("id").is_some() {
            assert_eq!(message["result"]["sent"], 4);
            break;
        }
        schema::assert_valid("2025-11-25", "ProgressNotification", &message);
        assert_eq!(message["params"]["progressToken"], "tok");
        seen.push(message["params"]["progress"].as_f64().unwrap());
    }
    assert_eq!(seen, vec![1.0, 2.0, 3.0, 4.0]);
}

#[tokio::test]
async fn batches_are_answered_as_one_array_when_allowed() {
    let mut server = RawChild::spawn(FIXTURE, &["--batches"]);
    server.revision = "2025-03-26";
    let batch = json!([
        {"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":1}},
        {"jsonrpc":"2.0","method":"notifications/whatever"},
        {"jsonrpc":"1.0","id":2,"method":"echo"},
        {"jsonrpc":"2.0","id":3,"method":"sleep","params":{"ms":5}}
    ]);
    server.send(&batch).await;
    let answer = server.recv().await;
    let mut items = answer.as_array().expect("an array").clone();
    items.sort_by_key(|item| item["id"].as_i64());
    assert_eq!(items.len(), 3, "{answer}");
    assert_eq!(items[0]["result"], json!({"a":1}));
    assert_eq!(items[1]["error"]["code"], -32600);
    assert_eq!(items[2]["result"], json!({"slept":5}));
    // A batch of notifications only gets no answer at all.
    server.send(&json!([{"jsonrpc":"2.0","method":"notifications/x"}])).await;
    server.send(&json!({"jsonrpc":"2.0","id":4,"method":"echo"})).await;
    assert_eq!(server.recv().await["id"], 4);
}

#[tokio::test]
async fn a_batch_over_the_cap_is_refused_whole() {
    let mut server = RawChild::spawn(FIXTURE, &["--batches"]);
    server.revision = "2025-03-26";
    let echoes = |n: i64| Value::Array((1..=n).map(|id| json!({"jsonrpc":"2.0","id":id,"method":"echo"})).collect());
    // 101 messages: one error, no id, none of them run (the official TypeScript SDK's words).
    server.send(&echoes(101)).await;
    // Read against 2025-11-25's schema: 2025-03-26's requires an error's id, which the
    // refusal of a whole batch has none of (later revisions let it be left out).
    server.revision = "2025-11-25";
    let answer = server.recv().await;
    server.revision = "2025-03-26";
    assert_eq!(answer["id"], Value::Null, "{answer}");
    assert_eq!(answer["error"]["code"], -32600);
    assert_eq!(answer["error"]["message"], "Invalid Request: Batch must not exceed 100 messages");
    // 100 messages: all served, in one array.
    server.send(&echoes(100)).await;
    let answer = server.recv().await;
    assert_eq!(answer.as_array().map(Vec::len), Some(100), "{answer}");
}

#[tokio::test]
async fn eof_on_stdin_ends_the_server_with_success() {
    let mut server = RawChild::spawn(FIXTURE, &[]);
    server.send(&json!({"jsonrpc":"2.0","id":1,"method":"echo"})).await;
    server.recv().await;
    server.close_stdin();
    assert!(server.stdout_closed().await);
    assert!(server.wait().await.success());
}
