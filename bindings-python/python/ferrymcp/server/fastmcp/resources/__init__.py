"""The 1.x resource objects (`mcp.server.fastmcp.resources`)."""

from ferrymcp.server.mcpserver.resources import (
    BinaryResource,
    FileResource,
    FunctionResource,
    Resource,
    TextResource,
)

__all__ = ["BinaryResource", "FileResource", "FunctionResource", "Resource", "TextResource"]
