//! Elicitation: the server asks the user for input through the client
//! (`elicitation/create`, 2025-06-18). Form mode collects values described by a flat
//! schema; URL mode (2025-11-25) sends the user to a web page.

use indexmap::IndexMap;

use serde::{Deserialize, Serialize};

use super::base::JsonObject;
use super::elicitation_schema::PrimitiveSchema;
use super::meta::{Meta, NotificationMeta, RequestMeta};
use super::tags::{FormMode, ObjectType, UrlMode};
use super::tasks::TaskMetadata;

/// Params of `elicitation/create`: form or URL mode, told apart by `mode` (absent means
/// form).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ElicitParams {
    /// `"mode": "url"` (2025-11-25).
    Url(ElicitUrlParams),
    /// `"mode": "form"`, or no mode.
    Form(ElicitFormParams),
}

/// Form-mode elicitation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitFormParams {
    /// `"form"`, optional (2025-11-25; earlier revisions have no mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<FormMode>,
    /// What to ask the user.
    pub message: String,
    /// The values wanted.
    pub requested_schema: ElicitationSchema,
    /// Run as a task (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskMetadata>,
    /// Request metadata (legacy requests).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// URL-mode elicitation (2025-11-25): the user completes the interaction out of band.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitUrlParams {
    /// `"url"`.
    pub mode: UrlMode,
    /// Why the user should open the URL.
    pub message: String,
    /// The page to open.
    pub url: String,
    /// Identifies the elicitation for `notifications/elicitation/complete`. Required in
    /// 2025-11-25; not in 2026-07-28, which has no such notification.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elicitation_id: Option<String>,
    /// Run as a task (2025-11-25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskMetadata>,
    /// Request metadata (legacy requests).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// The `requestedSchema` of form elicitation: a flat object schema whose properties are
/// primitive. Properties keep their order, which a client uses to lay out the form.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ElicitationSchema {
    /// The dialect, if stated (2025-11-25).
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// `"object"`.
    #[serde(rename = "type")]
    pub kind: ObjectType,
    /// The fields, by name.
    pub properties: IndexMap<String, PrimitiveSchema>,
    /// Names of the fields that must be filled in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<Vec<String>>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// Result of `elicitation/create`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ElicitResult {
    /// What the user did.
    pub action: ElicitAction,
    /// The submitted values, on `accept` in form mode. Values are strings, numbers,
    /// booleans or (2025-11-25) arrays of strings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<JsonObject>,
    /// Metadata (legacy results).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// What the user did with an elicitation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitAction {
    /// Submitted or confirmed.
    Accept,
    /// Explicitly refused.
    Decline,
    /// Dismissed without choosing.
    Cancel,
}

/// Params of `notifications/elicitation/complete` (2025-11-25): a URL-mode elicitation
/// finished.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitationCompleteParams {
    /// The `elicitationId` of the URL elicitation.
    pub elicitation_id: String,
    /// Notification metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<NotificationMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// The elicitation modes a client's `elicitation` capability admits, as the official
/// SDKs read it: `form` and `url` by their presence, and a capability naming neither
/// (`{}`, the 2025-06-18 shape) admits form mode only. No capability admits neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElicitationModes {
    /// Form mode (`"mode": "form"`, or no mode).
    pub form: bool,
    /// URL mode (`"mode": "url"`, 2025-11-25).
    pub url: bool,
}

impl ElicitationModes {
    /// The modes `capability` (the value of the client's `elicitation` capability) admits.
    pub fn of(capability: Option<&serde_json::Value>) -> Self {
        let Some(capability) = capability else { return Self { form: false, url: false } };
        let form = capability.get("form").is_some();
        let url = capability.get("url").is_some();
        Self { form: form || !url, url }
    }

    /// Why an `elicitation/create` request with these `params` is refused by a client
    /// declaring these modes (the official clients' `-32602` wording), or `None`. A mode
    /// other than `form` and `url` is left to the params' own validation.
    pub fn refusal(self, params: &serde_json::Value) -> Option<&'static str> {
        match params.get("mode").and_then(serde_json::Value::as_str).unwrap_or("form") {
            "form" if !self.form => Some("Client does not support form-mode elicitation requests"),
            "url" if !self.url => Some("Client does not support URL-mode elicitation requests"),
            _ => None,
        }
    }
}

#[cfg(test)]
mod modes_tests {
    use serde_json::json;

    use super::ElicitationModes;

    #[test]
    fn a_capability_naming_no_mode_admits_form_only() {
        let modes = |c| ElicitationModes::of(Some(&c));
        assert_eq!(modes(json!({})), ElicitationModes { form: true, url: false });
        assert_eq!(modes(json!({"url": {}})), ElicitationModes { form: false, url: true });
        assert_eq!(modes(json!({"form": {}, "url": {}})), ElicitationModes { form: true, url: true });
        assert_eq!(ElicitationModes::of(None), ElicitationModes { form: false, url: false });
        let form_only = modes(json!({"form": {}}));
        assert_eq!(form_only.refusal(&json!({"message": "m"})), None);
        assert_eq!(
            form_only.refusal(&json!({"mode": "url", "url": "https://x", "message": "m", "elicitationId": "1"})),
            Some("Client does not support URL-mode elicitation requests")
        );
    }
}
