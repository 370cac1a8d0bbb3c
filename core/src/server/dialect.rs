//! Whose answers the server gives where the official SDKs answer the same request
//! differently: [`Dialect`], chosen once per server in
//! [`ServerOptions::dialect`](super::ServerOptions::dialect).
//!
//! The specification leaves some things open (which capabilities a server declares while it
//! could serve more, the wording of an error, whether a completion says `total`), and the
//! official SDKs filled them in differently. Code ported from one of them asserts on its
//! answers (its own documentation tests do, byte for byte), so a binding selects the dialect
//! of the SDK whose API it offers; the rules themselves live here, once, never in a binding.
//! Every function below is one of those open points; the default ([`Dialect::Ferrymcp`]) is
//! what ferrymcp answered before dialects existed, the specification's wording and most of
//! the TypeScript SDKs' choices, so the Rust API is unchanged by it; the Node binding
//! selects [`Dialect::TypeScriptSdk`] for the capabilities the official TypeScript server
//! declares.

use serde_json::{Value, json};

use crate::protocol::inbound::{self, Rejection};
use crate::wire::{ErrorCode, ErrorObject, RawJson};

/// The code the official Python SDK answers a legacy request whose handler raised with
/// (not JSON-RPC's -32603: its 1.x servers did so, and it keeps their answers).
const PYTHON_LEGACY_FAILURE: i64 = 0;

/// Whose answers the server gives where the official SDKs differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// ferrymcp's own: `logging` always declared (core serves `logging/setLevel` on every
    /// session), `listChanged: true` wherever core carries list changes, a completion with
    /// `total` and `hasMore` filled in, `Method not found: NAME`, `Resource not found: URI`
    /// with the era's code, and a failing handler's message in the error.
    #[default]
    Ferrymcp,
    /// The official Python SDK's (`mcp` 2.x, `main`): `logging` only when the application
    /// answers `logging/setLevel` itself (and `logging/setLevel` otherwise -32601, as the
    /// official runner answers a method no handler serves; with the handler, core applies
    /// the level too), a list without `listChanged` (and `resources.subscribe`) toward a
    /// legacy client unless the application declares it (toward a 2026-07-28 one, a list
    /// core keeps with them), a tool result's empty content left empty, a completion as the handler gave it (within the 100-value cap), `Method not found`
    /// with the method as `data`, a feature whose handlers the server does not have
    /// -32601 too, `Unknown resource: URI` (-32602 in both eras, `data: {uri}`), a
    /// resource's failed read `-32603 Error reading resource URI` with `data: {uri}`, and
    /// any other handler failure (an unknown prompt or a prompt missing a required
    /// argument included) sanitised to `-32603 Internal server error` on a 2026-07-28
    /// request, or code 0 with the failure's own text on a legacy one.
    PythonSdk,
    /// The official TypeScript SDK's (v1.x `McpServer` and `Server`, v2 `packages/server`):
    /// capabilities as that server declares them, and otherwise ferrymcp's own answers
    /// (which are already that SDK's). `logging` only when the application declares it
    /// (its `capabilities`, `registerCapabilities`), and only then `logging/setLevel`
    /// served (otherwise -32601) and log messages sent (otherwise silently dropped, as
    /// its `sendLoggingMessage` returns); a list core keeps (the `McpServer`'s) with
    /// `listChanged: true`, a list the application answers itself (the low-level
    /// `Server`) and `resources.subscribe` only as the application declares them (no
    /// `false` flags, no `true` for 2026-07-28 clients).
    TypeScriptSdk,
}

const NO_BACK_CHANNEL_HEAD: &str = "Cannot send '";
const NO_BACK_CHANNEL_TAIL: &str = "': this transport context has no back-channel for server-initiated requests.";

/// The method a server-to-client request was refused for because the request has no
/// back-channel (the error a handler's session request gets at 2026-07-28 in
/// [`Dialect::PythonSdk`], as the handler sees it or as a client receives it), so that a
/// binding can raise it as its own class (the official `NoBackChannelError`); `None` for
/// any other error.
pub fn no_back_channel_method(error: &ErrorObject) -> Option<&str> {
    if error.code != ErrorCode::INVALID_REQUEST || error.data.is_some() {
        return None;
    }
    let method = error.message.strip_prefix(NO_BACK_CHANNEL_HEAD)?.strip_suffix(NO_BACK_CHANNEL_TAIL)?;
    (!method.is_empty() && !method.contains('\'')).then_some(method)
}

