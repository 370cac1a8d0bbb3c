"""The 1.x exceptions (`mcp.server.fastmcp.exceptions`): the same classes as
`ferrymcp.server.mcpserver.exceptions`."""

from ferrymcp.server.mcpserver.exceptions import (
    FastMCPError,
    InvalidSignature,
    ResourceError,
    ResourceNotFoundError,
    ToolError,
    ValidationError,
)

__all__ = ["FastMCPError", "InvalidSignature", "ResourceError", "ResourceNotFoundError", "ToolError", "ValidationError"]
