"""`Message`, `UserMessage`, `AssistantMessage` at the v1 path
(`mcp.server.fastmcp.prompts.base`)."""

from ferrymcp.server.mcpserver.prompts.base import AssistantMessage, Message, Prompt, UserMessage

__all__ = ["AssistantMessage", "Message", "Prompt", "UserMessage"]
