//! JSON-RPC 2.0 on the wire.
//!
//! Incoming text is parsed once, borrowed ([`Envelope`]): the method as `Cow<str>`, ids as
//! integer or string, `params`/`result` as `&RawValue` slices. [`Message`] then keeps those
//! slices alive as views into the frame's shared buffer, so a request can travel to another
//! task without copying its arguments. Outgoing messages are written by [`encode`] straight
//! into the frame buffer.

pub mod encode;
mod envelope;
mod error_object;
mod id;
mod message;
mod recover;
mod result;
mod scan;
mod text;
mod value;
pub mod write;

pub use envelope::{Envelope, Id, InvalidReason, ParseError, Parsed, parse};
pub use error_object::{ErrorCode, ErrorObject};
pub use id::RequestId;
pub use message::{Message, Notification, Request, Response, to_message};
pub use recover::recover_id;
pub use result::RawResult;
pub(crate) use result::ResultMembers;
pub use text::{RawJson, SharedStr, members_in_order, object_members};
pub use value::parse_value;

/// The most messages one JSON-RPC batch (array) may hold: a longer one is refused whole,
/// before any of its messages is looked at, with [`batch_too_large`] (the official
/// TypeScript SDK's `MAX_BATCH_SIZE`, refused with the same words). A defense against a
/// peer that sends one frame to make the engine start thousands of requests.
pub const MAX_BATCH_SIZE: usize = 100;

/// The refusal of a batch longer than [`MAX_BATCH_SIZE`]: `-32600 Invalid Request: Batch
/// must not exceed 100 messages`, as the official TypeScript SDK's HTTP server words it.
pub fn batch_too_large() -> ErrorObject {
    ErrorObject::invalid_request(format!("Invalid Request: Batch must not exceed {MAX_BATCH_SIZE} messages"))
}
