//! What a server offers: tools, resources, resource templates and prompts, each with its
//! definition (the JSON object `*/list` returns) and its handler.
//!
//! Mistakes in a definition fail here, at registration, with a message that names the
//! tool, resource or prompt: a duplicate name, an input schema that does not compile, a
//! URI template that does not parse. Lists keep registration order, so pages are stable.
//! Each entry also keeps its definition serialised once (`listed`), the text a `*/list`
//! page is joined from; entries never change after registration, so it never goes stale.

use std::sync::{Arc, OnceLock};

use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use super::ResourceCacheHint;
use super::capabilities::Features;
use super::handlers::{PromptHandler, ResourceHandler, ResourceLister, ToolHandler};
use super::tasks::{TaskStart, TaskSupport};
use super::template::UriTemplate;
use crate::wire::RawJson;

/// A definition that cannot be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    #[error("a tool named {0:?} is already registered")]
    DuplicateTool(String),
    #[error("a resource with URI {0:?} is already registered")]
    DuplicateResource(String),
    #[error("a resource template {0:?} is already registered")]
    DuplicateTemplate(String),
    #[error("a prompt named {0:?} is already registered")]
    DuplicatePrompt(String),
    #[error("{what}: {problem}")]
    Invalid { what: String, problem: String },
    /// A custom handler for a method the protocol (or the engine) already serves.
    #[error("{method:?} is MCP's own {kind} method; a custom {kind} handler cannot take it")]
    Builtin { kind: &'static str, method: String },
    /// An application handler for a method the application cannot answer itself.
    #[error("{0:?} cannot be answered by the application (only {list})", list = super::custom::APPLICATION_ANSWERED.join(", "))]
    NotAnswerable(String),
}

fn invalid(what: impl Into<String>, problem: impl Into<String>) -> RegistryError {
    RegistryError::Invalid { what: what.into(), problem: problem.into() }
}

/// Words a tool's invalid arguments as the application's users expect them (in the words
/// of the schema library its input schema was made from), given the arguments core found
/// invalid; `None` keeps core's own words. Only the text is the application's: core has
/// decided that the arguments are invalid and how the call answers (an `isError` result).
pub type ArgumentWording = Arc<dyn Fn(Value) -> crate::peer::BoxFuture<Option<String>> + Send + Sync>;

/// How a tool is registered besides its definition and handler.
#[derive(Clone, Default)]
pub struct ToolOptions {
    /// Where its task starts, when it runs as one.
    pub task_start: TaskStart,
    /// The handler checks the arguments itself (with the schema library the input schema
    /// was made from, whose messages the application's users expect), so core does not
    /// check them against the listed input schema first.
    pub handler_checks_arguments: bool,
    /// The words of the problems core finds in a call's arguments (see [`ArgumentWording`]).
    pub argument_wording: Option<ArgumentWording>,
}

impl std::fmt::Debug for ToolOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolOptions")
            .field("task_start", &self.task_start)
            .field("handler_checks_arguments", &self.handler_checks_arguments)
            .field("argument_wording", &self.argument_wording.is_some())
            .finish()
    }
}

pub(crate) struct ToolEntry {
    pub name: String,
    pub definition: Value,
    pub listed: RawJson,
    /// What a 2025-era client is listed when the output schema's root is not an object
    /// (SEP-2106): the schema wrapped as `{"result": ...}`, and each structured result with
    /// it; `None`: the same as `listed`.
    pub legacy_listed: Option<RawJson>,
    /// The arguments' check; `None` when the handler checks them itself.
    pub input: Option<Arc<Schema>>,
    pub output: Option<Arc<Schema>>,
    pub handler: Arc<dyn ToolHandler>,
    /// `execution.taskSupport` (tasks extension).
    pub task_support: TaskSupport,
    pub task_start: TaskStart,
    /// The words of invalid arguments, when the application words them.
    pub argument_wording: Option<ArgumentWording>,
}

