"""The MCP wire types under the names of the official `mcp.types`.

Code and tests written against the official types work with an import change: each
class takes the v2 snake_case attribute names (`input_schema`, `structured_content`,
`is_error`, `mime_type`, ...) and also accepts and reads the v1 camelCase names, compares
equal by value, prints readably, and converts to and from wire dicts with
`model_validate` / `model_dump(by_alias=True, exclude_none=True)` (see `_wire.py`).

These are plain classes, not pydantic models, so `import ferrymcp` stays fast. Two
defaults differ on purpose from the official models: `result_type` and the cache hints
(`ttl_ms`, `cache_scope`) default to `None`, so a result built here serialises to what
every protocol revision accepts; the engine stamps them where the 2026-07-28 revision
needs them. An unset `result_type` compares equal to `"complete"` (what an absent
`resultType` means), so a result read from a 2026-07-28 wire equals one built without it,
as with the official models.

Every public name of the official 2.x package is here (a test reads that package and
checks), and the 1.x names that 2.x dropped. The message unions (`ClientRequest`,
`ServerResult`, ...) are plain unions as in 2.x (not 1.x's `RootModel` wrappers), and
their `*_adapter` objects read a wire dict as the right member: by `method` for requests
and notifications, by best fit for results (see `UnionAdapter` in `_wire.py`). The
official submodules `jsonrpc`, `version` and `methods` are importable under this module
(`ferrymcp.types.jsonrpc`, ...).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal, TypedDict, TypeVar, get_args

from ferrymcp import _jsonrpc as jsonrpc
from ferrymcp import _version as version
from ferrymcp._jsonrpc import JSONRPC_VERSION as JSONRPC_VERSION
from ferrymcp._jsonrpc import ErrorData as ErrorData
from ferrymcp._jsonrpc import JSONRPCError as JSONRPCError
from ferrymcp._jsonrpc import JSONRPCMessage as JSONRPCMessage
from ferrymcp._jsonrpc import JSONRPCNotification as JSONRPCNotification
from ferrymcp._jsonrpc import JSONRPCRequest as JSONRPCRequest
from ferrymcp._jsonrpc import JSONRPCResponse as JSONRPCResponse
from ferrymcp._jsonrpc import jsonrpc_message_adapter as jsonrpc_message_adapter
from ferrymcp._wire import UnionAdapter, WireModel

# `import ferrymcp.types.jsonrpc` and `.version` work as with the official package, whose
# submodules these are; here they are modules of their own, registered under those names.
sys.modules[f"{__name__}.jsonrpc"] = jsonrpc
sys.modules[f"{__name__}.version"] = version

# ---------------------------------------------------------------------------------------
# Scalars, aliases and constants

Role = Literal["user", "assistant"]
LoggingLevel = Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
IncludeContext = Literal["none", "thisServer", "allServers"]
IconTheme = Literal["light", "dark"]
StopReason = Literal["endTurn", "stopSequence", "maxTokens", "toolUse"] | str
RequestId = int | str
ProgressToken = str | int
Cursor = str
Meta = dict[str, Any]


# The protocol's constants come from the engine (``ferrymcp._native``), so they cannot
# drift from what it sends and checks. They are read on first use (PEP 562): importing
# ferrymcp stays free of the native module until something needs it.
def _error_code(name: str) -> Callable[[Any], Any]:
    return lambda native: native.ERROR_CODES[name]


def _meta_key(name: str) -> Callable[[Any], Any]:
    return lambda native: native.META_KEYS[name]


_FROM_NATIVE: dict[str, Callable[[Any], Any]] = {
    "SUPPORTED_PROTOCOL_VERSIONS": lambda n: list(n.PROTOCOL_VERSIONS),
    "LATEST_PROTOCOL_VERSION": lambda n: n.LATEST_PROTOCOL_VERSION,
    "MODERN_PROTOCOL_VERSION": lambda n: n.MODERN_PROTOCOL_VERSION,
    "DEFAULT_NEGOTIATED_VERSION": lambda n: n.DEFAULT_NEGOTIATED_VERSION,
    **{
        code: _error_code(code)
        for code in (
            "PARSE_ERROR",
            "INVALID_REQUEST",
            "METHOD_NOT_FOUND",
            "INVALID_PARAMS",
            "INTERNAL_ERROR",
            "CONNECTION_CLOSED",
            "REQUEST_TIMEOUT",
            "RESOURCE_NOT_FOUND",
            "URL_ELICITATION_REQUIRED",
            "HEADER_MISMATCH",
            "MISSING_REQUIRED_CLIENT_CAPABILITY",
            "UNSUPPORTED_PROTOCOL_VERSION",
        )
    },
    **{
        f"{key}_META_KEY": _meta_key(key)
        for key in ("PROTOCOL_VERSION", "CLIENT_INFO", "CLIENT_CAPABILITIES", "LOG_LEVEL", "SERVER_INFO")
    },
}

if TYPE_CHECKING:
    SUPPORTED_PROTOCOL_VERSIONS: list[str]
    LATEST_PROTOCOL_VERSION: str
    MODERN_PROTOCOL_VERSION: str
    DEFAULT_NEGOTIATED_VERSION: str
    PARSE_ERROR: int
    INVALID_REQUEST: int
    METHOD_NOT_FOUND: int
    INVALID_PARAMS: int
    INTERNAL_ERROR: int
    CONNECTION_CLOSED: int
    REQUEST_TIMEOUT: int
    RESOURCE_NOT_FOUND: int
    URL_ELICITATION_REQUIRED: int
    HEADER_MISMATCH: int
    MISSING_REQUIRED_CLIENT_CAPABILITY: int
    UNSUPPORTED_PROTOCOL_VERSION: int
    PROTOCOL_VERSION_META_KEY: str
    CLIENT_INFO_META_KEY: str
    CLIENT_CAPABILITIES_META_KEY: str
    LOG_LEVEL_META_KEY: str
    SERVER_INFO_META_KEY: str


def __getattr__(name: str) -> Any:
    if name == "AnyUrl":
        # 1.x's `mcp.types` re-exported pydantic's URL type, which its examples build URIs
        # with; ferrymcp takes any value whose str() is the URI, and does not depend on
        # pydantic, so it is pydantic's own class, when pydantic is installed.
        try:
            from pydantic import AnyUrl
        except ImportError as error:
            raise ImportError(
                "ferrymcp.types.AnyUrl is pydantic's AnyUrl: install pydantic, or pass the URI as a str"
            ) from error
        return AnyUrl
    read = _FROM_NATIVE.get(name)
    if read is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from ferrymcp import _native

    value = read(_native)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_FROM_NATIVE})


class MCPModel(WireModel):
    """Base of every MCP type (the official name)."""


# ---------------------------------------------------------------------------------------
# Metadata, icons, annotations


class BaseMetadata(MCPModel):
    name: str
    title: str | None = None


class Icon(MCPModel):
    src: str
    mime_type: str | None = None
    sizes: list[str] | None = None
    theme: IconTheme | None = None


class Implementation(BaseMetadata):
    version: str
    description: str | None = None
    website_url: str | None = None
    icons: list[Icon] | None = None


class Annotations(MCPModel):
    audience: list[Role] | None = None
    priority: float | None = None
    last_modified: str | None = None


# ---------------------------------------------------------------------------------------
# Content


class TextContent(MCPModel):
    type: Literal["text"] = "text"
    text: str
    annotations: Annotations | None = None
    meta: Meta | None = None


class ImageContent(MCPModel):
    type: Literal["image"] = "image"
    data: str
    mime_type: str
    annotations: Annotations | None = None
    meta: Meta | None = None


class AudioContent(MCPModel):
    type: Literal["audio"] = "audio"
    data: str
    mime_type: str
    annotations: Annotations | None = None
    meta: Meta | None = None


class ResourceContents(MCPModel):
    uri: str
    mime_type: str | None = None
    meta: Meta | None = None


class TextResourceContents(ResourceContents):
    text: str


class BlobResourceContents(ResourceContents):
    blob: str


class EmbeddedResource(MCPModel):
    type: Literal["resource"] = "resource"
    resource: TextResourceContents | BlobResourceContents
    annotations: Annotations | None = None
    meta: Meta | None = None


class Resource(BaseMetadata):
    uri: str
    description: str | None = None
    mime_type: str | None = None
    size: int | None = None
    icons: list[Icon] | None = None
    annotations: Annotations | None = None
    meta: Meta | None = None


class ResourceLink(Resource):
    type: Literal["resource_link"] = "resource_link"


ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource
SamplingContent = TextContent | ImageContent | AudioContent


class ToolUseContent(MCPModel):
    type: Literal["tool_use"] = "tool_use"
    name: str
    id: str
    input: dict[str, Any]
    meta: Meta | None = None


class ToolResultContent(MCPModel):
    type: Literal["tool_result"] = "tool_result"
    tool_use_id: str
    content: list[ContentBlock] = []  # noqa: RUF012 - WireModel copies list defaults per instance
    structured_content: Any = None
    is_error: bool | None = None
    meta: Meta | None = None


SamplingMessageContentBlock = TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent

# ---------------------------------------------------------------------------------------
# Results (bases)


class Result(MCPModel):
    meta: Meta | None = None

    # An absent `resultType` is a complete result (2026-07-28): equal to one that says so.
    _absent_means: ClassVar[dict[str, Any]] = {"result_type": "complete"}


class PaginatedResult(Result):
    next_cursor: str | None = None


class CacheableResult(Result):
    ttl_ms: int | None = None
    cache_scope: Literal["public", "private"] | None = None


class EmptyResult(Result):
    result_type: str | None = None


# ---------------------------------------------------------------------------------------
# Tools


class ToolAnnotations(MCPModel):
    title: str | None = None
    read_only_hint: bool | None = None
    destructive_hint: bool | None = None
    idempotent_hint: bool | None = None
    open_world_hint: bool | None = None


class ToolExecution(MCPModel):
    task_support: Literal["forbidden", "optional", "required"] | None = None


class Tool(BaseMetadata):
    description: str | None = None
    input_schema: dict[str, Any]
    execution: ToolExecution | None = None
    output_schema: dict[str, Any] | None = None
    icons: list[Icon] | None = None
    annotations: ToolAnnotations | None = None
    meta: Meta | None = None


class ListToolsResult(PaginatedResult, CacheableResult):
    tools: list[Tool]
    result_type: str | None = None


class CallToolResult(Result):
    content: list[ContentBlock]
    structured_content: Any = None
    is_error: bool = False
    result_type: str | None = None


# ---------------------------------------------------------------------------------------
# Resources


class ResourceTemplate(BaseMetadata):
    uri_template: str
    description: str | None = None
    mime_type: str | None = None
    icons: list[Icon] | None = None
    annotations: Annotations | None = None
    meta: Meta | None = None


class ListResourcesResult(PaginatedResult, CacheableResult):
    resources: list[Resource]
    result_type: str | None = None


class ListResourceTemplatesResult(PaginatedResult, CacheableResult):
    resource_templates: list[ResourceTemplate]
    result_type: str | None = None


class ReadResourceResult(CacheableResult):
    contents: list[TextResourceContents | BlobResourceContents]
    result_type: str | None = None


# ---------------------------------------------------------------------------------------
# Prompts


class PromptArgument(BaseMetadata):
    description: str | None = None
    required: bool | None = None


class Prompt(BaseMetadata):
    description: str | None = None
    arguments: list[PromptArgument] | None = None
    icons: list[Icon] | None = None
    meta: Meta | None = None


class PromptMessage(MCPModel):
    role: Role
    content: ContentBlock


class ListPromptsResult(PaginatedResult, CacheableResult):
    prompts: list[Prompt]
    result_type: str | None = None


class GetPromptResult(Result):
    description: str | None = None
    messages: list[PromptMessage]
    result_type: str | None = None


# ---------------------------------------------------------------------------------------
# Completion


class PromptReference(MCPModel):
    type: Literal["ref/prompt"] = "ref/prompt"
    name: str
    title: str | None = None


class ResourceTemplateReference(MCPModel):
    type: Literal["ref/resource"] = "ref/resource"
    uri: str


class CompletionArgument(MCPModel):
    name: str
    value: str


class CompletionContext(MCPModel):
    arguments: dict[str, str] | None = None


class Completion(MCPModel):
    values: list[str]
    total: int | None = None
    has_more: bool | None = None


class CompleteRequestParams(MCPModel):
    meta: Meta | None = None
    ref: ResourceTemplateReference | PromptReference
    argument: CompletionArgument
    context: CompletionContext | None = None


class CompleteResult(Result):
    completion: Completion
    result_type: str | None = None


# ---------------------------------------------------------------------------------------
# Capabilities and the handshake


class ToolsCapability(MCPModel):
    list_changed: bool | None = None


class ResourcesCapability(MCPModel):
    subscribe: bool | None = None
    list_changed: bool | None = None


class PromptsCapability(MCPModel):
    list_changed: bool | None = None


class LoggingCapability(MCPModel):
    pass


class CompletionsCapability(MCPModel):
    pass


class ServerCapabilities(MCPModel):
    experimental: dict[str, dict[str, Any]] | None = None
    logging: LoggingCapability | None = None
    prompts: PromptsCapability | None = None
    resources: ResourcesCapability | None = None
    tools: ToolsCapability | None = None
    completions: CompletionsCapability | None = None
    extensions: dict[str, dict[str, Any]] | None = None
    tasks: dict[str, Any] | None = None


class RootsCapability(MCPModel):
    list_changed: bool | None = None


class SamplingContextCapability(MCPModel):
    pass


class SamplingToolsCapability(MCPModel):
    pass


class SamplingCapability(MCPModel):
    context: SamplingContextCapability | None = None
    tools: SamplingToolsCapability | None = None


class FormElicitationCapability(MCPModel):
    pass


class UrlElicitationCapability(MCPModel):
    pass


class ElicitationCapability(MCPModel):
    form: FormElicitationCapability | None = None
    url: UrlElicitationCapability | None = None


class ClientCapabilities(MCPModel):
    experimental: dict[str, dict[str, Any]] | None = None
    sampling: SamplingCapability | None = None
    elicitation: ElicitationCapability | None = None
    roots: RootsCapability | None = None
    extensions: dict[str, dict[str, Any]] | None = None
    tasks: dict[str, Any] | None = None


class InitializeRequestParams(MCPModel):
    meta: Meta | None = None
    protocol_version: str
    capabilities: ClientCapabilities
    client_info: Implementation


class InitializeResult(Result):
    protocol_version: str
    capabilities: ServerCapabilities
    server_info: Implementation
    instructions: str | None = None


class DiscoverResult(CacheableResult):
    supported_versions: list[str]
    capabilities: ServerCapabilities
    instructions: str | None = None
    result_type: str | None = None


# ---------------------------------------------------------------------------------------
# Requests a server sends to a client: sampling, elicitation, roots


class ModelHint(MCPModel):
    name: str | None = None


class ModelPreferences(MCPModel):
    hints: list[ModelHint] | None = None
    cost_priority: float | None = None
    speed_priority: float | None = None
    intelligence_priority: float | None = None


class ToolChoice(MCPModel):
    mode: Literal["auto", "required", "none"] | None = None


class SamplingMessage(MCPModel):
    role: Role
    content: SamplingMessageContentBlock | list[SamplingMessageContentBlock]
    meta: Meta | None = None


class CreateMessageRequestParams(MCPModel):
    meta: Meta | None = None
    messages: list[SamplingMessage]
    model_preferences: ModelPreferences | None = None
    system_prompt: str | None = None
    include_context: IncludeContext | None = None
    temperature: float | None = None
    max_tokens: int
    stop_sequences: list[str] | None = None
    metadata: dict[str, Any] | None = None
    tools: list[Tool] | None = None
    tool_choice: ToolChoice | None = None


class CreateMessageResult(Result):
    role: Role
    content: SamplingContent
    model: str
    stop_reason: StopReason | None = None


class CreateMessageResultWithTools(Result):
    role: Role
    content: SamplingMessageContentBlock | list[SamplingMessageContentBlock]
    model: str
    stop_reason: StopReason | None = None


class ElicitRequestFormParams(MCPModel):
    meta: Meta | None = None
    mode: Literal["form"] = "form"
    message: str
    requested_schema: dict[str, Any]


class ElicitRequestURLParams(MCPModel):
    meta: Meta | None = None
    mode: Literal["url"] = "url"
    message: str
    url: str
    elicitation_id: str | None = None


ElicitRequestParams = ElicitRequestURLParams | ElicitRequestFormParams
ElicitRequestedSchema = dict[str, Any]


class ElicitResult(Result):
    action: Literal["accept", "decline", "cancel"]
    content: dict[str, Any] | None = None


class Root(MCPModel):
    uri: str
    name: str | None = None
    meta: Meta | None = None


class ListRootsResult(Result):
    roots: list[Root]


# ---------------------------------------------------------------------------------------
# Notifications


class NotificationParams(MCPModel):
    meta: Meta | None = None


class LoggingMessageNotificationParams(NotificationParams):
    level: LoggingLevel
    logger: str | None = None
    data: Any


class ProgressNotificationParams(NotificationParams):
    progress_token: ProgressToken
    progress: float
    total: float | None = None
    message: str | None = None


class ResourceUpdatedNotificationParams(NotificationParams):
    uri: str


class CancelledNotificationParams(NotificationParams):
    request_id: RequestId | None = None
    reason: str | None = None


class ElicitCompleteNotificationParams(NotificationParams):
    elicitation_id: str


class Notification(MCPModel):
    method: str
    params: Any = None

    def __class_getitem__(cls, _item: Any) -> Any:
        """`Notification[Params, Literal["method"]]` (the official generic spelling, used
        to declare custom notifications) is the class itself: fields come from the
        subclass's own annotations."""
        return cls


