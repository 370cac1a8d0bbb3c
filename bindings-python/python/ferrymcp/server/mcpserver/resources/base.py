"""The official `mcp.server.mcpserver.resources.base` path: `Resource`, the base of the
resource objects (`ferrymcp.server.mcpserver.resources`)."""

from ferrymcp.server.mcpserver.resources import Resource

__all__ = ["Resource"]
