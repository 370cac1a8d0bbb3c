//! The Rust client against real servers over real pipes: ferrymcp's own fixture in both
//! eras (over stdio and over Streamable HTTP), and the official reference server (npm
//! `@modelcontextprotocol/server-everything`).

mod fixture;
mod http;
mod listen;
mod official;
mod slow_start;
mod tapped;
