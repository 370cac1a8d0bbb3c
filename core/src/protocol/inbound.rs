//! The official Python SDK's inbound request ladder (`mcp.shared.inbound`): the rungs a
//! decoded 2026-07-28 request passes before it is routed to the per-request-envelope path,
//! worded as the official SDK words them, and the header-value codec both ends share.
//!
//! Pure: no I/O. The Python binding's `ferrymcp.shared.inbound` converts values to and
//! from this module and decides nothing itself.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use serde_json::{Map, Value, json};

use super::headers::{METHOD_HEADER, NAME_HEADER, PROTOCOL_VERSION_HEADER};
use super::meta;
use crate::server::python_repr;
use crate::wire::{ErrorCode, ErrorObject, RawJson};

/// Method -> the request field `Mcp-Name` mirrors, as the official ladder compares it
/// (the official SDK's `NAME_BEARING_METHODS`; core's own [`super::headers::NAME_FIELDS`]
/// also routes the tasks extension's methods).
pub const NAME_BEARING_METHODS: [(&str, &str); 3] =
    [("tools/call", "name"), ("prompts/get", "name"), ("resources/read", "uri")];

/// The official `ERROR_CODE_HTTP_STATUS`: the HTTP status a JSON-RPC error code is sent
/// with; codes not listed keep the caller's default.
pub const ERROR_CODE_HTTP_STATUS: [(i64, u16); 7] = [
    (ErrorCode::PARSE_ERROR, 400),
    (ErrorCode::INVALID_REQUEST, 400),
    (ErrorCode::INVALID_PARAMS, 400),
    (ErrorCode::HEADER_MISMATCH, 400),
    (ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY, 400),
    (ErrorCode::UNSUPPORTED_PROTOCOL_VERSION, 400),
    (ErrorCode::METHOD_NOT_FOUND, 404),
];

/// The status [`ERROR_CODE_HTTP_STATUS`] lists for `code`.
pub fn http_status(code: i64) -> Option<u16> {
    ERROR_CODE_HTTP_STATUS.iter().find(|(c, _)| *c == code).map(|(_, status)| *status)
}

/// A request whose envelope passed every rung: the envelope's raw values (`client_info`
/// is `Null` when the optional key is absent).
#[derive(Clone, Debug, PartialEq)]
pub struct ModernRoute {
    /// `io.modelcontextprotocol/protocolVersion`.
    pub protocol_version: String,
    /// `io.modelcontextprotocol/clientInfo`, or `Null`.
    pub client_info: Value,
    /// `io.modelcontextprotocol/clientCapabilities`, unchecked.
    pub client_capabilities: Value,
}

const SENTINEL_HEAD: &str = "=?base64?";
const SENTINEL_TAIL: &str = "?=";

fn sentinel_payload(value: &str) -> Option<&str> {
    let payload = value.strip_prefix(SENTINEL_HEAD)?.strip_suffix(SENTINEL_TAIL)?;
    (!payload.contains('\n')).then_some(payload)
}

/// A value as an HTTP header carries it: as-is when it is visible ASCII (and space) without
/// edge whitespace and does not look like the sentinel, else `=?base64?…?=`.
pub fn encode_header_value(value: &str) -> String {
    let plain = value.bytes().all(|b| b == b' ' || b.is_ascii_graphic())
        && value.trim_matches(' ') == value
        && sentinel_payload(value).is_none();
    if plain { value.to_owned() } else { format!("{SENTINEL_HEAD}{}{SENTINEL_TAIL}", B64.encode(value)) }
}

/// The inverse of [`encode_header_value`]: `None` for a malformed sentinel (bad or
/// non-canonical Base64, or bytes that are not UTF-8), so it never matches a body value.
pub fn decode_header_value(value: &str) -> Option<String> {
    let Some(payload) = sentinel_payload(value) else { return Some(value.to_owned()) };
    let bytes = B64.decode(payload).ok()?;
    if B64.encode(&bytes) != payload {
        return None;
    }
    String::from_utf8(bytes).ok()
}

/// The name of a routing header (`mcp-protocol-version`, `mcp-method`, `mcp-name`) that
/// appears more than once among raw header names, compared case-insensitively.
pub fn find_duplicated_routing_header<'a>(names: impl IntoIterator<Item = &'a str>) -> Option<&'static str> {
    let mut seen: Vec<&'static str> = Vec::new();
    for name in names {
        let Some(routing) =
            [PROTOCOL_VERSION_HEADER, METHOD_HEADER, NAME_HEADER].into_iter().find(|r| r.eq_ignore_ascii_case(name))
        else {
            continue;
        };
        if seen.contains(&routing) {
            return Some(routing);
        }
        seen.push(routing);
    }
    None
}