pub(crate) struct ResourceEntry {
    pub listed: RawJson,
    pub handler: Arc<dyn ResourceHandler>,
    pub cache_hint: Option<ResourceCacheHint>,
}

pub(crate) struct TemplateEntry {
    pub definition: Value,
    pub listed: RawJson,
    pub template: UriTemplate,
    pub handler: Arc<dyn ResourceHandler>,
    pub lister: Option<Arc<dyn ResourceLister>>,
    pub cache_hint: Option<ResourceCacheHint>,
}

/// What serves a `resources/read` of one URI.
pub(crate) struct FoundResource {
    pub handler: Arc<dyn ResourceHandler>,
    /// The template's variables (none for a static resource).
    pub variables: Map<String, Value>,
    /// Whether the URI matched a template (rather than naming a static resource).
    pub template: bool,
    pub cache_hint: Option<ResourceCacheHint>,
}

pub(crate) struct PromptEntry {
    pub listed: RawJson,
    pub required: Vec<String>,
    /// The definition's `description`, which `prompts/get` results carry when the handler
    /// gave none.
    pub description: Option<Value>,
    pub handler: Arc<dyn PromptHandler>,
}

#[derive(Default)]
pub(crate) struct Registry {
    pub tools: IndexMap<String, Arc<ToolEntry>>,
    pub resources: IndexMap<String, Arc<ResourceEntry>>,
    pub templates: IndexMap<String, Arc<TemplateEntry>>,
    pub prompts: IndexMap<String, Arc<PromptEntry>>,
    /// The lists that ever had an entry, which the server declares (see
    /// [`super::capabilities`]).
    pub offered: Features,
}

impl Registry {
    /// Adds a tool from its `Tool` definition (`name` required; `inputSchema` defaults to
    /// an object with no properties; `execution.taskSupport`, if present, one of the three
    /// values the specification names).
    pub fn add_tool(
        &mut self,
        definition: Value,
        handler: Arc<dyn ToolHandler>,
        options: ToolOptions,
    ) -> Result<(), RegistryError> {
        let ToolOptions { task_start, handler_checks_arguments, argument_wording } = options;
        let Value::Object(mut definition) = definition else {
            return Err(invalid("tool", "the definition must be a JSON object"));
        };
        let name = required_str(&definition, "name", "tool")?;
        if self.tools.contains_key(&name) {
            return Err(RegistryError::DuplicateTool(name));
        }
        check_tool_name(&name);
        let what = format!("tool {name:?}");
        let input = definition.entry("inputSchema").or_insert_with(|| json!({"type": "object", "properties": {}}));
        if input.get("type") != Some(&json!("object")) {
            return Err(invalid(&what, "inputSchema must have \"type\": \"object\""));
        }
        // Compiled even when the handler checks the arguments: a schema that does not
        // compile is the application's mistake either way.
        let input = compile(input, &format!("{what} inputSchema"))?;
        let input = (!handler_checks_arguments).then_some(input);
        // Any JSON Schema root from 2026-07-28 (SEP-2106); a 2025-era client, whose
        // revision requires `"type": "object"`, is shown it wrapped (see `wrap_for_legacy`).
        let (output, legacy_listed) = match definition.get("outputSchema") {
            Some(schema) if !schema.is_object() => {
                return Err(invalid(&what, "outputSchema must be a JSON Schema object"));
            }
            Some(schema) => {
                let compiled = compile(schema, &format!("{what} outputSchema"))?;
                let legacy = (schema.get("type") != Some(&json!("object"))).then(|| {
                    let mut wrapped = definition.clone();
                    wrapped.insert("outputSchema".into(), wrap_for_legacy(schema));
                    listed(&Value::Object(wrapped))
                });
                (Some(compiled), legacy)
            }
            None => (None, None),
        };
        let task_support = TaskSupport::of(&definition).map_err(|problem| invalid(&what, problem))?;
        let definition = Value::Object(definition);
        let entry = ToolEntry {
            name: name.clone(),
            listed: listed(&definition),
            legacy_listed,
            definition,
            input,
            output,
            handler,
            task_support,
            task_start,
            argument_wording,
        };
        self.tools.insert(name, Arc::new(entry));
        self.offered.tools = true;
        Ok(())
    }

