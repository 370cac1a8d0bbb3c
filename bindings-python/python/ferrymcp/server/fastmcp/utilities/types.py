"""`Image` and `Audio` at the v1 path (`mcp.server.fastmcp.utilities.types`)."""

from ferrymcp._media import Audio, Image

__all__ = ["Audio", "Image"]