/// The ladder's last rung: `-32022` naming `supported` when `requested` is not in it.
pub fn unsupported_protocol_version_rejection(requested: &str, supported: &[String]) -> Option<ErrorObject> {
    if supported.iter().any(|v| v == requested) {
        return None;
    }
    let data = RawJson::to_json(&json!({"supported": supported, "requested": requested})).expect("JSON");
    Some(ErrorObject::new(ErrorCode::UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version").with_data(data))
}

/// A request header that disagrees with the body it mirrors (`-32020`), as a fact: the two
/// official SDKs word the same fact differently ([`HeaderMismatch::official`] is the Python
/// SDK's `mcp.shared.inbound`, [`HeaderMismatch::typescript`] the TypeScript SDK's).
#[derive(Clone, Debug, PartialEq)]
pub enum HeaderMismatch {
    /// A routing header (lowercase name) sent more than once.
    Duplicated(&'static str),
    /// `MCP-Protocol-Version` absent (`None`) or not the envelope's version (`body`).
    Version { header: Option<String>, body: Value },
    /// `Mcp-Method` absent or not the body's method.
    Method { header: Option<String>, body: Value },
    /// `Mcp-Name` absent, a malformed sentinel (`decoded` `None`), or another name than the
    /// body's `key` parameter.
    Name { key: String, header: Option<String>, decoded: Option<String>, body: Value },
    /// An `Mcp-Param-{token}` header against the argument at `path`.
    Param { token: String, path: Vec<String>, fault: ParamFault, header: Option<String>, body: Option<Value> },
}

/// How an `Mcp-Param-*` header disagrees with its argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamFault {
    /// The header is sent more than once.
    Duplicated,
    /// The header is sent while the argument is absent (or `null`).
    ArgumentAbsent,
    /// The argument is present and the header is not.
    Missing,
    /// The header is a malformed `=?base64?…?=` sentinel.
    Malformed,
    /// The header decodes to another value (or the argument has no header rendering).
    Differs,
}

/// Text of a JSON value as a message names it: a string as is, anything else as JSON.
fn plain(value: &Value) -> String {
    value.as_str().map_or_else(|| value.to_string(), str::to_owned)
}

impl HeaderMismatch {
    /// The official Python SDK's words (its `InboundLadderRejection` message).
    pub fn official(&self) -> ErrorObject {
        let message = match self {
            HeaderMismatch::Duplicated(name) => format!("{name} header appears more than once"),
            HeaderMismatch::Version { .. } => {
                format!("{PROTOCOL_VERSION_HEADER} header does not match the request envelope's protocol version")
            }
            HeaderMismatch::Method { .. } => format!("{METHOD_HEADER} header does not match the request body's method"),
            HeaderMismatch::Name { key, .. } => {
                format!("{NAME_HEADER} header does not match the request body's {} parameter", python_repr(key))
            }
            HeaderMismatch::Param { token, path, fault, .. } => {
                let header = format!("{MCP_PARAM_HEADER_PREFIX}{token}");
                let argument = python_repr(&path.join("."));
                match fault {
                    ParamFault::Duplicated => format!("{header} header appears more than once"),
                    ParamFault::ArgumentAbsent => {
                        format!("{header} header is present but the request body's {argument} argument is absent")
                    }
                    ParamFault::Missing => {
                        format!("{header} header is missing but the request body's {argument} argument is present")
                    }
                    ParamFault::Malformed => format!("{header} header carries a malformed base64 sentinel value"),
                    ParamFault::Differs => {
                        format!("{header} header does not match the request body's {argument} argument")
                    }
                }
            }
        };
        ErrorObject::new(ErrorCode::HEADER_MISMATCH, message)
    }

    /// The official TypeScript SDK's words: `Bad Request: the request headers and body
    /// disagree: DETAIL` with `data: {mismatch: {header, body: DETAIL}}`. The faults its
    /// ladder does not have (a duplicated header, a parameter header without its argument)
    /// are worded in its manner.
    pub fn typescript(&self) -> ErrorObject {
        const MISSING: &str = "(missing)";
        let (header, detail) = match self {
            HeaderMismatch::Duplicated(name) => (name.to_string(), format!("the {name} header appears more than once")),
            HeaderMismatch::Version { header: None, body } => (
                MISSING.to_owned(),
                format!(
                    "the body envelope names protocol version {} but the required MCP-Protocol-Version header is absent",
                    plain(body)
                ),
            ),
            HeaderMismatch::Version { header: Some(header), body } => (
                header.clone(),
                format!(
                    "the body envelope names protocol version {} but the MCP-Protocol-Version header names {header}",
                    plain(body)
                ),
            ),
            HeaderMismatch::Method { header: None, body } => (
                MISSING.to_owned(),
                format!("the body names method {} but the required Mcp-Method header is absent", plain(body)),
            ),
            HeaderMismatch::Method { header: Some(header), body } => (
                header.clone(),
                format!("the body names method {} but the Mcp-Method header names {header}", plain(body)),
            ),
            HeaderMismatch::Name { key, header: None, body, .. } => (
                MISSING.to_owned(),
                format!("the body carries params.{key}=\"{}\" but the required Mcp-Name header is absent", plain(body)),
            ),
            HeaderMismatch::Name { header: Some(header), decoded: None, .. } => {
                (header.clone(), "the Mcp-Name header carries an invalid Base64 sentinel value".to_owned())
            }
            HeaderMismatch::Name { key, header: Some(header), decoded: Some(decoded), body } => (
                header.clone(),
                format!(
                    "the body carries params.{key}=\"{}\" but the Mcp-Name header names \"{decoded}\"",
                    plain(body)
                ),
            ),
            HeaderMismatch::Param { token, path, fault, header, body } => {
                let name = format!("{MCP_PARAM_HEADER_PREFIX}{token}");
                let at = if path.is_empty() { "<root>".to_owned() } else { path.join(".") };
                let body = body.as_ref().map(Value::to_string).unwrap_or_default();
                let detail = match fault {
                    ParamFault::Duplicated => format!("the {name} header appears more than once"),
                    ParamFault::ArgumentAbsent => format!("the {name} header is present but the body carries no {at}"),
                    ParamFault::Missing => format!("the body carries {at}={body} but the {name} header is absent"),
                    ParamFault::Malformed => format!("the {name} header carries an invalid Base64 sentinel value"),
                    ParamFault::Differs => {
                        let sent = header.as_deref().and_then(decode_header_value).unwrap_or_default();
                        format!("the {name} header decodes to {} but the body carries {at}={body}", Value::from(sent))
                    }
                };
                (name, detail)
            }
        };
        let data = RawJson::to_json(&json!({"mismatch": {"header": header, "body": detail}})).expect("JSON");
        ErrorObject::new(
            ErrorCode::HEADER_MISMATCH,
            format!("Bad Request: the request headers and body disagree: {detail}"),
        )
        .with_data(data)
    }
}

/// Why the ladder refused a request: a defect of the envelope or its version (`-32602`,
/// `-32022`, in the official Python SDK's words), or a header that disagrees with the body.
#[derive(Clone, Debug, PartialEq)]
pub enum Rejection {
    Envelope(ErrorObject),
    Mismatch(Box<HeaderMismatch>),
}

impl Rejection {
    /// The official Python SDK's answer.
    pub fn official(self) -> ErrorObject {
        match self {
            Rejection::Envelope(error) => error,
            Rejection::Mismatch(mismatch) => mismatch.official(),
        }
    }
}

/// The official validation ladder over a decoded JSON-RPC request body, first failing rung
/// wins: the `params._meta` envelope carries the protocol version and client capabilities
/// (`-32602`); when `headers` are given (keyed by lowercase name), `MCP-Protocol-Version`,
/// `Mcp-Method` and, for [`NAME_BEARING_METHODS`], `Mcp-Name` mirror the body (`-32020`);
/// the version is a string (`-32602`) that `supported` lists (`-32022`). Whether the
/// method exists is not a rung.
pub fn classify_inbound_request(
    body: &Value,
    headers: Option<&Map<String, Value>>,
    supported: &[String],
) -> Result<ModernRoute, ErrorObject> {
    let params = body.get("params").and_then(Value::as_object);
    ladder(body.get("method"), params, headers, supported, &NAME_BEARING_METHODS).map_err(Rejection::official)
}

/// [`classify_inbound_request`] over a request's parts, with `name_fields` the methods whose
/// `Mcp-Name` is compared (core's HTTP transport adds the tasks extension's).
pub fn ladder(
    method: Option<&Value>,
    params: Option<&Map<String, Value>>,
    headers: Option<&Map<String, Value>>,
    supported: &[String],
    name_fields: &[(&str, &str)],
) -> Result<ModernRoute, Rejection> {
    let Some(envelope) = params.and_then(|p| p.get("_meta")).and_then(Value::as_object) else {
        return Err(Rejection::Envelope(ErrorObject::invalid_params(format!(
            "params._meta must be an object carrying the required '{}' and '{}' envelope keys",
            meta::PROTOCOL_VERSION,
            meta::CLIENT_CAPABILITIES
        ))));
    };
    let missing: Vec<&str> = [meta::PROTOCOL_VERSION, meta::CLIENT_CAPABILITIES]
        .into_iter()
        .filter(|k| !envelope.contains_key(*k))
        .collect();
    if !missing.is_empty() {
        return Err(Rejection::Envelope(ErrorObject::invalid_params(format!(
            "params._meta is missing the required envelope key(s): {}",
            missing.join(", ")
        ))));
    }
    let protocol_version = &envelope[meta::PROTOCOL_VERSION];
    if let Some(headers) = headers {
        let header = |name: &str| headers.get(name).filter(|v| !v.is_null());
        let text = |name: &str| header(name).map(plain);
        match header(PROTOCOL_VERSION_HEADER) {
            Some(value) if value == protocol_version => {}
            _ => {
                let header = text(PROTOCOL_VERSION_HEADER);
                return Err(Rejection::Mismatch(Box::new(HeaderMismatch::Version {
                    header,
                    body: protocol_version.clone(),
                })));
            }
        }
        let method = method.filter(|m| !m.is_null());
        if header(METHOD_HEADER) != method {
            let body = method.cloned().unwrap_or(Value::Null);
            return Err(Rejection::Mismatch(Box::new(HeaderMismatch::Method { header: text(METHOD_HEADER), body })));
        }
        let name_key = method
            .and_then(Value::as_str)
            .and_then(|m| name_fields.iter().find(|(bearing, _)| *bearing == m))
            .map(|(_, key)| *key);
        if let Some(key) = name_key
            && let Some(expected) = params.and_then(|p| p.get(key)).filter(|v| !v.is_null())
        {
            let header = text(NAME_HEADER);
            let decoded = header.as_deref().and_then(decode_header_value);
            if decoded.as_deref() != expected.as_str() || !expected.is_string() {
                let key = key.to_owned();
                return Err(Rejection::Mismatch(Box::new(HeaderMismatch::Name {
                    key,
                    header,
                    decoded,
                    body: expected.clone(),
                })));
            }
        }
    }
    let Some(version) = protocol_version.as_str() else {
        return Err(Rejection::Envelope(ErrorObject::invalid_params(
            "the protocol-version envelope value must be a string",
        )));
    };
    if let Some(rejection) = unsupported_protocol_version_rejection(version, supported) {
        return Err(Rejection::Envelope(rejection));
    }
    Ok(ModernRoute {
        protocol_version: version.to_owned(),
        client_info: envelope.get(meta::CLIENT_INFO).cloned().unwrap_or(Value::Null),
        client_capabilities: envelope[meta::CLIENT_CAPABILITIES].clone(),
    })
}

/// The JSON-Schema annotation that designates an `Mcp-Param-*` header.
pub const X_MCP_HEADER_KEY: &str = "x-mcp-header";
/// The prefix an `x-mcp-header` token is joined to, forming the header's name.
pub const MCP_PARAM_HEADER_PREFIX: &str = "Mcp-Param-";

/// JSON Schema 2020-12 applicators whose value is one schema, a list of schemas, or a map
/// of them; `properties` is apart (the only one keeping a property path). Data keywords
/// (`default`, `const`, ...) and `$ref` are not entered.
const SUBSCHEMA_SINGLE: [&str; 11] = [
    "items",
    "contains",
    "unevaluatedItems",
    "additionalProperties",
    "propertyNames",
    "unevaluatedProperties",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
];
const SUBSCHEMA_LIST: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SUBSCHEMA_MAP: [&str; 4] = ["patternProperties", "dependentSchemas", "$defs", "definitions"];

/// Every schema position of `root` with its `properties` path (`None` once another
/// applicator was crossed), in the official walk's order (a stack, last pushed first).
/// A schema position: its `properties` path (`None` off a pure chain) and the schema.
type Position<'a> = (Option<Vec<&'a str>>, &'a Map<String, Value>);

fn schema_positions(root: &Value) -> Vec<Position<'_>> {
    let mut out = Vec::new();
    let mut stack: Vec<(Option<Vec<&str>>, &Value)> = vec![(Some(Vec::new()), root)];
    while let Some((path, node)) = stack.pop() {
        let Some(schema) = node.as_object() else { continue };
        for (keyword, value) in schema {
            let keyword = keyword.as_str();
            match value {
                Value::Object(properties) if keyword == "properties" => {
                    for (name, sub) in properties {
                        let path = path.as_ref().map(|p| {
                            let mut p = p.clone();
                            p.push(name.as_str());
                            p
                        });
                        stack.push((path, sub));
                    }
                }
                _ if SUBSCHEMA_SINGLE.contains(&keyword) => stack.push((None, value)),
                Value::Array(items) if SUBSCHEMA_LIST.contains(&keyword) => {
                    stack.extend(items.iter().map(|sub| (None, sub)));
                }
                Value::Object(map) if SUBSCHEMA_MAP.contains(&keyword) => {
                    stack.extend(map.values().map(|sub| (None, sub)));
                }
                _ => {}
            }
        }
        out.push((path, schema));
    }
    out
}

/// The name of a JSON value's type as Python's `type(value).__name__` prints it.
fn python_type(value: Option<&Value>) -> &'static str {
    match value {
        None | Some(Value::Null) => "NoneType",
        Some(Value::Bool(_)) => "bool",
        Some(Value::Number(n)) if n.is_f64() => "float",
        Some(Value::Number(_)) => "int",
        Some(Value::String(_)) => "str",
        Some(Value::Array(_)) => "list",
        Some(Value::Object(_)) => "dict",
    }
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Why an `x-mcp-header` annotation of `input_schema` is invalid, or `None`: it must sit on
/// a property reached from the root by `properties` keys only, be a non-empty RFC 9110
/// token, be on a string, integer or boolean property, and be unique (ignoring case).
pub fn find_invalid_x_mcp_header(input_schema: &Value) -> Option<String> {
    let mut seen: Vec<(String, String)> = Vec::new();
    for (path, schema) in schema_positions(input_schema) {
        let Some(header) = schema.get(X_MCP_HEADER_KEY) else { continue };
        let Some(path) = path.filter(|p| !p.is_empty()) else {
            return Some(format!(
                "{X_MCP_HEADER_KEY} found at a schema position not reachable via a pure `properties` chain"
            ));
        };
        let at = python_repr(&path.join("."));
        let Some(header) = header.as_str() else {
            return Some(format!(
                "property {at}: {X_MCP_HEADER_KEY} must be a string, not {}",
                python_type(Some(header))
            ));
        };
        if header.is_empty() || !header.bytes().all(is_tchar) {
            return Some(format!("property {at}: {X_MCP_HEADER_KEY} {} is not an RFC 9110 token", python_repr(header)));
        }
        let Some(kind) = schema.get("type").and_then(Value::as_str) else {
            return Some(format!(
                "property {at}: {X_MCP_HEADER_KEY} is only permitted on integer/string/boolean properties (the type \
                 keyword is {}, not a string)",
                python_type(schema.get("type"))
            ));
        };
        if !matches!(kind, "string" | "integer" | "boolean") {
            return Some(format!(
                "property {at}: {X_MCP_HEADER_KEY} is only permitted on integer/string/boolean properties (got {})",
                python_repr(kind)
            ));
        }
        let lower = header.to_ascii_lowercase();
        if let Some((_, first)) = seen.iter().find(|(l, _)| *l == lower) {
            return Some(format!(
                "{X_MCP_HEADER_KEY} {} on property {at} duplicates property {}",
                python_repr(header),
                python_repr(first)
            ));
        }
        seen.push((lower, path.join(".")));
    }
    None
}

/// `(path, token, schema)` of every annotation on a property reached by `properties` keys.
fn annotated_positions(input_schema: &Value) -> Vec<(Vec<String>, &str, &Map<String, Value>)> {
    schema_positions(input_schema)
        .into_iter()
        .filter_map(|(path, schema)| {
            let path = path.filter(|p| !p.is_empty())?;
            let token = schema.get(X_MCP_HEADER_KEY)?.as_str()?;
            Some((path.into_iter().map(str::to_owned).collect(), token, schema))
        })
        .collect()
}

/// Each annotated property's path and token, for a schema [`find_invalid_x_mcp_header`]
/// accepts (for another, some subset).
pub fn x_mcp_header_map(input_schema: &Value) -> Vec<(Vec<String>, String)> {
    annotated_positions(input_schema).into_iter().map(|(path, token, _)| (path, token.to_owned())).collect()
}

/// The value at a `properties` path of the arguments; `None` when a step is missing or not
/// an object, or the value is `null`.
fn value_at<'a>(arguments: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter().try_fold(arguments, |node, key| node.as_object()?.get(key)).filter(|v| !v.is_null())
}

