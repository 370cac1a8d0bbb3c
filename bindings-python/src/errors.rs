//! Errors across the boundary, mapped in one place.
//!
//! `McpError` (`.code`, `.message`, `.data`) and its subclasses (`ferrymcp/exceptions.py`)
//! are the exceptions Python code sees from ferrymcp, and the one a handler raises to
//! answer with a precise JSON-RPC error. Any other exception in a handler is a failure of the handler (an `isError` tool
//! result, or an internal error).

use ferrymcp_core::client::ClientError;
use ferrymcp_core::peer::PeerError;
use ferrymcp_core::server::{HandlerError, RegistryError, no_back_channel_method};
use ferrymcp_core::wire::{ErrorCode, ErrorObject, RawJson};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::convert::{from_py, to_py};

/// The exception classes, defined once in `ferrymcp/exceptions.py` (abi3 cannot subclass
/// Python's exceptions natively).
fn class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("ferrymcp.exceptions")?.getattr(name)
}

fn raise(py: Python<'_>, name: &str, code: i64, message: String, data: Option<Py<PyAny>>) -> PyErr {
    match class(py, name).and_then(|class| class.call1((code, message, data))) {
        Ok(error) => PyErr::from_value(error),
        Err(e) => e,
    }
}

fn data_of(py: Python<'_>, error: &ErrorObject) -> Option<Py<PyAny>> {
    let data = error.data.as_ref()?.parse_owned::<serde_json::Value>().ok()?;
    to_py(py, &data).ok().map(Bound::unbind)
}

/// A JSON-RPC error object as an `McpError`; a failed OAuth authorization (core marks it
/// with `data.oauth.kind`) as the official `OAuthFlowError` class of its step, and core's
/// no-back-channel refusal as `NoBackChannelError`.
pub fn rpc_error(py: Python<'_>, error: &ErrorObject) -> PyErr {
    if let Some(class) = oauth_class(error) {
        let raised = py
            .import("ferrymcp.client.auth.exceptions")
            .and_then(|module| module.getattr(class))
            .and_then(|class| class.call1((error.message.clone(),)));
        return match raised {
            Ok(error) => PyErr::from_value(error),
            Err(e) => e,
        };
    }
    if let Some(method) = no_back_channel_method(error) {
        // Core's refusal of a server-to-client request without a back-channel, whether a
        // handler's session request got it or a client received it as the answer.
        return match class(py, "NoBackChannelError").and_then(|class| class.call1((method,))) {
            Ok(error) => PyErr::from_value(error),
            Err(e) => e,
        };
    }
    raise(py, "McpError", error.code, error.message.clone(), data_of(py, error))
}

fn oauth_class(error: &ErrorObject) -> Option<&'static str> {
    let data = error.data.as_ref()?.parse_owned::<serde_json::Value>().ok()?;
    match data.pointer("/oauth/kind")?.as_str()? {
        "registration" => Some("OAuthRegistrationError"),
        "token" => Some("OAuthTokenError"),
        _ => Some("OAuthFlowError"),
    }
}

pub fn client_error(py: Python<'_>, error: ClientError) -> PyErr {
    {
        let (code, message) = (error.code(), error.to_string());
        match &error {
            ClientError::Peer(PeerError::Rpc(e)) | ClientError::Input(e) => rpc_error(py, e),
            ClientError::Peer(PeerError::Timeout(_)) => raise(py, "RequestTimeout", code, message, None),
            ClientError::Peer(PeerError::Cancelled) => raise(py, "RequestCancelled", code, message, None),
            ClientError::Peer(PeerError::Closed(_)) | ClientError::Transport(_) => {
                raise(py, "ConnectionClosed", code, message, None)
            }
            ClientError::Peer(PeerError::MalformedResponse(_))
            | ClientError::Protocol(_)
            | ClientError::InputRequired { .. } => raise(py, "ProtocolError", code, message, None),
            ClientError::Peer(PeerError::Params(_)) | ClientError::Usage(_) => {
                raise(py, "McpError", code, message, None)
            }
            // The official `ClientSession.call_tool` raises RuntimeError for these.
            ClientError::OutputSchema { .. } => pyo3::exceptions::PyRuntimeError::new_err(message),
        }
    }
}

