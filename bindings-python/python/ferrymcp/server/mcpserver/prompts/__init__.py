"""`mcp.server.mcpserver.prompts` at ferrymcp's path: `Prompt` and the `base` module."""

from ferrymcp.server.mcpserver.prompts import base
from ferrymcp.server.mcpserver.prompts.base import AssistantMessage, Message, Prompt, UserMessage

__all__ = ["AssistantMessage", "Message", "Prompt", "UserMessage", "base"]