    pub fn add_resource(
        &mut self,
        definition: Value,
        handler: Arc<dyn ResourceHandler>,
        cache_hint: Option<ResourceCacheHint>,
    ) -> Result<(), RegistryError> {
        let Value::Object(definition) = definition else {
            return Err(invalid("resource", "the definition must be a JSON object"));
        };
        let uri = required_str(&definition, "uri", "resource")?;
        required_str(&definition, "name", &format!("resource {uri:?}"))?;
        if self.resources.contains_key(&uri) {
            return Err(RegistryError::DuplicateResource(uri));
        }
        let entry = ResourceEntry { listed: listed(&Value::Object(definition)), handler, cache_hint };
        self.resources.insert(uri, Arc::new(entry));
        self.offered.resources = true;
        Ok(())
    }

    pub fn add_template(
        &mut self,
        definition: Value,
        handler: Arc<dyn ResourceHandler>,
        lister: Option<Arc<dyn ResourceLister>>,
        cache_hint: Option<ResourceCacheHint>,
    ) -> Result<(), RegistryError> {
        let Value::Object(definition) = definition else {
            return Err(invalid("resource template", "the definition must be a JSON object"));
        };
        let text = required_str(&definition, "uriTemplate", "resource template")?;
        required_str(&definition, "name", &format!("resource template {text:?}"))?;
        if self.templates.contains_key(&text) {
            return Err(RegistryError::DuplicateTemplate(text));
        }
        let template =
            UriTemplate::parse(&text).map_err(|e| invalid(format!("resource template {text:?}"), e.to_string()))?;
        let definition = Value::Object(definition);
        let entry = TemplateEntry { listed: listed(&definition), definition, template, handler, lister, cache_hint };
        self.templates.insert(text, Arc::new(entry));
        self.offered.resources = true;
        Ok(())
    }

    pub fn add_prompt(&mut self, definition: Value, handler: Arc<dyn PromptHandler>) -> Result<(), RegistryError> {
        let Value::Object(mut definition) = definition else {
            return Err(invalid("prompt", "the definition must be a JSON object"));
        };
        let name = required_str(&definition, "name", "prompt")?;
        if self.prompts.contains_key(&name) {
            return Err(RegistryError::DuplicatePrompt(name));
        }
        let arguments = definition.get("arguments").and_then(Value::as_array).cloned().unwrap_or_default();
        let mut required = Vec::new();
        for argument in &arguments {
            let arg_name = argument.get("name").and_then(Value::as_str);
            let arg_name =
                arg_name.ok_or_else(|| invalid(format!("prompt {name:?}"), "every argument needs a name"))?;
            if argument.get("required") == Some(&Value::Bool(true)) {
                required.push(arg_name.to_owned());
            }
        }
        // No arguments are listed one way, whichever way a binding's API spelled them.
        if arguments.is_empty() {
            definition.remove("arguments");
        }
        let description = definition.get("description").cloned();
        let entry = PromptEntry { listed: listed(&Value::Object(definition)), required, description, handler };
        self.prompts.insert(name, Arc::new(entry));
        self.offered.prompts = true;
        Ok(())
    }

    /// The static resource with this URI, or the first template it fits.
    pub fn find_resource(&self, uri: &str) -> Option<FoundResource> {
        if let Some(entry) = self.resources.get(uri) {
            return Some(FoundResource {
                handler: entry.handler.clone(),
                variables: Map::new(),
                template: false,
                cache_hint: entry.cache_hint,
            });
        }
        self.templates.values().find_map(|entry| {
            let variables = entry.template.matches(uri)?;
            Some(FoundResource {
                handler: entry.handler.clone(),
                variables,
                template: true,
                cache_hint: entry.cache_hint,
            })
        })
    }
}

