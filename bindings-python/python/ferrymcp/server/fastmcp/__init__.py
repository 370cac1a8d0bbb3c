"""The v1 path: `from ferrymcp.server.fastmcp import FastMCP, Context, Image`.

`FastMCP` is `MCPServer`, as in the official SDK, where v2 renamed it.
"""

from ferrymcp._media import Audio, Image
from ferrymcp.context import Context
from ferrymcp.server.mcpserver import MCPServer

FastMCP = MCPServer

__all__ = ["Audio", "Context", "FastMCP", "Image"]
