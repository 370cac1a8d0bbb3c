//! `completion/complete`: served by the one completion handler when there is one (the
//! `completions` capability is declared only then), its answer held to the protocol's cap.
//!
//! The specification allows at most 100 values in one answer, with `total` and `hasMore`
//! saying what was left out. Core applies that here, once, so a handler in any language
//! may return every match it has and every server answers the same request alike: more
//! than 100 values are cut to the first 100 with `hasMore: true` and a `total` of at least
//! what the handler found; within the cap, a `total` or `hasMore` the handler gave is
//! kept, and one it left out is filled in (the number of values, and `false`), except in
//! the official Python SDK's dialect, which answers the handler's completion as it is.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::{Outcome, handler_error};
use crate::protocol::{Complete, RequestMethod};
use crate::server::ServerShared;
use crate::server::context::Context;
use crate::wire::ErrorObject;

/// Most values in one `completion/complete` answer (the specification's limit).
pub const MAX_COMPLETION_VALUES: usize = 100;

pub(crate) async fn complete(server: &Arc<ServerShared>, params: Map<String, Value>, cx: Context) -> Outcome {
    let handler = server.completion.read().unwrap().clone();
    let handler = handler.ok_or_else(|| server.options.dialect.method_not_found(Complete::METHOD))?;
    if !params.get("ref").is_some_and(Value::is_object) || !params.get("argument").is_some_and(Value::is_object) {
        return Err(ErrorObject::invalid_params("Invalid params: completion/complete needs \"ref\" and \"argument\""));
    }
    let modern = cx.is_modern();
    let mut result = handler
        .complete(params, cx)
        .await
        .map_err(|error| handler_error(server, error, |m| format!("Completion failed: {m}"), modern))?;
    if let Some(Value::Object(completion)) = result.get_mut("completion") {
        cap(completion, server.options.dialect.fills_completion());
    }
    Ok(result)
}

/// Holds `completion` (`{values, total?, hasMore?}`) to the cap, and with `fill` says
/// `total` and `hasMore` within it; see the module comment.
fn cap(completion: &mut Map<String, Value>, fill: bool) {
    let Some(Value::Array(values)) = completion.get_mut("values") else { return };
    let found = values.len();
    let given_total = completion.get("total").and_then(Value::as_u64);
    if found > MAX_COMPLETION_VALUES {
        if let Some(Value::Array(values)) = completion.get_mut("values") {
            values.truncate(MAX_COMPLETION_VALUES);
        }
        let total = given_total.map_or(found as u64, |total| total.max(found as u64));
        completion.insert("total".into(), json!(total));
        completion.insert("hasMore".into(), json!(true));
        return;
    }
    if !fill {
        return;
    }
    completion.entry("total").or_insert_with(|| json!(found));
    completion.entry("hasMore").or_insert(json!(false));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capped(completion: Value) -> Value {
        let Value::Object(mut completion) = completion else { unreachable!() };
        cap(&mut completion, true);
        Value::Object(completion)
    }

    fn numbers(n: usize) -> Vec<String> {
        (0..n).map(|i| i.to_string()).collect()
    }

    #[test]
    fn more_than_the_cap_is_cut_with_total_and_has_more() {
        let answer = capped(json!({"values": numbers(150)}));
        assert_eq!(answer["values"].as_array().unwrap().len(), 100);
        assert_eq!(
            (answer["values"][99].as_str(), &answer["total"], &answer["hasMore"]),
            (Some("99"), &json!(150), &json!(true))
        );
        // A handler's larger total (it knows of more than it returned) is kept; a smaller one is not.
        assert_eq!(capped(json!({"values": numbers(101), "total": 5000}))["total"], 5000);
        assert_eq!(capped(json!({"values": numbers(101), "total": 3, "hasMore": false}))["hasMore"], true);
    }

    #[test]
    fn within_the_cap_the_handlers_own_fields_are_kept_and_missing_ones_filled() {
        assert_eq!(capped(json!({"values": ["a", "b"]})), json!({"values": ["a", "b"], "total": 2, "hasMore": false}));
        let own = json!({"values": ["a"], "total": 40, "hasMore": true});
        assert_eq!(capped(own.clone()), own);
        assert_eq!(capped(json!({"values": numbers(100)}))["hasMore"], false);
    }

    #[test]
    fn without_filling_a_completion_within_the_cap_is_left_as_the_handler_gave_it() {
        let mut completion = json!({"values": ["a"]}).as_object().unwrap().clone();
        cap(&mut completion, false);
        assert_eq!(Value::Object(completion), json!({"values": ["a"]}));
        let mut over = json!({"values": numbers(101)}).as_object().unwrap().clone();
        cap(&mut over, false);
        assert_eq!((over["total"].clone(), over["hasMore"].clone()), (json!(101), json!(true)));
    }
}
