"""`Image` and `Audio` at the official path (`mcp.server.mcpserver.utilities.types`)."""

from ferrymcp._media import Audio, Image

__all__ = ["Audio", "Image"]
