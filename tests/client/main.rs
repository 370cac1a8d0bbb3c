//! The Rust client against real servers over real pipes: ferrymcp's own fixture in both
//! eras, and the official reference server (npm `@modelcontextprotocol/server-everything`).

mod fixture;
mod official;
mod tapped;