/// `text` as Python's `repr` of a string prints it (the official SDK formats names with
/// `!r`): single quotes unless the text has one and no double quote.
pub(crate) fn python_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

impl Dialect {
    /// Whether `logging` is declared; `app_sets_level`: the application answers
    /// `logging/setLevel` itself.
    pub(crate) fn declares_logging(self, app_sets_level: bool) -> bool {
        match self {
            Dialect::Ferrymcp => true,
            Dialect::PythonSdk | Dialect::TypeScriptSdk => app_sets_level,
        }
    }

    /// Whether core answers `logging/setLevel` on a legacy session when the application
    /// does not (otherwise the method is not found, and when the application does, core
    /// applies the level before its handler runs: ported code filters by it or not, the
    /// messages a client receives are the same); `declared`: the application declared
    /// `logging` in its capabilities.
    pub(crate) fn serves_set_level(self, declared: bool) -> bool {
        match self {
            Dialect::Ferrymcp => true,
            Dialect::PythonSdk => false,
            Dialect::TypeScriptSdk => declared,
        }
    }

    /// Whether log messages are sent at all (each still subject to the client's level);
    /// `declared`: the server declares `logging`. The official TypeScript server drops
    /// them silently without it.
    pub(crate) fn sends_logs(self, declared: bool) -> bool {
        declared || self != Dialect::TypeScriptSdk
    }

    /// Whether a flag of a list's capability that would be `false` is left out rather
    /// than declared `false` (the official TypeScript server declares only what is
    /// `true`).
    pub(crate) fn omits_false_flags(self) -> bool {
        self == Dialect::TypeScriptSdk
    }

    /// `listChanged` (and `resources.subscribe`) of a list: `engine_keeps` when core keeps
    /// the list (and carries its changes), `app_declares` when the application answers
    /// the method that would make it true itself (`resources/subscribe`), `modern` for a
    /// 2026-07-28 client, to whom core carries changes on `subscriptions/listen`. The
    /// official Python server declares a legacy client only what the application declares
    /// (its `NotificationOptions`, default all `false`, and its `resources/subscribe`
    /// handler), though its `MCPServer` keeps the lists: the application sends list changes
    /// itself (`session.send_tool_list_changed()`, which core still carries), and to a
    /// 2026-07-28 client what its `subscriptions/listen` carries (all of it).
    pub(crate) fn announces_changes(self, engine_keeps: bool, app_declares: bool, modern: bool) -> bool {
        match self {
            Dialect::Ferrymcp => engine_keeps || modern || app_declares,
            Dialect::PythonSdk if !modern => app_declares,
            Dialect::PythonSdk | Dialect::TypeScriptSdk => engine_keeps || app_declares,
        }
    }

    /// Whether the application's own `resources/subscribe` handler makes a legacy
    /// `resources.subscribe` true (`v1`: [`ServerOptions::python_v1`](super::ServerOptions::python_v1)):
    /// the official 1.x Python server declares `false` whatever it serves.
    pub(crate) fn declares_app_subscribe(self, v1: bool) -> bool {
        !(self == Dialect::PythonSdk && v1)
    }

    /// Whether `capabilities.experimental` is declared even when empty (`{}`): the official
    /// 1.x Python server always sends it, 2.x only with entries (`v1`:
    /// [`ServerOptions::python_v1`](super::ServerOptions::python_v1)).
    pub(crate) fn declares_empty_experimental(self, v1: bool) -> bool {
        self == Dialect::PythonSdk && v1
    }

    /// Whether a tool result without content gets its structured output as a text block
    /// (ferrymcp's and the TypeScript SDK's completion); the official Python server sends
    /// the content the tool's value converts to, `[]` for an empty list.
    pub(crate) fn mirrors_structured_into_empty_content(self) -> bool {
        self != Dialect::PythonSdk
    }

    /// Whether a successful tool result states `isError: false` (the official Python
    /// server's `CallToolResult`, whose `is_error` defaults to `False`, is always written
    /// with it); the TypeScript SDK sends a result as the tool gave it.
    pub(crate) fn states_tool_success(self) -> bool {
        self == Dialect::PythonSdk
    }

    /// Whether a tool's crash ([`HandlerError::Unexpected`](super::HandlerError::Unexpected))
    /// reaches the model as `Error executing tool NAME` alone, its text kept on the server:
    /// the official Python SDK 2.x (`UnexpectedToolError`); 1.x (`python_v1`) and the others
    /// send the text.
    pub(crate) fn withholds_crash_text(self, python_v1: bool) -> bool {
        self == Dialect::PythonSdk && !python_v1
    }

