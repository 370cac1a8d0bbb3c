"""The low-level `Server` of the official 2.x API: the application answers MCP's feature
methods itself.

    server = Server("Bookshop", on_list_tools=list_tools, on_call_tool=call_tool)

Each `on_*` handler takes `(ctx: ServerRequestContext, params)` (the request's typed
params, `None` for a list request without any) and returns the typed result. The engine
serves them through core's application-answered methods (`set_feature_handler`), so
sessions, both eras, cancellation, progress, client input, result stamping and the
capabilities derived from which handlers are set are core's, as for `MCPServer`. The
server runs like an `MCPServer` (`run()`, `run_streamable_http_async()`,
`streamable_http_app()`, `Client(server)` in memory). Handlers ferrymcp does not take yet
(`on_subscriptions_listen`, `on_roots_list_changed`, `on_progress`, a custom `on_ping`)
raise `NotImplementedError` naming them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

from ferrymcp._session import ServerSession
from ferrymcp.server._tools import wire
from ferrymcp.server.context import ServerRequestContext
from ferrymcp.server.mcpserver.server import MCPServer
from ferrymcp.types import (
    CallToolRequestParams,
    CompleteRequestParams,
    GetPromptRequestParams,
    Icon,
    PaginatedRequestParams,
    ReadResourceRequestParams,
    SetLevelRequestParams,
    SubscribeRequestParams,
    UnsubscribeRequestParams,
)

if TYPE_CHECKING:
    from ferrymcp._native import NativeServer

Handler = Callable[[ServerRequestContext[Any, Any], Any], Awaitable[Any]]

# Each handler keyword: the method it answers and the class of its params (`None` when a
# list request may come without params).
_HANDLERS: dict[str, tuple[str, Any, bool]] = {
    "on_list_tools": ("tools/list", PaginatedRequestParams, True),
    "on_call_tool": ("tools/call", CallToolRequestParams, False),
    "on_list_resources": ("resources/list", PaginatedRequestParams, True),
    "on_list_resource_templates": ("resources/templates/list", PaginatedRequestParams, True),
    "on_read_resource": ("resources/read", ReadResourceRequestParams, False),
    "on_subscribe_resource": ("resources/subscribe", SubscribeRequestParams, False),
    "on_unsubscribe_resource": ("resources/unsubscribe", UnsubscribeRequestParams, False),
    "on_list_prompts": ("prompts/list", PaginatedRequestParams, True),
    "on_get_prompt": ("prompts/get", GetPromptRequestParams, False),
    "on_completion": ("completion/complete", CompleteRequestParams, False),
    "on_set_logging_level": ("logging/setLevel", SetLevelRequestParams, False),
}
_UNSUPPORTED = ("on_subscriptions_listen", "on_roots_list_changed", "on_progress", "on_ping")


class NotificationOptions:
    """Which list changes the server announces to legacy clients (`listChanged`)."""

    def __init__(self, prompts_changed: bool = False, resources_changed: bool = False, tools_changed: bool = False):
        self.prompts_changed = prompts_changed
        self.resources_changed = resources_changed
        self.tools_changed = tools_changed


class Server(MCPServer[Any]):
    """The low-level server (see the module doc)."""

    def __init__(
        self,
        name: str,
        *,
        version: str = "",
        title: str | None = None,
        description: str | None = None,
        instructions: str | None = None,
        website_url: str | None = None,
        icons: list[Icon] | None = None,
        cache_hints: Mapping[str, Any] | None = None,
        lifespan: Callable[[Any], AbstractAsyncContextManager[Any]] | None = None,
        **handlers: Any,
    ) -> None:
        unknown = sorted(set(handlers) - set(_HANDLERS) - set(_UNSUPPORTED))
        if unknown:
            raise TypeError(f"Server() got unexpected keyword arguments {unknown}")
        refused = sorted(name for name in _UNSUPPORTED if handlers.get(name) is not None)
        if refused:
            raise NotImplementedError(f"Server({', '.join(refused)}=...) is not supported by ferrymcp yet")
        super().__init__(
            name,
            title=title,
            description=description,
            instructions=instructions,
            website_url=website_url,
            icons=icons,
            version=version,
            lifespan=lifespan,
            cache_hints=cache_hints,
        )
        # The engine derives capabilities from the handlers set (no lists up front), and a
        # failing handler is a JSON-RPC error, not a tool result.
        self._options.pop("features_up_front", None)
        self._options.pop("tool_error_names_tool", None)
        self._handlers: dict[str, Handler] = {}
        self._notification_options = NotificationOptions()
        for keyword, handler in handlers.items():
            if handler is not None:
                self._handlers[keyword] = handler

    def _native_server(self) -> NativeServer:
        fresh = self._registry.native is None
        native = super()._native_server()
        if fresh:
            for keyword, handler in self._handlers.items():
                method, params_type, optional = _HANDLERS[keyword]
                native.set_feature_handler(method, self._adapter(method, handler, params_type, optional), True)
        return native

    def _adapter(self, method: str, handler: Handler, params_type: Any, optional: bool) -> Callable[..., Any]:
        async def answer(params: dict[str, Any], native_ctx: Any) -> dict[str, Any]:
            meta = params.get("_meta")
            ctx: ServerRequestContext[Any, Any] = ServerRequestContext(
                session=ServerSession(native_ctx, self),
                lifespan_context=self._lifespan_context,
                protocol_version=native_ctx.protocol_version,
                method=method,
                params=params,
                request_id=native_ctx.request_id,
                meta=meta if isinstance(meta, dict) else None,
            )
            bare = {key: value for key, value in params.items() if key != "_meta"}
            typed = None if optional and not bare else params_type.model_validate(params)
            result = await handler(ctx, typed)
            dumped = wire(result) if result is not None else {}
            return dumped if isinstance(dumped, dict) else {}

        return answer

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """The options `run()` takes (1.x); their list-change flags are declared."""
        if notification_options is not None:
            self._notification_options = notification_options
        if experimental_capabilities:
            raise NotImplementedError("create_initialization_options(experimental_capabilities=...) in ferrymcp")
        return {"notification_options": self._notification_options}

    def _capabilities(self) -> dict[str, Any]:
        declared = super()._capabilities()
        options = self._notification_options
        for feature, changed in (
            ("tools", options.tools_changed),
            ("resources", options.resources_changed),
            ("prompts", options.prompts_changed),
        ):
            if changed:
                declared[feature] = {"listChanged": True}
        return declared


__all__ = ["NotificationOptions", "Server"]