/// A float as Python's `str` prints it (`1e+16`, `1e-05`).
fn python_float(f: f64) -> String {
    let text = Value::from(f).to_string();
    let Some((mantissa, exponent)) = text.split_once('e') else { return text };
    let (sign, digits) = match exponent.strip_prefix('-') {
        Some(digits) => ('-', digits),
        None => ('+', exponent.trim_start_matches('+')),
    };
    format!("{mantissa}e{sign}{digits:0>2}")
}

/// A scalar argument as a header carries it (before the sentinel encoding): `true`/`false`,
/// a number's digits, a string as is; `None` for anything else.
fn render_scalar(value: &Value) -> Option<String> {
    match value {
        Value::Bool(b) => Some(if *b { "true" } else { "false" }.to_owned()),
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.as_f64().filter(|_| n.is_f64()).map_or_else(|| n.to_string(), python_float)),
        _ => None,
    }
}

/// The `Mcp-Param-*` headers a `tools/call` mirrors from `arguments`, for the annotations
/// `header_map` lists (from [`x_mcp_header_map`]); a value absent, `null` or not a scalar
/// sends none.
pub fn mcp_param_headers(header_map: &[(Vec<String>, String)], arguments: &Value) -> Vec<(String, String)> {
    header_map
        .iter()
        .filter_map(|(path, token)| {
            let rendered = render_scalar(value_at(arguments, path)?)?;
            Some((format!("{MCP_PARAM_HEADER_PREFIX}{token}"), encode_header_value(&rendered)))
        })
        .collect()
}

