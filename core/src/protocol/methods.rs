//! Every MCP method, as a marker type naming its params and result, plus the schema's
//! names for the typed messages (`CallToolRequest` = `TypedRequest<CallTool>`, ...).
//!
//! Which revisions define which method is in [`ProtocolVersion`](super::ProtocolVersion)'s
//! predicates; this table lists them all.

use super::base::{EmptyResult, JsonObject, NotificationParams, PaginatedParams, RequestParams};
use super::completion::{CompleteParams, CompleteResult};
use super::discover::DiscoverResult;
use super::elicitation::{ElicitParams, ElicitResult, ElicitationCompleteParams};
use super::envelope::{NotificationMethod, RequestMethod, TypedNotification, TypedRequest, TypedResponse};
use super::lifecycle::{InitializeParams, InitializeResult};
use super::logging::{LoggingMessageParams, SetLevelParams};
use super::mrtr::MaybeInputRequired;
use super::prompts::{GetPromptParams, GetPromptResult, ListPromptsResult};
use super::resources::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceParams, ReadResourceResult, ResourceUpdatedParams,
    SubscribeParams,
};
use super::roots::ListRootsResult;
use super::sampling::{CreateMessageParams, CreateMessageResult};
use super::subscriptions::{SubscriptionsAcknowledgedParams, SubscriptionsListenParams, SubscriptionsListenResult};
use super::tasks::{ListTasksResult, TaskIdParams, TaskResult, TaskStatusParams};
use super::tools::{CallToolParams, CallToolResult, ListToolsResult};
use super::utilities::{CancelledParams, ProgressParams};

