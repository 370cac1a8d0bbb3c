"""`ReadResourceContents` at the official path (`mcp.server.lowlevel.helper_types`)."""

from ferrymcp.context import ReadResourceContents

__all__ = ["ReadResourceContents"]
