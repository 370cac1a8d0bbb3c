//! The protocol types against the official MCP material in `tests/mcp-schema/`:
//!
//! - every example message (`examples/<revision>/<TypeName>/*.json`) whose type has a Rust
//!   counterpart in [`table`] parses into it and serialises back to equal JSON;
//! - samples of the main types, built in Rust, validate against the JSON Schema definition
//!   of the same name in each revision that defines it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use ferrymcp_core::protocol::*;
use ferrymcp_core::wire::{ErrorObject, RawJson, RequestId};
use indexmap::IndexMap;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Number, Value, json};

// ----------------------------------------------------------------------------------------
// Example vectors
// ----------------------------------------------------------------------------------------

/// Parses example text into a Rust type and serialises it back.
type RoundTrip = fn(&str) -> Result<Value, String>;

fn round_trip<T: Serialize + DeserializeOwned>(text: &str) -> Result<Value, String> {
    let parsed: T = serde_json::from_str(text).map_err(|e| format!("parse: {e}"))?;
    serde_json::to_value(&parsed).map_err(|e| format!("serialise: {e}"))
}

/// Like [`round_trip`], and also checks that the value is the expected variant.
fn round_trip_as<T: Serialize + DeserializeOwned>(text: &str, is: fn(&T) -> bool) -> Result<Value, String> {
    let parsed: T = serde_json::from_str(text).map_err(|e| format!("parse: {e}"))?;
    if !is(&parsed) {
        return Err("parsed into the wrong variant".into());
    }
    serde_json::to_value(&parsed).map_err(|e| format!("serialise: {e}"))
}

/// Schema type name -> the Rust type that reads it. Content payloads (`TextContent`...)
/// carry their `type` tag, so they are read as the tagged enum and the variant is checked.
fn table() -> Vec<(&'static str, RoundTrip)> {
    vec![
        // Content.
        ("TextContent", |t| round_trip_as::<ContentBlock>(t, |b| matches!(b, ContentBlock::Text(_)))),
        ("ImageContent", |t| round_trip_as::<ContentBlock>(t, |b| matches!(b, ContentBlock::Image(_)))),
        ("AudioContent", |t| round_trip_as::<ContentBlock>(t, |b| matches!(b, ContentBlock::Audio(_)))),
        ("ResourceLink", |t| round_trip_as::<ContentBlock>(t, |b| matches!(b, ContentBlock::ResourceLink(_)))),
        ("EmbeddedResource", |t| round_trip_as::<ContentBlock>(t, |b| matches!(b, ContentBlock::Resource(_)))),
        ("ToolUseContent", |t| round_trip_as::<SamplingContent>(t, |b| matches!(b, SamplingContent::ToolUse(_)))),
        ("ToolResultContent", |t| round_trip_as::<SamplingContent>(t, |b| matches!(b, SamplingContent::ToolResult(_)))),
        ("TextResourceContents", round_trip::<TextResourceContents>),
        ("BlobResourceContents", round_trip::<BlobResourceContents>),
        // Lifecycle, capabilities, discovery.
        ("InitializeRequest", round_trip::<InitializeRequest>),
        ("InitializeResult", round_trip::<InitializeResult>),
        ("InitializedNotification", round_trip::<InitializedNotification>),
        ("ClientCapabilities", round_trip::<ClientCapabilities>),
        ("ServerCapabilities", round_trip::<ServerCapabilities>),
        ("DiscoverRequest", round_trip::<DiscoverRequest>),
        ("DiscoverResult", round_trip::<DiscoverResult>),
        ("DiscoverResultResponse", round_trip::<DiscoverResultResponse>),
        ("PingRequest", round_trip::<PingRequest>),
        ("EmptyResult", round_trip::<EmptyResult>),
        ("PaginatedRequestParams", round_trip::<PaginatedParams>),
        // Utilities.
        ("CancelledNotification", round_trip::<CancelledNotification>),
        ("CancelledNotificationParams", round_trip::<CancelledParams>),
        ("ProgressNotification", round_trip::<ProgressNotification>),
        ("ProgressNotificationParams", round_trip::<ProgressParams>),
        // Tools.
        ("Tool", round_trip::<Tool>),
        ("ListToolsRequest", round_trip::<ListToolsRequest>),
        ("ListToolsResult", round_trip::<ListToolsResult>),
        ("ListToolsResultResponse", round_trip::<ListToolsResultResponse>),
        ("CallToolRequest", round_trip::<CallToolRequest>),
        ("CallToolRequestParams", round_trip::<CallToolParams>),
        ("CallToolResult", round_trip::<CallToolResult>),
        ("CallToolResultResponse", round_trip::<CallToolResultResponse>),
        ("ToolListChangedNotification", round_trip::<ToolListChangedNotification>),
        // Resources.
        ("Resource", round_trip::<Resource>),
        ("ListResourcesRequest", round_trip::<ListResourcesRequest>),
        ("ListResourcesResult", round_trip::<ListResourcesResult>),
        ("ListResourcesResultResponse", round_trip::<ListResourcesResultResponse>),
        ("ListResourceTemplatesRequest", round_trip::<ListResourceTemplatesRequest>),
        ("ListResourceTemplatesResult", round_trip::<ListResourceTemplatesResult>),
        ("ListResourceTemplatesResultResponse", round_trip::<ListResourceTemplatesResultResponse>),
        ("ReadResourceRequest", round_trip::<ReadResourceRequest>),
        ("ReadResourceResult", round_trip::<ReadResourceResult>),
        ("ReadResourceResultResponse", round_trip::<ReadResourceResultResponse>),
        ("SubscribeRequest", round_trip::<SubscribeRequest>),
        ("UnsubscribeRequest", round_trip::<UnsubscribeRequest>),
        ("ResourceUpdatedNotification", round_trip::<ResourceUpdatedNotification>),
        ("ResourceUpdatedNotificationParams", round_trip::<ResourceUpdatedParams>),
        ("ResourceListChangedNotification", round_trip::<ResourceListChangedNotification>),
        // Prompts and completion.
        ("ListPromptsRequest", round_trip::<ListPromptsRequest>),
        ("ListPromptsResult", round_trip::<ListPromptsResult>),
        ("ListPromptsResultResponse", round_trip::<ListPromptsResultResponse>),
        ("GetPromptRequest", round_trip::<GetPromptRequest>),
        ("GetPromptRequestParams", round_trip::<GetPromptParams>),
        ("GetPromptResult", round_trip::<GetPromptResult>),
        ("GetPromptResultResponse", round_trip::<GetPromptResultResponse>),
        ("PromptListChangedNotification", round_trip::<PromptListChangedNotification>),
        ("CompleteRequest", round_trip::<CompleteRequest>),
        ("CompleteRequestParams", round_trip::<CompleteParams>),
        ("CompleteResult", round_trip::<CompleteResult>),
        ("CompleteResultResponse", round_trip::<CompleteResultResponse>),
        // Logging.
        ("SetLevelRequest", round_trip::<SetLevelRequest>),
        ("LoggingMessageNotification", round_trip::<LoggingMessageNotification>),
        ("LoggingMessageNotificationParams", round_trip::<LoggingMessageParams>),
        // Sampling, elicitation, roots.
        ("CreateMessageRequest", round_trip::<CreateMessageRequest>),
        ("CreateMessageRequestParams", round_trip::<CreateMessageParams>),
        ("CreateMessageResult", round_trip::<CreateMessageResult>),
        ("SamplingMessage", round_trip::<SamplingMessage>),
        ("ModelPreferences", round_trip::<ModelPreferences>),
        ("ElicitRequest", round_trip::<ElicitRequest>),
        ("ElicitRequestFormParams", |t| round_trip_as::<ElicitParams>(t, |p| matches!(p, ElicitParams::Form(_)))),
        ("ElicitRequestURLParams", |t| round_trip_as::<ElicitParams>(t, |p| matches!(p, ElicitParams::Url(_)))),
        ("ElicitResult", round_trip::<ElicitResult>),
        ("StringSchema", |t| round_trip_as::<PrimitiveSchema>(t, |s| matches!(s, PrimitiveSchema::String(_)))),
        ("NumberSchema", |t| round_trip_as::<PrimitiveSchema>(t, |s| matches!(s, PrimitiveSchema::Number(_)))),
        ("BooleanSchema", |t| round_trip_as::<PrimitiveSchema>(t, |s| matches!(s, PrimitiveSchema::Boolean(_)))),
        ("UntitledSingleSelectEnumSchema", |t| {
            round_trip_as::<PrimitiveSchema>(t, |s| matches!(s, PrimitiveSchema::UntitledSingleSelect(_)))
        }),
        ("TitledSingleSelectEnumSchema", |t| {
            round_trip_as::<PrimitiveSchema>(t, |s| matches!(s, PrimitiveSchema::TitledSingleSelect(_)))
        }),
        ("UntitledMultiSelectEnumSchema", |t| {
            round_trip_as::<PrimitiveSchema>(t, |s| matches!(s, PrimitiveSchema::UntitledMultiSelect(_)))
        }),
        ("TitledMultiSelectEnumSchema", |t| {
            round_trip_as::<PrimitiveSchema>(t, |s| matches!(s, PrimitiveSchema::TitledMultiSelect(_)))
        }),
        ("ListRootsRequest", round_trip::<ListRootsRequest>),
        ("ListRootsResult", round_trip::<ListRootsResult>),
        ("Root", round_trip::<Root>),
        ("RootsListChangedNotification", round_trip::<RootsListChangedNotification>),
        // MRTR and subscriptions (2026-07-28).
        ("InputRequests", round_trip::<InputRequests>),
        ("InputResponses", round_trip::<InputResponses>),
        ("InputRequiredResult", round_trip::<InputRequiredResult>),
        ("SubscriptionsListenRequest", round_trip::<SubscriptionsListenRequest>),
        ("SubscriptionsListenResult", round_trip::<SubscriptionsListenResult>),
        ("SubscriptionsListenResultResponse", round_trip::<SubscriptionsListenResultResponse>),
        ("SubscriptionsAcknowledgedNotification", round_trip::<SubscriptionsAcknowledgedNotification>),
        // Tasks (2025-11-25).
        ("TaskAugmentedRequestParams", round_trip::<TaskAugmentedParams>),
        ("CreateTaskResult", round_trip::<CreateTaskResult>),
        ("GetTaskRequest", round_trip::<GetTaskRequest>),
        ("TaskStatusNotification", round_trip::<TaskStatusNotification>),
        // JSON-RPC envelopes and errors.
        ("JSONRPCResultResponse", round_trip::<TypedResponse<JsonObject>>),
        ("JSONRPCErrorResponse", round_trip::<ErrorResponse>),
        ("HeaderMismatchError", round_trip::<ErrorResponse>),
        ("MissingRequiredClientCapabilityError", round_trip::<ErrorResponse>),
        ("UnsupportedProtocolVersionError", round_trip::<ErrorResponse>),
        ("ParseError", round_trip::<ErrorObject>),
        ("InvalidParamsError", round_trip::<ErrorObject>),
        ("MethodNotFoundError", round_trip::<ErrorObject>),
        ("InternalError", round_trip::<ErrorObject>),
    ]
}

