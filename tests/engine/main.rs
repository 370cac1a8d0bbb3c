//! The engine over real pipes: `peer-fixture` as a child process, driven either byte by
//! byte (malformed input) or through the engine's own client side.

mod client;
mod emitted;
mod malformed;
mod stdin;

pub const FIXTURE: &str = env!("CARGO_BIN_EXE_peer-fixture");
