"""The server side at the official SDK's paths: `from ferrymcp.server import MCPServer`,
and the low-level `Server` with its `ServerRequestContext`."""

from ferrymcp.server.context import ServerRequestContext
from ferrymcp.server.lowlevel import NotificationOptions, Server
from ferrymcp.server.mcpserver import CacheHint, MCPServer

__all__ = ["CacheHint", "MCPServer", "NotificationOptions", "Server", "ServerRequestContext"]
