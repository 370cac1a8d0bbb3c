//! `prompts/get`: required arguments checked, then the prompt's handler run (MRTR rounds
//! on a modern request).

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{Outcome, Ran, handler_error, object_param, required_str, run};
use crate::protocol::{GetPrompt, RequestMethod};
use crate::server::context::Context;
use crate::server::{HandlerError, ServerShared};

pub(crate) async fn get_prompt(server: &Arc<ServerShared>, mut params: Map<String, Value>, cx: Context) -> Outcome {
    let name = required_str(&params, "name", GetPrompt::METHOD)?.to_owned();
    let entry = server.registry.read().unwrap().prompts.get(&name).cloned();
    let dialect = server.options.dialect;
    let entry = entry.ok_or_else(|| dialect.invalid_prompt_request(&name, true, &[], cx.is_modern()))?;
    let arguments = object_param(&mut params, "arguments", GetPrompt::METHOD)?;
    let missing: Vec<&str> =
        entry.required.iter().filter(|a| !arguments.contains_key(a.as_str())).map(String::as_str).collect();
    if !missing.is_empty() {
        return Err(dialect.invalid_prompt_request(&name, false, &missing, cx.is_modern()));
    }
    let start = |cx| entry.handler.get(arguments.clone(), cx);
    match run(server, &cx, GetPrompt::METHOD, &name, start).await {
        Ran::InputRequired(input_required) => Ok(input_required),
        Ran::Done(Ok(result)) => Ok(with_description(result, entry.description.as_ref())),
        Ran::Done(Err(HandlerError::Failed(cause) | HandlerError::Unexpected(cause))) => {
            let failed = HandlerError::Failed(dialect.prompt_failed(&name, &cause, server.options.python_v1));
            Err(handler_error(server, failed, |m| m, cx.is_modern()))
        }
        Ran::Done(Err(error)) => Err(handler_error(server, error, |m| m, cx.is_modern())),
        Ran::Task(_) => unreachable!("only a tool call starts a task"),
    }
}

/// A `GetPromptResult` with the prompt's registered description when the handler gave none
/// (as the official Python SDK answers; the field is the prompt's description by schema).
fn with_description(mut result: Value, description: Option<&Value>) -> Value {
    if let (Value::Object(map), Some(description)) = (&mut result, description) {
        map.entry("description").or_insert_with(|| description.clone());
    }
    result
}
