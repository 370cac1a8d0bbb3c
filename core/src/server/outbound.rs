//! The way back to the client while a request is served.
//!
//! On stdio that is the connection's [`Peer`]; on Streamable HTTP (later) it is the
//! request's SSE stream. Handlers and the context only see this trait, so both transports
//! run the same server code.

use serde_json::Value;

use crate::peer::{BoxFuture, Peer, PeerError, RequestOptions};

pub trait Outbound: Send + Sync + 'static {
    fn notify(&self, method: &str, params: Value) -> BoxFuture<Result<(), PeerError>>;
    fn request(&self, method: &str, params: Value) -> BoxFuture<Result<Value, PeerError>>;
}

impl Outbound for Peer {
    fn notify(&self, method: &str, params: Value) -> BoxFuture<Result<(), PeerError>> {
        let (peer, method) = (self.clone(), method.to_owned());
        let params = Some(params).filter(|p| !p.is_null());
        Box::pin(async move { peer.notify(&method, params.as_ref()).await })
    }

    fn request(&self, method: &str, params: Value) -> BoxFuture<Result<Value, PeerError>> {
        let (peer, method) = (self.clone(), method.to_owned());
        Box::pin(async move {
            let raw = peer.request(&method, Some(&params), RequestOptions::default()).await?;
            raw.parse_owned().map_err(|e| PeerError::MalformedResponse(e.to_string()))
        })
    }
}
