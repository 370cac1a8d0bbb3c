"""Resource objects at the official path (`mcp.server.mcpserver.resources`), registered
with `MCPServer.add_resource(resource)`.

Each object describes one concrete resource (a URI without template variables) and how
to read it: fixed text or bytes, a function called on every read, or a file read on every
read. `add_resource` turns it into the same registration `@mcp.resource(uri)` makes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ferrymcp.server._resource_security import DEFAULT_RESOURCE_SECURITY, ResourceSecurity
from ferrymcp.types import Icon


@dataclass(kw_only=True)
class Resource:
    """What every resource object declares."""

    uri: str
    name: str | None = None
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    icons: list[Icon] | None = None
    annotations: Any = None
    meta: dict[str, Any] | None = None

    def reader(self) -> Callable[[], Any]:
        """The function a read calls; its return value is converted as a decorated
        resource function's is."""
        raise NotImplementedError


@dataclass(kw_only=True)
class TextResource(Resource):
    """A resource with fixed text."""

    text: str

    def reader(self) -> Callable[[], Any]:
        return lambda: self.text


@dataclass(kw_only=True)
class BinaryResource(Resource):
    """A resource with fixed bytes (sent as a blob)."""

    data: bytes
    mime_type: str | None = "application/octet-stream"

    def reader(self) -> Callable[[], Any]:
        return lambda: self.data


@dataclass(kw_only=True)
class FunctionResource(Resource):
    """A resource whose content a function returns on every read."""

    fn: Callable[[], Any]

    @classmethod
    def from_function(cls, fn: Callable[..., Any], uri: str, **fields: Any) -> FunctionResource:
        return cls(fn=fn, uri=uri, **fields)

    def reader(self) -> Callable[[], Any]:
        return self.fn


@dataclass(kw_only=True)
class FileResource(Resource):
    """A file, read on every read: text unless `is_binary`."""

    path: Path
    is_binary: bool = False
    encoding: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.path = Path(self.path)
        if not self.path.is_absolute():
            raise ValueError("Path must be absolute")

    def reader(self) -> Callable[[], Any]:
        def read() -> str | bytes:
            if self.is_binary:
                return self.path.read_bytes()
            return self.path.read_text(encoding=self.encoding or "utf-8")

        return read


__all__ = [
    "DEFAULT_RESOURCE_SECURITY",
    "BinaryResource",
    "FileResource",
    "FunctionResource",
    "Resource",
    "ResourceSecurity",
    "TextResource",
]