class LoggingMessageNotification(Notification):
    method: Literal["notifications/message"] = "notifications/message"
    params: LoggingMessageNotificationParams


class ProgressNotification(Notification):
    method: Literal["notifications/progress"] = "notifications/progress"
    params: ProgressNotificationParams


class ResourceUpdatedNotification(Notification):
    method: Literal["notifications/resources/updated"] = "notifications/resources/updated"
    params: ResourceUpdatedNotificationParams


class ResourceListChangedNotification(Notification):
    method: Literal["notifications/resources/list_changed"] = "notifications/resources/list_changed"
    params: NotificationParams | None = None


class ToolListChangedNotification(Notification):
    method: Literal["notifications/tools/list_changed"] = "notifications/tools/list_changed"
    params: NotificationParams | None = None


class PromptListChangedNotification(Notification):
    method: Literal["notifications/prompts/list_changed"] = "notifications/prompts/list_changed"
    params: NotificationParams | None = None


class CancelledNotification(Notification):
    method: Literal["notifications/cancelled"] = "notifications/cancelled"
    params: CancelledNotificationParams


class ElicitCompleteNotification(Notification):
    method: Literal["notifications/elicitation/complete"] = "notifications/elicitation/complete"
    params: ElicitCompleteNotificationParams


class RootsListChangedNotification(Notification):
    method: Literal["notifications/roots/list_changed"] = "notifications/roots/list_changed"
    params: NotificationParams | None = None


