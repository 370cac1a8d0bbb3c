//! The Rust client over HTTP against real servers on 127.0.0.1: the official TypeScript
//! reference server (`@modelcontextprotocol/server-everything`) over Streamable HTTP and
//! over the deprecated HTTP+SSE transport, and the official Python SDK serving
//! streamable-http in both eras, and as the authorization server of the OAuth flows
//! (authorization code, SEP-990's identity assertion); a server that misbehaves on
//! purpose; and the Rust fixture killed under a call.

mod gone;
mod hostile;
mod identity_assertion;
mod oauth;
mod python;
mod reference;
mod tls;
