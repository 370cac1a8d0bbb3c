"""The v1 path of the prompt classes (`mcp.server.fastmcp.prompts`)."""

from ferrymcp.server.fastmcp.prompts import base
from ferrymcp.server.mcpserver.prompts.base import Prompt

__all__ = ["Prompt", "base"]
