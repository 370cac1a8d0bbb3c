//! echo-server: the smallest server on ferrymcp's engine. It answers `echo` with its
//! params over stdio, and exits when stdin closes.

use std::sync::Arc;

use ferrymcp_core::peer::{Peer, PeerConfig, RequestContext};
use ferrymcp_core::transport::stdio::stdio;
use ferrymcp_core::wire::{ErrorObject, RawJson, Request};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let handler = |request: Request, _cx: RequestContext| async move {
        match request.method.as_str() {
            "echo" => Ok(request.params.unwrap_or(RawJson::from_text("{}").unwrap())),
            other => Err(ErrorObject::method_not_found(other)),
        }
    };
    let (source, sink) = stdio()?;
    let peer = Peer::spawn(source, sink, Arc::new(handler), PeerConfig::default());
    peer.closed().await;
    Ok(())
}
