"""`Message`, `UserMessage`, `AssistantMessage` at the v1 path
(`mcp.server.fastmcp.prompts.base`)."""

from ferrymcp.server.prompts import AssistantMessage, Message, UserMessage

__all__ = ["AssistantMessage", "Message", "UserMessage"]
