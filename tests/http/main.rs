//! Streamable HTTP, server side: ferrymcp's endpoint on a real socket on 127.0.0.1, driven
//! with raw HTTP requests (hyper's client), so every status, header and byte is the
//! server's own. Every JSON-RPC message the server sends is validated against the schema
//! of the revision in use.

mod auth;
mod hostile;
mod legacy;
mod modern;
mod modern_only;
mod named_events;
mod output_shapes;
mod routes;
mod scale;
mod shutdown;
mod support;
