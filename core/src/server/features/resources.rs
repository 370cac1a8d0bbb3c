//! `resources/list` (static resources, then what each listing template lists) and
//! `resources/read`, and the one era difference of resources: the not-found code.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::{Outcome, Ran, dialect_handler_error, handler_error, page, required_str, run};
use crate::protocol::{ReadResource, RequestMethod};
use crate::server::context::Context;
use crate::server::reply::Reply;
use crate::server::{HandlerError, ResourceCacheHint, ServerShared};
use crate::wire::{ErrorObject, RawJson};

/// The static resources, then what each listing template lists (in registration order),
/// each listed resource over its template's metadata.
pub(crate) async fn list_resources(
    server: &ServerShared,
    params: &Map<String, Value>,
    cx: Context,
) -> Result<Reply, ErrorObject> {
    let (mut all, listers) = {
        let registry = server.registry.read().unwrap();
        let statics: Vec<RawJson> = registry.resources.values().map(|e| e.listed.clone()).collect();
        let listers: Vec<_> = registry
            .templates
            .values()
            .filter_map(|e| Some((e.lister.clone()?, e.definition.clone(), e.template.as_str().to_owned())))
            .collect();
        (statics, listers)
    };
    for (lister, definition, template) in listers {
        let listed = match lister.list(cx.clone()).await {
            Ok(Value::Array(resources)) => resources,
            Ok(Value::Object(mut result)) if result.get("resources").is_some_and(Value::is_array) => {
                let Some(Value::Array(resources)) = result.shift_remove("resources") else {
                    unreachable!("checked above")
                };
                resources
            }
            Ok(other) => {
                return Err(ErrorObject::internal(format!(
                    "Listing template {template} returned {other}, not resources"
                )));
            }
            Err(error) => {
                return Err(handler_error(
                    server,
                    error,
                    |m| format!("Listing template {template} failed: {m}"),
                    cx.is_modern(),
                ));
            }
        };
        for resource in listed {
            all.push(
                RawJson::to_json(&over_template(&definition, resource))
                    .map_err(|e| ErrorObject::internal(e.to_string()))?,
            );
        }
    }
    page(server, params, "resources", all)
}

/// A listed resource with its template's metadata beneath it (all but the template's own
/// `uriTemplate` and `name`).
fn over_template(template: &Value, resource: Value) -> Value {
    let Value::Object(resource) = resource else { return resource };
    let mut merged: Map<String, Value> = template
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(key, _)| *key != "uriTemplate" && *key != "name")
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    merged.extend(resource);
    Value::Object(merged)
}

pub(crate) async fn read_resource(server: &Arc<ServerShared>, params: Map<String, Value>, cx: Context) -> Outcome {
    let uri = required_str(&params, "uri", ReadResource::METHOD)?.to_owned();
    let found = server.registry.read().unwrap().find_resource(&uri);
    let dialect = server.options.dialect;
    // The official 1.x `FastMCP`'s answers to a legacy read (`ServerOptions::python_v1`).
    let v1 = server.options.python_v1 && !cx.is_modern();
    let Some(found) = found else {
        let v1_answer = if v1 { dialect.v1_read_failed(&uri, false, None) } else { None };
        return Err(v1_answer.unwrap_or_else(|| dialect.resource_not_found(&uri, cx.is_modern())));
    };
    let (modern, cache_hint, template) = (cx.is_modern(), found.cache_hint, found.template);
    let start = |cx| found.handler.read(uri.clone(), found.variables.clone(), cx);
    let outcome = match run(server, &cx, ReadResource::METHOD, &uri, start).await {
        Ran::Done(outcome) => outcome,
        Ran::InputRequired(input_required) => return Ok(input_required),
        Ran::Task(_) => unreachable!("only a tool call starts a task"),
    };
    let mut result = match outcome {
        Ok(Value::Array(contents)) => json!({"contents": contents}),
        Ok(result) if result.get("contents").is_some_and(Value::is_array) => result,
        Ok(other) => return Err(ErrorObject::internal(format!("Resource {uri} returned {other}, not contents"))),
        Err(error) => {
            if let (true, HandlerError::Failed(cause) | HandlerError::Unexpected(cause)) = (v1, &error)
                && let Some(answer) = dialect.v1_read_failed(&uri, template, Some(cause))
            {
                return Err(answer);
            }
            if let (true, HandlerError::Failed(_) | HandlerError::Unexpected(_)) = (template, &error)
                && let Some(answer) = dialect.template_failed(&uri)
            {
                return Err(answer);
            }
            let failed = |m| format!("Reading {uri} failed: {m}");
            return Err(dialect_handler_error(dialect, error, failed, modern, Some(&uri)));
        }
    };
    if let (true, Some(hint), Value::Object(result)) = (modern, cache_hint, &mut result) {
        own_cache_hint(result, hint);
    }
    Ok(result)
}

/// A resource's own cache hint on its (complete, 2026-07-28) result, under what the
/// handler set itself; the fields it leaves out are filled from the server's hint for
/// `resources/read` when the result is stamped.
fn own_cache_hint(result: &mut Map<String, Value>, hint: ResourceCacheHint) {
    if let Some(ttl_ms) = hint.ttl_ms {
        result.entry("ttlMs").or_insert_with(|| json!(ttl_ms));
    }
    if let Some(public) = hint.public {
        result.entry("cacheScope").or_insert_with(|| json!(if public { "public" } else { "private" }));
    }
}
