"""The official `mcp.server.fastmcp.resources.base` path: `Resource`, the base of the
resource objects (`ferrymcp.server.fastmcp.resources`)."""

from ferrymcp.server.mcpserver.resources import Resource

__all__ = ["Resource"]
