"""The official `mcp.server.mcpserver.tools.base` path: `Tool` (`ferrymcp.server.mcpserver.tools`)."""

from ferrymcp.server.mcpserver.tools import Tool

__all__ = ["Tool"]
