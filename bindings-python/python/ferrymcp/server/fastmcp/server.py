"""The 1.x module path `mcp.server.fastmcp.server`: `FastMCP` (1.x's positional order),
its `Context`, and the media helpers, the same objects as `ferrymcp.server.fastmcp`."""

from ferrymcp.server.fastmcp import Audio, Context, FastMCP, Image
from ferrymcp.types import Icon

__all__ = ["Audio", "Context", "FastMCP", "Icon", "Image"]