/// Whether a decoded header agrees with its argument: an integer property compares a
/// canonical decimal (`42`, `42.0`) by value, anything else by its rendering.
fn param_matches(kind: Option<&Value>, value: &Value, rendered: &str, decoded: &str) -> bool {
    let integral = match value {
        Value::Number(n) if n.is_f64() => n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 1e38).map(|f| f as i128),
        Value::Number(n) => n.as_i128(),
        _ => None,
    };
    let (Some(integral), Some("integer")) = (integral, kind.and_then(Value::as_str)) else {
        return decoded == rendered;
    };
    let (whole, fraction) = decoded.split_once('.').unwrap_or((decoded, ""));
    let digits = whole.strip_prefix('-').unwrap_or(whole);
    let canonical = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (!decoded.contains('.') || (!fraction.is_empty() && fraction.bytes().all(|b| b.is_ascii_digit())));
    if !canonical {
        return decoded == rendered;
    }
    fraction.bytes().all(|b| b == b'0') && whole.parse::<i128>().is_ok_and(|w| w == integral)
}

/// A `tools/call`'s `Mcp-Param-*` headers (raw `(name, value)` pairs) against its
/// arguments: each annotated property's header and argument are present together and
/// equal after decoding, or absent together; a recognised header sent twice is refused.
/// A schema [`find_invalid_x_mcp_header`] refuses checks nothing.
pub fn validate_mcp_param_headers<'a>(
    input_schema: &Value,
    arguments: &Value,
    headers: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Option<HeaderMismatch> {
    if find_invalid_x_mcp_header(input_schema).is_some() {
        return None;
    }
    let mut folded: Vec<(String, &str, bool)> = Vec::new();
    for (name, value) in headers {
        let key = name.to_ascii_lowercase();
        match folded.iter_mut().find(|(k, ..)| *k == key) {
            Some(entry) => *entry = (key, value, true),
            None => folded.push((key, value, false)),
        }
    }
    for (path, token, schema) in annotated_positions(input_schema) {
        let key = format!("{MCP_PARAM_HEADER_PREFIX}{token}").to_ascii_lowercase();
        let sent = folded.iter().find(|(k, ..)| *k == key);
        let header = sent.map(|(_, v, _)| (*v).to_owned());
        let value = value_at(arguments, &path);
        let fault = |fault| {
            let (token, body) = (token.to_owned(), value.cloned());
            Some(HeaderMismatch::Param { token, path: path.clone(), fault, header: header.clone(), body })
        };
        if sent.is_some_and(|(.., twice)| *twice) {
            return fault(ParamFault::Duplicated);
        }
        let Some(value) = value else {
            if sent.is_some() {
                return fault(ParamFault::ArgumentAbsent);
            }
            continue;
        };
        let Some(rendered) = render_scalar(value) else {
            if sent.is_some() {
                return fault(ParamFault::Differs);
            }
            continue;
        };
        let Some(raw) = header.as_deref() else { return fault(ParamFault::Missing) };
        let Some(decoded) = decode_header_value(raw) else { return fault(ParamFault::Malformed) };
        if !param_matches(schema.get("type"), value, &rendered, &decoded) {
            return fault(ParamFault::Differs);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn supported() -> Vec<String> {
        vec!["2026-07-28".to_owned()]
    }

    fn body(meta: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "_meta": meta}})
    }

    fn envelope() -> Value {
        json!({meta::PROTOCOL_VERSION: "2026-07-28", meta::CLIENT_CAPABILITIES: {}})
    }

    fn headers(pairs: &[(&str, &str)]) -> Map<String, Value> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), Value::from(*v))).collect()
    }

    #[test]
    fn the_rungs_fail_in_order_in_the_official_words() {
        let no_meta = json!({"method": "initialize", "params": {}});
        let error = classify_inbound_request(&no_meta, None, &supported()).unwrap_err();
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert_eq!(
            error.message,
            "params._meta must be an object carrying the required 'io.modelcontextprotocol/protocolVersion' and \
             'io.modelcontextprotocol/clientCapabilities' envelope keys"
        );
        let error = classify_inbound_request(&body(json!({})), None, &supported()).unwrap_err();
        assert_eq!(
            error.message,
            "params._meta is missing the required envelope key(s): io.modelcontextprotocol/protocolVersion, \
             io.modelcontextprotocol/clientCapabilities"
        );
        let good =
            headers(&[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call"), ("mcp-name", "echo")]);
        let route = classify_inbound_request(&body(envelope()), Some(&good), &supported()).unwrap();
        assert_eq!(route.protocol_version, "2026-07-28");
        assert_eq!(route.client_info, Value::Null);
        let wrong = headers(&[("mcp-protocol-version", "2025-11-25"), ("mcp-method", "tools/call")]);
        let error = classify_inbound_request(&body(envelope()), Some(&wrong), &supported()).unwrap_err();
        assert_eq!(error.code, ErrorCode::HEADER_MISMATCH);
        assert_eq!(error.message, "mcp-protocol-version header does not match the request envelope's protocol version");
        let wrong = headers(&[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/list")]);
        let error = classify_inbound_request(&body(envelope()), Some(&wrong), &supported()).unwrap_err();
        assert_eq!(error.message, "mcp-method header does not match the request body's method");
        let wrong = headers(&[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call"), ("mcp-name", "x")]);
        let error = classify_inbound_request(&body(envelope()), Some(&wrong), &supported()).unwrap_err();
        assert_eq!(error.message, "mcp-name header does not match the request body's 'name' parameter");
        let encoded = headers(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", &encode_header_value("echo\n")),
        ]);
        let mut newline = body(envelope());
        newline["params"]["name"] = json!("echo\n");
        assert!(classify_inbound_request(&newline, Some(&encoded), &supported()).is_ok());
        let numeric = json!({meta::PROTOCOL_VERSION: 7, meta::CLIENT_CAPABILITIES: {}});
        let error = classify_inbound_request(&body(numeric), None, &supported()).unwrap_err();
        assert_eq!(error.message, "the protocol-version envelope value must be a string");
        let old = json!({meta::PROTOCOL_VERSION: "2025-11-25", meta::CLIENT_CAPABILITIES: {}});
        let error = classify_inbound_request(&body(old), None, &supported()).unwrap_err();
        assert_eq!(error.code, ErrorCode::UNSUPPORTED_PROTOCOL_VERSION);
        let data: Value = error.data.unwrap().parse_owned().unwrap();
        assert_eq!(data, json!({"supported": ["2026-07-28"], "requested": "2025-11-25"}));
    }

    #[test]
    fn header_values_round_trip_and_a_malformed_sentinel_decodes_to_nothing() {
        for value in ["plain", " edge", "caf\u{e9}", "=?base64?x?=", "=?base64?="] {
            assert_eq!(decode_header_value(&encode_header_value(value)).as_deref(), Some(value), "{value}");
        }
        assert_eq!(encode_header_value("=?base64?="), "=?base64?=");
        assert_eq!(encode_header_value("us-west1"), "us-west1");
        assert_eq!(encode_header_value("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
        assert_eq!(encode_header_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(encode_header_value("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
        assert_eq!(encode_header_value("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
        assert_eq!(encode_header_value("\tx"), "=?base64?CXg=?=");
        assert_eq!(decode_header_value("=?base64?!!?="), None);
        assert_eq!(decode_header_value("=?base64?QR==?="), None);
        assert_eq!(decode_header_value("=?base64?/w==?="), None);
        assert_eq!(find_duplicated_routing_header(["Mcp-Method", "accept", "mcp-method"]), Some("mcp-method"));
        assert_eq!(find_duplicated_routing_header(["mcp-param-a", "mcp-param-a"]), None);
    }

    #[test]
    fn x_mcp_header_annotations_are_checked_where_they_sit() {
        let good = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "opts": {"type": "object", "properties": {"n": {"type": "integer", "x-mcp-header": "N"}}},
            "blob": {"type": "object", "default": {"x-mcp-header": 1}}
        }});
        assert_eq!(find_invalid_x_mcp_header(&good), None);
        let map = x_mcp_header_map(&good);
        assert!(map.contains(&(vec!["region".to_owned()], "Region".to_owned())));
        assert!(map.contains(&(vec!["opts".to_owned(), "n".to_owned()], "N".to_owned())));
        assert_eq!(map.len(), 2);
        let cases = [
            (
                json!({"x-mcp-header": "A"}),
                "x-mcp-header found at a schema position not reachable via a pure `properties` chain",
            ),
            (
                json!({"anyOf": [{"properties": {"a": {"type": "string", "x-mcp-header": "A"}}}]}),
                "x-mcp-header found at a schema position not reachable via a pure `properties` chain",
            ),
            (
                json!({"properties": {"a": {"type": "string", "x-mcp-header": 7}}}),
                "property 'a': x-mcp-header must be a string, not int",
            ),
            (
                json!({"properties": {"a": {"type": "string", "x-mcp-header": "A:B"}}}),
                "property 'a': x-mcp-header 'A:B' is not an RFC 9110 token",
            ),
            (
                json!({"properties": {"a": {"type": "string", "x-mcp-header": ""}}}),
                "property 'a': x-mcp-header '' is not an RFC 9110 token",
            ),
            (
                json!({"properties": {"a": {"type": "number", "x-mcp-header": "A"}}}),
                "property 'a': x-mcp-header is only permitted on integer/string/boolean properties (got 'number')",
            ),
            (
                json!({"properties": {"a": {"x-mcp-header": "A"}}}),
                "property 'a': x-mcp-header is only permitted on integer/string/boolean properties (the type keyword is \
                 NoneType, not a string)",
            ),
            (
                json!({"properties": {"a": {"type": "string", "x-mcp-header": "x"}, "b": {"type": "string", "x-mcp-header": "X"}}}),
                "x-mcp-header 'x' on property 'a' duplicates property 'b'",
            ),
        ];
        for (schema, reason) in cases {
            assert_eq!(find_invalid_x_mcp_header(&schema).as_deref(), Some(reason), "{schema}");
        }
    }

    #[test]
    fn param_headers_are_emitted_and_validated_against_the_arguments() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "n": {"type": "integer", "x-mcp-header": "N"},
            "on": {"type": "boolean", "x-mcp-header": "On"}
        }});
        let map = x_mcp_header_map(&schema);
        let args = json!({"region": "Hello, 世界", "n": 42, "on": false});
        let emitted = mcp_param_headers(&map, &args);
        assert!(emitted.contains(&("Mcp-Param-Region".to_owned(), "=?base64?SGVsbG8sIOS4lueVjA==?=".to_owned())));
        assert!(emitted.contains(&("Mcp-Param-N".to_owned(), "42".to_owned())));
        assert!(emitted.contains(&("Mcp-Param-On".to_owned(), "false".to_owned())));
        assert_eq!(mcp_param_headers(&map, &json!({"region": null, "n": [1], "on": {"x": 1}})), vec![]);
        assert_eq!(mcp_param_headers(&map, &json!({"n": 1e16})), vec![("Mcp-Param-N".to_owned(), "1e+16".to_owned())]);

        let check = |pairs: &[(&str, &str)], args: &Value| {
            validate_mcp_param_headers(&schema, args, pairs.iter().copied()).map(|m| m.official().message)
        };
        let all = [
            ("mcp-param-region", "=?base64?SGVsbG8sIOS4lueVjA==?="),
            ("mcp-param-n", "42.0"),
            ("mcp-param-on", "false"),
        ];
        assert_eq!(check(&all, &args), None);
        assert_eq!(
            check(&all[1..], &args).as_deref(),
            Some("Mcp-Param-Region header is missing but the request body's 'region' argument is present")
        );
        assert_eq!(
            check(&[all[0], ("mcp-param-n", "42.5"), all[2]], &args).as_deref(),
            Some("Mcp-Param-N header does not match the request body's 'n' argument")
        );
        assert_eq!(
            check(&[all[0], all[1], all[2], ("Mcp-Param-N", "42")], &args).as_deref(),
            Some("Mcp-Param-N header appears more than once")
        );
        assert_eq!(
            check(&[("mcp-param-region", "=?base64?!!?=")], &json!({"region": "x"})).as_deref(),
            Some("Mcp-Param-Region header carries a malformed base64 sentinel value")
        );
        assert_eq!(
            check(&[("mcp-param-on", "true")], &json!({})).as_deref(),
            Some("Mcp-Param-On header is present but the request body's 'on' argument is absent")
        );
        let invalid = json!({"properties": {"a": {"type": "number", "x-mcp-header": "A"}}});
        assert_eq!(validate_mcp_param_headers(&invalid, &json!({"a": 1}), [("mcp-param-a", "2")]), None);
        let typescript =
            validate_mcp_param_headers(&schema, &json!({"n": 42}), [("mcp-param-n", "41")]).unwrap().typescript();
        assert_eq!(
            typescript.message,
            "Bad Request: the request headers and body disagree: the Mcp-Param-N header decodes to \"41\" but the body carries n=42"
        );
    }
}