class InitializedNotification(Notification):
    method: Literal["notifications/initialized"] = "notifications/initialized"
    params: NotificationParams | None = None


# ---------------------------------------------------------------------------------------
# Requests: the base classes and their params


class RequestParamsMeta(TypedDict, total=False):
    """The `_meta` of request params: an open dict (wire keys), with the progress token
    and, on 2026-07-28, the reserved `io.modelcontextprotocol/*` keys (`*_META_KEY`)."""

    progressToken: ProgressToken


class RequestParams(MCPModel):
    meta: RequestParamsMeta | None = None

    class Meta(MCPModel):
        """The 1.x spelling of a request's `_meta` as a model (`RequestParams.Meta(
        progressToken=...)`); other keys are kept."""

        progress_token: ProgressToken | None = None


class PaginatedRequestParams(RequestParams):
    cursor: Cursor | None = None


class Request(MCPModel):
    method: str
    params: Any = None

    def __class_getitem__(cls, _item: Any) -> Any:
        """`Request[Params, Literal["method"]]` (the official generic spelling, used to
        declare custom requests) is the class itself: fields come from the subclass's own
        annotations."""
        return cls


class PaginatedRequest(Request):
    params: PaginatedRequestParams | None = None


# ---------------------------------------------------------------------------------------
# Tasks (2025-11-25)

TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
TaskExecutionMode = Literal["forbidden", "optional", "required"]

# The 1.x module's names for the values of those two literals.
TASK_STATUS_WORKING: Final = "working"
TASK_STATUS_INPUT_REQUIRED: Final = "input_required"
TASK_STATUS_COMPLETED: Final = "completed"
TASK_STATUS_FAILED: Final = "failed"
TASK_STATUS_CANCELLED: Final = "cancelled"
TASK_FORBIDDEN: Final = "forbidden"
TASK_OPTIONAL: Final = "optional"
TASK_REQUIRED: Final = "required"


class TaskMetadata(MCPModel):
    ttl: int | None = None


class RelatedTaskMetadata(MCPModel):
    task_id: str


class Task(MCPModel):
    task_id: str
    status: TaskStatus
    status_message: str | None = None
    created_at: str
    last_updated_at: str
    ttl: int | None
    poll_interval: int | None = None


class _TaskIdParams(RequestParams):
    task_id: str


class GetTaskRequestParams(_TaskIdParams):
    pass


class GetTaskPayloadRequestParams(_TaskIdParams):
    pass


class CancelTaskRequestParams(_TaskIdParams):
    pass


class GetTaskRequest(Request):
    method: Literal["tasks/get"] = "tasks/get"
    params: GetTaskRequestParams


