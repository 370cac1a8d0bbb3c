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

from ferrymcp import types
from ferrymcp._media import Audio, Image
from ferrymcp.client import Client, ClientRequestContext, StdioServerParameters
from ferrymcp.context import Context
from ferrymcp.exceptions import (
    ConnectionClosed,
    MCPError,
    McpError,
    ProtocolError,
    RequestCancelled,
    RequestTimeout,
    ResourceNotFound,
)
from ferrymcp.server.mcpserver import CacheHint, MCPServer
from ferrymcp.server.prompts import AssistantMessage, Message, UserMessage
from ferrymcp.types import (
    Annotations,
    AudioContent,
    BlobResourceContents,
    CallToolResult,
    ClientCapabilities,
    CompleteResult,
    Completion,
    CompletionArgument,
    CompletionContext,
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequestParams,
    ElicitResult,
    EmbeddedResource,
    EmptyResult,
    ErrorData,
    GetPromptResult,
    Icon,
    ImageContent,
    Implementation,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ListRootsResult,
    ListToolsResult,
    LoggingLevel,
    LoggingMessageNotificationParams,
    Prompt,
    PromptArgument,
    PromptMessage,
    PromptReference,
    ReadResourceResult,
    Resource,
    ResourceLink,
    ResourceTemplate,
    ResourceTemplateReference,
    Root,
    SamplingMessage,
    ServerCapabilities,
    TextContent,
    TextResourceContents,
    Tool,
    ToolAnnotations,
)

FastMCP = MCPServer

__version__ = "0.1.0"

__all__ = [
    "Annotations",
    "AssistantMessage",
    "Audio",
    "AudioContent",
    "BlobResourceContents",
    "CacheHint",
    "CallToolResult",
    "Client",
    "ClientCapabilities",
    "ClientRequestContext",
    "CompleteResult",
    "Completion",
    "CompletionArgument",
    "CompletionContext",
    "ConnectionClosed",
    "Context",
    "CreateMessageRequestParams",
    "CreateMessageResult",
    "ElicitRequestParams",
    "ElicitResult",
    "EmbeddedResource",
    "EmptyResult",
    "ErrorData",
    "FastMCP",
    "GetPromptResult",
    "Icon",
    "Image",
    "ImageContent",
    "Implementation",
    "ListPromptsResult",
    "ListResourceTemplatesResult",
    "ListResourcesResult",
    "ListRootsResult",
    "ListToolsResult",
    "LoggingLevel",
    "LoggingMessageNotificationParams",
    "MCPError",
    "MCPServer",
    "McpError",
    "Message",
    "Prompt",
    "PromptArgument",
    "PromptMessage",
    "PromptReference",
    "ProtocolError",
    "ResourceNotFound",
    "ReadResourceResult",
    "RequestCancelled",
    "RequestTimeout",
    "Resource",
    "ResourceLink",
    "ResourceTemplate",
    "ResourceTemplateReference",
    "Root",
    "SamplingMessage",
    "ServerCapabilities",
    "StdioServerParameters",
    "TextContent",
    "TextResourceContents",
    "Tool",
    "ToolAnnotations",
    "UserMessage",
    "types",
]