macro_rules! requests {
    ($($(#[$doc:meta])* $marker:ident, $request:ident, $response:ident = $method:literal, $params:ty => $result:ty;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $marker;

        impl RequestMethod for $marker {
            const METHOD: &'static str = $method;
            type Params = $params;
            type Result = $result;
        }

        #[doc = concat!("A `", $method, "` request.")]
        pub type $request = TypedRequest<$marker>;

        #[doc = concat!("A response to `", $method, "`.")]
        pub type $response = TypedResponse<$result>;
    )*

        /// Every request method of the table above: the names a custom request handler
        /// may not take (on either side), so an application never shadows the protocol.
        pub const REQUEST_METHODS: &[&str] = &[$($method),*];
    };
}

macro_rules! notifications {
    ($($(#[$doc:meta])* $marker:ident, $notification:ident = $method:literal, $params:ty;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $marker;

        impl NotificationMethod for $marker {
            const METHOD: &'static str = $method;
            type Params = $params;
        }

        #[doc = concat!("A `", $method, "` notification.")]
        pub type $notification = TypedNotification<$marker>;
    )*

        /// Every notification method of the table above.
        pub const NOTIFICATION_METHODS: &[&str] = &[$($method),*];
    };
}

requests! {
    /// `initialize` (legacy): opens a session.
    Initialize, InitializeRequest, InitializeResultResponse = "initialize", InitializeParams => InitializeResult;
    /// `ping` (legacy).
    Ping, PingRequest, PingResultResponse = "ping", RequestParams => EmptyResult;
    /// `server/discover` (2026-07-28).
    Discover, DiscoverRequest, DiscoverResultResponse = "server/discover", RequestParams => DiscoverResult;
    /// `tools/list`.
    ListTools, ListToolsRequest, ListToolsResultResponse = "tools/list", PaginatedParams => ListToolsResult;
    /// `tools/call`; may answer `input_required` (2026-07-28).
    CallTool, CallToolRequest, CallToolResultResponse = "tools/call", CallToolParams => MaybeInputRequired<CallToolResult>;
    /// `resources/list`.
    ListResources, ListResourcesRequest, ListResourcesResultResponse = "resources/list", PaginatedParams => ListResourcesResult;
    /// `resources/templates/list`.
    ListResourceTemplates, ListResourceTemplatesRequest, ListResourceTemplatesResultResponse = "resources/templates/list", PaginatedParams => ListResourceTemplatesResult;
    /// `resources/read`; may answer `input_required` (2026-07-28).
    ReadResource, ReadResourceRequest, ReadResourceResultResponse = "resources/read", ReadResourceParams => MaybeInputRequired<ReadResourceResult>;
    /// `resources/subscribe` (legacy).
    Subscribe, SubscribeRequest, SubscribeResultResponse = "resources/subscribe", SubscribeParams => EmptyResult;
    /// `resources/unsubscribe` (legacy).
    Unsubscribe, UnsubscribeRequest, UnsubscribeResultResponse = "resources/unsubscribe", SubscribeParams => EmptyResult;
    /// `subscriptions/listen` (2026-07-28).
    SubscriptionsListen, SubscriptionsListenRequest, SubscriptionsListenResultResponse = "subscriptions/listen", SubscriptionsListenParams => SubscriptionsListenResult;
    /// `prompts/list`.
    ListPrompts, ListPromptsRequest, ListPromptsResultResponse = "prompts/list", PaginatedParams => ListPromptsResult;
    /// `prompts/get`; may answer `input_required` (2026-07-28).
    GetPrompt, GetPromptRequest, GetPromptResultResponse = "prompts/get", GetPromptParams => MaybeInputRequired<GetPromptResult>;
    /// `completion/complete`.
    Complete, CompleteRequest, CompleteResultResponse = "completion/complete", CompleteParams => CompleteResult;
    /// `logging/setLevel` (legacy).
    SetLevel, SetLevelRequest, SetLevelResultResponse = "logging/setLevel", SetLevelParams => EmptyResult;
    /// `sampling/createMessage`: a legacy server request, or a modern input request.
    CreateMessage, CreateMessageRequest, CreateMessageResultResponse = "sampling/createMessage", CreateMessageParams => CreateMessageResult;
    /// `elicitation/create`: a legacy server request, or a modern input request.
    Elicit, ElicitRequest, ElicitResultResponse = "elicitation/create", ElicitParams => ElicitResult;
    /// `roots/list`: a legacy server request, or a modern input request.
    ListRoots, ListRootsRequest, ListRootsResultResponse = "roots/list", RequestParams => ListRootsResult;
    /// `tasks/get` (2025-11-25).
    GetTask, GetTaskRequest, GetTaskResultResponse = "tasks/get", TaskIdParams => TaskResult;
    /// `tasks/result` (2025-11-25): the result of the original request, whatever its type.
    GetTaskPayload, GetTaskPayloadRequest, GetTaskPayloadResultResponse = "tasks/result", TaskIdParams => JsonObject;
    /// `tasks/cancel` (2025-11-25).
    CancelTask, CancelTaskRequest, CancelTaskResultResponse = "tasks/cancel", TaskIdParams => TaskResult;
    /// `tasks/list` (2025-11-25).
    ListTasks, ListTasksRequest, ListTasksResultResponse = "tasks/list", PaginatedParams => ListTasksResult;
}

notifications! {
    /// `notifications/initialized` (legacy): the client finished initializing.
    Initialized, InitializedNotification = "notifications/initialized", NotificationParams;
    /// `notifications/cancelled`.
    Cancelled, CancelledNotification = "notifications/cancelled", CancelledParams;
    /// `notifications/progress`.
    Progress, ProgressNotification = "notifications/progress", ProgressParams;
    /// `notifications/message`: a log message.
    LoggingMessage, LoggingMessageNotification = "notifications/message", LoggingMessageParams;
    /// `notifications/resources/updated`.
    ResourceUpdated, ResourceUpdatedNotification = "notifications/resources/updated", ResourceUpdatedParams;
    /// `notifications/resources/list_changed`.
    ResourceListChanged, ResourceListChangedNotification = "notifications/resources/list_changed", NotificationParams;
    /// `notifications/tools/list_changed`.
    ToolListChanged, ToolListChangedNotification = "notifications/tools/list_changed", NotificationParams;
    /// `notifications/prompts/list_changed`.
    PromptListChanged, PromptListChangedNotification = "notifications/prompts/list_changed", NotificationParams;
    /// `notifications/roots/list_changed` (legacy, client to server).
    RootsListChanged, RootsListChangedNotification = "notifications/roots/list_changed", NotificationParams;
    /// `notifications/elicitation/complete` (2025-11-25).
    ElicitationComplete, ElicitationCompleteNotification = "notifications/elicitation/complete", ElicitationCompleteParams;
    /// `notifications/tasks/status` (2025-11-25).
    TaskStatusChanged, TaskStatusNotification = "notifications/tasks/status", TaskStatusParams;
    /// `notifications/subscriptions/acknowledged` (2026-07-28).
    SubscriptionsAcknowledged, SubscriptionsAcknowledgedNotification = "notifications/subscriptions/acknowledged", SubscriptionsAcknowledgedParams;
}