class GetTaskPayloadRequest(Request):
    method: Literal["tasks/result"] = "tasks/result"
    params: GetTaskPayloadRequestParams


class CancelTaskRequest(Request):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    params: CancelTaskRequestParams


class ListTasksRequest(PaginatedRequest):
    method: Literal["tasks/list"] = "tasks/list"


class CreateTaskResult(Result):
    task: Task


class GetTaskResult(Result, Task):
    pass


class CancelTaskResult(Result, Task):
    pass


class GetTaskPayloadResult(Result):
    """The result of the task's request, whatever its type: its fields are kept as they
    came (read them as attributes or with `model_dump`)."""


class ListTasksResult(PaginatedResult):
    tasks: list[Task]


class TaskStatusNotificationParams(NotificationParams, Task):
    pass


class TaskStatusNotification(Notification):
    method: Literal["notifications/tasks/status"] = "notifications/tasks/status"
    params: TaskStatusNotificationParams


class TasksListCapability(MCPModel):
    pass


class TasksCancelCapability(MCPModel):
    pass


class TasksCallCapability(MCPModel):
    pass


class TasksCreateMessageCapability(MCPModel):
    pass


class TasksCreateElicitationCapability(MCPModel):
    pass


class TasksToolsCapability(MCPModel):
    call: TasksCallCapability | None = None


