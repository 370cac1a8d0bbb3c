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
