//! A template's lister adds its resources to `resources/list` in both eras: after the
//! static resources, over the template's metadata, paginated with the rest; a failing
//! lister answers with an internal error. A real server and client over the in-memory
//! transport.

use ferrymcp_core::client::{ClientError, EraPreference};
use ferrymcp_core::peer::{PeerError, RequestOptions};
use ferrymcp_core::server::{HandlerError, Server, ServerOptions};
use serde_json::{Value, json};

mod common;
use common::connect;

fn server() -> Server {
    let options = ServerOptions { page_size: Some(2), ..ServerOptions::default() };
    let server = Server::with_info(json!({"name": "listing", "version": "1.0.0"}), None, options);
    let read = |uri: String, _vars, _cx| async move { Ok(json!([{"uri": uri, "text": "v"}])) };
    server.add_resource(json!({"uri": "mem://static", "name": "static"}), read).unwrap();
    let template =
        json!({"uriTemplate": "notes://{id}", "name": "note", "description": "A note", "mimeType": "text/plain"});
    let lister = |_cx| async move {
        Ok(json!({"resources": [
            {"uri": "notes://1", "name": "one"},
            {"uri": "notes://2", "name": "two", "mimeType": "text/markdown"},
        ]}))
    };
    server.add_listed_resource_template(template, read, lister).unwrap();
    let unlisted = json!({"uriTemplate": "other://{id}", "name": "other"});
    server.add_resource_template(unlisted, read).unwrap();
    server
}

#[tokio::test]
async fn listed_resources_follow_the_static_ones_in_both_eras() {
    let server = server();
    for era in [EraPreference::Legacy, EraPreference::Modern] {
        let client = connect(&server, era).await;
        let first = client.request("resources/list", json!({}), RequestOptions::default()).await.unwrap();
        assert_eq!(first["resources"].as_array().unwrap().len(), 2, "page size 2: {first}");
        assert!(first["nextCursor"].is_string());
        let all: Vec<Value> = client.list_all("resources/list", "resources").await.unwrap();
        assert_eq!(
            all,
            vec![
                json!({"uri": "mem://static", "name": "static"}),
                json!({"uri": "notes://1", "name": "one", "description": "A note", "mimeType": "text/plain"}),
                json!({"uri": "notes://2", "name": "two", "description": "A note", "mimeType": "text/markdown"}),
            ]
        );
    }
}

#[tokio::test]
async fn a_failing_lister_is_an_internal_error_and_the_connection_goes_on() {
    let server = Server::new("listing", "1.0.0");
    let read = |uri: String, _vars, _cx| async move { Ok(json!([{"uri": uri, "text": "v"}])) };
    let lister = |_cx| async move { Err::<Value, _>(HandlerError::Failed("index unavailable".into())) };
    server.add_listed_resource_template(json!({"uriTemplate": "notes://{id}", "name": "note"}), read, lister).unwrap();
    let client = connect(&server, EraPreference::Legacy).await;
    let error = client.request("resources/list", json!({}), RequestOptions::default()).await.unwrap_err();
    let ClientError::Peer(PeerError::Rpc(error)) = error else { panic!("expected a JSON-RPC error, got {error:?}") };
    assert_eq!(error.code, -32603);
    assert!(error.message.contains("index unavailable"), "{}", error.message);
    client.ping().await.unwrap();
}