class TasksSamplingCapability(MCPModel):
    create_message: TasksCreateMessageCapability | None = None


class TasksElicitationCapability(MCPModel):
    create: TasksCreateElicitationCapability | None = None


class ServerTasksRequestsCapability(MCPModel):
    tools: TasksToolsCapability | None = None


class ClientTasksRequestsCapability(MCPModel):
    sampling: TasksSamplingCapability | None = None
    elicitation: TasksElicitationCapability | None = None


class ServerTasksCapability(MCPModel):
    list: TasksListCapability | None = None
    cancel: TasksCancelCapability | None = None
    requests: ServerTasksRequestsCapability | None = None


class ClientTasksCapability(MCPModel):
    list: TasksListCapability | None = None
    cancel: TasksCancelCapability | None = None
    requests: ClientTasksRequestsCapability | None = None


# ---------------------------------------------------------------------------------------
# Requests a server sends to a client, and MRTR (2026-07-28): a server answers a request
# with `InputRequiredResult` carrying such requests; the client retries with the answers.


class ListRootsRequest(Request):
    method: Literal["roots/list"] = "roots/list"
    params: RequestParams | None = None


class CreateMessageRequest(Request):
    method: Literal["sampling/createMessage"] = "sampling/createMessage"
    params: CreateMessageRequestParams


class ElicitRequest(Request):
    method: Literal["elicitation/create"] = "elicitation/create"
    params: ElicitRequestParams


