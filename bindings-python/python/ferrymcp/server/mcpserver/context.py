"""`Context` at the official path (`mcp.server.mcpserver.context`)."""

from ferrymcp.context import Context

__all__ = ["Context"]
