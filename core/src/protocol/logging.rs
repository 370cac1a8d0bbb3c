//! Log messages from server to client. Legacy clients pick a level with
//! `logging/setLevel`; modern ones put it in a request's `_meta`, and messages then go only
//! on that request's response stream.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::base::JsonObject;
use super::meta::{NotificationMeta, RequestMeta};

/// Syslog severities, least severe first, so `level >= wanted` filters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LoggingLevel {
    /// Debugging detail.
    Debug,
    /// Informational.
    Info,
    /// Normal but significant.
    Notice,
    /// A warning.
    Warning,
    /// An error.
    Error,
    /// A critical condition.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LoggingLevel {
    /// Every level, least severe first.
    pub const ALL: [LoggingLevel; 8] = [
        Self::Debug,
        Self::Info,
        Self::Notice,
        Self::Warning,
        Self::Error,
        Self::Critical,
        Self::Alert,
        Self::Emergency,
    ];

    /// The wire string, e.g. `"warning"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Debug => "debug",
            Self::Info => "info",
            Self::Notice => "notice",
            Self::Warning => "warning",
            Self::Error => "error",
            Self::Critical => "critical",
            Self::Alert => "alert",
            Self::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LoggingLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for LoggingLevel {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        Self::ALL.into_iter().find(|l| l.as_str() == text).ok_or_else(|| format!("unknown logging level {text:?}"))
    }
}

/// Params of `logging/setLevel` (legacy).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetLevelParams {
    /// The lowest level the client wants.
    pub level: LoggingLevel,
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<RequestMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// Params of `notifications/message`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoggingMessageParams {
    /// The severity.
    pub level: LoggingLevel,
    /// The name of the logger that emitted it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logger: Option<String>,
    /// The message: any JSON value.
    pub data: Value,
    /// Notification metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<NotificationMeta>,
    /// Members this revision does not define, kept as they came.
    #[serde(flatten)]
    pub extra: JsonObject,
}

impl LoggingMessageParams {
    /// A message at `level` with `data`.
    pub fn new(level: LoggingLevel, data: impl Into<Value>) -> Self {
        Self { level, logger: None, data: data.into(), meta: None, extra: JsonObject::new() }
    }
}