/// A non-object output schema as the 2025 revisions allow one (SEP-2106, as the official
/// TypeScript SDK projects it): `{"type": "object", "properties": {"result": schema},
/// "required": ["result"]}`, with a root `$schema` moved up to the wrapper and the
/// same-document pointers inside (`$ref` / `$dynamicRef` `#` and `#/...`) pointed at their
/// new place; a root `$id` (a base of its own) keeps every pointer as it is.
pub(crate) fn wrap_for_legacy(schema: &Value) -> Value {
    fn own_base(node: &Map<String, Value>) -> bool {
        node.get("$id").is_some_and(|id| !id.as_str().is_some_and(|id| id.starts_with('#')))
    }
    fn rewrite(node: &Value, names: bool) -> Value {
        const DATA: [&str; 4] = ["const", "enum", "default", "examples"];
        const NAME_MAPS: [&str; 6] =
            ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"];
        match node {
            Value::Array(items) => Value::Array(items.iter().map(|item| rewrite(item, false)).collect()),
            Value::Object(map) if !names && own_base(map) => node.clone(),
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(key, value)| {
                        let value = match (names, key.as_str(), value) {
                            (true, _, _) => rewrite(value, false),
                            (false, "$ref" | "$dynamicRef", Value::String(pointer)) if pointer == "#" => {
                                json!("#/properties/result")
                            }
                            (false, "$ref" | "$dynamicRef", Value::String(pointer)) if pointer.starts_with("#/") => {
                                json!(format!("#/properties/result{}", &pointer[1..]))
                            }
                            (false, key, _) if DATA.contains(&key) => value.clone(),
                            (false, key, _) => rewrite(value, NAME_MAPS.contains(&key)),
                        };
                        (key.clone(), value)
                    })
                    .collect(),
            ),
            _ => node.clone(),
        }
    }
    let natural = match schema.as_object() {
        Some(map) if own_base(map) => schema.clone(),
        _ => rewrite(schema, false),
    };
    let mut wrapped = Map::new();
    if let Some(dialect) = schema.get("$schema").filter(|d| d.is_string()) {
        wrapped.insert("$schema".into(), dialect.clone());
    }
    wrapped.insert("type".into(), json!("object"));
    wrapped.insert("properties".into(), json!({"result": natural}));
    wrapped.insert("required".into(), json!(["result"]));
    Value::Object(wrapped)
}

fn listed(definition: &Value) -> RawJson {
    RawJson::from_value(definition)
}

fn required_str(definition: &Map<String, Value>, key: &str, what: &str) -> Result<String, RegistryError> {
    match definition.get(key).and_then(Value::as_str) {
        Some(text) if !text.is_empty() => Ok(text.to_owned()),
        _ => Err(invalid(what, format!("\"{key}\" must be a non-empty string"))),
    }
}

/// The 2025-11-25 naming rule (SHOULD, [`crate::protocol::tool_names`]); other names still
/// work, with a warning, as in the official SDKs (the bindings warn through their own
/// loggers, in the official words).
fn check_tool_name(name: &str) {
    let check = crate::protocol::tool_names::check(name, crate::protocol::tool_names::Wording::TypeScript);
    if !check.valid {
        tracing::warn!("tool name {name:?} does not follow the MCP naming rule [A-Za-z0-9_.-]{{1,128}}");
    }
}

