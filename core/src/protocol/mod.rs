//! The MCP data model: every request's params and result, every notification, the
//! capabilities, `_meta` keys, error codes and revisions, from 2024-11-05 to 2026-07-28.
//!
//! # Why the types look like this
//!
//! - **One type per concept, for every revision.** ferrymcp is dual-era, so a
//!   `ListToolsResult` must read a 2024-11-05 answer and write a 2026-07-28 one. Members a
//!   revision added or requires (`title`, `icons`, `resultType`, `ttlMs`, the modern
//!   `_meta`) are `Option`s; which ones a revision must or must not carry is decided by the
//!   server and client layers, with [`ProtocolVersion`]'s predicates.
//! - **Nothing is lost.** Almost every object has a flattened `extra` map, and `_meta`
//!   views keep unknown keys, so a message that is read and written again is the same JSON
//!   (the test vectors check this against the official examples). Open-ended members (JSON
//!   Schemas, structured content, capability settings) are [`JsonObject`]s or
//!   [`serde_json::Value`]s. Numbers the schema calls `number` are [`serde_json::Number`],
//!   so `50` stays `50` and `0.5` stays `0.5`.
//! - **Unions are read by their tag.** Content blocks by `type`, completion references by
//!   `type`, results by `resultType` ([`MaybeInputRequired`]), elicitation params by
//!   `mode`. Constant members are unit types ([`JsonRpc2`], [`UrlMode`]...) that refuse
//!   any other value, so an untagged union picks the right member.
//! - **Revisions are data.** [`ProtocolVersion`] is an ordered enum; the versions *on the
//!   wire* stay strings (`protocolVersion`, `supportedVersions`), because an unknown one
//!   must still be read to be negotiated or refused.
//! - **The hot path stays raw.** [`CallToolParams::arguments`] is [`RawJson`], the text as
//!   it arrived, so the server validates and forwards it without building a DOM.
//! - **No behaviour.** These are data types and small constructors; negotiation, routing,
//!   validation and MRTR sealing belong to the server and client layers.
//!
//! [`RawJson`]: crate::wire::RawJson

mod base;
mod capabilities;
mod completion;
mod content;
mod discover;
mod elicitation;
mod elicitation_schema;
mod envelope;
pub mod errors;
pub mod headers;
mod icons;
pub mod inbound;
mod lifecycle;
mod logging;
pub mod meta;
mod methods;
mod mrtr;
mod prompts;
mod resources;
mod revision;
mod roots;
mod sampling;
mod subscriptions;
mod tags;
mod tasks;
pub mod tool_names;
mod tools;
mod utilities;

pub use base::*;
pub use capabilities::*;
pub use completion::*;
pub use content::*;
pub use discover::*;
pub use elicitation::*;
pub use elicitation_schema::*;
pub use envelope::*;
pub use errors::{
    ErrorCode, MissingRequiredClientCapabilityData, ResourceNotFoundData, UnsupportedProtocolVersionData,
    UrlElicitationRequiredData,
};
pub use icons::*;
pub use lifecycle::*;
pub use logging::*;
pub use meta::{Meta, NotificationMeta, RequestMeta, ResultMeta};
pub use methods::*;
pub use mrtr::*;
pub use prompts::*;
pub use resources::*;
pub use revision::*;
pub use roots::*;
pub use sampling::*;
pub use subscriptions::*;
pub use tags::*;
pub use tasks::*;
pub use tools::*;
pub use utilities::*;
