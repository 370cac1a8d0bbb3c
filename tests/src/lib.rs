//! Shared helpers for ferrymcp's cross-process tests: the official MCP schemas as
//! validators, a raw line-level driver for a server process, and server processes
//! listening on a local port.

pub mod certs;
pub mod listening;
pub mod oauth;
pub mod raw;
pub mod schema;
