//! The endpoint's defaults, over real HTTP against the fixture under test: served with
//! `--transport http` on 127.0.0.1 and nothing configured, the Rust, Python and Node
//! fixtures must answer Host, Origin, path and body-size probes with the same statuses,
//! because core alone decides those defaults (from the bind address) and the bindings
//! pass only what an author set.
//!
//! Requests are written by hand on a TCP socket so that `Host` and `Origin` are exactly
//! what a rebinding page would send. A probe that passes the Host and Origin checks is a
//! POST with a `Content-Type` the endpoint refuses next (415): it proves the guard let it
//! through without opening a session.

use ferrymcp_tests::listening::Server;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::{fixture, python_dialect};

/// The fixture under test serving HTTP on a free port.
async fn serving() -> Server {
    let command = fixture();
    let mut process = std::process::Command::new(&command[0]);
    process.args(&command[1..]);
    Server::start(process, |process, port| {
        process.args(["--transport", "http", "--port", &port.to_string()]);
    })
    .await
}

/// The status of one POST to `path` with `headers` (besides `Content-Length` and
/// `Connection`), its body `body` or, when `declared` is larger, only the declaration.
async fn status(server: &mut Server, path: &str, headers: &[(&str, String)], body: &str, declared: usize) -> u16 {
    let mut stream = match TcpStream::connect(("127.0.0.1", server.port)).await {
        Ok(stream) => stream,
        Err(e) => panic!("connect for POST {path}: {e}; {}", server.describe()),
    };
    let mut request = format!("POST {path} HTTP/1.1\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!("Content-Length: {}\r\nConnection: close\r\n\r\n{body}", declared.max(body.len())));
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut head = Vec::new();
    let mut chunk = [0u8; 1024];
    while !head.windows(2).any(|w| w == b"\r\n") {
        // Which probe, to which server, and what had arrived: a reset here has been seen
        // in CI only, and these say which of the answers it cut off.
        let n = match stream.read(&mut chunk).await {
            Ok(n) => n,
            Err(e) => panic!(
                "read (POST {path}, {headers:?}, {} bytes declared): {e}; read before it: {:?}; {}",
                declared.max(body.len()),
                String::from_utf8_lossy(&head),
                server.describe()
            ),
        };
        assert!(n > 0, "the server closed without a status line");
        head.extend_from_slice(&chunk[..n]);
    }
    let line = String::from_utf8_lossy(&head);
    line.split(' ').nth(1).and_then(|code| code.parse().ok()).unwrap_or_else(|| panic!("no status in {line:?}"))
}

/// A POST that passes Host and Origin reaches the content check: 415 (400 in the Python
/// dialect).
async fn probe(server: &mut Server, host: &str, origin: Option<&str>) -> u16 {
    probe_as(server, host, origin, "text/plain").await
}

/// A JSON POST, so that the Python dialect's `Content-Type` check (made before `Host` and
/// `Origin` there) passes and the refusal seen is the one under test.
async fn probe_json(server: &mut Server, host: &str, origin: Option<&str>) -> u16 {
    probe_as(server, host, origin, "application/json").await
}

async fn probe_as(server: &mut Server, host: &str, origin: Option<&str>, content_type: &str) -> u16 {
    let mut headers = vec![("Host", host.to_owned()), ("Content-Type", content_type.to_owned())];
    headers.extend(origin.map(|o| ("Origin", o.to_owned())));
    status(server, "/mcp", &headers, "{}", 0).await
}

/// The statuses of a passed guard (the content check next) and of a refused `Host`: core's
/// JSON-RPC style (415, 403), or the official Python SDK's (the `Content-Type` checked
/// first: 400; a refused `Host` 421).
fn passed_and_refused_host() -> (u16, u16) {
    if python_dialect() { (400, 421) } else { (415, 403) }
}

#[tokio::test]
async fn loopback_names_and_their_origins_pass_others_are_refused() {
    let mut server = serving().await;
    let port = server.port;
    let (passed, refused_host) = passed_and_refused_host();
    for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}"), format!("[::1]:{port}"), "localhost".into()]
    {
        assert_eq!(probe(&mut server, &host, None).await, passed, "Host {host}");
    }
    for host in ["evil.example.com", "localhost.evil.example.com:80", "127.0.0.1.nip.io"] {
        assert_eq!(probe_json(&mut server, host, None).await, refused_host, "Host {host}");
    }
    let host = format!("127.0.0.1:{port}");
    for origin in ["http://localhost:5173", "http://127.0.0.1:3000", "https://[::1]"] {
        assert_eq!(probe(&mut server, &host, Some(origin)).await, passed, "Origin {origin}");
    }
    for origin in ["http://evil.example.com", "null", "http://localhost.evil.example.com"] {
        assert_eq!(probe_json(&mut server, &host, Some(origin)).await, 403, "Origin {origin}");
    }
}

#[tokio::test]
async fn the_endpoint_path_and_the_body_limit_are_cores() {
    let mut server = serving().await;
    let headers = [
        ("Host", format!("127.0.0.1:{}", server.port)),
        ("Content-Type", "application/json".to_owned()),
        ("Accept", "application/json, text/event-stream".to_owned()),
    ];
    assert_eq!(status(&mut server, "/other", &headers, "{}", 0).await, 404);
    assert_eq!(status(&mut server, "/mcp/", &headers, "{}", 0).await, 404);
    // 4 MiB is the limit (the official Python SDK's); one byte more is refused up front.
    assert_eq!(status(&mut server, "/mcp", &headers, "", 4 * 1024 * 1024 + 1).await, 413);
}
