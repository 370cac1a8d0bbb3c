"""The official `mcp.server.fastmcp.resources.types` path: the concrete resource objects,
the same classes as `ferrymcp.server.fastmcp.resources`."""

from ferrymcp.server.mcpserver.resources import BinaryResource, FileResource, FunctionResource, TextResource

__all__ = ["BinaryResource", "FileResource", "FunctionResource", "TextResource"]
