//! What a server author provides: handlers for tools, resources, prompts and completions.
//!
//! Handlers take and return JSON objects shaped as the MCP schema says (a `CallToolResult`,
//! a `ReadResourceResult`, ...): the bindings build them from Python or JS values, Rust code
//! from `serde_json::json!` or the typed structs in `protocol`. Behaviour that is protocol
//! (validation, era differences, errors) stays in the server, not in the handlers.

use std::future::Future;

use serde_json::{Map, Value};

use super::context::Context;
use crate::peer::BoxFuture;
use crate::wire::ErrorObject;

/// How a handler fails.
#[derive(Clone, Debug, thiserror::Error)]
pub enum HandlerError {
    /// The work failed: a tool call becomes an `isError: true` result with this text (the
    /// model sees it); other requests answer with an internal error.
    #[error("{0}")]
    Failed(String),
    /// Answer the request with exactly this JSON-RPC error.
    #[error("{0}")]
    Rpc(ErrorObject),
    /// The URI names no resource (a template matched, but its handler knows no such
    /// item). Core answers with the code of the request's era (-32002 legacy, -32602 from
    /// 2026-07-28) and `data.uri`.
    #[error("Resource not found: {0}")]
    ResourceNotFound(String),
    /// As [`HandlerError::ResourceNotFound`], worded by the application (the official
    /// Python API's `ResourceNotFoundError("No book titled ...")`): same code and data,
    /// this message.
    #[error("{message}")]
    ResourceNotFoundSaying { uri: String, message: String },
    /// The work failed in a way the application did not choose (an exception other than
    /// its SDK's error classes: a crash). Answered as [`HandlerError::Failed`], except
    /// where the dialect keeps a crash's text on the server (the official Python SDK 2.x's
    /// `MCPServer` tools: `Error executing tool NAME` alone).
    #[error("{0}")]
    Unexpected(String),
}

impl From<String> for HandlerError {
    fn from(message: String) -> Self {
        Self::Failed(message)
    }
}

impl From<&str> for HandlerError {
    fn from(message: &str) -> Self {
        Self::Failed(message.to_owned())
    }
}

impl From<ErrorObject> for HandlerError {
    fn from(error: ErrorObject) -> Self {
        Self::Rpc(error)
    }
}

pub type HandlerFuture = BoxFuture<Result<Value, HandlerError>>;

/// Runs a tool: `arguments` (an object, already validated against the input schema) in,
/// a `CallToolResult` object out.
pub trait ToolHandler: Send + Sync + 'static {
    fn call(&self, arguments: Map<String, Value>, cx: Context) -> HandlerFuture;
}

/// Reads a resource: the URI and, for a template, its variables; a `ReadResourceResult`
/// object (or just its `contents` array) out.
pub trait ResourceHandler: Send + Sync + 'static {
    fn read(&self, uri: String, variables: Map<String, Value>, cx: Context) -> HandlerFuture;
}

/// Lists the resources a template covers, for `resources/list`: a `ListResourcesResult`
/// object (or just its `resources` array) out. Each listed resource inherits the
/// template's metadata (description, mimeType, ...) unless it sets its own.
pub trait ResourceLister: Send + Sync + 'static {
    fn list(&self, cx: Context) -> HandlerFuture;
}

/// Renders a prompt from its arguments: a `GetPromptResult` object out.
pub trait PromptHandler: Send + Sync + 'static {
    fn get(&self, arguments: Map<String, Value>, cx: Context) -> HandlerFuture;
}

/// Answers `completion/complete` (its params in, a `CompleteResult` out).
pub trait CompletionHandler: Send + Sync + 'static {
    fn complete(&self, params: Map<String, Value>, cx: Context) -> HandlerFuture;
}

macro_rules! closure_handler {
    ($trait:ident, $method:ident, ($($arg:ident: $ty:ty),*)) => {
        impl<F, Fut> $trait for F
        where
            F: Fn($($ty,)* Context) -> Fut + Send + Sync + 'static,
            Fut: Future<Output = Result<Value, HandlerError>> + Send + 'static,
        {
            fn $method(&self, $($arg: $ty,)* cx: Context) -> HandlerFuture {
                Box::pin(self($($arg,)* cx))
            }
        }
    };
}

closure_handler!(ToolHandler, call, (arguments: Map<String, Value>));
closure_handler!(ResourceHandler, read, (uri: String, variables: Map<String, Value>));
closure_handler!(ResourceLister, list, ());
closure_handler!(PromptHandler, get, (arguments: Map<String, Value>));
closure_handler!(CompletionHandler, complete, (params: Map<String, Value>));
