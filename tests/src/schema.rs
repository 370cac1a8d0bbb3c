//! The official MCP JSON Schemas (vendored in `tests/mcp-schema/`), compiled once per
//! revision, so every message a test sees can be checked against its revision.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use serde_json::{Value, json};

pub const REVISIONS: [&str; 5] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

pub fn schema_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mcp-schema")
}

fn document(revision: &str) -> &'static Value {
    static DOCS: OnceLock<Mutex<HashMap<String, &'static Value>>> = OnceLock::new();
    let mut docs = DOCS.get_or_init(Default::default).lock().unwrap();
    docs.entry(revision.to_owned()).or_insert_with(|| {
        let path = schema_dir().join(format!("{revision}.schema.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        Box::leak(Box::new(serde_json::from_str(&text).unwrap()))
    })
}

/// Checks `instance` against definition `name` of `revision`; the error lists every
/// violation.
pub fn check(revision: &str, name: &str, instance: &Value) -> Result<(), String> {
    let validator = validator(revision, name);
    let errors: Vec<String> =
        validator.iter_errors(instance).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("{instance} is not a valid {name} ({revision}): {}", errors.join("; ")))
    }
}

/// Panics unless `instance` is a valid `name` of `revision`.
pub fn assert_valid(revision: &str, name: &str, instance: &Value) {
    if let Err(e) = check(revision, name, instance) {
        panic!("{e}");
    }
}

fn validator(revision: &str, name: &str) -> &'static jsonschema::Validator {
    static CACHE: OnceLock<Mutex<HashMap<(String, String), &'static jsonschema::Validator>>> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap();
    cache.entry((revision.to_owned(), name.to_owned())).or_insert_with(|| {
        let doc = document(revision);
        let defs_key = if doc.get("$defs").is_some() { "$defs" } else { "definitions" };
        let root = json!({
            "$schema": doc["$schema"],
            "$ref": format!("#/{defs_key}/{name}"),
            defs_key: doc[defs_key],
        });
        Box::leak(Box::new(jsonschema::validator_for(&root).expect("the official schema compiles")))
    })
}
