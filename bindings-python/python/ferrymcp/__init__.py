"""ferrymcp: the Model Context Protocol on one Rust engine, with the official Python
SDK's API.

    from ferrymcp import FastMCP          # or MCPServer, the v2 name

    mcp = FastMCP("demo", version="1.0.0")

    @mcp.tool()
    def add(a: int, b: int) -> int:
        return a + b

    mcp.run()

Servers use `MCPServer`/`FastMCP` and `Context`; clients use `Client`; the wire types
are in `ferrymcp.types` (also exported here). Importing ferrymcp imports neither
pydantic nor the native engine: the engine loads when a server runs or a client
connects.
"""

from typing import Any

from ferrymcp import types
from ferrymcp._media import Audio, Image
from ferrymcp.client import Client, ClientRequestContext, StdioServerParameters
from ferrymcp.context import Context
from ferrymcp.exceptions import (
    ConnectionClosed,
    InputRequiredRoundsExceededError,
    MCPDeprecationWarning,
    MCPError,
    McpError,
    ProtocolError,
    RequestCancelled,
    RequestTimeout,
    ResourceNotFound,
    UrlElicitationRequiredError,
)
from ferrymcp.server.fastmcp import FastMCP  # noqa: E402  (1.x positional signature)
from ferrymcp.server.mcpserver import CacheHint, MCPServer
from ferrymcp.server.prompts import AssistantMessage, Message, UserMessage
from ferrymcp.types import (
    Annotations,
    AudioContent,
    BlobResourceContents,
    CallToolRequest,
    CallToolResult,
    ClientCapabilities,
    ClientNotification,
    ClientRequest,
    ClientResult,
    CompleteRequest,
    CompleteResult,
    Completion,
    CompletionArgument,
    CompletionContext,
    CreateMessageRequest,
    CreateMessageRequestParams,
    CreateMessageResult,
    CreateMessageResultWithTools,
    ElicitRequestParams,
    ElicitResult,
    EmbeddedResource,
    EmptyResult,
    ErrorData,
    GetPromptRequest,
    GetPromptResult,
    Icon,
    ImageContent,
    Implementation,
    IncludeContext,
    InitializedNotification,
    InitializeRequest,
    InitializeResult,
    JSONRPCError,
    JSONRPCRequest,
    JSONRPCResponse,
    ListPromptsRequest,
    ListPromptsResult,
    ListResourcesRequest,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListRootsResult,
    ListToolsResult,
    LoggingLevel,
    LoggingMessageNotification,
    LoggingMessageNotificationParams,
    Notification,
    PingRequest,
    ProgressNotification,
    Prompt,
    PromptArgument,
    PromptMessage,
    PromptReference,
    PromptsCapability,
    ReadResourceRequest,
    ReadResourceResult,
    Resource,
    ResourceLink,
    ResourcesCapability,
    ResourceTemplate,
    ResourceTemplateReference,
    ResourceUpdatedNotification,
    Root,
    RootsCapability,
    SamplingCapability,
    SamplingContent,
    SamplingContextCapability,
    SamplingMessage,
    SamplingMessageContentBlock,
    SamplingRole,
    SamplingToolsCapability,
    ServerCapabilities,
    ServerNotification,
    ServerRequest,
    ServerResult,
    SetLevelRequest,
    StopReason,
    SubscribeRequest,
    TextContent,
    TextResourceContents,
    Tool,
    ToolAnnotations,
    ToolChoice,
    ToolResultContent,
    ToolsCapability,
    ToolUseContent,
    UnsubscribeRequest,
)

__version__ = "0.1.0"

# The 1.x client idiom's names load on first use, so `import ferrymcp` does not pay for them.
_LAZY = {
    "ClientSession": "ferrymcp.client.session",
    "ClientSessionGroup": "ferrymcp.client.session_group",
    "stdio_client": "ferrymcp.client.stdio",
    "RedisStore": "ferrymcp._native",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "Annotations",
    "AssistantMessage",
    "Audio",
    "AudioContent",
    "BlobResourceContents",
    "CacheHint",
    "CallToolRequest",
    "CallToolResult",
    "Client",
    "ClientCapabilities",
    "ClientNotification",
    "ClientRequest",
    "ClientRequestContext",
    "ClientSession",
    "ClientSessionGroup",
    "ClientResult",
    "CompleteRequest",
    "CompleteResult",
    "Completion",
    "CompletionArgument",
    "CompletionContext",
    "ConnectionClosed",
    "Context",
    "CreateMessageRequest",
    "CreateMessageRequestParams",
    "CreateMessageResult",
    "CreateMessageResultWithTools",
    "ElicitRequestParams",
    "ElicitResult",
    "EmbeddedResource",
    "EmptyResult",
    "ErrorData",
    "FastMCP",
    "GetPromptRequest",
    "GetPromptResult",
    "Icon",
    "Image",
    "ImageContent",
    "Implementation",
    "IncludeContext",
    "InitializeRequest",
    "InitializeResult",
    "InitializedNotification",
    "InputRequiredRoundsExceededError",
    "JSONRPCError",
    "JSONRPCRequest",
    "JSONRPCResponse",
    "ListPromptsRequest",
    "ListPromptsResult",
    "ListResourceTemplatesResult",
    "ListResourcesRequest",
    "ListResourcesResult",
    "ListRootsResult",
    "ListToolsResult",
    "LoggingLevel",
    "LoggingMessageNotification",
    "LoggingMessageNotificationParams",
    "MCPDeprecationWarning",
    "MCPError",
    "MCPServer",
    "McpError",
    "Message",
    "Notification",
    "PingRequest",
    "ProgressNotification",
    "Prompt",
    "PromptArgument",
    "PromptMessage",
    "PromptReference",
    "PromptsCapability",
    "ProtocolError",
    "ReadResourceRequest",
    "ReadResourceResult",
    "RequestCancelled",
    "RequestTimeout",
    "RedisStore",
    "Resource",
    "ResourceLink",
    "ResourceNotFound",
    "ResourceTemplate",
    "ResourceTemplateReference",
    "ResourceUpdatedNotification",
    "ResourcesCapability",
    "Root",
    "RootsCapability",
    "SamplingCapability",
    "SamplingContent",
    "SamplingContextCapability",
    "SamplingMessage",
    "SamplingMessageContentBlock",
    "SamplingRole",
    "SamplingToolsCapability",
    "ServerCapabilities",
    "ServerNotification",
    "ServerRequest",
    "ServerResult",
    "SetLevelRequest",
    "StdioServerParameters",
    "stdio_client",
    "StopReason",
    "SubscribeRequest",
    "TextContent",
    "TextResourceContents",
    "Tool",
    "ToolAnnotations",
    "ToolChoice",
    "ToolResultContent",
    "ToolUseContent",
    "ToolsCapability",
    "UnsubscribeRequest",
    "UrlElicitationRequiredError",
    "UserMessage",
    "types",
]
