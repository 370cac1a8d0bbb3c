//! Shared helpers for ferrymcp's cross-process tests: the official MCP schemas as
//! validators, and a raw line-level driver for a server process.

pub mod raw;
pub mod schema;