fn schema_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/mcp-schema")
}

fn sorted_entries(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    entries
}

#[test]
fn every_example_round_trips() {
    let table: BTreeMap<&str, RoundTrip> = table().into_iter().collect();
    let mut used: BTreeMap<&str, usize> = table.keys().map(|name| (*name, 0)).collect();
    let mut failures = Vec::new();
    let mut report = Vec::new();

    for revision_dir in sorted_entries(&schema_dir().join("examples")).into_iter().filter(|p| p.is_dir()) {
        let revision = revision_dir.file_name().unwrap().to_string_lossy().into_owned();
        let (mut ran, mut unmapped) = (0, Vec::new());
        for type_dir in sorted_entries(&revision_dir).into_iter().filter(|p| p.is_dir()) {
            let type_name = type_dir.file_name().unwrap().to_string_lossy().into_owned();
            let Some((name, check)) = table.get_key_value(type_name.as_str()) else {
                unmapped.push(type_name);
                continue;
            };
            for file in sorted_entries(&type_dir).into_iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
                let text = std::fs::read_to_string(&file).unwrap();
                let expected: Value = serde_json::from_str(&text).unwrap();
                let label = format!("{revision}/{type_name}/{}", file.file_name().unwrap().to_string_lossy());
                match check(&text) {
                    Ok(actual) if actual == expected => {}
                    Ok(actual) => {
                        failures.push(format!("{label}: round trip differs\n  in:  {expected}\n  out: {actual}"))
                    }
                    Err(e) => failures.push(format!("{label}: {e}")),
                }
                *used.get_mut(name).unwrap() += 1;
                ran += 1;
            }
        }
        report.push(format!("{revision}: {ran} vectors ran; example types without a Rust type: {unmapped:?}"));
    }

    for line in &report {
        println!("{line}");
    }
    let unused: Vec<&str> = used.iter().filter(|(_, n)| **n == 0).map(|(name, _)| *name).collect();
    assert!(unused.is_empty(), "table entries with no example (typo?): {unused:?}");
    assert!(failures.is_empty(), "{} vectors failed:\n{}", failures.len(), failures.join("\n"));
}

