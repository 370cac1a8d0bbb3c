//! `https://`: certificates made by the test (a CA, and a server certificate it signed);
//! ferrymcp's client against ferrymcp's own TLS server and against the official Python SDK
//! server under uvicorn with TLS, trusting that CA; a client that does not trust it
//! (another CA, or only the platform's store) is refused with an error that says why.

use std::path::PathBuf;
use std::process::Command;

use ferrymcp_core::client::http::{ClientTls, HttpClientOptions};
use ferrymcp_core::client::{Client, ClientCallbacks, ClientError, ClientOptions, EraPreference};
use ferrymcp_core::peer::RequestOptions;
use ferrymcp_core::server::Server;
use ferrymcp_core::server::http::{HttpHandler, HttpOptions, ServeOptions, serve};
use ferrymcp_core::tls::ServerTls;
use ferrymcp_tests::certs::Certificates;
use ferrymcp_tests::listening::{self, installed};
use serde_json::{Map, Value, json};

async fn connect(url: &str, ca: Option<PathBuf>, era: EraPreference) -> Result<Client, ClientError> {
    connect_as(url, ClientTls { ca_file: ca, client_cert: None }, era).await
}

async fn connect_as(url: &str, tls: ClientTls, era: EraPreference) -> Result<Client, ClientError> {
    let mut http = HttpClientOptions::new(url);
    http.tls = tls;
    Client::connect_http(http, ClientOptions { era, ..ClientOptions::default() }, ClientCallbacks::default()).await
}

async fn echo(client: &Client, tool: &str, argument: &str) -> String {
    let result = client.call_tool(tool, json!({argument: "über TLS"}), RequestOptions::default()).await.unwrap();
    serde_json::to_value(result).unwrap()["content"][0]["text"].as_str().unwrap().to_owned()
}

/// The error of a client that does not trust the server, as text.
async fn refused(url: &str, ca: Option<PathBuf>) -> String {
    let error = connect(url, ca, EraPreference::Legacy).await.err().expect("an untrusted server is refused");
    let mut text = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}

#[tokio::test]
async fn ferrymcp_serves_and_speaks_https_and_refuses_an_untrusted_server() {
    let (Some(certs), Some(other)) = (Certificates::make("tls-own"), Certificates::make("tls-other")) else { return };
    let server = Server::new("tls-test", "1.0.0");
    let schema = json!({"type": "object", "properties": {"text": {"type": "string"}}});
    server
        .add_tool(json!({"name": "echo", "inputSchema": schema}), |args: Map<String, Value>, _cx| async move {
            Ok(json!({"content": [{"type": "text", "text": args["text"]}]}))
        })
        .unwrap();
    let tls = ServerTls { cert_file: certs.cert.clone(), key_file: certs.key.clone() };
    let serving = serve(
        HttpHandler::new(server, HttpOptions::default()),
        ServeOptions { tls: Some(tls), ..ServeOptions::default() },
    );
    let running = serving.await.unwrap();
    let url = format!("https://127.0.0.1:{}/mcp", running.local_addr().port());
    for era in [EraPreference::Legacy, EraPreference::Auto] {
        let client = connect(&url, Some(certs.ca.clone()), era).await.unwrap();
        assert_eq!(echo(&client, "echo", "text").await, "über TLS");
        client.close().await;
    }
    let wrong = refused(&url, Some(other.ca.clone())).await;
    assert!(wrong.contains("certificate"), "{wrong}");
    let platform = refused(&url, None).await;
    assert!(platform.contains("certificate"), "{platform}");
    // A CA file that is not there is named, before any connection.
    let missing = refused(&url, Some(certs.dir.join("missing.pem"))).await;
    assert!(missing.contains("missing.pem"), "{missing}");
    // Plain HTTP to the TLS port fails, and does not hang.
    let plain = refused(&url.replace("https", "http"), None).await;
    assert!(!plain.is_empty());
    // A bad certificate fails the start.
    let bad = ServerTls { cert_file: certs.key.clone(), key_file: certs.key.clone() };
    let options = ServeOptions { tls: Some(bad), ..ServeOptions::default() };
    let failed = serve(HttpHandler::new(Server::new("x", "1"), HttpOptions::default()), options).await.err().unwrap();
    assert!(failed.to_string().contains("server.key"), "{failed}");
    running.shutdown().await;
}

#[tokio::test]
async fn the_official_python_server_under_uvicorn_with_tls() {
    let Some(certs) = Certificates::make("tls-python") else { return };
    let Some(python) = installed("../.venv/bin/python") else { return };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/http_client/official_python_server.py");
    let mut command = Command::new(python);
    command.arg(script);
    let (cert, key) = (certs.cert.clone(), certs.key.clone());
    let server = listening::Server::start(command, |command, port| {
        command.arg(port.to_string()).arg(&cert).arg(&key);
    })
    .await;
    let url = format!("https://127.0.0.1:{}/mcp", server.port);
    for era in [EraPreference::Legacy, EraPreference::Auto] {
        let client = connect(&url, Some(certs.ca.clone()), era).await.unwrap();
        assert_eq!(echo(&client, "echo", "message").await, "über TLS");
        client.close().await;
    }
    let refused = refused(&url, None).await;
    assert!(refused.contains("certificate"), "{refused}");
}

#[tokio::test]
async fn a_client_certificate_opens_a_server_that_requires_one() {
    let Some(certs) = Certificates::make("tls-mutual") else { return };
    let Some(python) = installed("../.venv/bin/python") else { return };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/http_client/official_python_server.py");
    let mut command = Command::new(python);
    command.arg(script);
    let (cert, key, ca) = (certs.cert.clone(), certs.key.clone(), certs.ca.clone());
    let server = listening::Server::start(command, |command, port| {
        command.arg(port.to_string()).arg(&cert).arg(&key).arg(&ca);
    })
    .await;
    let url = format!("https://127.0.0.1:{}/mcp", server.port);
    let identified = ClientTls {
        ca_file: Some(certs.ca.clone()),
        client_cert: Some((certs.client_cert.clone(), certs.client_key.clone())),
    };
    let client = connect_as(&url, identified, EraPreference::Legacy).await.unwrap();
    assert_eq!(echo(&client, "echo", "message").await, "über TLS");
    client.close().await;
    let anonymous = refused(&url, Some(certs.ca.clone())).await;
    assert!(!anonymous.is_empty());
    // A key that is not the certificate's is refused before any connection.
    let mismatched = ClientTls {
        ca_file: Some(certs.ca.clone()),
        client_cert: Some((certs.client_cert.clone(), certs.key.clone())),
    };
    let error = connect_as(&url, mismatched, EraPreference::Legacy).await.err().expect("a mismatched key is refused");
    assert!(error.to_string().contains("server.key"), "{error}");
}