    /// Whether a completion within the cap gets `total` and `hasMore` filled in.
    pub(crate) fn fills_completion(self) -> bool {
        self != Dialect::PythonSdk
    }

    /// Whether a feature request of a list the server does not offer (no handler given to
    /// a low-level server) is -32601 rather than answered from the empty registry.
    pub(crate) fn unoffered_is_not_found(self) -> bool {
        self == Dialect::PythonSdk
    }

    /// The -32601 answer to `method`: core's names the method; the official TypeScript
    /// SDK's protocol layer says only `Method not found`, the official Python runner says
    /// that with the method as `data`.
    pub(crate) fn method_not_found(self, method: &str) -> ErrorObject {
        match self {
            Dialect::Ferrymcp => ErrorObject::method_not_found(method),
            Dialect::TypeScriptSdk => ErrorObject::new(ErrorCode::METHOD_NOT_FOUND, "Method not found"),
            Dialect::PythonSdk => ErrorObject::new(ErrorCode::METHOD_NOT_FOUND, "Method not found")
                .with_data(RawJson::to_json(&json!(method)).expect("JSON")),
        }
    }

    /// Reworded for this dialect if `error` is core's -32601 for the request's own
    /// `method` (the answer of a layer that does not know the server, such as the era
    /// check refusing a method 2026-07-28 removed).
    pub(crate) fn reword(self, method: &str, error: ErrorObject) -> ErrorObject {
        if self != Dialect::Ferrymcp && error.data.is_none() && error == ErrorObject::method_not_found(method) {
            return self.method_not_found(method);
        }
        error
    }

    /// The answer to a 2026-07-28 request the inbound ladder refused
    /// ([`crate::protocol::inbound`]): the official Python SDK's words, or, in ferrymcp's
    /// dialect and the TypeScript SDK's, the TypeScript SDK's for a header that disagrees with
    /// the body and core's own for the envelope (`envelope`: core's answer to the same defect).
    pub(crate) fn inbound_rejection(
        self,
        rejection: Rejection,
        envelope: impl FnOnce() -> Option<ErrorObject>,
    ) -> ErrorObject {
        match (self, rejection) {
            (Dialect::PythonSdk, rejection) => rejection.official(),
            (Dialect::Ferrymcp | Dialect::TypeScriptSdk, Rejection::Mismatch(mismatch)) => mismatch.typescript(),
            (Dialect::Ferrymcp | Dialect::TypeScriptSdk, Rejection::Envelope(error)) => envelope().unwrap_or(error),
        }
    }

    /// The HTTP status of a 2026-07-28 request's JSON-RPC error answer: the official Python
    /// SDK's `ERROR_CODE_HTTP_STATUS` (whoever raised the error); in ferrymcp's dialect and the
    /// TypeScript SDK's, the TypeScript SDK's ladder table, which leaves -32602 (a handler's,
    /// as a rule) at 200.
    pub(crate) fn modern_status(self, code: i64) -> u16 {
        if self != Dialect::PythonSdk && code == ErrorCode::INVALID_PARAMS {
            return 200;
        }
        inbound::http_status(code).unwrap_or(200)
    }

    /// Whether the first request on a stream (stdio, or any peer-carried connection; not
    /// an HTTP session) decides the stream's era for good, as the official Python SDK's
    /// dual-era loop does: a request naming a 2026-07-28 version in its `_meta` (other
    /// than `initialize`) opens a 2026-07-28 stream, on which `initialize` is -32022 and
    /// every request runs the inbound ladder's envelope checks; anything else opens a
    /// handshake stream, on which a request naming a 2026-07-28 version is -32600.
    /// Otherwise each request's own `_meta` says which era serves it.
    pub(crate) fn locks_stream_era(self) -> bool {
        self == Dialect::PythonSdk
    }

    /// The answer to a 2026-07-28 request whose `_meta` names a log level that is not one.
    pub(crate) fn invalid_log_level(self, level: &Value) -> ErrorObject {
        match self {
            // The official runner validates the envelope with pydantic: its one wording.
            Dialect::PythonSdk => ErrorObject::invalid_params("Invalid request parameters")
                .with_data(RawJson::to_json(&json!("")).expect("JSON")),
            Dialect::Ferrymcp | Dialect::TypeScriptSdk => {
                ErrorObject::invalid_params(format!("Invalid params: unknown log level {level}"))
            }
        }
    }

