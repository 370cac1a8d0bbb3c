"""`MCPServer` and its companions at the official path (`mcp.server.mcpserver`).

The server itself is `ferrymcp.server.mcpserver.server`; the submodules are the official
ones user code imports: `exceptions`, `prompts` (`base`), `resources`, `tools`,
`utilities` (`types`, `logging`), `context` and `resolve` (dependency injection).
"""

from ferrymcp.server.extension import Extension, MethodBinding, ResourceBinding, ToolBinding
from ferrymcp.server.mcpserver.resolve import (
    AcceptedElicitation,
    CancelledElicitation,
    DeclinedElicitation,
    Elicit,
    ElicitationResult,
    ListRoots,
    Resolve,
    Sample,
)
from ferrymcp.server.mcpserver.server import (
    DEFAULT_RESOURCE_SECURITY,
    AssistantMessage,
    Audio,
    CacheHint,
    Context,
    Icon,
    Image,
    MCPServer,
    Message,
    ResourceSecurity,
    UserMessage,
    require_client_extension,
)
from ferrymcp.server.request_state import (
    InvalidRequestState,
    RequestStateCodec,
    RequestStateSecurity,
    authenticated_principal,
)

__all__ = [
    "MethodBinding",
    "ResourceBinding",
    "ToolBinding",
    "DEFAULT_RESOURCE_SECURITY",
    "AcceptedElicitation",
    "AssistantMessage",
    "Audio",
    "CacheHint",
    "CancelledElicitation",
    "Context",
    "DeclinedElicitation",
    "Elicit",
    "ElicitationResult",
    "Extension",
    "Icon",
    "Image",
    "ListRoots",
    "MCPServer",
    "Message",
    "InvalidRequestState",
    "RequestStateCodec",
    "RequestStateSecurity",
    "ResourceSecurity",
    "Resolve",
    "Sample",
    "UserMessage",
    "authenticated_principal",
    "require_client_extension",
]
