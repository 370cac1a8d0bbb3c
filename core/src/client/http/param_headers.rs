//! `x-mcp-header`: tool parameters a server asks to see mirrored into `Mcp-Param-*`
//! headers (2026-07-28), and the value encoding shared with `Mcp-Name`.
//!
//! A tool's annotations are checked once, when its definition arrives in `tools/list`;
//! a tool that breaks a rule is rejected whole (the client leaves it out of the list), so
//! a call never has to wonder whether its headers are well-formed.

use serde_json::Value;

/// One mirrored parameter: where its value sits in the arguments, and the header name
/// (without the `Mcp-Param-` prefix).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamHeader {
    pub path: Vec<String>,
    pub name: String,
}

const ANNOTATION: &str = "x-mcp-header";
/// Keywords whose values are data, never schemas.
const DATA_KEYWORDS: [&str; 4] = ["const", "default", "enum", "examples"];

/// The headers a tool's `inputSchema` designates, or why the tool must be rejected.
pub fn tool_param_headers(input_schema: &Value) -> Result<Vec<ParamHeader>, String> {
    let mut found = Vec::new();
    visit(input_schema, &mut Vec::new(), true, &mut found)?;
    for (i, header) in found.iter().enumerate() {
        if found[..i].iter().any(|earlier| earlier.name.eq_ignore_ascii_case(&header.name)) {
            return Err(format!("{ANNOTATION} {:?} is used twice", header.name));
        }
    }
    Ok(found)
}

/// Walks a schema; `reachable` is whether `path` is a chain of `properties` keys only.
fn visit(schema: &Value, path: &mut Vec<String>, reachable: bool, found: &mut Vec<ParamHeader>) -> Result<(), String> {
    match schema {
        Value::Object(map) => {
            if let Some(name) = map.get(ANNOTATION) {
                if !reachable || path.is_empty() {
                    return Err(format!("{ANNOTATION} outside a chain of properties (at /{})", path.join("/")));
                }
                found.push(ParamHeader { path: path.clone(), name: header_name(name, map.get("type"))? });
            }
            for (key, value) in map {
                if DATA_KEYWORDS.contains(&key.as_str()) {
                    continue;
                }
                match (key.as_str(), value) {
                    ("properties", Value::Object(properties)) => {
                        for (property, subschema) in properties {
                            path.push(property.clone());
                            visit(subschema, path, reachable, found)?;
                            path.pop();
                        }
                    }
                    _ => visit(value, path, false, found)?,
                }
            }
            Ok(())
        }
        Value::Array(items) => items.iter().try_for_each(|item| visit(item, path, false, found)),
        _ => Ok(()),
    }
}

fn header_name(name: &Value, kind: Option<&Value>) -> Result<String, String> {
    let Some(name) = name.as_str() else {
        return Err(format!("{ANNOTATION} must be a string, not {name}"));
    };
    if name.is_empty() {
        return Err(format!("{ANNOTATION} must not be empty"));
    }
    if !name.bytes().all(is_tchar) {
        return Err(format!("{ANNOTATION} {name:?} is not an HTTP token"));
    }
    match kind.and_then(Value::as_str) {
        Some("string" | "integer" | "boolean") => Ok(name.to_owned()),
        _ => Err(format!("{ANNOTATION} {name:?} is on a parameter that is not a string, integer or boolean")),
    }
}

/// RFC 9110 `tchar`.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// The text of a parameter value (before [`encode_header_value`](crate::protocol::inbound::encode_header_value)); `None` when it is absent, null
/// or not primitive.
pub(crate) fn param_value(arguments: &Value, path: &[String]) -> Option<String> {
    let value = path.iter().try_fold(arguments, |node, key| node.get(key))?;
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn nested_properties_are_mirrored_and_other_places_rejected() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "opts": {"type": "object", "properties": {"on": {"type": "boolean", "x-mcp-header": "On"}}},
            "query": {"type": "string"}
        }});
        let headers = tool_param_headers(&schema).unwrap();
        assert_eq!(
            headers,
            vec![
                ParamHeader { path: vec!["region".into()], name: "Region".into() },
                ParamHeader { path: vec!["opts".into(), "on".into()], name: "On".into() },
            ]
        );
        let args = json!({"region": "us west 1", "opts": {"on": false}});
        assert_eq!(param_value(&args, &headers[0].path).as_deref(), Some("us west 1"));
        assert_eq!(param_value(&args, &headers[1].path).as_deref(), Some("false"));
        assert_eq!(param_value(&json!({"region": null}), &headers[0].path), None);

        for bad in [
            json!({"properties": {"a": {"type": "string", "x-mcp-header": ""}}}),
            json!({"properties": {"a": {"type": "number", "x-mcp-header": "A"}}}),
            json!({"properties": {"a": {"type": "object", "x-mcp-header": "A"}}}),
            json!({"properties": {"a": {"type": "string", "x-mcp-header": "A:B"}}}),
            json!({"properties": {"a": {"type": "string", "x-mcp-header": "Ré"}}}),
            json!({"properties": {"a": {"type": "string", "x-mcp-header": "x"}, "b": {"type": "string", "x-mcp-header": "X"}}}),
            json!({"properties": {"a": {"type": "array", "items": {"type": "string", "x-mcp-header": "A"}}}}),
            json!({"anyOf": [{"properties": {"a": {"type": "string", "x-mcp-header": "A"}}}]}),
        ] {
            assert!(tool_param_headers(&bad).is_err(), "{bad}");
        }
        assert!(
            tool_param_headers(&json!({"properties": {"a": {"type": "string", "default": {"x-mcp-header": 1}}}}))
                .unwrap()
                .is_empty()
        );
    }
}
