//! The multi-server host: what an application that offers many MCP servers' tools to a
//! model needs, written once for Rust, Python and Node.
//! - [`config`]: the `mcp.json` file of Claude Desktop, Cursor and VS Code, read into
//!   ways to connect.
//! - [`group`]: a client group connected to every server at once (each with a timeout,
//!   a failing one reported and retried, a lost one reconnected; the supervision is the
//!   gateway's, [`crate::proxy::gateway`]), offering their tools under one set of names
//!   and routing each call to its server.
//! - [`llm`]: tool definitions for the LLM APIs (OpenAI Chat Completions and Responses,
//!   Anthropic Messages) and a tool result as those APIs' message content; plain data
//!   conversion, so every binding emits the same bytes.

pub mod config;
pub mod group;
pub mod llm;
