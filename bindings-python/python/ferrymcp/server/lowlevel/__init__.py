"""The low-level server at the official path (`mcp.server.lowlevel`)."""

from ferrymcp.server.lowlevel.server import NotificationOptions, Server
from ferrymcp.server.models import InitializationOptions

__all__ = ["InitializationOptions", "NotificationOptions", "Server"]
