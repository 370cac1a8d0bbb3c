"""The low-level `Server` of the official 2.x API: the application answers MCP's feature
methods itself.

    server = Server("Bookshop", on_list_tools=list_tools, on_call_tool=call_tool)

Each `on_*` handler takes `(ctx: ServerRequestContext, params)` (the request's typed
params, `None` for a list request without any) and returns the typed result. The 1.x
decorators register the same handlers (`@server.list_tools()`, `@server.call_tool()`,
`@server.read_resource()`, ... with 1.x's function shapes and return conversions), and
`server.run(read, write, server.create_initialization_options())` with the pair of
`ferrymcp.server.stdio.stdio_server()` serves stdio. The engine
serves them through core's application-answered methods (`set_feature_handler`), so
sessions, both eras, cancellation, progress, client input, result stamping and the
capabilities derived from which handlers are set are core's, as for `MCPServer`. The
server runs like an `MCPServer` (`run()`, `run_streamable_http_async()`,
`streamable_http_app()`, `Client(server)` in memory). Handlers ferrymcp does not take yet
(`on_progress`, a custom `on_ping`) raise `NotImplementedError` naming them;
`on_subscriptions_listen` takes a `ferrymcp.server.subscriptions.ListenHandler` (the engine
serves the streams, fed by its bus).
"""

from __future__ import annotations

import base64
import functools
import inspect
import json
import logging
import typing
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ferrymcp import _native
from ferrymcp import types as _types
from ferrymcp.exceptions import UrlElicitationRequiredError
from ferrymcp.server._tools import wire
from ferrymcp.server.context import CURRENT_REQUEST, ServerRequestContext
from ferrymcp.server.lowlevel.experimental import ExperimentalHandlers
from ferrymcp.server.mcpserver.server import MCPServer, _auth_server_options, _bearer_options, _check_auth
from ferrymcp.server.models import InitializationOptions
from ferrymcp.server.request_state import RequestStateBoundary
from ferrymcp.server.subscriptions import ListenHandler
from ferrymcp.shared.tool_name_validation import validate_and_warn_tool_name
from ferrymcp.types import (
    CallToolRequestParams,
    CallToolResult,
    CompleteRequestParams,
    GetPromptRequestParams,
    Icon,
    ListPromptsRequest,
    ListPromptsResult,
    ListResourcesRequest,
    ListResourcesResult,
    ListResourceTemplatesRequest,
    ListResourceTemplatesResult,
    ListToolsRequest,
    ListToolsResult,
    PaginatedRequestParams,
    ReadResourceRequestParams,
    ServerCapabilities,
    SetLevelRequestParams,
    SubscribeRequestParams,
    TextContent,
    UnsubscribeRequestParams,
)

if TYPE_CHECKING:
    from ferrymcp._native import NativeServer
    from ferrymcp.server.experimental._store_bridge import StoreBridge

LifespanResultT = TypeVar("LifespanResultT")
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
_UNSUPPORTED = ("on_progress", "on_ping")
# Handler keywords for client notifications: keyword -> (method, params type name in ferrymcp.types).
_NOTIFICATION_HANDLERS = {"on_roots_list_changed": ("notifications/roots/list_changed", "NotificationParams")}


@dataclass(frozen=True, slots=True)
class HandlerEntry(Generic[LifespanResultT]):
    """A registered handler and the params model its requests are validated as (what
    `get_request_handler` and `get_notification_handler` give)."""

    params_type: Any
    handler: Callable[..., Any]


class NotificationOptions:
    """Which list changes the server announces to legacy clients (`listChanged`)."""

    def __init__(self, prompts_changed: bool = False, resources_changed: bool = False, tools_changed: bool = False):
        self.prompts_changed = prompts_changed
        self.resources_changed = resources_changed
        self.tools_changed = tools_changed


