"""The 1.x `Tool` (`mcp.server.fastmcp.tools`)."""

from ferrymcp.server.mcpserver.tools import Tool

__all__ = ["Tool"]
