"""The low-level server at the official path (`mcp.server.lowlevel`)."""

from ferrymcp.server.lowlevel.server import NotificationOptions, Server

__all__ = ["NotificationOptions", "Server"]