class Server(MCPServer[LifespanResultT]):
    """The low-level server (see the module doc)."""

    def __init__(
        self,
        name: str,
        version: str | None = "",
        instructions: str | None = None,
        website_url: str | None = None,
        icons: list[Icon] | None = None,
        *,
        title: str | None = None,
        description: str | None = None,
        cache_hints: Mapping[str, Any] | None = None,
        lifespan: Callable[[Any], AbstractAsyncContextManager[Any]] | None = None,
        **handlers: Any,
    ) -> None:
        listen = handlers.pop("on_subscriptions_listen", None)
        if listen is not None and not isinstance(listen, ListenHandler):
            raise NotImplementedError(
                "Server(on_subscriptions_listen=...) takes a ferrymcp.server.subscriptions.ListenHandler: ferrymcp's"
                " engine serves subscriptions/listen itself, fed by the handler's bus"
            )
        unknown = sorted(set(handlers) - set(_HANDLERS) - set(_UNSUPPORTED) - set(_NOTIFICATION_HANDLERS))
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
            version=version or "",
            lifespan=lifespan,
            cache_hints=cache_hints,
        )
        # The engine derives capabilities from the handlers set (no lists up front), and a
        # failing handler is a JSON-RPC error, not a tool result.
        self._options.pop("features_up_front", None)
        self._options.pop("tool_error_names_tool", None)
        self._options.pop("unknown_tool_is_result", None)
        # The handler's own `request_state` is the application's to protect until a
        # `RequestStateBoundary` is appended to the list, as on the official low-level server.
        self._middleware = [m for m in self._middleware if not isinstance(m, RequestStateBoundary)]
        if listen is not None:
            self._use_listen_handler(listen)
        self._handlers: dict[str, Handler] = {}
        # What `@server.list_tools()` last listed, to check calls against (1.x's tool cache).
        self._listed_tools = _native.NativeListedTools()
        self._list_tools_1x = False
        self._spec_tasks = False
        self._task_bridge: StoreBridge | None = None
        self._experimental: ExperimentalHandlers | None = None
        self._notification_options = NotificationOptions()
        self._notification_handlers: dict[str, tuple[Any, Callable[..., Any]]] = {}
        for keyword, handler in handlers.items():
            if handler is None:
                continue
            if keyword in _NOTIFICATION_HANDLERS:
                method, params_name = _NOTIFICATION_HANDLERS[keyword]
                self.add_notification_handler(method, getattr(_types, params_name), handler)
            else:
                self._handlers[keyword] = handler

    @property
    def middleware(self) -> list[Any]:
        """The hooks around every inbound message, outermost first (as the official
        attribute: an `OpenTelemetryMiddleware` first; a list may be assigned)."""
        return self._middleware

    @middleware.setter
    def middleware(self, hooks: list[Any]) -> None:
        self._middleware = hooks

    def _native_server(self) -> NativeServer:
        fresh = self._registry.native is None
        native = super()._native_server()
        if fresh:
            for keyword, handler in self._handlers.items():
                method, params_type, optional = _HANDLERS[keyword]
                native.set_request_handler(method, self._request_adapter(method, handler, params_type, optional), True)
            for method, (params_type, handler) in self._notification_handlers.items():
                native.set_notification_handler(method, self._notification_adapter(method, params_type, handler), True)
            if self._spec_tasks:
                native.enable_spec_tasks()
            if self._task_bridge is not None:
                native.set_task_store(self._task_bridge.call)
        return native

    @property
    def experimental(self) -> ExperimentalHandlers:
        """The 2025-11-25 tasks (`server.experimental.enable_tasks()`, as 1.x's)."""
        if self._experimental is None:
            self._experimental = ExperimentalHandlers(self)
        return self._experimental

    def _set_task_bridge(self, bridge: StoreBridge) -> None:
        self._task_bridge = bridge
        if self._registry.native is not None:
            self._registry.native.set_task_store(bridge.call)

    def _enable_spec_tasks(self) -> None:
        self._spec_tasks = True
        if self._registry.native is not None:
            self._registry.native.enable_spec_tasks()

    def add_request_handler(self, method: str, params_type: Any, handler: Handler) -> None:
        """Serves request `method` (one of the application's own, or one of MCP's feature
        methods) with `handler(ctx, params)`, its params validated as `params_type`
        (absent params as `{}`). A later call replaces the handler; `initialize` and the
        engine's other session methods are refused."""
        if method == "initialize":
            raise ValueError(
                "'initialize' is handled by the server runner and cannot be overridden; "
                "use Server.middleware to observe or wrap initialization"
            )
        self._serve_method(method, params_type, handler)

    def get_request_handler(self, method: str) -> HandlerEntry[LifespanResultT] | None:
        """The entry (params model and handler) serving request `method`, given to the
        constructor or to `add_request_handler`, or `None`."""
        custom = self._custom.get(method)
        if custom is not None:
            return HandlerEntry(*custom)
        for keyword, handler in self._handlers.items():
            served, params_type, _ = _HANDLERS[keyword]
            if served == method:
                return HandlerEntry(params_type, handler)
        return None

    def get_notification_handler(self, method: str) -> HandlerEntry[LifespanResultT] | None:
        """The entry (params model and handler) for client notification `method`, or `None`."""
        entry = self._notification_handlers.get(method)
        return HandlerEntry(*entry) if entry is not None else None

    def add_notification_handler(self, method: str, params_type: Any, handler: Any) -> None:
        """Delivers client notification `method` to `handler(ctx, params)` (params validated
        as `params_type`); a later call replaces the handler. The engine's own
        notifications (`notifications/cancelled`, `notifications/progress`) are refused. The
        context has no session: a notification cannot be answered, and ferrymcp does not
        yet give its handler a way back to the client."""
        self._notification_handlers[method] = (params_type, handler)
        native = self._registry.native
        if native is not None:
            native.set_notification_handler(method, self._notification_adapter(method, params_type, handler), True)

    def _notification_adapter(self, method: str, params_type: Any, handler: Any) -> Callable[..., Any]:
        async def deliver(params: Any) -> None:
            params = params if isinstance(params, dict) else {}
            meta = params.get("_meta")
            ctx: ServerRequestContext[Any, Any] = ServerRequestContext(
                session=None,  # type: ignore[arg-type]
                lifespan_context=self._lifespan_context,
                protocol_version="",
                method=method,
                params=params,
                request_id=None,
                meta=meta if isinstance(meta, dict) else None,
            )
            try:
                result = handler(ctx, params_type.model_validate(params))
                if inspect.isawaitable(result):
                    await result
            except Exception:
                logging.getLogger(__name__).exception("the handler of notification %s raised", method)

        return deliver

    # -- the 1.x decorators ----------------------------------------------------------

    def _decorate(self, keyword: str, make: Callable[[Callable[..., Any]], Handler]) -> Callable[[Any], Any]:
        def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
            self._handlers[keyword] = make(func)
            native = self._registry.native
            if native is None:
                # A decorator is 1.x's API (2.x has none): the server answers as 1.x's does
                # where 2.x's differs (core's `ServerOptions::python_v1`).
                self._options["dialect"] = "python-sdk-1"
            if native is not None:
                method, params_type, optional = _HANDLERS[keyword]
                native.set_request_handler(
                    method, self._request_adapter(method, self._handlers[keyword], params_type, optional), True
                )
            return func

        return decorator

    def list_tools(self) -> Callable[[Any], Any]:  # type: ignore[override]
        """1.x: `@server.list_tools()` over `async def f() -> list[Tool]`, or over
        `async def f(request: ListToolsRequest) -> ListToolsResult` (the request, with
        `request.params.cursor`, as 1.x passes it; so for the other lists)."""

        async def wrap(func: Callable[..., Any], ctx: Any, params: Any) -> Any:
            result = await _call(func, ListToolsRequest, params)
            listed = result if isinstance(result, ListToolsResult) else ListToolsResult(tools=list(result))
            # 1.x checks each listed name against the 2025-11-25 naming rule, on every
            # listing, and logs what it finds (the tool is listed all the same); and
            # remembers the tools (a plain list replaces what it knew, a result adds to it)
            # for `call_tool` to check calls against.
            for tool in listed.tools:
                validate_and_warn_tool_name(tool.name)
            self._listed_tools.record(wire(listed.tools), not isinstance(result, ListToolsResult))
            return listed

        def make(func: Callable[..., Any]) -> Handler:
            self._list_tools_1x = True
            return functools.partial(wrap, func)

        return self._decorate("on_list_tools", make)

    def call_tool(self, *, validate_input: bool = True) -> Callable[[Any], Any]:  # type: ignore[override]
        """1.x: `@server.call_tool()` over `async def f(name, arguments)` returning content
        blocks, a dict (structured output, also sent as JSON text), both as a tuple, or a
        `CallToolResult`; an exception is an `isError` result with its text. As 1.x does,
        the call is checked against the tool `@server.list_tools()` listed (listing again
        when the name is not known yet): its arguments against the `inputSchema` when
        `validate_input`, and a structured result (not a `CallToolResult` returned as is)
        against the `outputSchema`; a failure is an `isError` result. Core validates and
        words the verdicts."""

        async def wrap(func: Callable[..., Any], ctx: Any, params: Any) -> Any:
            name, arguments = params.name, params.arguments or {}
            try:
                listed = await self._listed_tool(ctx, name)
                problem = self._listed_tools.check_input(name, arguments) if validate_input and listed else None
                if problem is not None:
                    return _error_result(problem)
                result = await func(name, arguments)
                if isinstance(result, (CallToolResult, _types.CreateTaskResult)):
                    return result
                converted = _tool_result(result)
                if listed and isinstance(converted, dict):
                    problem = self._listed_tools.check_output(name, converted.get("structuredContent"))
                    if problem is not None:
                        return _error_result(problem)
                return converted
            except UrlElicitationRequiredError:
                # Answered as the JSON-RPC error it is (-32042), as 1.x re-raises it.
                raise
            except Exception as error:  # noqa: BLE001 - 1.x makes any failure an isError result
                return _error_result(str(error))

        return self._decorate("on_call_tool", lambda func: functools.partial(wrap, func))

    async def _listed_tool(self, ctx: Any, name: str) -> bool:
        """Whether `name` was listed, listing the tools again first when it is not known
        and there is a list handler (1.x's cache refresh); logs, as 1.x does, when the tool
        stays unknown and so unchecked."""
        if not self._listed_tools.knows(name):
            refresh = self._handlers.get("on_list_tools") if self._list_tools_1x else None
            if refresh is not None:
                await refresh(ctx, None)
        if self._listed_tools.knows(name):
            return True
        logging.getLogger(__name__).warning("Tool '%s' not listed, no validation will be performed", name)
        return False

    def list_resources(self) -> Callable[[Any], Any]:  # type: ignore[override]
        async def wrap(func: Callable[..., Any], ctx: Any, params: Any) -> Any:
            result = await _call(func, ListResourcesRequest, params)
            return result if isinstance(result, ListResourcesResult) else ListResourcesResult(resources=list(result))

        return self._decorate("on_list_resources", lambda func: functools.partial(wrap, func))

    def list_resource_templates(self) -> Callable[[Any], Any]:  # type: ignore[override]
        async def wrap(func: Callable[..., Any], ctx: Any, params: Any) -> Any:
            result = await _call(func, ListResourceTemplatesRequest, params)
            if isinstance(result, ListResourceTemplatesResult):
                return result
            return ListResourceTemplatesResult(resource_templates=list(result))

        return self._decorate("on_list_resource_templates", lambda func: functools.partial(wrap, func))

    def read_resource(self) -> Callable[[Any], Any]:
        """1.x: `@server.read_resource()` over `async def f(uri)` returning
        `ReadResourceContents` items (or, deprecated there, `str` / `bytes`). The URI is
        pydantic's `AnyUrl`, as 1.x passes it (`uri.path`, `uri.host`), when pydantic is
        installed (1.x requires it), else the `str`; the contents carry its text."""

        async def wrap(func: Callable[..., Any], ctx: Any, params: Any) -> Any:
            uri = _any_url(params.uri)
            result = await func(uri)
            uri = str(uri)
            items = [result] if isinstance(result, (str, bytes)) else list(result)
            return {"contents": [_resource_contents(uri, item) for item in items]}

        return self._decorate("on_read_resource", lambda func: functools.partial(wrap, func))

    def list_prompts(self) -> Callable[[Any], Any]:  # type: ignore[override]
        async def wrap(func: Callable[..., Any], ctx: Any, params: Any) -> Any:
            result = await _call(func, ListPromptsRequest, params)
            return result if isinstance(result, ListPromptsResult) else ListPromptsResult(prompts=list(result))

        return self._decorate("on_list_prompts", lambda func: functools.partial(wrap, func))

    def get_prompt(self) -> Callable[[Any], Any]:  # type: ignore[override]
        async def wrap(func: Callable[..., Any], ctx: Any, params: Any) -> Any:
            return await func(params.name, params.arguments)

        return self._decorate("on_get_prompt", lambda func: functools.partial(wrap, func))

    def completion(self) -> Callable[[Any], Any]:
        async def wrap(func: Callable[..., Any], ctx: Any, params: Any) -> Any:
            completion = await func(params.ref, params.argument, params.context)
            return {"completion": wire(completion) if completion is not None else {"values": []}}

        return self._decorate("on_completion", lambda func: functools.partial(wrap, func))

    def set_logging_level(self) -> Callable[[Any], Any]:
        async def wrap(func: Callable[..., Any], ctx: Any, params: Any) -> Any:
            await func(params.level)
            return {}

        return self._decorate("on_set_logging_level", lambda func: functools.partial(wrap, func))

    def subscribe_resource(self) -> Callable[[Any], Any]:
        async def wrap(func: Callable[..., Any], ctx: Any, params: Any) -> Any:
            await func(params.uri)
            return {}

        return self._decorate("on_subscribe_resource", lambda func: functools.partial(wrap, func))

    def unsubscribe_resource(self) -> Callable[[Any], Any]:
        async def wrap(func: Callable[..., Any], ctx: Any, params: Any) -> Any:
            await func(params.uri)
            return {}

        return self._decorate("on_unsubscribe_resource", lambda func: functools.partial(wrap, func))

    def progress_notification(self) -> Callable[[Any], Any]:
        raise NotImplementedError("@server.progress_notification() is not supported by ferrymcp yet")

    @property
    def request_context(self) -> ServerRequestContext[Any, Any]:
        """The request being served (a `LookupError` outside one), as 1.x's
        `server.request_context`."""
        return CURRENT_REQUEST.get()

    def streamable_http_app(
        self,
        *,
        auth: Any = None,
        token_verifier: Any = None,
        auth_server_provider: Any = None,
        custom_starlette_routes: list[Any] | None = None,
        debug: bool = False,
        **kwargs: Any,
    ) -> Any:
        """The endpoint as an ASGI app, as `MCPServer.streamable_http_app()`, plus what the
        official low-level server's takes: bearer auth (`auth=` with `token_verifier=`), the
        authorization server of an `auth_server_provider=` (served by the engine beside the
        endpoint; as there, tokens are required only with a `token_verifier=`), Starlette
        routes of the application's own, and Starlette's `debug`."""
        _check_auth(auth, token_verifier, auth_server_provider, both=True)
        if auth is None:
            bearer, auth_server = self._bearer(), self._auth_server()
        else:
            bearer = None if token_verifier is None else _bearer_options(auth, token_verifier)
            auth_server = None if auth_server_provider is None else _auth_server_options(auth, auth_server_provider)
        return self._http_app(kwargs, bearer, list(custom_starlette_routes or []), debug, auth_server=auth_server)

    async def run(  # type: ignore[override]
        self,
        read_stream: Any,
        write_stream: Any,
        initialization_options: Any = None,
        raise_exceptions: bool = False,
        stateless: bool = False,
    ) -> None:
        """Serves the pair of `ferrymcp.server.stdio.stdio_server()` (stdio, by the engine),
        or two streams of `SessionMessage` a transport of the program's fills and drains,
        until the client goes away. The options' name, version and instructions are
        declared; their capabilities are merged over what the engine derives."""
        from ferrymcp._carried import is_stream_pair
        from ferrymcp.server.stdio import StdioStream

        stdio = isinstance(read_stream, StdioStream) and write_stream is read_stream
        if not stdio and not is_stream_pair(read_stream, write_stream):
            raise TypeError(
                "Server.run needs the pair of ferrymcp.server.stdio.stdio_server(), or two streams of "
                "SessionMessage (read_stream.receive(), write_stream.send())"
            )
        if raise_exceptions or stateless:
            raise NotImplementedError("Server.run(raise_exceptions=..., stateless=...) in ferrymcp")
        self._apply_initialization_options(initialization_options)
        if stdio:
            await self.run_stdio_async()
        else:
            await self.run_streams_async(read_stream, write_stream)

    def _apply_initialization_options(self, options: Any) -> None:
        """Declares `options`' name, version and instructions; their capabilities are merged
        over what the engine derives."""
        if isinstance(options, InitializationOptions):
            self._name = options.server_name or self._name
            self._version = options.server_version or self._version
            if options.instructions is not None:
                self._instructions = options.instructions
            self._extra_capabilities = wire(options.capabilities) or {}

    @property
    def lifespan(self) -> Callable[[Any], AbstractAsyncContextManager[Any]]:
        """The lifespan factory given to the constructor (else one yielding `{}`), as the
        official attribute: a transport entry of the application's own enters
        `server.lifespan(server)` once and hands its state to `ferrymcp.server.runner`'s
        drivers."""
        return self._lifespan

    @lifespan.setter
    def lifespan(self, factory: Callable[[Any], AbstractAsyncContextManager[Any]]) -> None:
        self._lifespan = factory

    def get_capabilities(
        self, notification_options: NotificationOptions | None = None, experimental_capabilities: Any = None
    ) -> ServerCapabilities:
        """What the server declares to a legacy client (the engine derives it from the
        handlers set, with `notification_options`' list-change flags)."""
        if notification_options is not None:
            self._notification_options = notification_options
        declared = ServerCapabilities.model_validate(self._capabilities())
        if experimental_capabilities:
            declared.experimental = experimental_capabilities
        return declared

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        """The options `run()` takes: this server's name, version, instructions and
        capabilities (with `notification_options`' list-change flags)."""
        return InitializationOptions(
            server_name=self.name,
            server_version=self.version,
            capabilities=self.get_capabilities(notification_options, experimental_capabilities),
            instructions=self.instructions,
        )

    def _capabilities(self) -> dict[str, Any]:
        declared = {**super()._capabilities(), **getattr(self, "_extra_capabilities", {})}
        options = self._notification_options
        for feature, changed in (
            ("tools", options.tools_changed),
            ("resources", options.resources_changed),
            ("prompts", options.prompts_changed),
        ):
            if changed:
                declared[feature] = {"listChanged": True}
        return declared


