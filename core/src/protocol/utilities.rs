//! Ping, cancellation and progress: the utilities of the base protocol.

use serde::{Deserialize, Serialize};
use serde_json::Number;

use crate::wire::RequestId;

use super::base::JsonObject;
use super::meta::NotificationMeta;

/// The token that ties progress notifications to a request: a string or an integer, like a
/// request id.
pub type ProgressToken = RequestId;

/// Params of `notifications/cancelled`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CancelledParams {
    /// The request to cancel. Required, except in 2025-11-25 where task cancellation goes
    /// through `tasks/cancel` and the schema made it optional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
    /// Why, for logs or the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Notification metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<NotificationMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// Params of `notifications/progress`. `progress` must increase with every notification
/// for one token. Numbers keep their JSON form (`50` stays `50`, `0.5` stays `0.5`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressParams {
    /// The token from the request's `_meta.progressToken`.
    pub progress_token: ProgressToken,
    /// Progress so far.
    pub progress: Number,
    /// The total, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<Number>,
    /// A human-readable status (2025-03-26).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Notification metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<NotificationMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

impl ProgressParams {
    /// Progress `progress` of `total` for `token`.
    pub fn new(token: ProgressToken, progress: impl Into<Number>, total: Option<Number>) -> Self {
        Self {
            progress_token: token,
            progress: progress.into(),
            total,
            message: None,
            meta: None,
            extra: JsonObject::new(),
        }
    }
}
