"""The server side at the official SDK's paths: `from ferrymcp.server import MCPServer`."""

from ferrymcp.server.mcpserver import CacheHint, MCPServer

__all__ = ["CacheHint", "MCPServer"]