// ----------------------------------------------------------------------------------------
// Behaviour the vectors do not pin down
// ----------------------------------------------------------------------------------------

#[test]
fn call_tool_arguments_stay_raw_and_unknown_members_survive() {
    let text = r#"{"name":"add","arguments":{"b": 2, "a":1},"x-vendor":{"k":true},"requestState":"s"}"#;
    let params: CallToolParams = serde_json::from_str(text).unwrap();
    assert_eq!(params.arguments.as_ref().unwrap().get(), r#"{"b": 2, "a":1}"#);
    assert_eq!(params.extra["x-vendor"], json!({"k": true}));
    assert_eq!(params.request_state.as_deref(), Some("s"));
    // The same through a DOM and inside a typed request.
    let from_value: CallToolParams = serde_json::from_value(serde_json::from_str(text).unwrap()).unwrap();
    assert_eq!(from_value.arguments.unwrap().parse_owned::<Value>().unwrap(), json!({"a": 1, "b": 2}));
    let request: CallToolRequest =
        serde_json::from_str(&format!(r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{text}}}"#)).unwrap();
    assert_eq!(request.id, Some(RequestId::Number(7)));
    assert!(serde_json::from_str::<CallToolParams>(r#"{"arguments":{}}"#).is_err(), "name is required");
}

#[test]
fn typed_messages_check_their_method() {
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    assert!(serde_json::from_str::<PingRequest>(ping).is_ok());
    assert!(serde_json::from_str::<ListToolsRequest>(ping).is_err());
    assert!(
        serde_json::from_str::<InitializedNotification>(
            r#"{"jsonrpc":"2.0","id":1,"method":"notifications/initialized"}"#
        )
        .is_err()
    );
    let request = ListToolsRequest::new(3, PaginatedParams::default());
    assert_eq!(
        serde_json::to_value(&request).unwrap(),
        json!({"jsonrpc":"2.0","id":3,"method":"tools/list","params":{}})
    );
}

#[test]
fn result_type_chooses_the_variant() {
    let complete: MaybeInputRequired<CallToolResult> =
        serde_json::from_value(json!({"content": [{"type": "text", "text": "done"}]})).unwrap();
    assert!(matches!(complete, MaybeInputRequired::Complete(_)));
    let waiting: MaybeInputRequired<CallToolResult> =
        serde_json::from_value(json!({"resultType": "input_required", "requestState": "x"})).unwrap();
    assert!(matches!(waiting, MaybeInputRequired::InputRequired(_)));
    let extension: EmptyResult = serde_json::from_value(json!({"resultType": "task"})).unwrap();
    assert_eq!(extension.result_type, Some(ResultType::Other("task".into())));
}

#[test]
fn input_responses_are_read_by_shape() {
    let text = std::fs::read_to_string(
        schema_dir().join("examples/2026-07-28/InputResponses/elicitation-and-sampling-input-responses.json"),
    )
    .unwrap();
    let responses: InputResponses = serde_json::from_str(&text).unwrap();
    assert!(matches!(responses["github_login"], InputResponse::Elicitation(_)));
    assert!(matches!(responses["capital_of_france"], InputResponse::Sampling(_)));
    let roots: InputResponse = serde_json::from_value(json!({"roots": [{"uri": "file:///r"}]})).unwrap();
    assert!(matches!(roots, InputResponse::ListRoots(_)));
}

#[test]
fn enum_schemas_keep_their_kind_and_form_fields_their_order() {
    let legacy: PrimitiveSchema =
        serde_json::from_value(json!({"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]})).unwrap();
    assert!(matches!(legacy, PrimitiveSchema::LegacyTitledEnum(_)));
    let plain: PrimitiveSchema = serde_json::from_value(json!({"type": "string", "enum": ["a"]})).unwrap();
    assert!(matches!(plain, PrimitiveSchema::UntitledSingleSelect(_)));
    let integer: PrimitiveSchema = serde_json::from_value(json!({"type": "integer", "default": 30})).unwrap();
    assert!(matches!(integer, PrimitiveSchema::Number(NumberSchema { kind: NumberType::Integer, .. })));

    let text = r#"{"message":"m","requestedSchema":{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"boolean"}}}}"#;
    let ElicitParams::Form(form) = serde_json::from_str(text).unwrap() else { panic!("not a form") };
    assert_eq!(form.requested_schema.properties.keys().collect::<Vec<_>>(), ["zeta", "alpha"]);
    assert_eq!(serde_json::to_string(&form).unwrap(), text);
}

#[test]
fn flattened_task_members_are_not_repeated_in_extra() {
    let text =
        std::fs::read_to_string(schema_dir().join("examples/2025-11-25/TaskStatusNotification/task-status.json"))
            .unwrap();
    let notification: TaskStatusNotification = serde_json::from_str(&text).unwrap();
    let params = notification.params.unwrap();
    assert!(params.extra.is_empty(), "{:?}", params.extra);
    assert_eq!(params.task.status, TaskStatus::Working);
    let written = serde_json::to_string(&params).unwrap();
    assert_eq!(written.matches("\"taskId\"").count(), 1, "{written}");
}

#[test]
fn error_data_of_the_vectors_reads_into_the_typed_shapes() {
    fn data_of(path: &str) -> RawJson {
        let text = std::fs::read_to_string(schema_dir().join("examples/2026-07-28").join(path)).unwrap();
        serde_json::from_str::<ErrorResponse>(&text).unwrap().error.data.unwrap()
    }
    fn round_trips<T: Serialize + DeserializeOwned>(raw: &RawJson) {
        let typed: T = raw.parse_owned().unwrap();
        assert_eq!(to_json(&typed), raw.parse_owned::<Value>().unwrap());
    }
    round_trips::<UnsupportedProtocolVersionData>(&data_of("UnsupportedProtocolVersionError/unsupported-version.json"));
    round_trips::<MissingRequiredClientCapabilityData>(&data_of(
        "MissingRequiredClientCapabilityError/missing-elicitation-capability.json",
    ));
}

#[test]
fn error_constructors_carry_their_data() {
    let error = errors::unsupported_protocol_version("v999", &[ProtocolVersion::V2026_07_28]);
    assert_eq!(error.code, -32022);
    let data: UnsupportedProtocolVersionData = error.data.unwrap().parse_owned().unwrap();
    assert_eq!((data.requested.as_str(), data.supported), ("v999", vec!["2026-07-28".to_owned()]));
    assert_eq!(errors::resource_not_found(ProtocolVersion::V2025_06_18, "x:/y").code, -32002);
    assert_eq!(errors::resource_not_found(ProtocolVersion::V2026_07_28, "x:/y").code, -32602);
}

// ----------------------------------------------------------------------------------------
// Samples against the official JSON Schemas
// ----------------------------------------------------------------------------------------

const LEGACY: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];
const MODERN: [&str; 1] = ["2026-07-28"];
const SINCE_2025_06_18: [&str; 3] = ["2025-06-18", "2025-11-25", "2026-07-28"];
const SINCE_2025_11_25: [&str; 2] = ["2025-11-25", "2026-07-28"];
const LEGACY_SINCE_2025_06_18: [&str; 2] = ["2025-06-18", "2025-11-25"];
const ALL: [&str; 5] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

fn validate(revision: &str, name: &str, instance: &Value) -> Result<(), String> {
    let path = schema_dir().join(format!("{revision}.schema.json"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let defs_key = if doc.get("$defs").is_some() { "$defs" } else { "definitions" };
    if doc[defs_key].get(name).is_none() {
        return Err(format!("{revision} defines no {name}"));
    }
    let root = json!({"$schema": doc["$schema"], "$ref": format!("#/{defs_key}/{name}"), defs_key: doc[defs_key]});
    let validator = jsonschema::validator_for(&root).map_err(|e| format!("{revision}: schema: {e}"))?;
    let errors: Vec<String> =
        validator.iter_errors(instance).map(|e| format!("{e} at {}", e.instance_path())).collect();
    if errors.is_empty() { Ok(()) } else { Err(format!("{name} ({revision}): {}\n  {instance}", errors.join("; "))) }
}

fn to_json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap()
}

fn num(value: f64) -> Number {
    Number::from_f64(value).unwrap()
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

fn modern_meta() -> RequestMeta {
    RequestMeta {
        protocol_version: Some("2026-07-28".into()),
        client_capabilities: Some(ClientCapabilities::default()),
        client_info: Some(Implementation::new("sample-client", "1.0.0")),
        log_level: Some(LoggingLevel::Info),
        progress_token: Some(RequestId::from("p-1")),
        ..RequestMeta::default()
    }
}

fn server_meta() -> Option<ResultMeta> {
    Some(ResultMeta { server_info: Some(Implementation::new("sample-server", "1.0.0")), ..ResultMeta::default() })
}

fn icon() -> Icon {
    Icon {
        src: "https://example.com/i.png".into(),
        mime_type: Some("image/png".into()),
        sizes: Some(vec!["48x48".into()]),
        theme: Some(IconTheme::Dark),
        ..Icon::default()
    }
}

fn full_tool() -> Tool {
    Tool {
        title: Some("Adder".into()),
        description: Some("Adds two numbers".into()),
        output_schema: Some(object(json!({"type": "object", "properties": {"sum": {"type": "number"}}}))),
        annotations: Some(ToolAnnotations {
            read_only_hint: Some(true),
            idempotent_hint: Some(true),
            ..ToolAnnotations::default()
        }),
        icons: Some(vec![icon()]),
        meta: Some(object(json!({"com.example/x": 1}))),
        ..Tool::new(
            "add",
            object(json!({"type": "object", "properties": {"a": {"type": "number"}}, "required": ["a"]})),
        )
    }
}

fn every_content_block() -> Vec<ContentBlock> {
    vec![
        ContentBlock::Text(TextContent {
            annotations: Some(Annotations {
                audience: Some(vec![Role::User]),
                priority: Some(num(0.5)),
                last_modified: Some("2025-01-01T00:00:00Z".into()),
                ..Annotations::default()
            }),
            ..TextContent::new("hello")
        }),
        ContentBlock::image("iVBORw0KGgo=", "image/png"),
        ContentBlock::audio("UklGRg==", "audio/wav"),
        ContentBlock::ResourceLink(Resource {
            mime_type: Some("text/plain".into()),
            size: Some(12),
            ..Resource::new("file:///a.txt", "a.txt")
        }),
        ContentBlock::Resource(EmbeddedResource {
            resource: ResourceContents::Text(TextResourceContents {
                uri: "file:///a.txt".into(),
                mime_type: Some("text/plain".into()),
                text: "a".into(),
                ..TextResourceContents::default()
            }),
            annotations: None,
            meta: None,
            extra: JsonObject::new(),
        }),
        ContentBlock::Resource(EmbeddedResource {
            resource: ResourceContents::Blob(BlobResourceContents {
                uri: "file:///b.bin".into(),
                blob: "AAEC".into(),
                ..BlobResourceContents::default()
            }),
            annotations: None,
            meta: None,
            extra: JsonObject::new(),
        }),
    ]
}

fn elicitation_form() -> ElicitFormParams {
    let mut properties = IndexMap::new();
    properties.insert(
        "name".into(),
        PrimitiveSchema::String(StringSchema {
            format: Some("email".into()),
            min_length: Some(1),
            default: Some("a@b.c".into()),
            ..StringSchema::default()
        }),
    );
    properties.insert(
        "age".into(),
        PrimitiveSchema::Number(NumberSchema {
            kind: NumberType::Integer,
            minimum: Some(Number::from(0)),
            default: Some(Number::from(30)),
            ..NumberSchema::default()
        }),
    );
    properties.insert(
        "ok".into(),
        PrimitiveSchema::Boolean(BooleanSchema { default: Some(true), ..BooleanSchema::default() }),
    );
    properties.insert(
        "color".into(),
        PrimitiveSchema::UntitledSingleSelect(UntitledSingleSelectEnumSchema {
            values: vec!["red".into(), "blue".into()],
            ..Default::default()
        }),
    );
    properties.insert(
        "size".into(),
        PrimitiveSchema::TitledSingleSelect(TitledSingleSelectEnumSchema {
            one_of: vec![TitledOption { value: "s".into(), title: "Small".into(), extra: JsonObject::new() }],
            ..Default::default()
        }),
    );
    properties.insert(
        "legacy".into(),
        PrimitiveSchema::LegacyTitledEnum(LegacyTitledEnumSchema {
            values: vec!["x".into()],
            enum_names: vec!["X".into()],
            ..Default::default()
        }),
    );
    properties.insert(
        "tags".into(),
        PrimitiveSchema::UntitledMultiSelect(UntitledMultiSelectEnumSchema {
            items: UntitledItems { values: vec!["a".into()], ..Default::default() },
            max_items: Some(1),
            ..Default::default()
        }),
    );
    properties.insert(
        "picks".into(),
        PrimitiveSchema::TitledMultiSelect(TitledMultiSelectEnumSchema {
            items: TitledItems {
                any_of: vec![TitledOption { value: "p".into(), title: "P".into(), extra: JsonObject::new() }],
                ..Default::default()
            },
            ..Default::default()
        }),
    );
    ElicitFormParams {
        mode: Some(FormMode),
        message: "Tell me".into(),
        requested_schema: ElicitationSchema {
            properties,
            required: Some(vec!["name".into()]),
            ..ElicitationSchema::default()
        },
        ..ElicitFormParams::default()
    }
}

fn sampling_params() -> CreateMessageParams {
    CreateMessageParams {
        messages: vec![
            SamplingMessage::text(Role::User, "Weather in Paris?"),
            SamplingMessage {
                role: Role::Assistant,
                content: OneOrMany::Many(vec![SamplingContent::ToolUse(ToolUseContent {
                    id: "c1".into(),
                    name: "weather".into(),
                    input: object(json!({"city": "Paris"})),
                    ..ToolUseContent::default()
                })]),
                meta: None,
                extra: JsonObject::new(),
            },
            SamplingMessage {
                role: Role::User,
                content: OneOrMany::One(SamplingContent::ToolResult(ToolResultContent {
                    tool_use_id: "c1".into(),
                    content: vec![ContentBlock::text("18C")],
                    ..ToolResultContent::default()
                })),
                meta: None,
                extra: JsonObject::new(),
            },
        ],
        model_preferences: Some(ModelPreferences {
            hints: Some(vec![ModelHint { name: Some("claude".into()), ..ModelHint::default() }]),
            speed_priority: Some(num(0.5)),
            ..ModelPreferences::default()
        }),
        system_prompt: Some("Be brief".into()),
        max_tokens: 100,
        tools: Some(vec![full_tool()]),
        tool_choice: Some(ToolChoice { mode: Some(ToolChoiceMode::Auto), ..ToolChoice::default() }),
        ..CreateMessageParams::default()
    }
}

fn sampling_result() -> CreateMessageResult {
    CreateMessageResult {
        role: Role::Assistant,
        content: OneOrMany::One(SamplingContent::Text(TextContent::new("Paris is sunny"))),
        model: "test-model".into(),
        stop_reason: Some("endTurn".into()),
        meta: None,
        extra: JsonObject::new(),
    }
}

fn input_required() -> InputRequiredResult {
    let mut requests = InputRequests::new();
    requests.insert(
        "ask".into(),
        InputRequest::elicitation(ElicitParams::Form(ElicitFormParams { mode: None, ..elicitation_form() })),
    );
    requests.insert("sample".into(), InputRequest::sampling(sampling_params()));
    requests.insert("roots".into(), InputRequest::list_roots());
    InputRequiredResult {
        input_requests: Some(requests),
        request_state: Some("sealed".into()),
        ..InputRequiredResult::default()
    }
}

/// (revisions, schema definition, instance).
fn samples() -> Vec<(&'static [&'static str], &'static str, Value)> {
    let client_caps = ClientCapabilities {
        roots: Some(RootsCapability { list_changed: Some(true), ..Default::default() }),
        sampling: Some(SamplingCapability { tools: Some(JsonObject::new()), ..Default::default() }),
        elicitation: Some(ElicitationCapability {
            form: Some(JsonObject::new()),
            url: Some(JsonObject::new()),
            ..Default::default()
        }),
        experimental: Some(object(json!({"x": {}}))),
        ..ClientCapabilities::default()
    };
    let server_caps = ServerCapabilities {
        tools: Some(ListChangedCapability { list_changed: Some(true), ..Default::default() }),
        resources: Some(ResourcesCapability { subscribe: Some(true), list_changed: Some(true), ..Default::default() }),
        prompts: Some(ListChangedCapability::default()),
        logging: Some(JsonObject::new()),
        completions: Some(JsonObject::new()),
        ..ServerCapabilities::default()
    };
    let modern_caps = ServerCapabilities {
        extensions: Some(object(json!({"io.modelcontextprotocol/tasks": {}}))),
        ..server_caps.clone()
    };
    let legacy_tool = Tool { description: Some("Echo".into()), ..Tool::new("echo", object(json!({"type": "object"}))) };
    let resource = Resource {
        title: Some("A".into()),
        description: Some("a file".into()),
        icons: Some(vec![icon()]),
        ..Resource::new("file:///a.txt", "a.txt")
    };
    let template =
        ResourceTemplate { uri_template: "file:///{path}".into(), name: "files".into(), ..ResourceTemplate::default() };
    let prompt = Prompt {
        title: Some("Review".into()),
        arguments: Some(vec![PromptArgument {
            name: "code".into(),
            required: Some(true),
            ..PromptArgument::default()
        }]),
        ..Prompt { name: "review".into(), ..Prompt::default() }
    };
    let complete = ResultType::Complete;
    let sub_meta =
        Some(NotificationMeta { subscription_id: Some(RequestId::from("listen-1")), ..NotificationMeta::default() });
    let task = Task {
        task_id: "t1".into(),
        status: TaskStatus::Working,
        created_at: "2025-11-25T10:30:00Z".into(),
        last_updated_at: "2025-11-25T10:30:05Z".into(),
        ttl: None,
        poll_interval: Some(500),
        status_message: None,
    };

    vec![
        // Lifecycle and discovery.
        (
            &LEGACY,
            "InitializeRequest",
            to_json(&InitializeRequest::new(
                1,
                InitializeParams {
                    protocol_version: "2025-11-25".into(),
                    capabilities: client_caps.clone(),
                    client_info: Implementation { title: Some("Client".into()), ..Implementation::new("c", "1") },
                    ..Default::default()
                },
            )),
        ),
        (
            &LEGACY,
            "InitializeResult",
            to_json(&InitializeResult {
                protocol_version: "2025-03-26".into(),
                capabilities: server_caps.clone(),
                server_info: Implementation::new("s", "1"),
                instructions: Some("Use me".into()),
                ..Default::default()
            }),
        ),
        (
            &SINCE_2025_11_25,
            "Implementation",
            to_json(&Implementation {
                website_url: Some("https://example.com".into()),
                description: Some("d".into()),
                ..Implementation::new("s", "1").with_icons(vec![icon()])
            }),
        ),
        (&SINCE_2025_11_25, "ClientCapabilities", to_json(&client_caps)),
        (&MODERN, "ServerCapabilities", to_json(&modern_caps)),
        (&LEGACY, "InitializedNotification", to_json(&InitializedNotification::new(NotificationParams::default()))),
        (&LEGACY, "PingRequest", to_json(&PingRequest::new(1, RequestParams::default()))),
        (&LEGACY, "EmptyResult", to_json(&EmptyResult::default())),
        (
            &MODERN,
            "EmptyResult",
            to_json(&EmptyResult { result_type: Some(complete.clone()), meta: server_meta(), ..Default::default() }),
        ),
        (
            &MODERN,
            "DiscoverRequest",
            to_json(&DiscoverRequest::new("d-1", RequestParams { meta: Some(modern_meta()), ..Default::default() })),
        ),
        (
            &MODERN,
            "DiscoverResult",
            to_json(&DiscoverResult {
                supported_versions: vec!["2026-07-28".into()],
                capabilities: modern_caps.clone(),
                instructions: Some("Use me".into()),
                result_type: Some(complete.clone()),
                ttl_ms: Some(0),
                cache_scope: Some(CacheScope::Private),
                meta: server_meta(),
                ..Default::default()
            }),
        ),
        // Tools.
        (&ALL, "Tool", to_json(&legacy_tool)),
        (&SINCE_2025_11_25, "Tool", to_json(&full_tool())),
        (
            &LEGACY,
            "ListToolsResult",
            to_json(&ListToolsResult {
                tools: vec![legacy_tool.clone()],
                next_cursor: Some("2".into()),
                ..Default::default()
            }),
        ),
        (
            &MODERN,
            "ListToolsResult",
            to_json(&ListToolsResult {
                tools: vec![full_tool()],
                result_type: Some(complete.clone()),
                ttl_ms: Some(300_000),
                cache_scope: Some(CacheScope::Public),
                meta: server_meta(),
                ..Default::default()
            }),
        ),
        (
            &LEGACY,
            "ListToolsRequest",
            to_json(&ListToolsRequest::new(2, PaginatedParams { cursor: Some("2".into()), ..Default::default() })),
        ),
        (
            &MODERN,
            "ListToolsRequest",
            to_json(&ListToolsRequest::new(2, PaginatedParams { meta: Some(modern_meta()), ..Default::default() })),
        ),
        (
            &LEGACY,
            "CallToolRequest",
            to_json(&CallToolRequest::new(
                3,
                CallToolParams {
                    meta: Some(RequestMeta { progress_token: Some(RequestId::Number(5)), ..Default::default() }),
                    ..CallToolParams::new("add", Some(RawJson::from_text(r#"{"a":1}"#).unwrap()))
                },
            )),
        ),
        (
            &MODERN,
            "CallToolRequest",
            to_json(&CallToolRequest::new(
                3,
                CallToolParams { meta: Some(modern_meta()), ..CallToolParams::new("add", None) },
            )),
        ),
        (&LEGACY, "CallToolResult", to_json(&CallToolResult::error("it failed"))),
        (
            &LEGACY_SINCE_2025_06_18,
            "CallToolResult",
            to_json(&CallToolResult {
                structured_content: Some(json!({"sum": 3})),
                ..CallToolResult::new(every_content_block())
            }),
        ),
        (
            &MODERN,
            "CallToolResult",
            to_json(&CallToolResult {
                result_type: Some(complete.clone()),
                ..CallToolResult::new(every_content_block())
            }),
        ),
        (
            &MODERN,
            "CallToolResult",
            to_json(&CallToolResult {
                result_type: Some(complete.clone()),
                structured_content: Some(json!([1, 2])),
                meta: server_meta(),
                ..CallToolResult::new(vec![ContentBlock::text("[1,2]")])
            }),
        ),
        (
            &MODERN,
            "CallToolResultResponse",
            to_json(&CallToolResultResponse::new(
                RequestId::Number(3),
                MaybeInputRequired::InputRequired(input_required()),
            )),
        ),
        (
            &ALL,
            "ToolListChangedNotification",
            to_json(&ToolListChangedNotification::new(NotificationParams::default())),
        ),
        (
            &MODERN,
            "ToolListChangedNotification",
            to_json(&ToolListChangedNotification::new(NotificationParams {
                meta: sub_meta.clone(),
                ..Default::default()
            })),
        ),
        // Resources.
        (
            &["2025-11-25"],
            "ListResourcesResult",
            to_json(&ListResourcesResult { resources: vec![resource.clone()], ..Default::default() }),
        ),
        (
            &MODERN,
            "ListResourcesResult",
            to_json(&ListResourcesResult {
                resources: vec![resource.clone()],
                result_type: Some(complete.clone()),
                ttl_ms: Some(1),
                cache_scope: Some(CacheScope::Public),
                ..Default::default()
            }),
        ),
        (
            &MODERN,
            "ListResourceTemplatesResult",
            to_json(&ListResourceTemplatesResult {
                resource_templates: vec![template.clone()],
                result_type: Some(complete.clone()),
                ttl_ms: Some(1),
                cache_scope: Some(CacheScope::Public),
                ..Default::default()
            }),
        ),
        (
            &LEGACY,
            "ListResourceTemplatesResult",
            to_json(&ListResourceTemplatesResult { resource_templates: vec![template.clone()], ..Default::default() }),
        ),
        (
            &LEGACY,
            "ReadResourceRequest",
            to_json(&ReadResourceRequest::new(
                4,
                ReadResourceParams { uri: "file:///a.txt".into(), ..Default::default() },
            )),
        ),
        (
            &ALL,
            "ReadResourceResult",
            to_json(&ReadResourceResult {
                contents: vec![ResourceContents::Text(TextResourceContents {
                    uri: "file:///a.txt".into(),
                    text: "a".into(),
                    ..Default::default()
                })],
                result_type: Some(complete.clone()),
                ttl_ms: Some(0),
                cache_scope: Some(CacheScope::Private),
                ..Default::default()
            }),
        ),
        (
            &LEGACY,
            "SubscribeRequest",
            to_json(&SubscribeRequest::new(5, SubscribeParams { uri: "file:///a.txt".into(), ..Default::default() })),
        ),
        (
            &ALL,
            "ResourceUpdatedNotification",
            to_json(&ResourceUpdatedNotification::new(ResourceUpdatedParams {
                uri: "file:///a.txt".into(),
                ..Default::default()
            })),
        ),
        // Prompts and completion.
        (
            &LEGACY,
            "ListPromptsResult",
            to_json(&ListPromptsResult {
                prompts: vec![Prompt { title: None, ..prompt.clone() }],
                ..Default::default()
            }),
        ),
        (
            &MODERN,
            "ListPromptsResult",
            to_json(&ListPromptsResult {
                prompts: vec![prompt.clone()],
                result_type: Some(complete.clone()),
                ttl_ms: Some(1),
                cache_scope: Some(CacheScope::Public),
                ..Default::default()
            }),
        ),
        (
            &MODERN,
            "GetPromptRequest",
            to_json(&GetPromptRequest::new(
                6,
                GetPromptParams {
                    name: "review".into(),
                    arguments: Some([("code".to_owned(), "x".to_owned())].into()),
                    meta: Some(modern_meta()),
                    ..Default::default()
                },
            )),
        ),
        (
            &ALL,
            "GetPromptResult",
            to_json(&GetPromptResult {
                description: Some("d".into()),
                messages: vec![
                    PromptMessage::new(Role::User, ContentBlock::text("hi")),
                    PromptMessage::new(Role::Assistant, every_content_block().pop().unwrap()),
                ],
                result_type: Some(complete.clone()),
                ..Default::default()
            }),
        ),
        (
            &LEGACY,
            "CompleteRequest",
            to_json(&CompleteRequest::new(
                7,
                CompleteParams {
                    reference: CompletionReference::Resource(ResourceTemplateReference {
                        uri: "file:///{path}".into(),
                        ..Default::default()
                    }),
                    argument: CompletionArgument { name: "path".into(), value: "sr".into(), ..Default::default() },
                    context: None,
                    meta: None,
                    extra: JsonObject::new(),
                },
            )),
        ),
        (
            &LEGACY_SINCE_2025_06_18,
            "CompleteRequest",
            to_json(&CompleteRequest::new(
                7,
                CompleteParams {
                    reference: CompletionReference::Prompt(PromptReference {
                        name: "review".into(),
                        title: Some("Review".into()),
                        ..Default::default()
                    }),
                    argument: CompletionArgument { name: "lang".into(), value: "py".into(), ..Default::default() },
                    context: Some(CompletionContext {
                        arguments: Some([("a".to_owned(), "b".to_owned())].into()),
                        ..Default::default()
                    }),
                    meta: None,
                    extra: JsonObject::new(),
                },
            )),
        ),
        (
            &MODERN,
            "CompleteRequest",
            to_json(&CompleteRequest::new(
                7,
                CompleteParams {
                    reference: CompletionReference::Prompt(PromptReference {
                        name: "review".into(),
                        ..Default::default()
                    }),
                    argument: CompletionArgument { name: "lang".into(), value: "py".into(), ..Default::default() },
                    context: None,
                    meta: Some(modern_meta()),
                    extra: JsonObject::new(),
                },
            )),
        ),
        (
            &ALL,
            "CompleteResult",
            to_json(&CompleteResult {
                completion: Completion {
                    values: vec!["python".into()],
                    total: Some(1),
                    has_more: Some(false),
                    ..Default::default()
                },
                result_type: Some(complete.clone()),
                ..Default::default()
            }),
        ),
        // Logging, progress, cancellation.
        (
            &LEGACY,
            "SetLevelRequest",
            to_json(&SetLevelRequest::new(
                8,
                SetLevelParams { level: LoggingLevel::Warning, meta: None, extra: JsonObject::new() },
            )),
        ),
        (
            &ALL,
            "LoggingMessageNotification",
            to_json(&LoggingMessageNotification::new(LoggingMessageParams {
                logger: Some("db".into()),
                ..LoggingMessageParams::new(LoggingLevel::Error, json!({"error": "down"}))
            })),
        ),
        (
            &ALL,
            "ProgressNotification",
            to_json(&ProgressNotification::new(ProgressParams::new(
                RequestId::from("p-1"),
                50,
                Some(Number::from(100)),
            ))),
        ),
        (
            &SINCE_2025_06_18,
            "ProgressNotification",
            to_json(&ProgressNotification::new(ProgressParams {
                message: Some("half".into()),
                ..ProgressParams::new(RequestId::Number(1), num(0.5), None)
            })),
        ),
        (
            &ALL,
            "CancelledNotification",
            to_json(&CancelledNotification::new(CancelledParams {
                request_id: Some(RequestId::Number(9)),
                reason: Some("user".into()),
                ..Default::default()
            })),
        ),
        // Sampling, elicitation, roots.
        (&["2025-11-25"], "CreateMessageRequest", to_json(&CreateMessageRequest::new(10, sampling_params()))),
        (&MODERN, "CreateMessageRequest", to_json(&CreateMessageRequest::bare(sampling_params()))),
        (&ALL, "CreateMessageResult", to_json(&sampling_result())),
        (
            &SINCE_2025_11_25,
            "CreateMessageResult",
            to_json(&CreateMessageResult {
                content: OneOrMany::Many(vec![SamplingContent::ToolUse(ToolUseContent {
                    id: "c2".into(),
                    name: "weather".into(),
                    input: JsonObject::new(),
                    ..Default::default()
                })]),
                stop_reason: Some("toolUse".into()),
                ..sampling_result()
            }),
        ),
        (&["2025-11-25"], "ElicitRequest", to_json(&ElicitRequest::new(11, ElicitParams::Form(elicitation_form())))),
        (&MODERN, "ElicitRequest", to_json(&ElicitRequest::bare(ElicitParams::Form(elicitation_form())))),
        (
            &["2025-11-25"],
            "ElicitRequest",
            to_json(&ElicitRequest::new(
                12,
                ElicitParams::Url(ElicitUrlParams {
                    message: "Log in".into(),
                    url: "https://example.com/login".into(),
                    elicitation_id: Some("e1".into()),
                    ..Default::default()
                }),
            )),
        ),
        (
            &MODERN,
            "ElicitRequestURLParams",
            to_json(&ElicitUrlParams {
                message: "Log in".into(),
                url: "https://example.com/login".into(),
                ..Default::default()
            }),
        ),
        (
            &SINCE_2025_06_18,
            "ElicitResult",
            to_json(&ElicitResult {
                action: ElicitAction::Accept,
                content: Some(object(json!({"name": "octocat", "age": 30, "ok": true}))),
                meta: None,
                extra: JsonObject::new(),
            }),
        ),
        (&ALL, "ListRootsRequest", to_json(&ListRootsRequest::new(13, RequestParams::default()))),
        (
            &ALL,
            "ListRootsResult",
            to_json(&ListRootsResult {
                roots: vec![Root { uri: "file:///home/p".into(), name: Some("p".into()), ..Default::default() }],
                ..Default::default()
            }),
        ),
        // MRTR and subscriptions.
        (&MODERN, "InputRequiredResult", to_json(&input_required())),
        (
            &MODERN,
            "InputResponses",
            to_json(&InputResponses::from([
                (
                    "ask".to_owned(),
                    InputResponse::Elicitation(ElicitResult {
                        action: ElicitAction::Decline,
                        content: None,
                        meta: None,
                        extra: JsonObject::new(),
                    }),
                ),
                ("sample".to_owned(), InputResponse::Sampling(sampling_result())),
                ("roots".to_owned(), InputResponse::ListRoots(ListRootsResult::default())),
            ])),
        ),
        (
            &MODERN,
            "SubscriptionsListenRequest",
            to_json(&SubscriptionsListenRequest::new(
                "listen-1",
                SubscriptionsListenParams {
                    notifications: SubscriptionFilter {
                        tools_list_changed: Some(true),
                        resource_subscriptions: Some(vec!["file:///a.txt".into()]),
                        ..Default::default()
                    },
                    meta: Some(modern_meta()),
                    extra: JsonObject::new(),
                },
            )),
        ),
        (
            &MODERN,
            "SubscriptionsAcknowledgedNotification",
            to_json(&SubscriptionsAcknowledgedNotification::new(SubscriptionsAcknowledgedParams {
                notifications: SubscriptionFilter { tools_list_changed: Some(true), ..Default::default() },
                meta: sub_meta.clone(),
                extra: JsonObject::new(),
            })),
        ),
        (
            &MODERN,
            "SubscriptionsListenResult",
            to_json(&SubscriptionsListenResult {
                result_type: Some(complete.clone()),
                meta: SubscriptionsListenResultMeta {
                    subscription_id: RequestId::Number(1),
                    server_info: Some(Implementation::new("s", "1")),
                    extra: JsonObject::new(),
                },
                extra: JsonObject::new(),
            }),
        ),
        // Tasks.
        (&["2025-11-25"], "CreateTaskResult", to_json(&CreateTaskResult { task: task.clone(), ..Default::default() })),
        (&["2025-11-25"], "GetTaskResult", to_json(&TaskResult { task: task.clone(), ..Default::default() })),
        (
            &["2025-11-25"],
            "TaskStatusNotification",
            to_json(&TaskStatusNotification::new(TaskStatusParams { task: task.clone(), ..Default::default() })),
        ),
        (
            &["2025-11-25"],
            "ListTasksResult",
            to_json(&ListTasksResult { tasks: vec![task], next_cursor: Some("2".into()), ..Default::default() }),
        ),
        (
            &["2025-11-25"],
            "Tool",
            to_json(&Tool {
                execution: Some(ToolExecution { task_support: Some(TaskSupport::Optional), ..Default::default() }),
                ..full_tool()
            }),
        ),
        (
            &["2025-11-25"],
            "ElicitationCompleteNotification",
            to_json(&ElicitationCompleteNotification::new(ElicitationCompleteParams {
                elicitation_id: "e1".into(),
                ..Default::default()
            })),
        ),
        (
            &["2025-11-25"],
            "URLElicitationRequiredError",
            to_json(&ErrorResponse::new(
                Some(RequestId::Number(1)),
                ErrorObject::new(ErrorCode::URL_ELICITATION_REQUIRED, "Authorization required").with_data(
                    RawJson::to_json(&UrlElicitationRequiredData {
                        elicitations: vec![ElicitUrlParams {
                            message: "Log in".into(),
                            url: "https://example.com/login".into(),
                            elicitation_id: Some("e1".into()),
                            ..Default::default()
                        }],
                        ..Default::default()
                    })
                    .unwrap(),
                ),
            )),
        ),
        // Errors.
        (
            &MODERN,
            "UnsupportedProtocolVersionError",
            to_json(&ErrorResponse::new(
                Some(RequestId::Number(1)),
                errors::unsupported_protocol_version("v999", &[ProtocolVersion::V2026_07_28]),
            )),
        ),
        (
            &MODERN,
            "MissingRequiredClientCapabilityError",
            to_json(&ErrorResponse::new(
                Some(RequestId::Number(1)),
                errors::missing_required_client_capability(ClientCapabilities {
                    sampling: Some(SamplingCapability::default()),
                    ..Default::default()
                }),
            )),
        ),
        (
            &MODERN,
            "HeaderMismatchError",
            to_json(&ErrorResponse::new(None, errors::header_mismatch("Mcp-Name does not match"))),
        ),
        (
            &MODERN,
            "InvalidParamsError",
            to_json(&errors::resource_not_found(ProtocolVersion::V2026_07_28, "file:///missing")),
        ),
        (
            &["2025-11-25"],
            "JSONRPCErrorResponse",
            to_json(&ErrorResponse::new(
                Some(RequestId::Number(1)),
                errors::resource_not_found(ProtocolVersion::V2025_11_25, "file:///missing"),
            )),
        ),
    ]
}

#[test]
fn samples_match_the_official_schemas() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (revisions, name, instance) in samples() {
        for revision in revisions {
            checked += 1;
            if let Err(e) = validate(revision, name, &instance) {
                failures.push(e);
            }
        }
    }
    println!("{checked} sample validations");
    assert!(failures.is_empty(), "{} schema violations:\n{}", failures.len(), failures.join("\n"));
}

// ----------------------------------------------------------------------------------------
// Key order
// ----------------------------------------------------------------------------------------

/// Objects keep the order their keys came in, through the typed params and results as
/// through plain values (prompt and completion arguments, MRTR input requests and answers,
/// a tool's schema, structured content): the official SDKs keep it, clients show form
/// fields and arguments in it, and a re-sorted object is a different text on the wire.
#[test]
fn objects_keep_their_key_order() {
    let cases: [(&str, &str, &str, RoundTrip); 6] = [
        (
            "GetPromptParams",
            r#"{"name":"p","arguments":{"zeta":"1","alpha":"2","mid":"3"}}"#,
            "/arguments",
            round_trip::<GetPromptParams>,
        ),
        (
            "CompleteParams",
            r#"{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":""},"context":{"arguments":{"zeta":"1","alpha":"2","mid":"3"}}}"#,
            "/context/arguments",
            round_trip::<CompleteParams>,
        ),
        (
            "Tool",
            r#"{"name":"t","inputSchema":{"type":"object","properties":{"zeta":{},"alpha":{},"mid":{}}}}"#,
            "/inputSchema/properties",
            round_trip::<Tool>,
        ),
        (
            "CallToolResult",
            r#"{"content":[],"structuredContent":{"zeta":1,"alpha":2,"mid":3}}"#,
            "/structuredContent",
            round_trip::<CallToolResult>,
        ),
        (
            "InputRequests",
            r#"{"zeta":{"method":"roots/list"},"alpha":{"method":"roots/list"},"mid":{"method":"roots/list"}}"#,
            "",
            round_trip::<InputRequests>,
        ),
        (
            "InputResponses",
            r#"{"zeta":{"roots":[]},"alpha":{"roots":[]},"mid":{"roots":[]}}"#,
            "",
            round_trip::<InputResponses>,
        ),
    ];
    for (name, text, pointer, round) in cases {
        let back = round(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let object = back
            .pointer(pointer)
            .and_then(Value::as_object)
            .unwrap_or_else(|| panic!("{name}: no object at {pointer:?}"));
        assert_eq!(object.keys().collect::<Vec<_>>(), ["zeta", "alpha", "mid"], "{name}");
    }
}
