//! The application's own routes beside the MCP endpoint, on core's HTTP server.
//!
//! A server mounted in a web framework gets its other routes from the framework; a server
//! on core's built-in server (the official Python `mcp.run("streamable-http")` serving its
//! `@mcp.custom_route`s, a login page of an authorization flow, a health check) hands
//! them to core as [`Routes`]: every request for a path the endpoint does not own (not the
//! endpoint, not its protected resource metadata, not the authorization server's routes)
//! goes there, with its body read whole, and the answer goes back as it is. Such routes
//! stand outside MCP as they do in the official SDKs: neither the Host/Origin checks nor
//! the bearer token of the endpoint apply to them. A binding implements the trait by
//! calling its language's handler.

use bytes::Bytes;
use http::{HeaderMap, Method};

use crate::peer::BoxFuture;

/// One request for a path the endpoint does not own.
#[derive(Debug, Clone)]
pub struct RouteRequest {
    pub method: Method,
    pub path: String,
    /// The query string, without `?` (none: no `?` in the target).
    pub query: Option<String>,
    pub headers: HeaderMap,
    /// The whole body (within the endpoint's `max_body`; larger ones are refused with 413
    /// before the routes see them).
    pub body: Bytes,
}

/// A route's whole answer.
#[derive(Debug, Clone)]
pub struct RouteAnswer {
    pub status: u16,
    /// Header names and values as bytes, in order (a name may repeat: `Set-Cookie`).
    pub headers: Vec<(Bytes, Bytes)>,
    pub body: Bytes,
}

/// The application's routes.
pub trait Routes: Send + Sync + 'static {
    /// The answer to `request`; `Ok(None)` when no route of the application takes its
    /// path (the endpoint then answers 404); `Err` when the route failed (500, the message
    /// logged, not sent).
    fn handle(&self, request: RouteRequest) -> BoxFuture<Result<Option<RouteAnswer>, String>>;
}
