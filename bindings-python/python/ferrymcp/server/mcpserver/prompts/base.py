"""Prompt messages and `Prompt` at the official path (`mcp.server.mcpserver.prompts.base`).

`Prompt.from_function` describes a prompt made from a function without registering it;
`MCPServer.add_prompt(prompt)` registers it, exactly as `@mcp.prompt(...)` would.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ferrymcp._signature import function_name
from ferrymcp.server.prompts import AssistantMessage, Message, UserMessage
from ferrymcp.types import Icon, PromptArgument


@dataclass
class Prompt:
    """A prompt made from a function, waiting for `MCPServer.add_prompt`."""

    name: str
    fn: Callable[..., Any]
    title: str | None = None
    description: str | None = None
    icons: list[Icon] | None = None
    arguments: list[PromptArgument] | None = field(default=None)

    @classmethod
    def from_function(
        cls,
        fn: Callable[..., Any],
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        icons: list[Icon] | None = None,
        context_kwarg: str | None = None,
    ) -> Prompt:
        """The prompt `fn` makes (its name, docstring and parameters unless given);
        `context_kwarg` names the `Context` parameter when its annotation does not."""
        if context_kwarg is not None:
            raise TypeError(
                "Prompt.from_function(context_kwarg=...) is not supported by ferrymcp: annotate the "
                "parameter with Context and it is found"
            )
        prompt_name = name or function_name(fn)
        if prompt_name == "<lambda>":
            raise ValueError("You must provide a name for lambda functions")
        return cls(name=prompt_name, fn=fn, title=title, description=description or fn.__doc__, icons=icons)


__all__ = ["AssistantMessage", "Message", "Prompt", "PromptArgument", "UserMessage"]