async def _call(func: Callable[..., Any], request_type: Any, params: Any) -> Any:
    """A 1.x list handler, called as 1.x calls it: with the request (a `request_type`
    whose `params` are the request's, `None` when it came without) when the function has
    a parameter without default annotated as `request_type`, positionally if that
    parameter is positional-only, else by its name; without arguments when it has none.
    A required parameter annotated otherwise or not at all gets the request too (1.x would
    call it without arguments and fail)."""
    try:
        parameters = inspect.signature(func).parameters
        hints = typing.get_type_hints(func)
    except (NameError, TypeError, ValueError):
        parameters, hints = inspect.signature(func).parameters, {}
    request = request_type(params=params)
    required = [p for p in parameters.values() if p.default is inspect.Parameter.empty]
    for parameter in sorted(required, key=lambda p: p.kind != inspect.Parameter.POSITIONAL_ONLY):
        if hints.get(parameter.name) is request_type and parameter.kind is not inspect.Parameter.VAR_POSITIONAL:
            if parameter.kind is inspect.Parameter.POSITIONAL_ONLY:
                return await func(request)
            return await func(**{parameter.name: request})
    takes = [p for p in required if p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)]
    return await (func(request) if takes else func())


def _any_url(uri: str) -> Any:
    """`uri` as pydantic's `AnyUrl` (what 1.x's `read_resource` handler gets), or the
    `str` when pydantic is not installed."""
    try:
        from pydantic import AnyUrl
    except ImportError:
        return uri
    return AnyUrl(uri)