    /// The answer when no resource has `uri`: the era's code (`modern`: 2026-07-28).
    pub(crate) fn resource_not_found(self, uri: &str, modern: bool) -> ErrorObject {
        let data = RawJson::to_json(&json!({"uri": uri})).expect("JSON");
        match self {
            Dialect::Ferrymcp | Dialect::TypeScriptSdk => {
                let code = if modern { ErrorCode::INVALID_PARAMS } else { ErrorCode::RESOURCE_NOT_FOUND };
                ErrorObject::new(code, format!("Resource not found: {uri}")).with_data(data)
            }
            Dialect::PythonSdk => {
                ErrorObject::new(ErrorCode::INVALID_PARAMS, format!("Unknown resource: {uri}")).with_data(data)
            }
        }
    }

    /// The answer when a handler failed with `message`: `worded` is the feature's wording
    /// of it (`Prompt NAME failed: ...`), `reading` the URI of a resource whose read
    /// failed, `modern` a 2026-07-28 request. The official Python SDK sanitises a modern
    /// request's failure, and answers a legacy one with code 0 and the exception's text
    /// (its 1.x compatibility, in its `JSONRPCDispatcher`).
    pub(crate) fn handler_failed(
        self,
        message: String,
        worded: impl FnOnce(String) -> String,
        reading: Option<&str>,
        modern: bool,
    ) -> ErrorObject {
        match (self, reading) {
            (Dialect::Ferrymcp | Dialect::TypeScriptSdk, _) => ErrorObject::internal(worded(message)),
            (Dialect::PythonSdk, Some(uri)) => ErrorObject::internal(format!("Error reading resource {uri}"))
                .with_data(RawJson::to_json(&json!({"uri": uri})).expect("JSON")),
            (Dialect::PythonSdk, None) if modern => ErrorObject::internal("Internal server error"),
            (Dialect::PythonSdk, None) => ErrorObject::new(PYTHON_LEGACY_FAILURE, message),
        }
    }

    /// The official 1.x `FastMCP`'s answer to a legacy `resources/read` of `uri` where 2.x
    /// answers otherwise ([`ServerOptions::python_v1`](super::ServerOptions::python_v1)):
    /// `failed` is the resource's failure (`None`: no resource has `uri`), `template` whether
    /// the URI matched a template. Code 0 (1.x's low-level server answers any exception so)
    /// with the cause in the text: `Error reading resource URI: cause` for a static
    /// resource, `Error creating resource from template: ` twice before the cause for a
    /// template (1.x runs its function while it creates the resource, and says so at two
    /// levels), `Unknown resource: URI`. `None`
    /// outside [`Dialect::PythonSdk`].
    pub(crate) fn v1_read_failed(self, uri: &str, template: bool, failed: Option<&str>) -> Option<ErrorObject> {
        if self != Dialect::PythonSdk {
            return None;
        }
        let message = match failed {
            None => format!("Unknown resource: {uri}"),
            Some(cause) if template => {
                format!("Error creating resource from template: Error creating resource from template: {cause}")
            }
            Some(cause) => format!("Error reading resource {uri}: {cause}"),
        };
        Some(ErrorObject::new(PYTHON_LEGACY_FAILURE, message))
    }

    /// The official Python SDK's (2.x) answer when the function of a resource template
    /// failed reading `uri` (in both eras; a static resource's is
    /// [`Dialect::handler_failed`]'s `Error reading resource URI`): `-32603 Error creating
    /// resource from template URI` with `data: {uri}`. `None` outside [`Dialect::PythonSdk`].
    pub(crate) fn template_failed(self, uri: &str) -> Option<ErrorObject> {
        (self == Dialect::PythonSdk).then(|| {
            ErrorObject::internal(format!("Error creating resource from template {uri}"))
                .with_data(RawJson::to_json(&json!({"uri": uri})).expect("JSON"))
        })
    }

    /// Whether the JSON-RPC error `error` a tool's handler raised (an `McpError`, such as
    /// the client's `-32600 Elicitation not supported` answer to the tool's `ctx.elicit`)
    /// is a tool error (`isError`, `Error executing tool NAME: message`) rather than the
    /// call's answer, under the official 1.x `FastMCP`
    /// ([`ServerOptions::python_v1`](super::ServerOptions::python_v1)): its tools wrap every
    /// exception but `UrlElicitationRequiredError` (-32042), where 2.x re-raises any
    /// `MCPError` as the answer.
    pub(crate) fn v1_tool_error_is_result(self, error: &ErrorObject) -> bool {
        self == Dialect::PythonSdk && error.code != ErrorCode::URL_ELICITATION_REQUIRED
    }

