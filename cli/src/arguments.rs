//! `key=value` arguments on the command line, turned into a JSON object.
//!
//! A value is read as JSON when it parses (`n=3`, `ok=true`, `tags=["a"]`) and taken as a
//! string otherwise (`name=Ada`), except where the tool's `inputSchema` says the property
//! is a string: there it is always the string typed (`zip=02139` stays `"02139"`). Prompt
//! arguments are strings by definition. `--args JSON` gives a base object the pairs are
//! laid over.

use serde_json::{Map, Value};

use crate::exit::{Failure, Outcome};

/// How values are typed.
pub enum Typing<'a> {
    /// By a tool's `inputSchema`, JSON where it does not say string.
    Schema(&'a Map<String, Value>),
    /// Every value a string (prompt arguments).
    Strings,
}

pub fn build(pairs: &[String], base: Option<&str>, typing: Typing<'_>) -> Outcome<Map<String, Value>> {
    let mut arguments = match base {
        Some(text) => match serde_json::from_str(text) {
            Ok(Value::Object(object)) => object,
            Ok(_) => return Err(Failure::usage("--args must be a JSON object, such as '{\"name\": \"Ada\"}'")),
            Err(e) => return Err(Failure::usage(format!("--args is not valid JSON: {e}"))),
        },
        None => Map::new(),
    };
    for pair in pairs {
        let Some((key, raw)) = pair.split_once('=') else {
            return Err(Failure::usage(format!("expected key=value, got {pair:?}")));
        };
        let value = match &typing {
            Typing::Strings => Value::String(raw.to_owned()),
            Typing::Schema(schema) if says_string(schema, key) => Value::String(raw.to_owned()),
            Typing::Schema(_) => serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_owned())),
        };
        arguments.insert(key.to_owned(), value);
    }
    Ok(arguments)
}

/// Whether the schema's property `key` is a string and only a string.
fn says_string(schema: &Map<String, Value>, key: &str) -> bool {
    let kind = schema.get("properties").and_then(|p| p.get(key)).and_then(|p| p.get("type"));
    match kind {
        Some(Value::String(kind)) => kind == "string",
        Some(Value::Array(kinds)) => kinds.iter().all(|k| k == "string" || k == "null"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Map<String, Value> {
        json!({"type": "object", "properties": {"zip": {"type": "string"}, "n": {"type": "number"}}})
            .as_object()
            .cloned()
            .unwrap()
    }

    #[test]
    fn values_parse_as_json_unless_the_schema_says_string() {
        let pairs = ["zip=02139", "n=3", "ok=true", "name=Ada", "obj={\"a\":1}", "empty="].map(String::from);
        let arguments = build(&pairs, None, Typing::Schema(&schema())).unwrap();
        assert_eq!(
            Value::Object(arguments),
            json!({"zip": "02139", "n": 3, "ok": true, "name": "Ada", "obj": {"a": 1}, "empty": ""})
        );
    }

    #[test]
    fn pairs_override_the_args_object() {
        let pairs = ["n=2".to_owned()];
        let arguments = build(&pairs, Some(r#"{"n": 1, "m": 5}"#), Typing::Schema(&schema())).unwrap();
        assert_eq!(Value::Object(arguments), json!({"n": 2, "m": 5}));
    }

    #[test]
    fn prompt_arguments_stay_strings_and_bad_input_is_a_usage_error() {
        let arguments = build(&["n=3".to_owned()], None, Typing::Strings).unwrap();
        assert_eq!(arguments["n"], json!("3"));
        assert!(build(&["nokey".to_owned()], None, Typing::Strings).is_err());
        assert!(build(&[], Some("[1]"), Typing::Strings).is_err());
    }
}
