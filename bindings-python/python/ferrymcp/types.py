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
needs them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Literal, get_args

from ferrymcp._wire import WireModel

# ---------------------------------------------------------------------------------------
# Scalars, aliases and constants

Role = Literal["user", "assistant"]
LoggingLevel = Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
IncludeContext = Literal["none", "thisServer", "allServers"]
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
    read = _FROM_NATIVE.get(name)
    if read is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from ferrymcp import _native

    value = read(_native)
    globals()[name] = value
    return value


class MCPModel(WireModel):
    """Base of every MCP type (the official name)."""


class ErrorData(MCPModel):
    code: int
    message: str
    data: Any = None


# ---------------------------------------------------------------------------------------
# Metadata, icons, annotations


class BaseMetadata(MCPModel):
    name: str
    title: str | None = None


class Icon(MCPModel):
    src: str
    mime_type: str | None = None
    sizes: list[str] | None = None
    theme: Literal["light", "dark"] | None = None


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


ServerNotification = (
    LoggingMessageNotification
    | ProgressNotification
    | ResourceUpdatedNotification
    | ResourceListChangedNotification
    | ToolListChangedNotification
    | PromptListChangedNotification
    | CancelledNotification
    | ElicitCompleteNotification
)

SERVER_NOTIFICATIONS: Final[dict[str, type[Notification]]] = {
    cls._defaults["method"]: cls for cls in get_args(ServerNotification)
}
"""The typed class of each notification a server sends, by method."""
