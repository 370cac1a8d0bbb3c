//! Custom methods, client notifications and the server session handle, across real
//! process and HTTP boundaries, against `custom-fixture` (see its file for what each
//! method does).
//!
//! - [`raw`]: the fixture over stdio driven line by line, every message checked against
//!   the revision's schema (the MCP-defined ones against their own definitions:
//!   `RootsListChangedNotification`, `ListRootsRequest`, `CreateMessageRequest`,
//!   `ElicitationCompleteNotification`, ...).
//! - [`client`]: core's own client against the fixture over stdio and Streamable HTTP, in
//!   both eras: custom requests and notifications each way, through the client's router.
//!
//! No test sleeps: each waits for the message it expects (the raw driver and the channels
//! have a hang guard only).

mod client;
mod raw;

pub const FIXTURE: &str = env!("CARGO_BIN_EXE_custom-fixture");
