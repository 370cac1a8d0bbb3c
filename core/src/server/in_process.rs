//! Calling a server's own tools in process (Python's `MCPServer.call_tool`), outside any
//! session, through the very `tools/call` path a client's request takes: arguments checked
//! against the input schema, a failure turned into an `isError` result, the output checked
//! against the output schema and `content` completed. So an in-process call answers
//! exactly what the same call over the wire answers, in every binding.
//!
//! There is no client: notifications (progress, log messages) go nowhere, and input the
//! tool asks for fails as it does for a client that declared no capability.

use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use super::Server;
use super::context::{Context, ContextInner};
use super::features::tools;
use super::outbound::Outbound;
use crate::peer::{BoxFuture, CloseReason, PeerError, RequestOptions};
use crate::protocol::ProtocolVersion;
use crate::wire::{ErrorObject, RequestId};

/// The way back to a client that is not there.
struct NoClient;

impl Outbound for NoClient {
    fn notify(&self, _method: &str, _params: Value) -> BoxFuture<Result<(), PeerError>> {
        Box::pin(std::future::ready(Ok(())))
    }

    fn request(&self, _method: &str, _params: Value, _options: RequestOptions) -> BoxFuture<Result<Value, PeerError>> {
        Box::pin(std::future::ready(Err(PeerError::Closed(CloseReason::Local))))
    }

    fn can_request(&self) -> bool {
        false
    }
}

impl Server {
    /// Calls tool `name` with `arguments` in process: the `CallToolResult` a client would
    /// get (a failing tool gives `isError: true`), or the JSON-RPC error it would get (an
    /// unknown tool is `-32602`; a handler's own protocol error passes through).
    pub async fn call_tool(&self, name: &str, arguments: Map<String, Value>) -> Result<Value, ErrorObject> {
        let cx = Context {
            inner: std::sync::Arc::new(ContextInner {
                request_id: RequestId::Number(0),
                cancel: CancellationToken::new(),
                outbound: std::sync::Arc::new(NoClient),
                auth: None,
                server: self.shared.clone(),
                protocol_version: ProtocolVersion::LATEST_LEGACY.as_str().to_owned(),
                client_capabilities: Some(json!({})),
                client_info: Some(Value::Null),
                log_threshold: None,
                meta: super::context::Meta::from_value(Value::Null),
                last_progress: Default::default(),
                inputs: None,
                task: Default::default(),
                session: None,
                legacy_round: None,
            }),
        };
        let mut params = Map::new();
        params.insert("name".into(), json!(name));
        params.insert("arguments".into(), Value::Object(arguments));
        tools::call_tool(&self.shared, params, cx).await
    }
}
