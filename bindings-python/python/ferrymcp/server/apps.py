"""MCP Apps (`mcp.server.apps`): tools bound to `ui://` HTML resources that a host renders.

An `Apps` instance is an `Extension` (`io.modelcontextprotocol/ui`): `@apps.tool(resource_uri=...)`
marks a tool with `_meta.ui.resourceUri`, `add_html_resource(...)` serves the page as
`text/html;profile=mcp-app` with its `_meta.ui` (CSP, permissions, domain, border), and
`MCPServer(extensions=[apps])` registers both and declares the extension. A tool answers a
client that did not negotiate Apps in text (`client_supports_apps(ctx)`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from ferrymcp.server.extension import Extension, ResourceBinding, ToolBinding

EXTENSION_ID = "io.modelcontextprotocol/ui"
"""The MCP Apps extension identifier."""

APP_MIME_TYPE = "text/html;profile=mcp-app"
"""The MIME type of a `ui://` app resource."""

Visibility = Literal["model", "app"]
"""Where a UI-bound tool is surfaced (`_meta.ui.visibility`)."""

_CallableT = TypeVar("_CallableT", bound=Callable[..., Any])


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


class _UiFields:
    """A `_meta.ui` object: snake_case fields in Python, camelCase keys on the wire."""

    def model_dump(self, *, by_alias: bool = False, exclude_none: bool = False, **_: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for field in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, field.name)
            if exclude_none and value is None:
                continue
            out[_camel(field.name) if by_alias else field.name] = value
        return out


@dataclass
class ResourcePermissions(_UiFields):
    """Iframe permissions a `ui://` resource asks for (`_meta.ui.permissions`)."""

    camera: dict[str, Any] | None = None
    microphone: dict[str, Any] | None = None
    geolocation: dict[str, Any] | None = None
    clipboard_write: dict[str, Any] | None = None


@dataclass
class ResourceCsp(_UiFields):
    """Content-Security-Policy domains for a `ui://` resource (`_meta.ui.csp`)."""

    connect_domains: list[str] | None = None
    resource_domains: list[str] | None = None
    frame_domains: list[str] | None = None
    base_uri_domains: list[str] | None = None


def _require_ui_scheme(uri: str) -> None:
    if not str(uri).startswith("ui://"):
        raise ValueError(f"MCP Apps URIs must use the ui:// scheme, got {uri!r}")


class Apps(Extension):
    """The MCP Apps extension: tools bound to `ui://` resources (see the module doc)."""

    identifier = EXTENSION_ID

    def __init__(self) -> None:
        self._tools: list[tuple[ToolBinding, str]] = []
        self._resources: list[ResourceBinding] = []

    def tool(
        self,
        *,
        resource_uri: str,
        visibility: Sequence[Visibility] | None = None,
        meta: dict[str, Any] | None = None,
        **tool_kwargs: Any,
    ) -> Callable[[_CallableT], _CallableT]:
        """A decorator registering a tool that renders `resource_uri`: its definition
        carries `_meta.ui.resourceUri` (and `_meta.ui.visibility` when given), beside any
        other `meta` keys; `tool_kwargs` go to `MCPServer.add_tool`."""
        _require_ui_scheme(resource_uri)
        if meta and "ui" in meta:
            raise ValueError("Apps.tool() owns _meta['ui']; pass resource_uri=/visibility= instead of a 'ui' meta key")
        ui: dict[str, Any] = {"resourceUri": resource_uri}
        if visibility is not None:
            ui["visibility"] = list(visibility)

        def decorator(fn: _CallableT) -> _CallableT:
            self._tools.append((ToolBinding(fn=fn, meta={**(meta or {}), "ui": ui}, kwargs=tool_kwargs), resource_uri))
            return fn

        return decorator

    def add_html_resource(
        self,
        uri: str,
        html: str,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        csp: ResourceCsp | None = None,
        permissions: ResourcePermissions | None = None,
        domain: str | None = None,
        prefers_border: bool | None = None,
    ) -> None:
        """Serves `html` at the `ui://` URI `uri` as `text/html;profile=mcp-app`; `csp`,
        `permissions`, `domain` and `prefers_border` go under its `_meta.ui`."""
        from ferrymcp.server.mcpserver.resources import TextResource

        ui: dict[str, Any] = {}
        if csp is not None:
            ui["csp"] = csp.model_dump(by_alias=True, exclude_none=True)
        if permissions is not None:
            ui["permissions"] = permissions.model_dump(by_alias=True, exclude_none=True)
        if domain is not None:
            ui["domain"] = domain
        if prefers_border is not None:
            ui["prefersBorder"] = prefers_border
        self.add_resource(
            TextResource(
                uri=uri,
                name=name or uri,
                title=title,
                description=description,
                mime_type=APP_MIME_TYPE,
                meta={"ui": ui} if ui else None,
                text=html,
            )
        )

    def add_resource(self, resource: Any) -> None:
        """Serves a prebuilt `ui://` resource object (a `FileResource` of HTML, say); one
        without a MIME type is served as `text/html;profile=mcp-app`, another is refused."""
        _require_ui_scheme(resource.uri)
        if resource.mime_type is None:
            resource = dataclasses.replace(resource, mime_type=APP_MIME_TYPE)
        elif resource.mime_type != APP_MIME_TYPE:
            raise ValueError(f"MCP Apps resources are served as {APP_MIME_TYPE!r}, got {resource.mime_type!r}")
        self._resources.append(ResourceBinding(resource=resource))

    def tools(self) -> Sequence[ToolBinding]:
        """The bound tools; a tool whose `resource_uri` is not served here is an error."""
        served = {str(binding.resource.uri) for binding in self._resources}
        for tool, uri in self._tools:
            if uri not in served:
                raise ValueError(
                    f"Apps tool {tool.fn.__name__!r} binds resource_uri {uri!r}, but no such resource "
                    "is registered; add it with add_html_resource() or add_resource()"
                )
        return [tool for tool, _ in self._tools]

    def resources(self) -> Sequence[ResourceBinding]:
        return list(self._resources)


def client_supports_apps(ctx: Any) -> bool:
    """Whether the client negotiated MCP Apps: it declared the extension and listed
    `text/html;profile=mcp-app` among its `mimeTypes`."""
    capabilities = getattr(ctx, "client_capabilities", None)
    if capabilities is None and getattr(ctx, "session", None) is not None:
        capabilities = ctx.session.client_capabilities
    extensions = getattr(capabilities, "extensions", None) if capabilities is not None else None
    settings = extensions.get(EXTENSION_ID) if isinstance(extensions, dict) else None
    if not isinstance(settings, dict):
        return False
    mime_types = settings.get("mimeTypes")
    return isinstance(mime_types, list | tuple) and APP_MIME_TYPE in mime_types


__all__ = [
    "APP_MIME_TYPE",
    "EXTENSION_ID",
    "Apps",
    "ResourceCsp",
    "ResourcePermissions",
    "Visibility",
    "client_supports_apps",
]