class PingRequest(Request):
    method: Literal["ping"] = "ping"
    params: RequestParams | None = None


InputRequest = CreateMessageRequest | ListRootsRequest | ElicitRequest
InputRequests = dict[str, InputRequest]
InputResponse = CreateMessageResult | CreateMessageResultWithTools | ListRootsResult | ElicitResult
InputResponses = dict[str, InputResponse]

ResultType = Literal["complete", "input_required"] | str
CORE_RESULT_TYPES: Final[frozenset[str]] = frozenset({"complete", "input_required"})
"""The `resultType` values the core protocol defines (extensions may add others)."""


class InputRequiredResult(Result):
    """The 2026-07-28 answer "retry with these inputs": at least one of
    `input_requests` and `request_state` is present."""

    result_type: Literal["input_required"] = "input_required"
    input_requests: InputRequests | None = None
    request_state: str | None = None

    def __init__(self, **data: Any) -> None:
        super().__init__(**data)
        if not self.input_requests and self.request_state is None:
            raise ValueError("InputRequiredResult needs input_requests or request_state")


class InputResponseRequestParams(RequestParams):
    input_responses: InputResponses | None = None
    request_state: str | None = None


# ---------------------------------------------------------------------------------------
# Requests a client sends to a server


class InitializeRequest(Request):
    method: Literal["initialize"] = "initialize"
    params: InitializeRequestParams


class DiscoverRequest(Request):
    method: Literal["server/discover"] = "server/discover"
    params: RequestParams | None = None


class CompleteRequest(Request):
    method: Literal["completion/complete"] = "completion/complete"
    params: CompleteRequestParams


class SetLevelRequestParams(RequestParams):
    level: LoggingLevel


class SetLevelRequest(Request):
    method: Literal["logging/setLevel"] = "logging/setLevel"
    params: SetLevelRequestParams


class GetPromptRequestParams(InputResponseRequestParams):
    name: str
    arguments: dict[str, str] | None = None


class GetPromptRequest(Request):
    method: Literal["prompts/get"] = "prompts/get"
    params: GetPromptRequestParams


class ListPromptsRequest(PaginatedRequest):
    method: Literal["prompts/list"] = "prompts/list"


class ListResourcesRequest(PaginatedRequest):
    method: Literal["resources/list"] = "resources/list"


class ListResourceTemplatesRequest(PaginatedRequest):
    method: Literal["resources/templates/list"] = "resources/templates/list"


class ReadResourceRequestParams(InputResponseRequestParams):
    uri: str


class ReadResourceRequest(Request):
    method: Literal["resources/read"] = "resources/read"
    params: ReadResourceRequestParams


class SubscribeRequestParams(RequestParams):
    uri: str


class SubscribeRequest(Request):
    method: Literal["resources/subscribe"] = "resources/subscribe"
    params: SubscribeRequestParams


class UnsubscribeRequestParams(RequestParams):
    uri: str


class UnsubscribeRequest(Request):
    method: Literal["resources/unsubscribe"] = "resources/unsubscribe"
    params: UnsubscribeRequestParams


class CallToolRequestParams(InputResponseRequestParams):
    name: str
    arguments: dict[str, Any] | None = None
    task: TaskMetadata | None = None


class CallToolRequest(Request):
    method: Literal["tools/call"] = "tools/call"
    params: CallToolRequestParams


class ListToolsRequest(PaginatedRequest):
    method: Literal["tools/list"] = "tools/list"


# ---------------------------------------------------------------------------------------
# Subscriptions (2026-07-28): `subscriptions/listen` opens a stream of notifications


class SubscriptionFilter(MCPModel):
    """Which notifications a `subscriptions/listen` stream carries (unknown keys are kept)."""

    tools_list_changed: bool | None = None
    prompts_list_changed: bool | None = None
    resources_list_changed: bool | None = None
    resource_subscriptions: list[str] | None = None


class SubscriptionsListenRequestParams(RequestParams):
    notifications: SubscriptionFilter


class SubscriptionsListenRequest(Request):
    method: Literal["subscriptions/listen"] = "subscriptions/listen"
    params: SubscriptionsListenRequestParams