/// A tool's compiled JSON Schema, compiled once, with JSON Schema 2020-12 as the default
/// dialect (MCP 2025-11-25); a `$schema` member selects another.
///
/// Compiling makes the `jsonschema` crate check the schema against its dialect's
/// meta-schema, and the first such check in a process builds the meta-schema's own
/// validator: about 6.4 M instructions, 86 % of a small server's start (callgrind,
/// `benches/README.md`). A schema made only of keywords whose shapes are checked here
/// ([`plainly_valid`]: the common `type`/`properties`/`required`/`items`/bounds kind) cannot
/// fail that check, so it is compiled on first use instead; every other schema is still
/// compiled at registration, so a schema that does not compile is reported there as before.
/// A deferred schema is compiled only when [`Schema::surely_accepts`] cannot vouch for a
/// value, so a server whose calls are all valid may never compile it.
pub(crate) struct Schema {
    source: Option<Value>,
    compiled: OnceLock<Result<jsonschema::Validator, String>>,
}

impl Schema {
    /// The validator (compiled now if it was deferred). An `Err` cannot happen for a schema
    /// [`plainly_valid`] accepted; it is reported rather than trusted.
    pub fn validator(&self) -> Result<&jsonschema::Validator, &str> {
        let compiled = self.compiled.get_or_init(|| {
            let source = self.source.as_ref().expect("a deferred schema keeps its source");
            // Draft 7 means the same as 2020-12 for every keyword `plainly_valid` admits, and
            // its meta-schema (checked on compiling) is one small document where 2020-12's
            // is seven vocabularies: the first compile of a process builds it, and keeps it.
            jsonschema::draft7::new(source).map_err(|e| format!("the schema does not compile: {e}"))
        });
        compiled.as_ref().map_err(String::as_str)
    }

    /// Whether `instance` is valid without asking the compiled validator: only for a
    /// deferred ([`plainly_valid`]) schema, and only when [`surely_holds`] can tell. A
    /// `false` decides nothing: the caller asks [`Schema::validator`], which then reports
    /// the problems in `jsonschema`'s words as before.
    pub fn surely_accepts(&self, instance: &Value) -> bool {
        self.source.as_ref().is_some_and(|source| surely_holds(source, instance))
    }
}

/// Whether `instance` is valid against `schema`, a schema [`plainly_valid`] accepted,
/// decided for the common keywords only: `type`, `properties`, `required`, `items`,
/// `additionalProperties`, `enum` and `const` (by `==`, which implies JSON Schema
/// equality), and the annotations. Anything else (a bound, an integer written `1.0`, a
/// value that fails) answers `false`, never a wrong `true`; the `jsonschema` validator is
/// then compiled and decides, so every verdict and message stays its own.
///
/// Why not always the crate: compiling even the echo tool's schema makes `jsonschema` build
/// its meta-schema's validator first, which touches about 1.6 MB of code pages and 0.25 MB
/// of heap that a server keeps for life (RSS idle 8.7 against rmcp's 6.7 MB,
/// `benches/README.md`, 2026-11-27 session 16); a tool whose arguments are always valid
/// never needs the crate at all now.
fn surely_holds(schema: &Value, instance: &Value) -> bool {
    fn is_type(name: &Value, instance: &Value) -> bool {
        match name.as_str() {
            Some("string") => instance.is_string(),
            Some("object") => instance.is_object(),
            Some("array") => instance.is_array(),
            Some("boolean") => instance.is_boolean(),
            Some("null") => instance.is_null(),
            Some("number") => instance.is_number(),
            // `1.0` is an integer to JSON Schema too: left to the crate.
            Some("integer") => instance.is_i64() || instance.is_u64(),
            _ => false,
        }
    }
    let Value::Object(map) = schema else { return *schema == Value::Bool(true) };
    map.iter().all(|(key, value)| match key.as_str() {
        "type" => match value {
            Value::Array(names) => names.iter().any(|name| is_type(name, instance)),
            name => is_type(name, instance),
        },
        "properties" => match (value, instance) {
            (Value::Object(properties), Value::Object(object)) => {
                properties.iter().all(|(name, schema)| object.get(name).is_none_or(|v| surely_holds(schema, v)))
            }
            (Value::Object(_), _) => true,
            _ => false,
        },
        "required" => match (value, instance) {
            (Value::Array(names), Value::Object(object)) => {
                names.iter().all(|name| name.as_str().is_some_and(|name| object.contains_key(name)))
            }
            (Value::Array(_), _) => true,
            _ => false,
        },
        "items" => match instance {
            Value::Array(items) => items.iter().all(|item| surely_holds(value, item)),
            _ => true,
        },
        "additionalProperties" => match instance {
            Value::Object(object) => {
                let declared = map.get("properties").and_then(Value::as_object);
                object.iter().all(|(name, v)| declared.is_some_and(|d| d.contains_key(name)) || surely_holds(value, v))
            }
            _ => true,
        },
        "enum" => value.as_array().is_some_and(|options| options.contains(instance)),
        "const" => value == instance,
        // `$schema` only at the root of a schema `plainly_valid` accepted, naming a draft in
        // which the other keywords mean the same.
        "title" | "description" | "default" | "examples" | "$schema" => true,
        _ => false,
    })
}

