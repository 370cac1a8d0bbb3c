//! The tools an application's own `tools/list` handler answered, remembered so that calls
//! can be checked against them: what the official Python SDK 1.x low-level `Server` does
//! with its `@server.list_tools()` / `@server.call_tool(validate_input=...)` decorators (a
//! call's arguments against the listed `inputSchema`, a structured result against the
//! listed `outputSchema`, each failure an `isError` result in its words).
//!
//! Core keeps the tools and words the verdicts; the binding decides when to record (each
//! listing) and when to ask (each call), as the decorators it mirrors do. Schemas are
//! compiled as the registry's are ([`compile_listed`]): once per listing of a changed tool,
//! and lazily for the plain ones.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use serde_json::Value;

use super::registry::{Schema, compile_listed};

/// One listed tool's schemas (`Err`: the schema does not compile, and why).
struct Listed {
    source: Value,
    input: Option<Result<Arc<Schema>, String>>,
    output: Option<Result<Arc<Schema>, String>>,
}

/// The listed tools, by name.
#[derive(Default)]
pub struct ListedTools {
    tools: RwLock<HashMap<String, Arc<Listed>>>,
}

impl ListedTools {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records the tools of one listing (each a `Tool` object as listed). `replace`: the
    /// listing is the whole set (1.x's plain list), so tools it no longer names are
    /// forgotten; else (a paginated `ListToolsResult`) they are added or updated. An entry
    /// without a string `name` is skipped.
    pub fn record(&self, tools: &[Value], replace: bool) {
        let mut known = self.tools.write().unwrap_or_else(|p| p.into_inner());
        let previous = if replace { std::mem::take(&mut *known) } else { HashMap::new() };
        for tool in tools {
            let Some(name) = tool.get("name").and_then(Value::as_str) else { continue };
            // A tool listed again unchanged keeps its compiled schemas.
            let same = previous.get(name).or_else(|| known.get(name)).filter(|listed| listed.source == *tool).cloned();
            let listed = same.unwrap_or_else(|| {
                let schema = |key: &str| tool.get(key).filter(|s| !s.is_null()).map(|s| compile_listed(s, key));
                Arc::new(Listed { source: tool.clone(), input: schema("inputSchema"), output: schema("outputSchema") })
            });
            known.insert(name.to_owned(), listed);
        }
    }

    /// Whether `name` was listed.
    pub fn knows(&self, name: &str) -> bool {
        self.tools.read().unwrap_or_else(|p| p.into_inner()).contains_key(name)
    }

    fn get(&self, name: &str) -> Option<Arc<Listed>> {
        self.tools.read().unwrap_or_else(|p| p.into_inner()).get(name).cloned()
    }

    /// Why `arguments` do not fit the listed tool's `inputSchema`
    /// (`Input validation error: ...`), or `None` (valid, or the tool was not listed).
    pub fn check_input(&self, name: &str, arguments: &Value) -> Option<String> {
        let listed = self.get(name)?;
        first_problem(listed.input.as_ref()?, arguments).map(|problem| format!("Input validation error: {problem}"))
    }

    /// Why a result's structured content does not fit the listed tool's `outputSchema`
    /// (`Output validation error: ...`; `structured` is `None` when the tool returned
    /// none), or `None` (valid, no output schema, or the tool was not listed).
    pub fn check_output(&self, name: &str, structured: Option<&Value>) -> Option<String> {
        let listed = self.get(name)?;
        let schema = listed.output.as_ref()?;
        let Some(structured) = structured else {
            return Some("Output validation error: outputSchema defined but no structured output returned".into());
        };
        first_problem(schema, structured).map(|problem| format!("Output validation error: {problem}"))
    }
}

/// The first thing `schema` finds wrong with `instance`, in the `jsonschema` crate's words.
fn first_problem(schema: &Result<Arc<Schema>, String>, instance: &Value) -> Option<String> {
    let schema = match schema {
        Ok(schema) if schema.surely_accepts(instance) => return None,
        Ok(schema) => schema,
        Err(problem) => return Some(problem.clone()),
    };
    match schema.validator() {
        Ok(validator) => validator.iter_errors(instance).next().map(|e| e.to_string()),
        Err(problem) => Some(problem.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::ListedTools;

    #[test]
    fn calls_are_checked_against_what_was_listed() {
        let tools = ListedTools::new();
        let add = json!({"name": "add", "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}}, "required": ["a"]},
            "outputSchema": {"type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]}});
        tools.record(&[add, json!({"name": "free", "inputSchema": {"type": "object"}})], true);
        assert!(tools.knows("add") && tools.knows("free") && !tools.knows("gone"));
        assert_eq!(tools.check_input("add", &json!({"a": 1})), None);
        let missing = tools.check_input("add", &json!({})).unwrap();
        assert!(missing.starts_with("Input validation error: ") && missing.contains("\"a\""), "{missing}");
        assert!(tools.check_input("add", &json!({"a": "x"})).is_some());
        assert_eq!(tools.check_input("gone", &json!({"a": "x"})), None, "an unlisted tool is not checked");
        assert_eq!(tools.check_output("add", Some(&json!({"sum": 2}))), None);
        assert_eq!(
            tools.check_output("add", None).as_deref(),
            Some("Output validation error: outputSchema defined but no structured output returned")
        );
        assert!(
            tools.check_output("add", Some(&json!({"sum": "2"}))).unwrap().starts_with("Output validation error: ")
        );
        assert_eq!(tools.check_output("free", None), None, "no output schema, nothing to check");
        tools.record(&[json!({"name": "free", "inputSchema": {"type": "object"}})], true);
        assert!(!tools.knows("add"), "a whole listing replaces the last one");
        tools.record(&[json!({"name": "more", "inputSchema": {"type": "object"}})], false);
        assert!(tools.knows("free") && tools.knows("more"), "a page adds to it");
    }
}
