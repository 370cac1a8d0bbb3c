//! The Rust client over HTTP against real servers on 127.0.0.1: the official TypeScript
//! reference server (`@modelcontextprotocol/server-everything`) over Streamable HTTP and
//! over the deprecated HTTP+SSE transport, and the official Python SDK serving
//! streamable-http in both eras; and a server that misbehaves on purpose.

mod hostile;
mod python;
mod reference;