fn build(schema: &Value) -> Result<jsonschema::Validator, jsonschema::ValidationError<'static>> {
    if schema.get("$schema").is_some() {
        jsonschema::validator_for(schema)
    } else {
        jsonschema::draft202012::new(schema)
    }
}

/// A schema an application listed itself (not registered here), compiled as a registered
/// one is; `Err` says why it does not compile.
pub(crate) fn compile_listed(schema: &Value, what: &str) -> Result<Arc<Schema>, String> {
    compile(schema, what).map_err(|e| e.to_string())
}

fn compile(schema: &Value, what: &str) -> Result<Arc<Schema>, RegistryError> {
    if plainly_valid(schema, 0) {
        return Ok(Arc::new(Schema { source: Some(schema.clone()), compiled: OnceLock::new() }));
    }
    let compiled = build(schema).map_err(|e| invalid(what, format!("does not compile: {e}")))?;
    Ok(Arc::new(Schema { source: None, compiled: OnceLock::from(Ok(compiled)) }))
}

/// Whether `schema` is a 2020-12 schema (no `$schema`, or at its root a `$schema` naming
/// draft 2020-12, 2019-09 or 7, as zod's `toJSONSchema` writes on every Node tool) made
/// only of keywords whose values are checked here to have the shape the meta-schema
/// requires, so that checking it against the meta-schema cannot fail, and that mean the
/// same in those three drafts. Anything else (another keyword or draft, `$ref`, `pattern`,
/// `format`, a combinator, deep nesting) answers `false`, and the schema is compiled at
/// once as before. A deferred schema with a `$schema` is compiled on first use as every
/// deferred one is ([`Schema::validator`]); its keywords mean the same there.
fn plainly_valid(schema: &Value, depth: u32) -> bool {
    const PLAIN_DRAFTS: [&str; 4] = [
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2019-09/schema",
        "http://json-schema.org/draft-07/schema#",
        "http://json-schema.org/draft-07/schema",
    ];
    const TYPES: [&str; 7] = ["array", "boolean", "integer", "null", "number", "object", "string"];
    let type_name = |v: &Value| v.as_str().is_some_and(|t| TYPES.contains(&t));
    let unique_strings = |v: &Value, ok: &dyn Fn(&Value) -> bool| {
        v.as_array()
            .is_some_and(|items| items.iter().all(ok) && items.iter().enumerate().all(|(i, a)| !items[..i].contains(a)))
    };
    let Value::Object(map) = schema else { return schema.is_boolean() };
    depth < 16
        && map.iter().all(|(key, value)| match key.as_str() {
            "type" => {
                type_name(value)
                    || (value.as_array().is_some_and(|t| !t.is_empty()) && unique_strings(value, &type_name))
            }
            "properties" => value.as_object().is_some_and(|p| p.values().all(|s| plainly_valid(s, depth + 1))),
            "items" | "additionalProperties" => plainly_valid(value, depth + 1),
            "required" => unique_strings(value, &Value::is_string),
            "enum" => value.as_array().is_some_and(|items| !items.is_empty()),
            "const" | "default" => true,
            "examples" => value.is_array(),
            "title" | "description" => value.is_string(),
            "$schema" => depth == 0 && value.as_str().is_some_and(|uri| PLAIN_DRAFTS.contains(&uri)),
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => value.is_number(),
            "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties" => value.is_u64(),
            _ => false,
        })
}

