//! The way back to the client while a request is served.
//!
//! On stdio that is the connection's [`Peer`]; on Streamable HTTP it is the request's
//! response stream (or a legacy session's standalone stream). Handlers and the context
//! only see this trait, so every transport runs the same server code.

use serde_json::Value;

use crate::peer::{BoxFuture, CloseReason, Peer, PeerError, RequestOptions, WeakPeer};

pub trait Outbound: Send + Sync + 'static {
    fn notify(&self, method: &str, params: Value) -> BoxFuture<Result<(), PeerError>>;
    /// A server-to-client request; `options.timeout` overrides the connection's default
    /// wait (`PeerConfig::request_timeout`), and an expired wait is [`PeerError::Timeout`].
    fn request(&self, method: &str, params: Value, options: RequestOptions) -> BoxFuture<Result<Value, PeerError>>;

    /// Whether [`Outbound::request`] can reach the client at all: a connection or a legacy
    /// session with a stream for it (not a stateless or JSON-response HTTP request).
    fn can_request(&self) -> bool {
        true
    }

    /// Ends the current connection of a resumable stream without ending the request
    /// (SSE polling, SEP-1699); the client comes back with `Last-Event-ID`. Returns whether
    /// the transport can do that (only legacy Streamable HTTP from 2025-11-25 can).
    fn close_stream(&self) -> bool {
        false
    }

    /// Whether [`Outbound::close_stream`] (and [`Outbound::close_standalone_stream`]) can
    /// do anything here: the transport and the negotiated revision allow resuming.
    fn can_close_stream(&self) -> bool {
        false
    }

    /// Ends the current connection of the session's standalone GET stream (SEP-1699): the
    /// client comes back with `Last-Event-ID` for what was sent meanwhile. Returns whether
    /// the transport can do that (as [`Outbound::close_stream`]).
    fn close_standalone_stream(&self) -> bool {
        false
    }

    /// A server-wide notification (a list change, a resource update, a log message) for
    /// this connection. The same as [`Outbound::notify`], except where other replicas
    /// deliver such notifications to their own readers themselves.
    fn notify_server_wide(&self, method: &str, params: Value) -> BoxFuture<Result<(), PeerError>> {
        self.notify(method, params)
    }
}

impl Outbound for Peer {
    fn notify(&self, method: &str, params: Value) -> BoxFuture<Result<(), PeerError>> {
        let (peer, method) = (self.clone(), method.to_owned());
        let params = Some(params).filter(|p| !p.is_null());
        Box::pin(async move { peer.notify(&method, params.as_ref()).await })
    }

    fn request(&self, method: &str, params: Value, options: RequestOptions) -> BoxFuture<Result<Value, PeerError>> {
        let (peer, method) = (self.clone(), method.to_owned());
        Box::pin(async move {
            let raw = peer.request(&method, Some(&params), options).await?;
            raw.parse_owned().map_err(|e| PeerError::MalformedResponse(e.to_string()))
        })
    }
}

/// A connection's own way back: it must not keep the peer (which holds the connection)
/// alive.
impl Outbound for WeakPeer {
    fn notify(&self, method: &str, params: Value) -> BoxFuture<Result<(), PeerError>> {
        match self.upgrade() {
            Some(peer) => Outbound::notify(&peer, method, params),
            None => Box::pin(std::future::ready(Err(PeerError::Closed(CloseReason::Local)))),
        }
    }

    fn request(&self, method: &str, params: Value, options: RequestOptions) -> BoxFuture<Result<Value, PeerError>> {
        match self.upgrade() {
            Some(peer) => Outbound::request(&peer, method, params, options),
            None => Box::pin(std::future::ready(Err(PeerError::Closed(CloseReason::Local)))),
        }
    }
}
