"""Prompt messages as the official SDK spells them: `Message`, `UserMessage`,
`AssistantMessage`.

A prompt function returns these (or strings, content blocks, dicts); `content` may be a
string (a text block), an `Image`/`Audio` helper or any content block.
"""

from __future__ import annotations

from typing import Any, Literal

from ferrymcp._media import Audio, Image
from ferrymcp.types import ContentBlock, PromptMessage, TextContent


def _content(content: Any) -> Any:
    if isinstance(content, str):
        return TextContent(type="text", text=content)
    if isinstance(content, Image):
        return content.to_image_content()
    if isinstance(content, Audio):
        return content.to_audio_content()
    return content


class Message(PromptMessage):
    """A prompt message with a role."""

    role: Literal["user", "assistant"]
    content: ContentBlock

    def __init__(self, content: str | ContentBlock | Image | Audio | None = None, **kwargs: Any) -> None:
        if content is None:
            content = kwargs.pop("content")
        super().__init__(content=_content(content), **kwargs)


class UserMessage(Message):
    """A message from the user."""

    role: Literal["user", "assistant"] = "user"


class AssistantMessage(Message):
    """A message from the assistant."""

    role: Literal["user", "assistant"] = "assistant"