#[cfg(test)]
mod schema_tests {
    use super::*;

    #[test]
    fn plain_schemas_are_deferred_and_the_rest_compiled_at_once() {
        let plain = json!({"type": "object", "properties": {"text": {"type": "string", "minLength": 1},
            "tags": {"type": "array", "items": {"type": ["string", "null"]}, "maxItems": 3},
            "mode": {"enum": ["a", "b"], "default": "a"}}, "required": ["text"], "additionalProperties": false});
        assert!(plainly_valid(&plain, 0));
        let schema = compile(&plain, "t").unwrap();
        assert!(schema.compiled.get().is_none());
        let validator = schema.validator().unwrap();
        assert!(validator.is_valid(&json!({"text": "x", "tags": ["a", null]})));
        assert!(!validator.is_valid(&json!({"text": ""})));
        // Shapes the meta-schema refuses are never deferred: they fail at registration.
        for bad in [
            json!({"type": "strin"}),
            json!({"type": []}),
            json!({"type": ["string", "string"]}),
            json!({"required": ["a", "a"]}),
            json!({"required": "a"}),
            json!({"minLength": -1}),
            json!({"minimum": "1"}),
            json!({"properties": {"a": {"type": 5}}}),
        ] {
            assert!(!plainly_valid(&bad, 0), "{bad}");
            assert!(compile(&bad, "t").is_err(), "{bad}");
        }
        // Other keywords are compiled at once, valid or not.
        let other =
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"type": "string"}}});
        assert!(!plainly_valid(&other, 0));
        assert!(compile(&other, "t").unwrap().compiled.get().is_some());
    }

    #[test]
    fn a_root_schema_uri_of_a_plain_draft_is_deferred() {
        // What zod's `toJSONSchema` gives every Node tool (benches/README.md, "Startup and
        // idle RSS (2026-11-28)").
        let zod = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
            "properties": {"text": {"type": "string"}}, "required": ["text"], "additionalProperties": false});
        let schema = compile(&zod, "t").unwrap();
        assert!(schema.compiled.get().is_none());
        assert!(schema.surely_accepts(&json!({"text": "x"})));
        assert!(!schema.surely_accepts(&json!({"text": 5})));
        assert!(schema.compiled.get().is_none());
        assert!(!schema.validator().unwrap().is_valid(&json!({"text": 5})));
        let draft7 = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
            "properties": {"n": {"type": "integer", "exclusiveMinimum": 0}}});
        assert!(compile(&draft7, "t").unwrap().compiled.get().is_none());
        // Another draft, an unknown URI, or `$schema` below the root: compiled at once, as before.
        for eager in [
            json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"}),
            json!({"$schema": "https://example.com/mine", "type": "object"}),
            json!({"type": "object", "properties": {"a": {"$schema": "https://json-schema.org/draft/2020-12/schema"}}}),
        ] {
            assert!(!plainly_valid(&eager, 0), "{eager}");
        }
        let draft4 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"});
        assert!(compile(&draft4, "t").unwrap().compiled.get().is_some());
    }

    #[test]
    fn surely_accepts_says_yes_only_where_the_validator_does_and_compiles_nothing() {
        let plain = json!({"type": "object", "properties": {
                "text": {"type": "string", "description": "d"}, "n": {"type": ["integer", "null"]},
                "x": {"type": "number"}, "level": {"enum": ["low", "high"]}, "k": {"const": {"a": [1, 2]}},
                "tags": {"type": "array", "items": {"type": "string"}},
                "owner": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"],
                    "additionalProperties": false},
                "extra": {"type": "object", "additionalProperties": {"type": "boolean"}},
                "short": {"type": "string", "maxLength": 3}},
            "required": ["text"]});
        let schema = compile(&plain, "t").unwrap();
        let sure = [
            json!({"text": "a"}),
            json!({"text": "a", "n": 3, "x": 1.5, "level": "low", "k": {"a": [1, 2]}, "tags": ["a", "b"],
                "owner": {"name": "n"}, "extra": {"p": true}}),
            json!({"text": "a", "n": null, "x": -7, "tags": []}),
        ];
        for instance in &sure {
            assert!(schema.surely_accepts(instance), "{instance}");
        }
        // Answered without the crate: nothing was compiled.
        assert!(schema.compiled.get().is_none());
        let unsure = [
            json!({}),
            json!({"text": 1}),
            json!({"text": "a", "n": 1.0}),
            json!({"text": "a", "n": "1"}),
            json!({"text": "a", "level": "mid"}),
            json!({"text": "a", "k": {"a": [1.0, 2]}}),
            json!({"text": "a", "tags": ["a", 1]}),
            json!({"text": "a", "owner": {}}),
            json!({"text": "a", "owner": {"name": "n", "age": 3}}),
            json!({"text": "a", "extra": {"p": 1}}),
            json!({"text": "a", "short": "ab"}),
            json!("text"),
        ];
        for instance in &unsure {
            assert!(!schema.surely_accepts(instance), "{instance}");
        }
        // Never a yes the validator would refuse (integers written 1.0, bounds: its call).
        let validator = schema.validator().unwrap();
        for instance in sure.iter().chain(&unsure) {
            assert!(!schema.surely_accepts(instance) || validator.is_valid(instance), "{instance}");
        }
        assert!(validator.is_valid(&json!({"text": "a", "n": 1.0, "short": "ab"})));
        // A schema compiled at registration is always the validator's to judge.
        let other = compile(&json!({"type": "object", "pattern": "a"}), "t").unwrap();
        assert!(!other.surely_accepts(&json!({})));
    }

    #[test]
    fn wrap_for_legacy_moves_pointers_hoists_the_dialect_and_leaves_data_and_other_bases() {
        let natural = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "array",
            "items": {"$ref": "#/$defs/item"},
            "default": [{"$ref": "#/not-a-pointer"}],
            "$defs": {
                "item": {"anyOf": [{"$ref": "#"}, {"const": {"$ref": "#/data"}}]},
                "$ref": {"$id": "https://example.com/other", "$ref": "#/inner"}
            }
        });
        let wrapped = super::wrap_for_legacy(&natural);
        assert_eq!(wrapped["$schema"], natural["$schema"], "the dialect is the wrapper's");
        assert_eq!((&wrapped["type"], &wrapped["required"]), (&json!("object"), &json!(["result"])));
        let result = &wrapped["properties"]["result"];
        assert_eq!(result["items"]["$ref"], "#/properties/result/$defs/item");
        assert_eq!(result["$defs"]["item"]["anyOf"][0]["$ref"], "#/properties/result");
        assert_eq!(result["$defs"]["item"]["anyOf"][1]["const"], json!({"$ref": "#/data"}), "data is not rewritten");
        assert_eq!(result["default"], natural["default"]);
        assert_eq!(result["$defs"]["$ref"]["$ref"], "#/inner", "a subschema with its own base keeps its pointers");

        let own_base = json!({"$id": "https://example.com/s", "type": "array", "items": {"$ref": "#/$defs/x"}});
        assert_eq!(super::wrap_for_legacy(&own_base)["properties"]["result"], own_base);
    }
}
