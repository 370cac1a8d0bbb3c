//! `completion/complete`: served by the one completion handler when there is one (the
//! `completions` capability is declared only then).

use std::sync::Arc;

use serde_json::{Map, Value};

use super::{Outcome, handler_error};
use crate::server::ServerShared;
use crate::server::context::Context;
use crate::wire::ErrorObject;

pub(crate) async fn complete(server: &Arc<ServerShared>, params: Map<String, Value>, cx: Context) -> Outcome {
    let handler = server.completion.read().unwrap().clone();
    let handler = handler.ok_or_else(|| ErrorObject::method_not_found("completion/complete"))?;
    if !params.get("ref").is_some_and(Value::is_object) || !params.get("argument").is_some_and(Value::is_object) {
        return Err(ErrorObject::invalid_params("Invalid params: completion/complete needs \"ref\" and \"argument\""));
    }
    let modern = cx.is_modern();
    handler
        .complete(params, cx)
        .await
        .map_err(|error| handler_error(error, |m| format!("Completion failed: {m}"), modern))
}
