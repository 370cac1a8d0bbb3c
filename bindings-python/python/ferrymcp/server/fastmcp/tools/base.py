"""The official `mcp.server.fastmcp.tools.base` path: `Tool` (`ferrymcp.server.fastmcp.tools`)."""

from ferrymcp.server.mcpserver.tools import Tool

__all__ = ["Tool"]
