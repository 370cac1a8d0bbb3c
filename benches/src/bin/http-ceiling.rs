//! http-ceiling: the HTTP ceiling of the SDK benchmark. A minimal hyper server on
//! 127.0.0.1 that answers every request with one fixed JSON-RPC result (and a fixed
//! `Mcp-Session-Id`), so the driver measures what the socket, hyper and the driver itself
//! allow. Usage: `http-ceiling PORT`.

use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

const BODY: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello world"}]}}"#;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port: u16 = std::env::args().nth(1).and_then(|p| p.parse().ok()).expect("usage: http-ceiling PORT");
    let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port))).await?;
    loop {
        let (stream, _) = listener.accept().await?;
        stream.set_nodelay(true)?;
        tokio::spawn(async move {
            let service = service_fn(|request: Request<hyper::body::Incoming>| async {
                request.into_body().collect().await?;
                Ok::<_, hyper::Error>(
                    Response::builder()
                        .header("content-type", "application/json")
                        .header("mcp-session-id", "ceiling")
                        .body(Full::new(Bytes::from_static(BODY.as_bytes())))
                        .expect("a fixed response"),
                )
            });
            let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
        });
    }
}