/// A core handler error (from `ctx.elicit(...)` and friends) as an exception: an `McpError`
/// for a JSON-RPC error, a `RuntimeError` for a failure, so that re-raised out of the
/// handler it maps back to the same kind.
pub fn handler_error(py: Python<'_>, error: HandlerError) -> PyErr {
    match error {
        HandlerError::Rpc(e) => rpc_error(py, &e),
        HandlerError::Failed(message) | HandlerError::Unexpected(message) => {
            pyo3::exceptions::PyRuntimeError::new_err(message)
        }
        HandlerError::ResourceNotFound(uri) => match class(py, "ResourceNotFound").and_then(|c| c.call1((uri,))) {
            Ok(error) => PyErr::from_value(error),
            Err(e) => e,
        },
        HandlerError::ResourceNotFoundSaying { uri, message } => {
            match class(py, "ResourceNotFound").and_then(|c| c.call1((uri,))) {
                Ok(error) => {
                    let _ = error.setattr("detail", message);
                    PyErr::from_value(error)
                }
                Err(e) => e,
            }
        }
    }
}

/// What a handler's exception means to core.
pub fn from_exception(py: Python<'_>, error: PyErr) -> HandlerError {
    let value = error.value(py);
    let not_found = class(py, "ResourceNotFound").and_then(|class| value.is_instance(&class)).unwrap_or(false);
    if not_found {
        let uri: String = value.getattr("uri").and_then(|u| u.extract()).unwrap_or_default();
        // An application's own wording (`ResourceNotFoundError("No book ...")`) travels as
        // `detail`; the engine keeps the code and data of its not-found answer.
        return match value.getattr("detail").and_then(|d| d.extract::<Option<String>>()) {
            Ok(Some(message)) => HandlerError::ResourceNotFoundSaying { uri, message },
            _ => HandlerError::ResourceNotFound(uri),
        };
    }
    let is_mcp = class(py, "McpError").and_then(|class| value.is_instance(&class)).unwrap_or(false);
    if is_mcp {
        let code = value.getattr("code").and_then(|c| c.extract::<i64>()).unwrap_or(ErrorCode::INTERNAL_ERROR);
        let message = value.getattr("message").and_then(|m| m.extract::<String>()).unwrap_or_default();
        let mut object = ErrorObject::new(code, message);
        let data = value.getattr("data").ok().filter(|d| !d.is_none());
        if let Some(raw) = data.and_then(|d| from_py(&d).ok()).and_then(|v| RawJson::to_json(&v).ok()) {
            object = object.with_data(raw);
        }
        return HandlerError::Rpc(object);
    }
    let text = value.str().map(|s| s.to_string()).unwrap_or_else(|_| error.to_string());
    if deliberate(py, value) { HandlerError::Failed(text) } else { HandlerError::Unexpected(text) }
}

/// Whether an exception is a failure the application raised on purpose: the official
/// `ToolError`, `ResourceError` (and `MCPServerError`'s other kinds), not their
/// `Unexpected...` crash wrappers; anything else is a crash (core decides what of it the
/// client sees).
fn deliberate(py: Python<'_>, value: &Bound<'_, PyAny>) -> bool {
    let Ok(module) = py.import("ferrymcp.server.mcpserver.exceptions") else { return true };
    let is = |name: &str| module.getattr(name).and_then(|class| value.is_instance(&class)).unwrap_or(false);
    is("MCPServerError") && !is("UnexpectedToolError") && !is("UnexpectedResourceError")
}

pub fn registry_error(error: RegistryError) -> PyErr {
    PyValueError::new_err(error.to_string())
}
