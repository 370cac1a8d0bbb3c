"""Server extensions (SEP-2133) at the official SDK's path, `mcp.server.extension`.

An `Extension` is passed to `MCPServer(extensions=[...])`: its `identifier` (a
`vendor-prefix/name` string) and `settings()` are declared under
`capabilities.extensions` (the engine merges them over the capabilities it derives, in
both eras), and the tools it returns from `tools()` are registered like `add_tool`'s.
The resources it returns from `resources()` are registered like `add_resource`'s. The
contributions the engine cannot take yet raise naming themselves when the server applies
the extension: none at present. The request methods of `methods()` are served like the
low-level `Server.add_request_handler`'s, and an overridden `intercept_tool_call` wraps
every `tools/call` (through the engine's middleware hook, inside `MCPServer.middleware`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

# A reverse-DNS prefix of dot-separated labels (a letter first, a letter or digit last,
# hyphens inside), a slash, and a name (alphanumeric at both ends; `.`, `_`, `-` inside).
_IDENTIFIER = re.compile(
    r"[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*"
    r"/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"
)


def validate_extension_identifier(identifier: Any, *, owner: str) -> None:
    """Raises `TypeError` unless `identifier` is a `vendor-prefix/name` string."""
    if not isinstance(identifier, str) or _IDENTIFIER.fullmatch(identifier) is None:
        raise TypeError(
            f"{owner}.identifier must be a `vendor-prefix/name` string (reverse-DNS prefix required), "
            f"got {identifier!r}"
        )


@dataclass(frozen=True)
class ToolBinding:
    """A tool an extension contributes: `fn` with `add_tool`'s keyword arguments, and the
    `_meta` to put on its definition."""

    fn: Callable[..., Any]
    meta: dict[str, Any] | None = None
    kwargs: dict[str, Any] = field(default_factory=lambda: {})


@dataclass(frozen=True)
class ResourceBinding:
    """A prebuilt resource an extension contributes (a `ferrymcp.server.mcpserver.resources` object)."""

    resource: Any


@dataclass(frozen=True)
class MethodBinding:
    """A request method an extension serves: `handler(ctx, params)`, params validated as `params_type`."""

    method: str
    params_type: Any
    handler: Callable[..., Any]
    protocol_versions: frozenset[str] | None = None
    """The protocol versions the method is served at (other versions: "Method not found");
    `None`: every version."""

    def __post_init__(self) -> None:
        if self.protocol_versions is not None and not self.protocol_versions:
            raise ValueError(
                f"MethodBinding for {self.method!r} has an empty protocol_versions set, so it could "
                "never be served; use None to admit every version"
            )


class Extension:
    """An opt-in bundle of MCP behaviour; subclass it, set `identifier`, and override what
    the extension contributes."""

    identifier: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        identifier = cls.__dict__.get("identifier")
        if identifier is not None:
            validate_extension_identifier(identifier, owner=cls.__name__)

    def settings(self) -> dict[str, Any]:
        """What the server declares at `capabilities.extensions[identifier]` (`{}`: no settings)."""
        return {}

    def tools(self) -> Sequence[ToolBinding]:
        return ()

    def resources(self) -> Sequence[ResourceBinding]:
        return ()

    def methods(self) -> Sequence[MethodBinding]:
        return ()

    async def intercept_tool_call(self, params: Any, ctx: Any, call_next: Callable[..., Any]) -> Any:
        """Wraps `tools/call`; the default passes it through (ferrymcp refuses overrides)."""
        return await call_next(ctx)


__all__ = [
    "Extension",
    "MethodBinding",
    "ResourceBinding",
    "ToolBinding",
    "validate_extension_identifier",
]
