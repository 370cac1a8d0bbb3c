//! `NativeGroup`: core's client group (`ferrymcp_core::host::group`) for the TypeScript
//! `ClientGroup`, and core's LLM API shapes (`ferrymcp_core::host::llm`). Core decides
//! names, routing and reconnects; this file converts values and maps errors.

use std::sync::Arc;
use std::time::Duration;

use ferrymcp_core::client::{ClientCallbacks, ClientOptions};
use ferrymcp_core::host::config::McpConfig;
use ferrymcp_core::host::group::{ClientGroup, GroupError, GroupOptions};
use ferrymcp_core::host::llm::{self, LlmApi};
use ferrymcp_core::peer::RequestOptions;
use ferrymcp_core::protocol::ErrorCode;
use ferrymcp_core::proxy::gateway::{EventCallback, UpstreamEvent};
use napi::threadsafe_function::ThreadsafeFunctionCallMode;
use napi_derive::napi;
use serde_json::{Value, json};

use crate::client_callbacks::JsNotificationFn;
use crate::error::{from_client, mcp_error, no_panic, parse};

#[napi(object)]
pub struct GroupConfig {
    pub connect_timeout_ms: Option<u32>,
    pub min_backoff_ms: Option<u32>,
    pub max_backoff_ms: Option<u32>,
    /// `clientInfo` as JSON text.
    pub info_json: Option<String>,
}

fn group_error(error: GroupError) -> napi::Error {
    match error {
        GroupError::Client { error, .. } => from_client(error),
        other => mcp_error(other.code(), &other.to_string(), None),
    }
}

fn api(name: &str) -> napi::Result<LlmApi> {
    name.parse().map_err(|e: String| mcp_error(ErrorCode::INVALID_PARAMS, &e, None))
}

/// Connects to every server of an `mcp.json` content (JSON text) at once; resolves once
/// each has connected or failed its first attempt. `onEvent(name, eventJson)` hears each
/// `{"event": "connected"|"failed"|"lost", "error"?}` as it happens.
#[napi]
pub async fn connect_group(
    config_json: String,
    config: GroupConfig,
    #[napi(ts_arg_type = "((name: string, eventJson: string) => void) | undefined | null")] on_event: Option<
        JsNotificationFn,
    >,
) -> napi::Result<NativeGroup> {
    let file = McpConfig::from_value(parse(&config_json, "the mcp.json content")?)
        .map_err(|e| mcp_error(ErrorCode::INVALID_PARAMS, &e.to_string(), None))?;
    let defaults = GroupOptions::default();
    let ms = |value: Option<u32>, default: Duration| value.map_or(default, |ms| Duration::from_millis(ms.into()));
    let options = GroupOptions {
        connect_timeout: ms(config.connect_timeout_ms, defaults.connect_timeout),
        min_backoff: ms(config.min_backoff_ms, defaults.min_backoff),
        max_backoff: ms(config.max_backoff_ms, defaults.max_backoff),
    };
    let mut client = ClientOptions::default();
    if let Some(info) = config.info_json {
        client.info = parse(&info, "clientInfo")?;
    }
    let events = on_event.map(|func| {
        let events: EventCallback = Arc::new(move |name: &str, event: UpstreamEvent| {
            let event = match event {
                UpstreamEvent::Connected { .. } => json!({"event": "connected"}),
                UpstreamEvent::Failed { error, .. } => json!({"event": "failed", "error": error}),
                UpstreamEvent::Lost { .. } => json!({"event": "lost"}),
            };
            func.call((name.to_owned(), event.to_string()).into(), ThreadsafeFunctionCallMode::NonBlocking);
        });
        events
    });
    no_panic(async move {
        let callbacks = Arc::new(|_: &str| ClientCallbacks::default());
        let group = ClientGroup::from_config(&file, options, client, callbacks, events).await.map_err(group_error)?;
        Ok(NativeGroup { group })
    })
    .await
}

#[napi]
pub struct NativeGroup {
    group: ClientGroup,
}

#[napi]
impl NativeGroup {
    /// Each server: `[{"name", "state", "error"?, "connections", "pid"?}]` as JSON text.
    #[napi]
    pub fn servers_json(&self) -> String {
        Value::Array(self.group.servers().iter().map(|s| s.to_json()).collect()).to_string()
    }

    /// Gathers every connected server's tools: `[{"name", "server", "tool"}]` as JSON
    /// text, `tool` under the group's name.
    #[napi]
    pub async fn list_tools(&self) -> napi::Result<String> {
        let group = self.group.clone();
        no_panic(async move {
            let tools = group.list_tools().await;
            let tools = tools.iter().map(|t| json!({"name": t.name, "server": t.server, "tool": t.definition()}));
            Ok(Value::Array(tools.collect()).to_string())
        })
        .await
    }

    /// Calls the tool the group calls `name`; resolves the result as JSON text.
    #[napi]
    pub async fn call_tool(
        &self,
        name: String,
        arguments_json: String,
        timeout_ms: Option<u32>,
    ) -> napi::Result<String> {
        let group = self.group.clone();
        let arguments = parse(&arguments_json, "arguments")?;
        let options = RequestOptions {
            timeout: timeout_ms.map(|ms| Duration::from_millis(ms.into())),
            ..RequestOptions::default()
        };
        no_panic(async move {
            let result = group.call_tool(&name, arguments, options).await.map_err(group_error)?;
            Ok(result.to_string())
        })
        .await
    }

    /// Stops reconnecting and closes every connection.
    #[napi]
    pub async fn close(&self) -> napi::Result<()> {
        let group = self.group.clone();
        no_panic(async move {
            group.close().await;
            Ok(())
        })
        .await
    }
}

/// MCP tools (JSON text of a list) as `api`'s `tools` parameter (JSON text).
#[napi]
pub fn llm_tool_definitions(api: String, tools_json: String) -> napi::Result<String> {
    let Value::Array(tools) = parse(&tools_json, "tools")? else {
        return Err(mcp_error(ErrorCode::INVALID_PARAMS, "tools must be a list", None));
    };
    Ok(llm::tool_definitions(self::api(&api)?, &tools).to_string())
}

/// A tool result (JSON text) as the items `api` takes for call `callId` (JSON text).
#[napi]
pub fn llm_tool_result(api: String, call_id: String, result_json: String) -> napi::Result<String> {
    Ok(llm::tool_result(self::api(&api)?, &call_id, &parse(&result_json, "result")?).to_string())
}