    /// The text of a failure of prompt `name`'s handler (then answered as
    /// [`Dialect::handler_failed`] says): the official Python SDK's `Error rendering prompt
    /// NAME` (2.x keeps the cause for its log), or with `: cause` under 1.x
    /// (`v1`: [`ServerOptions::python_v1`](super::ServerOptions::python_v1)); ferrymcp's
    /// `Prompt NAME failed: cause`.
    pub(crate) fn prompt_failed(self, name: &str, cause: &str, v1: bool) -> String {
        match self {
            Dialect::PythonSdk if v1 => format!("Error rendering prompt {name}: {cause}"),
            Dialect::PythonSdk => format!("Error rendering prompt {name}"),
            Dialect::Ferrymcp | Dialect::TypeScriptSdk => format!("Prompt {name} failed: {cause}"),
        }
    }

    /// The answer to a retry whose `requestState` did not open (`error`: core's own
    /// reason). The official Python SDK answers every such failure with one frozen error,
    /// its reason going to the server's log only.
    pub(crate) fn state_rejected(self, error: ErrorObject) -> ErrorObject {
        match self {
            Dialect::Ferrymcp | Dialect::TypeScriptSdk => error,
            Dialect::PythonSdk => super::mrtr::request_state_rejected(),
        }
    }

    /// Whether a handler's own `input_required` result is checked against the client's
    /// declared capabilities before it goes out (the official Python SDK sends it as the
    /// handler built it, and the client answers what it cannot do).
    pub(crate) fn checks_own_input_requests(self) -> bool {
        self != Dialect::PythonSdk
    }

    /// Whether a handler's own `input_required` result without a `requestState` still
    /// gets core's sealed one (the answers gathered so far). The official Python SDK seals
    /// only a `requestState` the handler gave, and sends none otherwise.
    pub(crate) fn seals_stateless_own_result(self) -> bool {
        self != Dialect::PythonSdk
    }

    /// The answer when a handler returned its own `input_required` result to a request of
    /// the 2025 era (`method`, `version`), which has no vocabulary for it.
    pub(crate) fn input_required_out_of_era(self, method: &str, version: &str) -> ErrorObject {
        match self {
            Dialect::Ferrymcp | Dialect::TypeScriptSdk => ErrorObject::internal(format!(
                "The handler for {method} returned an input_required result, but this request is served on protocol revision {version}, which has no input_required vocabulary (ask with ctx.elicit / sample / list_roots, which serve both eras)"
            )),
            Dialect::PythonSdk => ErrorObject::internal("Handler returned an invalid result"),
        }
    }

    /// Whether a handler's own `input_required` result on a 2025-era request is served by
    /// the legacy shim unless the server says otherwise
    /// ([`InputRequiredOptions::legacy_shim`](super::InputRequiredOptions::legacy_shim)):
    /// the official TypeScript SDK's default (`legacyShim: true`); the official Python SDK
    /// has no shim and fails the request.
    pub(crate) fn shims_legacy_input_required(self) -> bool {
        self != Dialect::PythonSdk
    }

    /// A client's answer to a server request (a legacy session's, or a modern input
    /// request) it has no callback for: -32601, or, as the official Python client's
    /// default callbacks answer the three inputs a server may ask, -32600 naming what is
    /// not supported.
    pub(crate) fn unhandled_client_request(self, method: &str) -> ErrorObject {
        let unsupported = match (self, method) {
            (Dialect::PythonSdk, "elicitation/create") => "Elicitation not supported",
            (Dialect::PythonSdk, "sampling/createMessage") => "Sampling not supported",
            (Dialect::PythonSdk, "roots/list") => "List roots not supported",
            _ => return ErrorObject::method_not_found(method),
        };
        ErrorObject::new(ErrorCode::INVALID_REQUEST, unsupported)
    }

    /// Whether a handler's `elicit`, `sample` and `list_roots` are inputs that run in
    /// rounds at 2026-07-28 (and check the client's capability first), or, as the
    /// official Python SDK's session requests, are sent on a legacy session as they are
    /// and refused at 2026-07-28 (see [`Context::ask`](super::Context)).
    pub(crate) fn asks_in_rounds(self) -> bool {
        self != Dialect::PythonSdk
    }

    /// The refusal of a server-to-client request where there is no back-channel (the
    /// official Python SDK's `NoBackChannelError`); [`no_back_channel_method`] tells it
    /// apart.
    pub(crate) fn no_back_channel(self, method: &str) -> ErrorObject {
        ErrorObject::new(ErrorCode::INVALID_REQUEST, format!("{NO_BACK_CHANNEL_HEAD}{method}{NO_BACK_CHANNEL_TAIL}"))
    }

