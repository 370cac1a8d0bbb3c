"""`mcp.server.mcpserver.tools` at ferrymcp's path: `Tool`, a tool made from a function
that `MCPServer.add_tool(tool)` registers as `@mcp.tool(...)` would."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ferrymcp._signature import function_name


@dataclass
class Tool:
    """A tool made from a function, with the keywords `MCPServer.add_tool` takes."""

    fn: Callable[..., Any]
    name: str
    options: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_function(cls, fn: Callable[..., Any], name: str | None = None, **options: Any) -> Tool:
        """The tool `fn` makes; `options` are `add_tool`'s keywords (`title`,
        `description`, `annotations`, `icons`, `meta`, `structured_output`)."""
        return cls(fn=fn, name=name or function_name(fn), options=options)


__all__ = ["Tool"]
