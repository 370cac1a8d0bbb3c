//! A request's params kept as the JSON text the client sent, for the handlers that pass
//! them on ([`super::RawRequestHandler`], the proxies'): a 2026-07-28 request over HTTP to
//! such a handler is checked and routed on the few members the engine reads, and the rest
//! is never parsed into a tree (benches/README.md, "session 18").

use serde_json::{Map, Value};

use super::ServerShared;
use super::custom::{FeatureHandler, feature_handler};
use crate::protocol::{CallTool, RequestMethod, headers::name_field, meta};
use crate::wire::{ErrorObject, RawJson, members_in_order};

/// A request's params as a [`super::RawRequestHandler`] gets them: parsed, or (a
/// 2026-07-28 request over HTTP) the JSON object the client sent, as its text. Either
/// way they are an object, without the MRTR members (`inputResponses`, `requestState`),
/// which the engine takes out before a handler runs.
#[derive(Clone, Debug)]
pub enum Params {
    Map(Map<String, Value>),
    Text(RawJson),
}

impl Params {
    /// The params parsed.
    pub fn into_map(self) -> Result<Map<String, Value>, ErrorObject> {
        match self {
            Params::Map(map) => Ok(map),
            Params::Text(text) => {
                text.parse_owned().map_err(|_| ErrorObject::invalid_params("Invalid params: params must be an object"))
            }
        }
    }
}

impl From<Map<String, Value>> for Params {
    fn from(map: Map<String, Value>) -> Self {
        Params::Map(map)
    }
}

/// A 2026-07-28 request's params kept as text, with the members the engine reads before
/// the handler runs parsed beside it (`checked`): the name field (`name`, or `uri`) that
/// the `Mcp-Name` header, the routing and a sealed MRTR state read, and `_meta`'s members,
/// the client's capabilities and info standing in by their kind only (the checks ask
/// whether the capabilities are an object; the context reads both from `meta` when asked).
pub(crate) struct TextParams {
    pub text: RawJson,
    pub checked: Map<String, Value>,
    /// `_meta` as sent, for the context.
    pub meta: RawJson,
}

/// `params` kept as text when a raw feature handler serves `method` and the params are
/// plain: an object naming no member twice (nor in `_meta`), with a `_meta` object, and
/// without MRTR members or a call of the server's own registered tool (whose
/// `Mcp-Param-*` checks read the arguments). `None`: the params take the parsed path.
pub(crate) fn text_params(server: &ServerShared, method: &str, params: &RawJson) -> Option<TextParams> {
    if !matches!(feature_handler(server, method), Some(FeatureHandler::Raw(_))) {
        return None;
    }
    let members = members_in_order(params.get())?;
    let name_field = name_field(method);
    let mut checked = Map::new();
    let mut meta_text = None;
    for (key, raw) in &members {
        match key.as_ref() {
            "inputResponses" | "requestState" => return None,
            "_meta" => {
                checked.insert("_meta".into(), Value::Object(meta_checked(raw.get())?));
                meta_text = Some(RawJson::trusted(params.as_shared_str().slice_ref(raw.get())));
            }
            // What `Mcp-Name` mirrors, what the proxies route on and what a sealed MRTR
            // state is bound to.
            key if key == "name" || key == "uri" || Some(key) == name_field => {
                checked.insert(key.to_owned(), serde_json::from_str(raw.get()).ok()?);
            }
            _ => {}
        }
    }
    if method == CallTool::METHOD {
        let name = checked.get("name").and_then(Value::as_str).unwrap_or_default();
        if server.registry.read().unwrap().tools.contains_key(name) {
            return None;
        }
    }
    Some(TextParams { text: params.clone(), checked, meta: meta_text? })
}

/// `_meta`'s members as the checks read them: each parsed but the client's capabilities
/// (an empty object when they are one) and info (`null`).
fn meta_checked(text: &str) -> Option<Map<String, Value>> {
    let mut fields = Map::new();
    for (key, raw) in members_in_order(text)? {
        let value = match key.as_ref() {
            meta::CLIENT_CAPABILITIES if raw.get().starts_with('{') => Value::Object(Map::new()),
            meta::CLIENT_INFO => Value::Null,
            _ => serde_json::from_str(raw.get()).ok()?,
        };
        fields.insert(key.into_owned(), value);
    }
    Some(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checked_members_stand_in_for_the_client_s_capabilities_and_info() {
        let text = r#"{"a": 1, "io.modelcontextprotocol/clientCapabilities": {"x": {}}, "io.modelcontextprotocol/clientInfo": {"name": "c"}, "progressToken": 7}"#;
        let fields = meta_checked(text).unwrap();
        assert_eq!(
            Value::Object(fields),
            serde_json::json!({"a": 1, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": null, "progressToken": 7})
        );
        // Capabilities that are no object are kept, so the check refuses them as before.
        let fields = meta_checked(r#"{"io.modelcontextprotocol/clientCapabilities": 3}"#).unwrap();
        assert_eq!(fields["io.modelcontextprotocol/clientCapabilities"], 3);
        assert!(meta_checked(r#"{"a": 1, "a": 2}"#).is_none());
    }
}
