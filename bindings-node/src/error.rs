//! Core errors as JavaScript errors, and the panic guard at the FFI boundary.
//!
//! A JS `Error` made by napi carries a message and a string status, nothing else. So the
//! message is the JSON `{"code", "message", "data"}` of the MCP error, and the TypeScript
//! layer turns it into an `McpError` with a numeric `code` and the parsed `data` in one
//! place (`src/errors.ts`). Nothing here decides a code: core's errors already carry one.

use std::future::Future;
use std::panic::AssertUnwindSafe;

use ferrymcp_core::client::ClientError;
use ferrymcp_core::protocol::ErrorCode;
use ferrymcp_core::server::RegistryError;
use ferrymcp_core::wire::ErrorObject;
use futures_util::FutureExt;
use serde_json::{Value, json};

/// A JS error whose message is the MCP error as JSON.
pub fn mcp_error(code: i64, message: &str, data: Option<Value>) -> napi::Error {
    let mut body = json!({"code": code, "message": message});
    if let Some(data) = data {
        body["data"] = data;
    }
    napi::Error::new(napi::Status::GenericFailure, body.to_string())
}

pub fn from_client(error: ClientError) -> napi::Error {
    // A local error of the official SDK (`SdkError`, a string `code`): `sdk` names it.
    if let ClientError::InputRequired { method, rounds, last } = &error {
        let (sdk, data) = match rounds {
            None => ("UNSUPPORTED_RESULT_TYPE", json!({"resultType": "input_required", "method": method})),
            Some(rounds) => {
                ("INPUT_REQUIRED_ROUNDS_EXCEEDED", json!({"rounds": rounds, "lastResult": last, "method": method}))
            }
        };
        let body = json!({"code": error.code(), "message": error.to_string(), "sdk": sdk, "data": data});
        return napi::Error::new(napi::Status::GenericFailure, body.to_string());
    }
    let data = error.rpc().and_then(|rpc| rpc.data.as_ref()).and_then(|d| d.parse_owned().ok());
    let message = match error.rpc() {
        Some(rpc) => rpc.message.clone(),
        None => error.to_string(),
    };
    mcp_error(error.code(), &message, data)
}

pub fn from_object(error: &ErrorObject) -> napi::Error {
    let data = error.data.as_ref().and_then(|d| d.parse_owned().ok());
    mcp_error(error.code, &error.message, data)
}

pub fn from_registry(error: RegistryError) -> napi::Error {
    mcp_error(ErrorCode::INVALID_PARAMS, &error.to_string(), None)
}

/// A server author's mistake in a constructor option, named in `message`.
pub fn invalid(message: String) -> napi::Error {
    mcp_error(ErrorCode::INVALID_PARAMS, &message, None)
}

pub fn internal(message: impl AsRef<str>) -> napi::Error {
    mcp_error(ErrorCode::INTERNAL_ERROR, message.as_ref(), None)
}

/// Parses JSON text handed over by the TypeScript layer.
pub fn parse(text: &str, what: &str) -> napi::Result<Value> {
    serde_json::from_str(text)
        .map_err(|e| mcp_error(ErrorCode::INVALID_PARAMS, &format!("{what} is not valid JSON: {e}"), None))
}

/// Runs a future that must not unwind into Node: a panic becomes an internal error.
pub async fn no_panic<T>(future: impl Future<Output = napi::Result<T>>) -> napi::Result<T> {
    match AssertUnwindSafe(future).catch_unwind().await {
        Ok(result) => result,
        Err(panic) => Err(internal(format!("ferrymcp panicked: {}", panic_message(&panic)))),
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("unknown panic")
}