def _error_result(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


def _tool_result(result: Any) -> Any:
    """What a 1.x tool function returned, as a `CallToolResult` (or the `CreateTaskResult`
    of `ctx.experimental.run_task`)."""
    if isinstance(result, (CallToolResult, _types.CreateTaskResult)):
        return result
    if isinstance(result, tuple) and len(result) == 2:
        content, structured = result
        return {"content": wire(list(content)), "structuredContent": structured, "isError": False}
    if isinstance(result, dict):
        block = TextContent(type="text", text=json.dumps(result, indent=2))
        return {"content": [wire(block)], "structuredContent": result, "isError": False}
    if isinstance(result, (list, tuple)):
        return {"content": wire(list(result)), "isError": False}
    message = f"Unexpected return type from tool: {type(result).__name__}"
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


def _resource_contents(uri: str, item: Any) -> dict[str, Any]:
    """One item a 1.x `read_resource` returned, as resource contents."""
    if isinstance(item, (str, bytes)):
        data, mime_type, meta = item, None, None
    else:
        data, mime_type, meta = item.content, item.mime_type, getattr(item, "meta", None)
    contents: dict[str, Any] = {"uri": uri}
    if isinstance(data, bytes):
        contents.update(blob=base64.b64encode(data).decode(), mimeType=mime_type or "application/octet-stream")
    else:
        contents.update(text=data, mimeType=mime_type or "text/plain")
    if meta is not None:
        contents["_meta"] = meta
    return contents


request_ctx = CURRENT_REQUEST
"""1.x's context variable: `request_ctx.get()` is the request being served (the handler's
`ServerRequestContext`, as `server.request_context` gives it); a `LookupError` outside one."""

__all__ = ["HandlerEntry", "InitializationOptions", "NotificationOptions", "Server", "request_ctx"]