    /// The refusal of a legacy HTTP request naming a session the server does not have (a
    /// 404), and whether its body carries `"id": null`: the official TypeScript server's
    /// `-32001 Session not found` (its `id: null` left out, as ferrymcp's other refusals),
    /// or the official Python server's `-32600 Session not found` with `"id": null` (its
    /// session manager answers every method so, a credential that does not own the
    /// session included).
    pub(crate) fn unknown_session(self) -> (ErrorObject, bool) {
        match self {
            Dialect::Ferrymcp | Dialect::TypeScriptSdk => {
                (ErrorObject::new(ErrorCode::REQUEST_TIMEOUT, "Session not found"), false)
            }
            Dialect::PythonSdk => (ErrorObject::new(ErrorCode::INVALID_REQUEST, "Session not found"), true),
        }
    }

    /// The refusal of resolver `resolver`'s input (`method`, `params`) when the client's
    /// `capabilities` lack what it needs, in the official Python SDK's resolvers' words
    /// (`None` in the default dialect, whose inputs check as every input does, and when
    /// nothing is missing). A form elicitation needs `elicitation.form`, or a bare
    /// `elicitation` (the shape before modes existed); sampling needs `sampling`, and
    /// `sampling.tools` when the request offers `tools` or a `toolChoice`; roots need
    /// `roots`.
    pub(crate) fn resolver_refused(
        self,
        resolver: &str,
        capabilities: &Value,
        method: &str,
        params: &Value,
    ) -> Option<ErrorObject> {
        if self != Dialect::PythonSdk {
            return None;
        }
        let declared = |name: &str| capabilities.get(name).filter(|c| !c.is_null());
        let (name, required) = match method {
            "elicitation/create" => {
                let elicitation = declared("elicitation");
                let form = elicitation.is_some_and(|e| {
                    e.get("form").is_some_and(|f| !f.is_null()) || e.get("url").is_none_or(Value::is_null)
                });
                if form {
                    return None;
                }
                ("form elicitation", json!({"elicitation": {"form": {}}}))
            }
            "sampling/createMessage" => {
                let present = |key: &str| params.get(key).is_some_and(|v| !v.is_null());
                let tools = present("tools") || present("toolChoice");
                let sampling = declared("sampling");
                if sampling.is_some_and(|s| !tools || s.get("tools").is_some_and(|t| !t.is_null())) {
                    return None;
                }
                if tools {
                    ("sampling.tools", json!({"sampling": {"tools": {}}}))
                } else {
                    ("sampling", json!({"sampling": {}}))
                }
            }
            "roots/list" => {
                if declared("roots").is_some() {
                    return None;
                }
                ("roots", json!({"roots": {}}))
            }
            _ => return None,
        };
        Some(
            ErrorObject::new(
                ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
                format!("Client did not declare the {name} capability required by resolver {}", python_repr(resolver)),
            )
            .with_data(RawJson::to_json(&json!({"requiredCapabilities": required})).expect("JSON")),
        )
    }

