"""The v1 path of the prompt message classes (`mcp.server.fastmcp.prompts`)."""

from ferrymcp.server.fastmcp.prompts import base

__all__ = ["base"]