class SubscriptionsListenResult(Result):
    result_type: ResultType | None = None


class SubscriptionsAcknowledgedNotificationParams(NotificationParams):
    notifications: SubscriptionFilter


class SubscriptionsAcknowledgedNotification(Notification):
    method: Literal["notifications/subscriptions/acknowledged"] = "notifications/subscriptions/acknowledged"
    params: SubscriptionsAcknowledgedNotificationParams


# ---------------------------------------------------------------------------------------
# The `data` of the errors the protocol defines


class ElicitationRequiredErrorData(MCPModel):
    elicitations: list[ElicitRequestURLParams]


class MissingRequiredClientCapabilityErrorData(MCPModel):
    required_capabilities: ClientCapabilities


class UnsupportedProtocolVersionErrorData(MCPModel):
    supported: list[str]
    requested: str


ServerNotification = (
    LoggingMessageNotification
    | ProgressNotification
    | ResourceUpdatedNotification
    | ResourceListChangedNotification
    | ToolListChangedNotification
    | PromptListChangedNotification
    | CancelledNotification
    | ElicitCompleteNotification
    | SubscriptionsAcknowledgedNotification
)

SERVER_NOTIFICATIONS: Final[dict[str, type[Notification]]] = {
    cls._defaults["method"]: cls for cls in get_args(ServerNotification)
}
"""The typed class of each notification a server sends, by method."""

# ---------------------------------------------------------------------------------------
# The message unions, and adapters that read a wire dict as the right member

ClientRequest = (
    PingRequest
    | InitializeRequest
    | CompleteRequest
    | SetLevelRequest
    | GetPromptRequest
    | ListPromptsRequest
    | ListResourcesRequest
    | ListResourceTemplatesRequest
    | ReadResourceRequest
    | SubscribeRequest
    | UnsubscribeRequest
    | CallToolRequest
    | ListToolsRequest
    | DiscoverRequest
    | SubscriptionsListenRequest
)
ClientNotification = (
    CancelledNotification | ProgressNotification | InitializedNotification | RootsListChangedNotification
)
ClientResult = EmptyResult | CreateMessageResult | CreateMessageResultWithTools | ListRootsResult | ElicitResult
ServerRequest = PingRequest | CreateMessageRequest | ListRootsRequest | ElicitRequest
ServerResult = (
    EmptyResult
    | InitializeResult
    | DiscoverResult
    | CompleteResult
    | GetPromptResult
    | ListPromptsResult
    | ListResourcesResult
    | ListResourceTemplatesResult
    | ReadResourceResult
    | CallToolResult
    | ListToolsResult
    | SubscriptionsListenResult
    | InputRequiredResult
)

client_request_adapter: Final = UnionAdapter("ClientRequest", get_args(ClientRequest))
client_notification_adapter: Final = UnionAdapter("ClientNotification", get_args(ClientNotification))
client_result_adapter: Final = UnionAdapter("ClientResult", get_args(ClientResult))
server_request_adapter: Final = UnionAdapter("ServerRequest", get_args(ServerRequest))
server_notification_adapter: Final = UnionAdapter("ServerNotification", get_args(ServerNotification))
server_result_adapter: Final = UnionAdapter("ServerResult", get_args(ServerResult))

# ---------------------------------------------------------------------------------------
# Names the 1.x module had and 2.x dropped, which 1.x code still imports

AnyFunction = Callable[..., Any]
Content = ContentBlock
ResourceReference = ResourceTemplateReference
SamplingRole = Role
ClientRequestType = ClientRequest
ClientNotificationType = ClientNotification
ClientResultType = ClientResult
ServerRequestType = ServerRequest
ServerNotificationType = ServerNotification
ServerResultType = ServerResult
RequestParamsT = TypeVar("RequestParamsT", bound=RequestParams | dict[str, Any] | None)
NotificationParamsT = TypeVar("NotificationParamsT", bound=NotificationParams | dict[str, Any] | None)
MethodT = TypeVar("MethodT", bound=str)

# `ferrymcp.types.methods` maps methods to the classes above, so it is imported last.
from ferrymcp import _methods as methods  # noqa: E402

sys.modules[f"{__name__}.methods"] = methods