    /// The answer to a `prompts/get` of prompt `name` that the server does not have
    /// (`unknown`) or that lacks the required arguments `missing`, at a `modern` request
    /// or not.
    pub(crate) fn invalid_prompt_request(
        self,
        name: &str,
        unknown: bool,
        missing: &[&str],
        modern: bool,
    ) -> ErrorObject {
        match self {
            Dialect::Ferrymcp | Dialect::TypeScriptSdk if unknown => {
                ErrorObject::invalid_params(format!("Unknown prompt: {name}"))
            }
            Dialect::Ferrymcp | Dialect::TypeScriptSdk => ErrorObject::invalid_params(format!(
                "Invalid params: prompt {name} needs argument(s) {}",
                missing.join(", ")
            )),
            // The official `MCPServer` raises a `ValueError` (a Python set in its text).
            Dialect::PythonSdk => {
                let message = if unknown {
                    format!("Unknown prompt: {name}")
                } else {
                    let names: Vec<String> = missing.iter().map(|m| format!("'{m}'")).collect();
                    format!("Missing required arguments: {{{}}}", names.join(", "))
                };
                self.handler_failed(message, |m| m, None, modern)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_keeps_ferrymcps_wording() {
        let d = Dialect::default();
        assert_eq!(d.method_not_found("x/y"), ErrorObject::method_not_found("x/y"));
        assert_eq!(d.resource_not_found("a://b", false).code, ErrorCode::RESOURCE_NOT_FOUND);
        let failed = d.handler_failed("boom".into(), |m| format!("Prompt p failed: {m}"), None, false);
        assert_eq!(failed, ErrorObject::internal("Prompt p failed: boom"));
        assert!(d.declares_logging(false) && d.serves_set_level(false) && d.fills_completion());
        assert!(d.announces_changes(false, false, true));
        assert_eq!(d.unknown_session(), (ErrorObject::new(ErrorCode::REQUEST_TIMEOUT, "Session not found"), false));
    }

    #[test]
    fn the_python_sdk_1x_keeps_the_cause() {
        let d = Dialect::PythonSdk;
        let read = d.v1_read_failed("a://b", false, Some("boom")).unwrap();
        assert_eq!(read, ErrorObject::new(0, "Error reading resource a://b: boom"));
        let template = d.v1_read_failed("a://b", true, Some("boom")).unwrap();
        assert!(template.message.ends_with("from template: boom") && template.code == 0);
        assert_eq!(d.v1_read_failed("a://b", false, None).unwrap().message, "Unknown resource: a://b");
        assert_eq!(Dialect::Ferrymcp.v1_read_failed("a://b", false, None), None);
        assert!(d.v1_tool_error_is_result(&ErrorObject::new(-32600, "Elicitation not supported")));
        assert!(!d.v1_tool_error_is_result(&ErrorObject::new(ErrorCode::URL_ELICITATION_REQUIRED, "go")));
        assert!(!Dialect::Ferrymcp.v1_tool_error_is_result(&ErrorObject::new(-32600, "x")));
        assert_eq!(d.prompt_failed("p", "boom", true), "Error rendering prompt p: boom");
        assert_eq!(d.prompt_failed("p", "boom", false), "Error rendering prompt p");
        assert_eq!(Dialect::Ferrymcp.prompt_failed("p", "boom", true), "Prompt p failed: boom");
        assert_eq!(d.template_failed("a://b").unwrap().message, "Error creating resource from template a://b");
        assert_eq!(Dialect::Ferrymcp.template_failed("a://b"), None);
    }

    #[test]
    fn the_typescript_sdk_declares_only_what_is_given() {
        let d = Dialect::TypeScriptSdk;
        assert!(!d.declares_logging(false) && !d.serves_set_level(false) && d.serves_set_level(true));
        assert!(!d.sends_logs(false) && d.sends_logs(true) && Dialect::Ferrymcp.sends_logs(false));
        assert!(
            d.omits_false_flags() && !Dialect::Ferrymcp.omits_false_flags() && !Dialect::PythonSdk.omits_false_flags()
        );
        assert!(!d.announces_changes(false, false, true) && d.announces_changes(true, false, false));
        // -32601 in the official protocol layer's words, also where core's layer answered.
        let official = ErrorObject::new(ErrorCode::METHOD_NOT_FOUND, "Method not found");
        assert_eq!(d.method_not_found("x/y"), official);
        assert_eq!(d.reword("x/y", ErrorObject::method_not_found("x/y")), official);
        assert_eq!(d.reword("x/y", ErrorObject::method_not_found("c/d")), ErrorObject::method_not_found("c/d"));
        // Everything else is ferrymcp's own (already the TypeScript SDK's answers).
        assert_eq!(d.unknown_session(), Dialect::Ferrymcp.unknown_session());
        assert!(d.fills_completion() && d.asks_in_rounds() && d.shims_legacy_input_required());
    }

    #[test]
    fn the_python_sdk_words_errors_as_its_runner() {
        let d = Dialect::PythonSdk;
        let error = d.method_not_found("resources/read");
        assert_eq!((error.code, error.message.as_str()), (ErrorCode::METHOD_NOT_FOUND, "Method not found"));
        assert_eq!(error.data.unwrap().get(), "\"resources/read\"");
        assert_eq!(d.reword("a/b", ErrorObject::method_not_found("a/b")).message, "Method not found");
        // Another method's -32601 (an application's own error) is left as it is.
        assert_eq!(d.reword("a/b", ErrorObject::method_not_found("c/d")), ErrorObject::method_not_found("c/d"));
        let missing = d.resource_not_found("a://b", false);
        assert_eq!((missing.code, missing.message.as_str()), (ErrorCode::INVALID_PARAMS, "Unknown resource: a://b"));
        let worded = |m| format!("tools/call failed: {m}");
        let failed = d.handler_failed("'query'".into(), worded, None, true);
        assert_eq!(failed, ErrorObject::internal("Internal server error"));
        assert_eq!(d.handler_failed("'query'".into(), worded, None, false), ErrorObject::new(0, "'query'"));
        let read = d.handler_failed("boom".into(), worded, Some("a://b"), false);
        assert_eq!(read.message, "Error reading resource a://b");
        assert!(!d.declares_logging(false) && d.declares_logging(true));
        assert!(!d.announces_changes(false, false, true) && d.announces_changes(true, false, true));
        // A legacy client: only what the application declares, though core keeps the list.
        assert!(!d.announces_changes(true, false, false) && d.announces_changes(true, true, false));
        assert!(d.declares_app_subscribe(false) && !d.declares_app_subscribe(true));
        assert!(d.declares_empty_experimental(true) && !d.declares_empty_experimental(false));
        assert!(!Dialect::Ferrymcp.declares_empty_experimental(true) && Dialect::Ferrymcp.declares_app_subscribe(true));
        assert!(
            !d.mirrors_structured_into_empty_content() && Dialect::Ferrymcp.mirrors_structured_into_empty_content()
        );
        assert_eq!(d.invalid_prompt_request("p", true, &[], true), ErrorObject::internal("Internal server error"));
        let missing = d.invalid_prompt_request("p", false, &["who"], false);
        assert_eq!(missing, ErrorObject::new(0, "Missing required arguments: {'who'}"));
        let rejected = d.state_rejected(ErrorObject::invalid_params("requestState has expired"));
        assert_eq!(rejected, crate::server::request_state_rejected());
        assert!(!d.checks_own_input_requests() && !d.seals_stateless_own_result());
        assert_eq!(
            d.input_required_out_of_era("tools/call", "2025-11-25").message,
            "Handler returned an invalid result"
        );
        let unsupported = d.unhandled_client_request("elicitation/create");
        assert_eq!((unsupported.code, unsupported.message.as_str()), (-32600, "Elicitation not supported"));
        assert_eq!(d.unhandled_client_request("x/y"), ErrorObject::method_not_found("x/y"));
        let default = Dialect::default();
        assert_eq!(default.unhandled_client_request("roots/list"), ErrorObject::method_not_found("roots/list"));
        assert!(default.checks_own_input_requests() && default.seals_stateless_own_result());
        assert!(default.asks_in_rounds() && !d.asks_in_rounds());
        assert_eq!(
            d.no_back_channel("elicitation/create").message,
            "Cannot send 'elicitation/create': this transport context has no back-channel for server-initiated requests."
        );
        assert_eq!(no_back_channel_method(&d.no_back_channel("ping")), Some("ping"));
        assert_eq!(no_back_channel_method(&ErrorObject::new(ErrorCode::INVALID_REQUEST, "Cannot send 'x'")), None);
        assert_eq!(d.unknown_session(), (ErrorObject::new(ErrorCode::INVALID_REQUEST, "Session not found"), true));
        let refused = d.resolver_refused("app:ask", &json!({}), "elicitation/create", &json!({})).unwrap();
        assert_eq!(refused.code, ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY);
        assert_eq!(
            refused.message,
            "Client did not declare the form elicitation capability required by resolver 'app:ask'"
        );
        assert_eq!(refused.data.unwrap().get(), r#"{"requiredCapabilities":{"elicitation":{"form":{}}}}"#);
        let bare = json!({"elicitation": {}, "sampling": {}, "roots": {}});
        assert_eq!(d.resolver_refused("a", &bare, "elicitation/create", &json!({})), None);
        let url_only = json!({"elicitation": {"url": {}}});
        assert!(d.resolver_refused("a", &url_only, "elicitation/create", &json!({})).is_some());
        assert_eq!(d.resolver_refused("a", &bare, "sampling/createMessage", &json!({})), None);
        let tools = d.resolver_refused("a", &bare, "sampling/createMessage", &json!({"tools": []})).unwrap();
        assert_eq!(tools.message, "Client did not declare the sampling.tools capability required by resolver 'a'");
        assert_eq!(d.resolver_refused("a", &bare, "roots/list", &json!({})), None);
        let roots = d.resolver_refused("it's", &json!({}), "roots/list", &json!({})).unwrap();
        assert_eq!(roots.message, "Client did not declare the roots capability required by resolver \"it's\"");
        assert_eq!(Dialect::default().resolver_refused("a", &json!({}), "roots/list", &json!({})), None);
        let elsewhere = ErrorObject::new(-32603, d.no_back_channel("ping").message);
        assert_eq!(no_back_channel_method(&elsewhere), None);
    }
}
