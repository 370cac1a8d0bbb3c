"""`MCPServer` (and `FastMCP`, the same class): the official SDK's decorator API on
ferrymcp's engine.

A server written for the official SDK runs unchanged with its imports pointed here:
`@mcp.tool()`, `@mcp.resource(uri)`, `@mcp.prompt()`, `@mcp.completion()`, `add_tool`,
`remove_tool`, `mcp.run()` (stdio, or `mcp.run("streamable-http", host=, port=)` on the
engine's HTTP server), `mcp.streamable_http_app()` (the same endpoint as an ASGI app,
`streamable_http_manager.py`), `extensions=[...]` (`ferrymcp.server.extension`: declared
under `capabilities.extensions`, their tools registered). Like the official one, the server
declares tools, resources and prompts even while it has none: the engine is told that this
API registers those lists up front (`features_up_front`). Declarations are checked as they are made (a parameter type
with no JSON Schema, a name used twice, template variables that are not the parameters
all raise `ValueError` naming the function) and kept in a registry; the native server is
built when the server first runs and everything is handed to it, and later declarations
go to it directly. Protocol behaviour (eras, sessions, validation, errors) is the
engine's; this module only adapts functions and values.

Every official constructor keyword (2.x `MCPServer`, 1.x `FastMCP` and its settings) works
or raises naming itself: `token_verifier=` with `auth=AuthSettings(...)` makes the HTTP
endpoint require bearer tokens (the engine applies the required scopes, expiry and, with
`validate_token_resource`, the audience; answers 401/403 as the official SDK; serves the
protected resource metadata; and `get_access_token()` gives a handler its request's
token); `auth_server_provider=` (with `auth=`) serves an OAuth authorization server
beside the endpoint from the provider, by the engine (RFC 8414 metadata, `/authorize`,
`/token`, `/register` and `/revoke` as `AuthSettings` enables them), and accepts the
provider's own access tokens; options of things the engine does
itself or does not serve (`tools=`/`resources=` objects, `subscriptions`, the HTTP+SSE
paths) raise `TypeError` unless left at their default; `event_store=` takes an
`EventStore` of the application's (the official interface: the engine keeps the events of
its resumable streams there and resumes from what it replays) or a `ferrymcp.RedisStore`
(sessions, events and the replicas' bus in Redis, so several replicas serve one set of
sessions). The
`warn_on_duplicate_*` flags work as there: a name declared twice keeps the first
declaration, the second is dropped, with a logged warning unless the flag is off.
An unknown keyword is a `TypeError`, as for any Python function.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import sys
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Collection,
    Coroutine,
    Iterator,
    Mapping,
    MutableMapping,
    Sequence,
)
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, cast

from ferrymcp._media import Audio, Image
from ferrymcp.context import Context
from ferrymcp.elicitation import (
    AcceptedElicitation,
    CancelledElicitation,
    DeclinedElicitation,
    ElicitationResult,
)
from ferrymcp.exceptions import McpError
from ferrymcp.server._completion import completion_handler
from ferrymcp.server._prompts import build_prompt
from ferrymcp.server._registry import Registration, Registry
from ferrymcp.server._resource_security import (
    DEFAULT_RESOURCE_SECURITY,
    ResourceSecurity,
)
from ferrymcp.server._resources import build_resource
from ferrymcp.server._tools import build_tool, wire
from ferrymcp.server.auth.settings import AuthSettings
from ferrymcp.server.extension import Extension, MethodBinding, validate_extension_identifier
from ferrymcp.server.mcpserver.utilities.logging import configure_logging
from ferrymcp.server.prompts import AssistantMessage, Message, UserMessage
from ferrymcp.server.subscriptions import (
    ListenHandler,
    PromptsListChanged,
    ResourcesListChanged,
    ResourceUpdated,
    SubscriptionBus,
    ToolsListChanged,
)
from ferrymcp.shared.uri_template import UriTemplate
from ferrymcp.types import (
    CallToolResult,
    ClientCapabilities,
    GetPromptResult,
    Icon,
    Prompt,
    Resource,
    ResourceTemplate,
    Tool,
    ToolAnnotations,
    ToolExecution,
)

if TYPE_CHECKING:
    from ferrymcp._native import HttpOptions, NativeServer
    from ferrymcp.server.auth.provider import TokenVerifier
    from ferrymcp.server.streamable_http_manager import StreamableHTTPSessionManager

LifespanResultT = TypeVar("LifespanResultT")
_CallableT = TypeVar("_CallableT", bound=Callable[..., Any])
_SSE_REFUSED = (
    "the deprecated HTTP+SSE server transport (2024-11-05) is not served by ferrymcp: serve "
    "Streamable HTTP (run('streamable-http') or streamable_http_app()); clients of both eras speak it"
)
# `run("streamable-http", ...)` / `streamable_http_app(...)` options and their defaults, as
# the official SDK names them; a value not passed is taken from the server's settings
# (`FastMCP(port=...)`). `None` keeps the engine's default.
_HTTP_DEFAULTS: dict[str, Any] = {
    "host": "127.0.0.1",
    "port": 8000,
    "streamable_http_path": "/mcp",
    "max_request_body_size": None,
    "max_sessions": None,
    "session_idle_timeout": None,
    "retry_interval": None,
    "transport_security": None,
    "json_response": False,
    "stateless_http": False,
    "event_store": None,
}


def _check_event_store(value: Any, where: str) -> None:
    """`event_store=` takes None, an `EventStore` of the application's (the official
    interface: the engine keeps its resumable events there) or a `ferrymcp.RedisStore`."""
    if value is None:
        return
    from ferrymcp._native import RedisStore
    from ferrymcp.server.streamable_http import is_event_store

    if not isinstance(value, RedisStore) and not is_event_store(value):
        raise TypeError(
            f"{where}: event_store={value!r} is neither an EventStore (store_event, replay_events_after) "
            "nor a ferrymcp.RedisStore"
        )


# Official constructor keywords ferrymcp has no counterpart for, and why; each is refused
# (TypeError naming it) unless left at its default.
_UNSUPPORTED: dict[str, tuple[Any, str]] = {
    "tools": (None, "pass functions to @mcp.tool() or mcp.add_tool() instead of prebuilt Tool objects"),
    "resources": (None, "declare resources with @mcp.resource() or mcp.add_resource()"),
    "mount_path": ("/", _SSE_REFUSED),
    "sse_path": ("/sse", _SSE_REFUSED),
    "message_path": ("/messages/", _SSE_REFUSED),
}


def _refuse_unsupported(given: dict[str, Any], where: str = "MCPServer()") -> None:
    for key, value in given.items():
        default, reason = _UNSUPPORTED[key]
        if value is not default and value != default and not (default is None and value in ([], ())):
            raise TypeError(f"{where}: {key}= is not supported: {reason}")


# What the engine calls on an authorization-server provider.
_PROVIDER_METHODS = (
    "get_client",
    "authorize",
    "load_authorization_code",
    "exchange_authorization_code",
    "load_refresh_token",
    "exchange_refresh_token",
    "load_access_token",
)


def _check_auth(
    auth: AuthSettings | None, token_verifier: Any, auth_server_provider: Any, *, both: bool = False
) -> None:
    """The official SDK's checks of the auth arguments. `both`: a provider and a verifier together are allowed (the
    official low-level `streamable_http_app` takes them so)."""
    if auth is not None:
        if auth_server_provider and token_verifier and not both:
            raise ValueError("Cannot specify both auth_server_provider and token_verifier")
        if not auth_server_provider and not token_verifier:
            raise ValueError("Must specify either auth_server_provider or token_verifier when auth is enabled")
    elif auth_server_provider or token_verifier:
        raise ValueError("Cannot specify auth_server_provider or token_verifier without auth settings")
    if auth_server_provider is not None:
        missing = [name for name in _PROVIDER_METHODS if not callable(getattr(auth_server_provider, name, None))]
        if missing:
            raise TypeError(f"auth_server_provider lacks {missing} (the OAuthAuthorizationServerProvider protocol)")
    if token_verifier is not None and not callable(getattr(token_verifier, "verify_token", None)):
        raise TypeError("token_verifier must have an async verify_token(token) method (the TokenVerifier protocol)")


@dataclass(frozen=True)
class CacheHint:
    """Freshness hint for one cacheable method's 2026-07-28 results (as the official
    `mcp.server.CacheHint`): `ttl_ms` milliseconds, `scope` "public" or "private"."""

    ttl_ms: int = 0
    scope: Literal["public", "private"] = "private"

    def __post_init__(self) -> None:
        if self.ttl_ms < 0:
            raise ValueError(f"ttl_ms must be >= 0, got {self.ttl_ms}")
        if self.scope not in ("public", "private"):
            raise ValueError(f"scope must be 'public' or 'private', got {self.scope!r}")


@asynccontextmanager
async def _default_lifespan(server: Any) -> AsyncIterator[dict[str, Any]]:
    yield {}


async def _serve_stdio(native: NativeServer, started: Callable[[], None] | None = None) -> None:
    """Serves stdin/stdout with `native` until stdin closes (`print()` goes to stderr)."""
    with contextlib.redirect_stdout(sys.stderr):
        serving = native.serve_stdio()
        if started is not None:
            started()
        await serving


async def _serve_streams(
    native: NativeServer, read_stream: Any, write_stream: Any, started: Callable[[], None] | None = None
) -> None:
    """Serves one client over a stream pair of `SessionMessage` with `native`."""
    from ferrymcp._carried import Carrier
    from ferrymcp._native import NativePort

    port = NativePort()
    carrier = Carrier(port, read_stream, write_stream)
    serving = native.serve_port(port)
    carrier.start()
    if started is not None:
        started()
    try:
        await serving
    finally:
        await carrier.stop()


class MCPServer(Generic[LifespanResultT]):
    """An MCP server built from decorated functions (see the module doc)."""

    def __init__(
        self,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        instructions: str | None = None,
        website_url: str | None = None,
        icons: list[Icon] | None = None,
        version: str = "",
        auth_server_provider: Any = None,
        token_verifier: TokenVerifier | None = None,
        *,
        lifespan: Callable[[MCPServer[LifespanResultT]], AbstractAsyncContextManager[LifespanResultT]] | None = None,
        auth: AuthSettings | None = None,
        resource_security: ResourceSecurity = DEFAULT_RESOURCE_SECURITY,
        cache_hints: Mapping[str, CacheHint] | None = None,
        page_size: int | None = None,
        dependencies: Collection[str] | None = None,
        debug: bool = False,
        log_level: str = "INFO",
        warn_on_duplicate_resources: bool = True,
        warn_on_duplicate_tools: bool = True,
        warn_on_duplicate_prompts: bool = True,
        tools: list[Any] | None = None,
        resources: list[Any] | None = None,
        extensions: Sequence[Extension] | None = None,
        request_state_security: Any = None,
        subscriptions: SubscriptionBus | None = None,
        middleware: Sequence[Any] | None = None,
    ) -> None:
        # 2.x's constructor: the HTTP transport's settings go to `run()` and
        # `streamable_http_app()` (`MCPServer(port=...)` is Python's own TypeError, as
        # there); 1.x's `FastMCP(port=...)` takes them (`_use_http_settings`).
        _refuse_unsupported({"tools": tools, "resources": resources})
        _check_auth(auth, token_verifier, auth_server_provider)
        self._name = name or "mcp-server"
        self._title = title
        self._description = description
        self._instructions = instructions
        self._website_url = website_url
        self._icons = icons
        self._version = version
        self._lifespan = lifespan or _default_lifespan
        self._lifespan_context: Any = None
        from ferrymcp.server._otel import OpenTelemetryMiddleware
        from ferrymcp.server.request_state import RequestStateBoundary, RequestStateSecurity

        user_middleware = list(middleware or [])
        if not all(callable(hook) for hook in user_middleware):
            raise TypeError("MCPServer(): middleware= takes async callables `(ctx, call_next) -> result`")
        if request_state_security is not None and not isinstance(request_state_security, RequestStateSecurity):
            raise TypeError(
                "request_state_security must be a ferrymcp.server.request_state.RequestStateSecurity, "
                f"not {type(request_state_security).__name__}"
            )
        # As the official list: tracing, then the request-state boundary (whose policy the
        # engine applies: `request_state_security=`, else its default key; the state is
        # bound to the policy's audience, else the server's name), then the application's.
        self._middleware: list[Any] = [
            OpenTelemetryMiddleware(),
            RequestStateBoundary._engine_default(request_state_security, default_audience=name or None),
            *user_middleware,
        ]
        self._applied_boundary: RequestStateBoundary | None = None
        self._resource_security = resource_security
        self._options = _native_options(cache_hints, page_size)
        self._listen: ListenHandler | None = None
        if subscriptions is not None:
            if not isinstance(subscriptions, SubscriptionBus):
                raise TypeError(
                    "MCPServer(subscriptions=...) takes a SubscriptionBus (publish() and subscribe()), "
                    f"not {type(subscriptions).__name__}"
                )
            self._use_listen_handler(ListenHandler(subscriptions))
        # As the official constructor: `logging.basicConfig` at `log_level` (stderr; a no-op
        # once the application has configured logging).
        configure_logging(log_level)  # type: ignore[arg-type]
        self._registry = Registry()
        self._custom_routes: list[tuple[str, list[str], Callable[..., Any]]] = []
        self._session_manager: StreamableHTTPSessionManager | None = None
        self._token_verifier = token_verifier
        self._auth_server_provider = auth_server_provider
        if auth_server_provider is not None and token_verifier is None:
            # As the official SDK: the provider's own tokens are the ones accepted.
            # Loaded here: a server without an authorization server never needs it.
            from ferrymcp.server.auth.provider import ProviderTokenVerifier

            self._token_verifier = ProviderTokenVerifier(auth_server_provider)
        self.dependencies = list(dependencies or [])
        self.settings = SimpleNamespace(
            debug=debug,
            log_level=log_level,
            warn_on_duplicate_resources=warn_on_duplicate_resources,
            warn_on_duplicate_tools=warn_on_duplicate_tools,
            warn_on_duplicate_prompts=warn_on_duplicate_prompts,
            dependencies=self.dependencies,
            lifespan=lifespan,
            auth=auth,
        )
        # Request methods served by application handlers (low-level `add_request_handler`,
        # an extension's `methods()`): method -> (params type, handler(ctx, params)).
        self._custom: dict[str, tuple[Any, Callable[..., Any]]] = {}
        self._extensions: list[Extension] = []
        for extension in extensions or ():
            self._apply_extension(extension)

    def _use_http_settings(self, where: str, **settings: Any) -> None:
        """1.x's `FastMCP(host=, port=, streamable_http_path=, ...)`: the HTTP transport's
        settings, which `run("streamable-http")` and `streamable_http_app()` fall back to
        (`mcp.settings.port`, ...); the HTTP+SSE paths are refused unless left at their
        default; `event_store=` is checked (an official `EventStore` or a `RedisStore`)."""
        _refuse_unsupported({key: settings.pop(key) for key in ("mount_path", "sse_path", "message_path")}, where)
        _check_event_store(settings["event_store"], where)
        vars(self.settings).update(settings)

    # -- identity -------------------------------------------------------------------

    @property
    def name(self) -> str:
        return self._name

    @property
    def title(self) -> str | None:
        return self._title

    @property
    def description(self) -> str | None:
        return self._description

    @property
    def instructions(self) -> str | None:
        return self._instructions

    @property
    def website_url(self) -> str | None:
        return self._website_url

    @property
    def icons(self) -> list[Icon] | None:
        return self._icons

    @property
    def version(self) -> str:
        return self._version

    def _apply_extension(self, extension: Extension) -> None:
        """Registers an extension's tools and declares it under `capabilities.extensions`
        (see `ferrymcp.server.extension` for what is refused)."""
        identifier = getattr(extension, "identifier", None)
        validate_extension_identifier(identifier, owner=type(extension).__name__)
        if any(known.identifier == identifier for known in self._extensions):
            raise ValueError(f"Extension {identifier!r} is already registered")
        self._extensions.append(extension)
        for tool in extension.tools():
            self.add_tool(tool.fn, meta=tool.meta, **tool.kwargs)
        for binding in extension.resources():
            self.add_resource(binding.resource)
        for method in extension.methods():
            handler = method.handler if method.protocol_versions is None else _version_gated(method)
            self._serve_method(method.method, method.params_type, handler)

    def _capabilities(self) -> dict[str, Any]:
        """What the server states beyond what the engine derives: its extensions."""
        if not self._extensions:
            return {}
        return {"extensions": {extension.identifier: extension.settings() for extension in self._extensions}}

    def _server_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"name": self._name, "version": self._version}
        optional = {"title": self._title, "description": self._description, "websiteUrl": self._website_url}
        info.update({key: value for key, value in optional.items() if value is not None})
        if self._icons:
            info["icons"] = wire(self._icons)
        return info

    # -- tools ----------------------------------------------------------------------

    def add_tool(
        self,
        fn: Callable[..., Any] | Any,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        annotations: ToolAnnotations | dict[str, Any] | None = None,
        icons: list[Icon] | None = None,
        meta: dict[str, Any] | None = None,
        structured_output: bool | None = None,
        *,
        input_schema: dict[str, Any] | None = None,
        execution: ToolExecution | dict[str, Any] | None = None,
        task_start: Literal["at_call", "on_request"] = "at_call",
    ) -> None:
        """Registers `fn` as a tool. Its name, description and input schema come from
        the function unless given; `input_schema` (a ferrymcp extension) replaces the
        derived schema, and a `**kwargs` function then receives the arguments as they
        are. `execution` (the tool's `execution` member, e.g. `{"taskSupport":
        "optional"}`) lets the engine run it as a task for clients that accept tasks; the
        task starts as the call arrives, or with `task_start="on_request"` when the tool
        calls `ctx.start_task()` (after gathering input by MRTR rounds). A `Tool`
        (`Tool.from_function(fn, ...)`) is registered with its own options."""
        from ferrymcp.server.mcpserver.tools import Tool as ToolObject

        if isinstance(fn, ToolObject):
            self.add_tool(fn.fn, fn.name, **fn.options)
            return
        self._registry.add(
            build_tool(
                fn,
                self._context,
                name=name,
                title=title,
                description=description,
                annotations=annotations,
                icons=icons,
                meta=meta,
                structured_output=structured_output,
                input_schema=input_schema,
                execution=execution,
                task_start=task_start,
                v1=self._options.get("dialect") == "python-sdk-1",
            ),
            warn=self.settings.warn_on_duplicate_tools,
        )

    def tool(
        self,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        annotations: ToolAnnotations | dict[str, Any] | None = None,
        icons: list[Icon] | None = None,
        meta: dict[str, Any] | None = None,
        structured_output: bool | None = None,
        *,
        input_schema: dict[str, Any] | None = None,
        execution: ToolExecution | dict[str, Any] | None = None,
        task_start: Literal["at_call", "on_request"] = "at_call",
    ) -> Callable[[_CallableT], _CallableT]:
        """Decorator registering a tool (see `add_tool`)."""
        if callable(name):
            raise TypeError(
                "The @tool decorator was used incorrectly. Did you forget to call it? Use @tool() instead of @tool"
            )

        def decorator(fn: _CallableT) -> _CallableT:
            self.add_tool(
                fn,
                name,
                title,
                description,
                annotations,
                icons,
                meta,
                structured_output,
                input_schema=input_schema,
                execution=execution,
                task_start=task_start,
            )
            return fn

        return decorator

    def remove_tool(self, name: str) -> None:
        """Removes a tool; raises `ValueError` if there is none of that name."""
        if not self._registry.remove("tool", name):
            raise ValueError(f"Unknown tool: {name}")

    # -- resources ------------------------------------------------------------------

    def resource(
        self,
        uri: str,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        mime_type: str | None = None,
        icons: list[Icon] | None = None,
        annotations: Any = None,
        meta: dict[str, Any] | None = None,
        security: ResourceSecurity | None = None,
    ) -> Callable[[_CallableT], _CallableT]:
        """Decorator registering a resource, or a resource template when `uri` has
        `{variables}` (which must be the function's parameters; `security` checks their
        values, by default refusing `..` climbs, absolute paths and NUL bytes)."""
        if callable(uri):
            raise TypeError(
                "The @resource decorator was used incorrectly. Did you forget to call it? "
                "Use @resource('uri') instead of @resource"
            )
        # Parsed now, so a malformed template fails here with its position.
        UriTemplate.parse(uri)

        def decorator(fn: _CallableT) -> _CallableT:
            self._registry.add(
                build_resource(
                    fn,
                    uri,
                    self._context,
                    name=name,
                    title=title,
                    description=description,
                    mime_type=mime_type,
                    icons=icons,
                    annotations=annotations,
                    meta=meta,
                    security=security or self._resource_security,
                ),
                warn=self.settings.warn_on_duplicate_resources,
            )
            return fn

        return decorator

    def remove_resource(self, uri: str) -> None:
        """Removes a resource or template; raises `ValueError` if there is none."""
        if not self._registry.remove("resource", uri):
            raise ValueError(f"Unknown resource: {uri}")

    # -- prompts and completion ---------------------------------------------------------

    def prompt(
        self,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        icons: list[Icon] | None = None,
    ) -> Callable[[_CallableT], _CallableT]:
        """Decorator registering a prompt."""
        if callable(name):
            raise TypeError(
                "The @prompt decorator was used incorrectly. "
                "Did you forget to call it? Use @prompt() instead of @prompt"
            )

        def decorator(fn: _CallableT) -> _CallableT:
            self._registry.add(
                build_prompt(fn, self._context, name=name, title=title, description=description, icons=icons),
                warn=self.settings.warn_on_duplicate_prompts,
            )
            return fn

        return decorator

    def add_prompt(self, prompt: Any) -> None:
        """Registers a `Prompt` (`Prompt.from_function(...)`), as `@prompt` would."""
        from ferrymcp.server.mcpserver.prompts.base import Prompt as PromptObject

        if not isinstance(prompt, PromptObject):
            raise TypeError(f"add_prompt takes a Prompt (Prompt.from_function(fn)), not {type(prompt).__name__}")
        self._registry.add(
            build_prompt(
                prompt.fn,
                self._context,
                name=prompt.name,
                title=prompt.title,
                description=prompt.description,
                icons=prompt.icons,
            ),
            warn=self.settings.warn_on_duplicate_prompts,
        )

    def add_resource(self, resource: Any) -> None:
        """Registers a resource object (`TextResource`, `FunctionResource`, `FileResource`,
        ... of `ferrymcp.server.mcpserver.resources`), as `@resource(uri)` would."""
        from ferrymcp.server.mcpserver.resources import Resource as ResourceObject

        if not isinstance(resource, ResourceObject):
            raise TypeError(f"add_resource takes a resource object, not {type(resource).__name__}")
        reader = resource.reader()
        self._registry.add(
            build_resource(
                reader,
                str(resource.uri),
                self._context,
                name=resource.name or getattr(reader, "__name__", None) or str(resource.uri),
                title=resource.title,
                description=resource.description,
                mime_type=resource.mime_type,
                icons=resource.icons,
                annotations=resource.annotations,
                meta=resource.meta,
                security=self._resource_security,
            ),
            warn=self.settings.warn_on_duplicate_resources,
        )

    def remove_prompt(self, name: str) -> None:
        """Removes a prompt; raises `ValueError` if there is none of that name."""
        if not self._registry.remove("prompt", name):
            raise ValueError(f"Unknown prompt: {name}")

    def completion(self) -> Callable[[_CallableT], _CallableT]:
        """Decorator registering the completion handler `fn(ref, argument, context)`."""

        def decorator(fn: _CallableT) -> _CallableT:
            self._registry.set_completion(*completion_handler(fn))
            return fn

        return decorator

    def custom_route(
        self, path: str, methods: list[str], name: str | None = None, include_in_schema: bool = True
    ) -> Callable[[_CallableT], _CallableT]:
        """A Starlette route (`async def fn(request) -> Response`) served beside the MCP
        endpoint, by `streamable_http_app()` and by `run("streamable-http")` (Starlette must
        be installed)."""

        def decorator(fn: _CallableT) -> _CallableT:
            self._custom_routes.append((path, methods, fn))
            return fn

        return decorator

    @property
    def _tool_manager(self) -> _ToolManager:
        """The official `MCPServer._tool_manager` that code in the wild reaches into: its
        `_tools` mapping (name -> registration) and `list_tools()` / `get_tool()`, over
        this server's registry."""
        return _ToolManager(self._registry)

    @property
    def _resource_manager(self) -> _ResourceManager:
        """The official `MCPServer._resource_manager`: its `_resources` (URI ->
        registration) and `_templates` mappings and `list_resources()` /
        `list_templates()`, over this server's registry."""
        return _ResourceManager(self._registry)

    @property
    def _prompt_manager(self) -> _PromptManager:
        """The official `MCPServer._prompt_manager`: its `_prompts` mapping and
        `list_prompts()` / `get_prompt()`, over this server's registry."""
        return _PromptManager(self._registry)

    # -- listing and calling without a client --------------------------------------

    async def list_tools(self) -> list[Tool]:
        return [Tool.model_validate(entry.definition) for entry in self._registry.of_kind("tool")]

    async def list_resources(self) -> list[Resource]:
        return [Resource.model_validate(entry.definition) for entry in self._registry.of_kind("resource")]

    async def list_resource_templates(self) -> list[ResourceTemplate]:
        return [ResourceTemplate.model_validate(entry.definition) for entry in self._registry.of_kind("template")]

    async def list_prompts(self) -> list[Prompt]:
        return [Prompt.model_validate(entry.definition) for entry in self._registry.of_kind("prompt")]

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult:
        """Calls a tool in process, outside any session, through the engine's `tools/call`
        path: arguments are checked against the input schema, a failing tool gives an
        `isError` result and the output is checked against the output schema, exactly as
        over the wire. A tool raising `McpError` raises it (the JSON-RPC error a client
        would get); an unknown tool raises `ToolError`, as the official method does (a
        client gets an `isError` result). `context` is accepted for the official
        signature; without a session, the tool's `Context` cannot reach a client."""
        if self._registry.get("tool", name) is None:
            from ferrymcp.server.mcpserver.exceptions import ToolError

            raise ToolError(f"Unknown tool: {name}")
        result = await self._native_server().call_tool(name, arguments)
        return CallToolResult.model_validate(result)

    async def get_prompt(self, name: str, arguments: dict[str, Any] | None = None) -> GetPromptResult:
        """Renders a prompt in process, outside any session."""
        entry = self._registry.get("prompt", name)
        if entry is None:
            raise ValueError(f"Unknown prompt: {name}")
        return GetPromptResult.model_validate(await _run(entry, arguments or {}, None))

    # -- running --------------------------------------------------------------------

    def _context(self, native_ctx: Any) -> Context[Any, Any]:
        return Context(native_ctx, self, self._lifespan_context)

    def _native_server(self) -> NativeServer:
        """The engine's server, built on first use with everything registered."""
        native = self._registry.native
        if native is None:
            from ferrymcp._native import NativeServer

            native = NativeServer(self._server_info(), self._instructions, {**self._options, **self._state_options()})
            capabilities = self._capabilities()
            if capabilities:
                native.register_capabilities(capabilities)
            self._registry.attach(native)
            if self._listen is not None:
                self._listen._attach(native)
            for method, (params_type, handler) in self._custom.items():
                native.set_request_handler(method, self._request_adapter(method, handler, params_type, False), True)
        # The middleware list as it is when serving starts (appending later takes effect
        # at the next start).
        native.set_middleware(self._run_middleware if self._hook_needed() else None)
        return native

    @property
    def middleware(self) -> list[Any]:
        """The hooks around every inbound message, outermost first: `async def mw(ctx,
        call_next)` returns `await call_next(ctx)` (or an answer of its own, or raises).
        As the official list it starts with the server's own: an `OpenTelemetryMiddleware`
        and (on `MCPServer`) the `RequestStateBoundary`; take one off to turn it off."""
        return self._middleware

    def _hook_needed(self) -> bool:
        """Whether the engine's middleware hook is needed: an application middleware, a
        tool-call interceptor, or tracing with a tracer provider set (without one the
        spans are no-ops; a request-state boundary is the engine's own work)."""
        from ferrymcp.server._otel import OpenTelemetryMiddleware
        from ferrymcp.server.request_state import RequestStateBoundary
        from ferrymcp.shared._otel import tracing_active

        if self._interceptors():
            return True
        own = [m for m in self._middleware if isinstance(m, (OpenTelemetryMiddleware, RequestStateBoundary))]
        if len(own) < len(self._middleware):
            return True
        return any(isinstance(m, OpenTelemetryMiddleware) for m in own) and tracing_active()

    def _state_options(self) -> dict[str, Any]:
        """The engine's request-state options, from the `RequestStateBoundary` on the
        middleware list (none: the handlers' `requestState` crosses the wire as written,
        as on the official server without one)."""
        from ferrymcp.server.request_state import RequestStateBoundary

        boundaries = [m for m in self._middleware if isinstance(m, RequestStateBoundary)]
        if not boundaries:
            return {"seal_handler_state": False}
        if len(boundaries) > 1:
            raise ValueError(
                "the middleware list holds more than one RequestStateBoundary: the engine seals requestState once"
            )
        self._applied_boundary = boundaries[0]
        return boundaries[0]._engine_options()

    def _use_listen_handler(self, handler: ListenHandler) -> None:
        """Feeds the listen streams from `handler`'s bus (before the engine is built)."""
        registry = getattr(self, "_registry", None)
        if registry is not None and registry.native is not None:
            raise RuntimeError("the subscription bus must be set before the server starts")
        self._listen = handler
        self._options.update(handler._engine_options())

    def _interceptors(self) -> list[Extension]:
        """The extensions that wrap `tools/call` (`intercept_tool_call` overridden)."""
        return [e for e in self._extensions if type(e).intercept_tool_call is not Extension.intercept_tool_call]

    @staticmethod
    def _intercepted(
        params: dict[str, Any], interceptors: list[Extension], call_native: Callable[[], Awaitable[Any]]
    ) -> Callable[[Any], Awaitable[Any]]:
        """`tools/call` through each extension's `intercept_tool_call` (the first
        outermost): each gets the validated params and a `call_next` that returns the
        tool's `CallToolResult`."""
        from ferrymcp.types import CallToolRequestParams, CallToolResult

        typed = CallToolRequestParams.model_validate(params)

        async def handler(_ctx: Any) -> Any:
            answer = await call_native()
            return CallToolResult.model_validate(answer) if answer is not None else None

        def link(extension: Extension, call_next: Callable[[Any], Awaitable[Any]]) -> Callable[[Any], Any]:
            return lambda ctx: extension.intercept_tool_call(typed, ctx, call_next)

        call: Callable[[Any], Any] = handler
        for extension in reversed(interceptors):
            call = link(extension, call)
        return call

    async def _run_middleware(self, message: dict[str, Any], native_next: Any) -> Any:
        """Core's middleware: `self.middleware` composed around the engine's handling of
        one inbound message (`native_next.run()`), outermost first."""
        from ferrymcp.server.context import ServerRequestContext

        call_native: Callable[[], Awaitable[Any]] = native_next.run
        params = message.get("params")
        meta = params.get("_meta") if isinstance(params, dict) else None
        ctx: ServerRequestContext[Any, Any] = ServerRequestContext(
            session=None,  # type: ignore[arg-type]
            lifespan_context=self._lifespan_context,
            protocol_version=message.get("protocol_version") or "",
            method=message["method"],
            params=params if isinstance(params, dict) else None,
            request_id=message.get("request_id"),
            meta=meta if isinstance(meta, dict) else None,
            client_capabilities=ClientCapabilities.model_validate(message.get("client_capabilities") or {}),
        )

        async def engine(_ctx: Any) -> Any:
            return await call_native()

        def link(middleware: Callable[..., Any], call_next: Callable[[Any], Awaitable[Any]]) -> Callable[[Any], Any]:
            return lambda ctx: middleware(ctx, call_next)

        call: Callable[[Any], Any] = engine
        interceptors = self._interceptors()
        if message["method"] == "tools/call" and interceptors:
            call = self._intercepted(params if isinstance(params, dict) else {}, interceptors, call_native)
        for middleware in reversed(list(self._middleware)):
            if middleware is not self._applied_boundary:  # (the engine's own work)
                call = link(middleware, call)
        result = await call(ctx)
        if result is None:
            return None
        dumped = wire(result)
        return dumped if isinstance(dumped, dict) else None

    @property
    def _lowlevel_server(self) -> _LowLevelView:
        """What official code reaches through the official `MCPServer._lowlevel_server` (its
        own everything server registers `logging/setLevel` there): request handlers served
        beside the server's own."""
        return _LowLevelView(self)

    def _serve_method(self, method: str, params_type: Any, handler: Callable[..., Any]) -> None:
        """Serves request `method` with `handler(ctx, params)` (a later call replaces it)."""
        self._custom[method] = (params_type, handler)
        native = self._registry.native
        if native is not None:
            native.set_request_handler(method, self._request_adapter(method, handler, params_type, False), True)

    def _request_adapter(
        self, method: str, handler: Callable[..., Any], params_type: Any, optional: bool
    ) -> Callable[..., Any]:
        """The engine's handler for `method`: a `ServerRequestContext` and the params
        validated as `params_type` (`None` when `optional` and none came) go to `handler`;
        its result model goes back as the answer."""
        from ferrymcp._session import ServerSession
        from ferrymcp.server.auth.middleware.auth_context import bind_token, unbind_token
        from ferrymcp.server.context import CURRENT_REQUEST, ServerRequestContext

        async def answer(params: dict[str, Any], native_ctx: Any) -> dict[str, Any]:
            # A retry of the multi-round methods: the engine has checked and taken the
            # `requestState` and `inputResponses` off the params; the handler reads them there.
            responses, state = native_ctx.input_responses, native_ctx.request_state
            if responses is not None:
                params = {**params, "inputResponses": responses}
            if state is not None:
                params = {**params, "requestState": state}
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
            if native_ctx.can_close_sse_stream:
                ctx.close_sse_stream, ctx.close_standalone_sse_stream = _stream_closers(native_ctx)
            bare = {key: value for key, value in params.items() if key != "_meta"}
            try:
                typed = None if optional and not bare else params_type.model_validate(params)
            except ValueError as exc:  # pydantic's ValidationError is one
                # The official runner's answer to params its model refuses (details stay here).
                from ferrymcp.types import INVALID_PARAMS

                raise McpError(INVALID_PARAMS, "Invalid request parameters", "") from exc
            token = CURRENT_REQUEST.set(ctx)
            # The request's accepted bearer token, for `get_access_token()` in the handler.
            auth = bind_token(native_ctx)
            try:
                result = handler(ctx, typed)
                if inspect.isawaitable(result):
                    result = await result
            finally:
                unbind_token(auth)
                CURRENT_REQUEST.reset(token)
            dumped = wire(result) if result is not None else {}
            return dumped if isinstance(dumped, dict) else {}

        return answer

    @asynccontextmanager
    async def _serving(self) -> AsyncIterator[NativeServer]:
        """The native server, inside the user's lifespan."""
        native = self._native_server()
        async with self._lifespan(self) as state:
            self._lifespan_context = state
            try:
                yield native
            finally:
                self._lifespan_context = None

    @asynccontextmanager
    async def _serving_in(self, lifespan_state: Any) -> AsyncIterator[NativeServer]:
        """The native server, inside a lifespan the caller entered (`mcp.server.runner`'s
        drivers: the transport entry enters `server.lifespan(server)` once and hands its
        state to every call). Calls may overlap; the state stays until the last ends."""
        native = self._native_server()
        self._lifespan_context = lifespan_state
        self._lifespan_holders = getattr(self, "_lifespan_holders", 0) + 1
        try:
            yield native
        finally:
            self._lifespan_holders -= 1
            if self._lifespan_holders == 0:
                self._lifespan_context = None

    async def run_stdio_async(self) -> None:
        """Serves over stdin/stdout until stdin closes. `print()` in a tool goes to
        stderr meanwhile, so it cannot corrupt the protocol stream."""
        async with self._serving() as native:
            await _serve_stdio(native)

    async def run_streams_async(self, read_stream: Any, write_stream: Any) -> None:
        """Serves one client over two streams of `SessionMessage` that a transport of the
        program's fills and drains (see `ferrymcp._carried`), until `read_stream` ends or
        the connection closes."""
        async with self._serving() as native:
            await _serve_streams(native, read_stream, write_stream)

    def run(self, transport: Literal["stdio", "sse", "streamable-http"] = "stdio", **kwargs: Any) -> None:
        """Serves until the client goes away (stdio: stdin EOF) or Ctrl-C / SIGTERM, then
        returns quietly (HTTP: after a graceful shutdown)."""
        import asyncio

        if transport == "stdio":
            try:
                asyncio.run(self.run_stdio_async())
            except KeyboardInterrupt:
                pass
            return
        if transport == "streamable-http":
            asyncio.run(_until_signalled(self.run_streamable_http_async(**kwargs)))
            return
        if transport == "sse":
            raise NotImplementedError(_SSE_REFUSED)
        raise ValueError(f"Unknown transport: {transport}")

    def _http_settings(self, kwargs: dict[str, Any], method: str) -> dict[str, Any]:
        """The chosen options (argument, else the server's setting, else the default)."""
        unknown = sorted(set(kwargs) - set(_HTTP_DEFAULTS))
        if unknown:
            raise TypeError(f"{method} does not take {unknown}; it takes {sorted(_HTTP_DEFAULTS)}")
        chosen = {key: kwargs.get(key, getattr(self.settings, key, default)) for key, default in _HTTP_DEFAULTS.items()}
        _check_event_store(chosen["event_store"], method)
        return chosen

    async def run_streamable_http_async(self, **kwargs: Any) -> None:
        """Serves Streamable HTTP (both eras) on the engine's server until cancelled, then
        shuts it down gracefully (requests in flight are answered). Announces the URL on
        stderr once listening. `ssl_certfile=` and `ssl_keyfile=` (PEM files, uvicorn's
        names; ferrymcp's own) serve https:// without a proxy in front. Runs under asyncio
        or trio."""
        from ferrymcp import _aio

        certfile, keyfile = kwargs.pop("ssl_certfile", None), kwargs.pop("ssl_keyfile", None)
        if (certfile is None) != (keyfile is None):
            raise TypeError("run('streamable-http'): ssl_certfile= and ssl_keyfile= go together")
        tls = None if certfile is None else (os.fspath(certfile), os.fspath(keyfile))
        chosen = self._http_settings(kwargs, "run('streamable-http')")
        options = _endpoint_options(chosen, self._bearer(), self._auth_server())
        from ferrymcp.server.experimental._store_bridge import note_http_mode

        note_http_mode(self, options)
        if self._custom_routes:  # served beside the endpoint by the engine's server, as Starlette routes
            from ferrymcp.server.streamable_http_manager import custom_routes, route_answerer

            options["routes"] = route_answerer(custom_routes(self._custom_routes), "http" if tls is None else "https")
        async with self._serving() as native:
            server = await native.serve_http(chosen["host"], int(chosen["port"]), options, tls)
            try:
                host, port = server.address
                host = f"[{host}]" if ":" in host else host
                scheme = "http" if tls is None else "https"
                print(f"listening on {scheme}://{host}:{port}{options['endpoint']}", file=sys.stderr, flush=True)
                await _aio.current_loop().create_future()  # until cancelled
            finally:
                await _aio.uncancelled(server.shutdown())

    def streamable_http_app(self, **kwargs: Any) -> Any:
        """An ASGI app serving the MCP endpoint (both eras) at `streamable_http_path`, with
        the `@custom_route`s: a Starlette app as the official SDK's when Starlette is
        installed, else ferrymcp's own `StreamableHTTPApp`. Under uvicorn its lifespan runs
        the server; mounted in another app, that app's lifespan enters
        `mcp.session_manager.run()`."""
        return self._http_app(kwargs, self._bearer(), [], debug=False, auth_server=self._auth_server())

    def _http_app(
        self,
        kwargs: dict[str, Any],
        bearer: dict[str, Any] | None,
        extra: list[Any],
        debug: bool,
        auth_server: dict[str, Any] | None = None,
    ) -> Any:
        """`streamable_http_app()` with the engine's bearer settings, routes of the
        application's own (the low-level server's `custom_starlette_routes`), Starlette's
        `debug`, and the engine's authorization server (served beside the endpoint)."""
        # Loaded here, not with the module: a stdio server never needs the HTTP endpoint's app.
        from ferrymcp.server.streamable_http_manager import (
            StreamableHTTPApp,
            StreamableHTTPSessionManager,
            custom_routes,
            starlette_app,
        )

        options = _endpoint_options(self._http_settings(kwargs, "streamable_http_app()"), bearer, auth_server)
        self._session_manager = StreamableHTTPSessionManager(self, options)
        routes = [*custom_routes(self._custom_routes), *extra]
        metadata = None
        resource = (options.get("auth") or {}).get("resource")
        if resource is not None:  # the engine serves the metadata for a named resource
            from ferrymcp._native import metadata_path

            metadata = metadata_path(str(resource), options["endpoint"])
        served = [] if auth_server is None else _auth_server_paths(auth_server)
        app = starlette_app(self._session_manager, options["endpoint"], metadata, routes, debug, served)
        if app is None and (extra or debug):
            raise ImportError("streamable_http_app(custom_starlette_routes=, debug=) needs Starlette installed")
        return app if app is not None else StreamableHTTPApp(self._session_manager, routes)

    def _auth_server(self) -> dict[str, Any] | None:
        """The engine's authorization-server options when `auth_server_provider=` was given
        (the official SDK serves its routes from `AuthSettings`)."""
        auth = self.settings.auth
        if auth is None or self._auth_server_provider is None:
            return None
        return _auth_server_options(auth, self._auth_server_provider)

    def _bearer(self) -> dict[str, Any] | None:
        """The engine's bearer settings when `auth=` and `token_verifier=` were given."""
        auth = self.settings.auth
        if auth is None or self._token_verifier is None:
            return None
        return _bearer_options(auth, self._token_verifier)

    @property
    def session_manager(self) -> StreamableHTTPSessionManager:
        """The endpoint of the last `streamable_http_app()` (RuntimeError before one)."""
        if self._session_manager is None:
            raise RuntimeError(
                "Session manager can only be accessed after calling streamable_http_app(). "
                "The session manager is created lazily to avoid unnecessary initialization."
            )
        return self._session_manager

    async def run_sse_async(self, **kwargs: Any) -> None:
        raise NotImplementedError(_SSE_REFUSED)

    def sse_app(self, **kwargs: Any) -> Any:
        raise NotImplementedError(_SSE_REFUSED)

    # -- notifications ----------------------------------------------------------------

    async def notify_tools_changed(self) -> None:
        """Tells clients the tool list changed (nothing to do before the server runs)."""
        native = self._registry.native
        if native is not None:
            await native.notify_tools_changed()
        if self._listen is not None:
            await self._listen.bus.publish(ToolsListChanged())

    async def notify_prompts_changed(self) -> None:
        native = self._registry.native
        if native is not None:
            await native.notify_prompts_changed()
        if self._listen is not None:
            await self._listen.bus.publish(PromptsListChanged())

    async def notify_resources_changed(self) -> None:
        native = self._registry.native
        if native is not None:
            await native.notify_resources_changed()
        if self._listen is not None:
            await self._listen.bus.publish(ResourcesListChanged())

    async def notify_resource_updated(self, uri: str) -> None:
        """Tells subscribed clients that `uri` changed."""
        native = self._registry.native
        if native is not None:
            await native.notify_resource_updated(str(uri))
        if self._listen is not None:
            await self._listen.bus.publish(ResourceUpdated(uri=str(uri)))


class _Registered(MutableMapping[str, Registration]):
    """The declarations of one kind in a registry, by name (a resource's by URI, a
    template's by URI template): removing one unregisters it, setting one registers it
    (the engine serves the change at once)."""

    def __init__(self, registry: Registry, kind: str) -> None:
        self._registry = registry
        self._kind = kind

    def __getitem__(self, name: str) -> Registration:
        entry = self._registry.get(self._kind, name)
        if entry is None or entry.kind != self._kind:
            raise KeyError(name)
        return entry

    def __setitem__(self, name: str, entry: Registration) -> None:
        if entry.kind != self._kind or entry.key != name:
            raise ValueError(f"{entry.kind} {entry.key!r} cannot be registered as {self._kind} {name!r}")
        self._registry.remove(self._kind, name)
        self._registry.add(entry, warn=False)

    def __delitem__(self, name: str) -> None:
        if name not in self or not self._registry.remove(self._kind, name):
            raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter([entry.key for entry in self._registry.of_kind(self._kind)])

    def __len__(self) -> int:
        return len(self._registry.of_kind(self._kind))


class _ToolManager:
    def __init__(self, registry: Registry) -> None:
        self._tools = _Registered(registry, "tool")

    def get_tool(self, name: str) -> Tool | None:
        entry = self._tools.get(name)
        return None if entry is None else Tool.model_validate(entry.definition)

    def list_tools(self) -> list[Tool]:
        return [Tool.model_validate(entry.definition) for entry in self._tools.values()]


class _ResourceManager:
    def __init__(self, registry: Registry) -> None:
        self._resources = _Registered(registry, "resource")
        self._templates = _Registered(registry, "template")

    def list_resources(self) -> list[Resource]:
        return [Resource.model_validate(entry.definition) for entry in self._resources.values()]

    def list_templates(self) -> list[ResourceTemplate]:
        return [ResourceTemplate.model_validate(entry.definition) for entry in self._templates.values()]


class _PromptManager:
    def __init__(self, registry: Registry) -> None:
        self._prompts = _Registered(registry, "prompt")

    def get_prompt(self, name: str) -> Prompt | None:
        entry = self._prompts.get(name)
        return None if entry is None else Prompt.model_validate(entry.definition)

    def list_prompts(self) -> list[Prompt]:
        return [Prompt.model_validate(entry.definition) for entry in self._prompts.values()]


def _version_gated(binding: MethodBinding) -> Callable[..., Any]:
    """An extension method's handler that answers "Method not found" (as the official SDK,
    with the method as `data`) at a protocol version outside `binding.protocol_versions`."""
    versions = binding.protocol_versions or frozenset()

    async def gated(ctx: Any, params: Any) -> Any:
        if ctx.protocol_version not in versions:
            from ferrymcp.types import METHOD_NOT_FOUND

            raise McpError(METHOD_NOT_FOUND, "Method not found", binding.method)
        return await binding.handler(ctx, params)

    return gated


async def _until_signalled(serving: Coroutine[Any, Any, None]) -> None:
    """Runs `serving` until SIGINT or SIGTERM cancels it (outside the main thread, where
    signals cannot be caught, until it ends), so Ctrl-C is a clean stop, not a traceback."""
    import asyncio
    import signal

    loop = asyncio.get_running_loop()
    task = asyncio.ensure_future(serving)
    caught = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, task.cancel)
            caught.append(signum)
        except (ValueError, RuntimeError, NotImplementedError):
            pass
    try:
        await task
    except asyncio.CancelledError:
        if not task.cancelled():
            raise
    finally:
        for signum in caught:
            loop.remove_signal_handler(signum)


async def _run(entry: Registration, arguments: dict[str, Any], native_ctx: Any) -> Any:
    if entry.is_async:
        return await entry.handler(arguments, native_ctx)
    from ferrymcp import _aio

    return await _aio.to_thread(entry.handler, arguments, native_ctx)


def _bearer_options(auth: AuthSettings, verifier: TokenVerifier) -> dict[str, Any]:
    """The engine's bearer settings (`http::options`' `auth`), as the official SDK derives
    its middleware and metadata route from `AuthSettings`."""

    async def verify(token: str) -> dict[str, Any] | None:
        access = await verifier.verify_token(token)
        if not access:
            return None
        extra = {key: getattr(access, key, None) for key in ("subject", "claims")}
        return {
            "token": access.token,
            "clientId": access.client_id,
            "scopes": list(access.scopes),
            "expiresAt": None if access.expires_at is None else int(access.expires_at),
            "resource": None if access.resource is None else str(access.resource),
            "extra": {key: value for key, value in extra.items() if value is not None} or None,
        }

    resource = None if auth.resource_server_url is None else str(auth.resource_server_url)
    options: dict[str, Any] = {
        "verify": verify,
        "required_scopes": list(auth.required_scopes or []),
        "authorization_servers": [str(auth.issuer_url)],
        "scopes_supported": None if auth.required_scopes is None else list(auth.required_scopes),
        "resource": resource,
        "audience": resource if auth.validate_token_resource else None,
    }
    return {key: value for key, value in options.items() if value is not None}


def _auth_server_options(auth: AuthSettings, provider: Any) -> dict[str, Any]:
    """The engine's authorization-server options from `AuthSettings`, as the official SDK
    passes them to `create_auth_routes`."""
    from ferrymcp.server.auth._bridge import server_options

    return server_options(
        provider,
        auth.issuer_url,
        auth.service_documentation_url,
        auth.client_registration_options,
        auth.revocation_options,
        auth.identity_assertion_enabled,
    )


def _auth_server_paths(options: dict[str, Any]) -> list[str]:
    """The paths the engine's authorization server answers (checking the options: a bad
    issuer URL is refused here, when the app is built, as the official SDK refuses it)."""
    from ferrymcp._native import NativeAuthServer

    return [path for path, _ in NativeAuthServer(options).routes()]


def _event_store(value: Any) -> Any:
    """What the engine takes for `event_store=`: a RedisStore as it is, an application's
    `EventStore` as the pair of functions the engine calls."""
    from ferrymcp._native import RedisStore

    if value is None or isinstance(value, RedisStore):
        return value
    from ferrymcp.server.streamable_http import event_store_functions

    return event_store_functions(value)


def _endpoint_options(
    chosen: dict[str, Any], bearer: dict[str, Any] | None = None, auth_server: dict[str, Any] | None = None
) -> HttpOptions:
    """The engine's endpoint options from the official ones (the keys `http::options` in the native module reads)."""
    options: dict[str, Any] = {
        "auth": bearer,
        "auth_server": auth_server,
        "endpoint": chosen["streamable_http_path"],
        "host": chosen["host"],
        "max_body": chosen["max_request_body_size"],
        "max_sessions": chosen["max_sessions"],
        "session_idle": chosen["session_idle_timeout"],
        "retry": chosen["retry_interval"] / 1000 if chosen["retry_interval"] is not None else None,
        # The official modes, served by the engine: legacy clients without sessions, and
        # one JSON body per request.
        "stateless": bool(chosen["stateless_http"]) or None,
        "json_response": bool(chosen["json_response"]) or None,
        # A RedisStore makes the endpoint one of several replicas (sessions, events, bus);
        # an application's EventStore keeps the resumable events.
        "event_store": _event_store(chosen["event_store"]),
    }
    security = chosen["transport_security"]
    if security is not None:
        options.update(
            dns_rebinding_protection=bool(security.enable_dns_rebinding_protection),
            allowed_hosts=list(security.allowed_hosts),
            allowed_origins=list(security.allowed_origins),
        )
    return cast("HttpOptions", {key: value for key, value in options.items() if value is not None})


class _LowLevelView:
    """`MCPServer._lowlevel_server`: `add_request_handler(method, params_type, handler)` as
    on the low-level `Server` (MCP's own session methods such as `logging/setLevel` and
    `resources/subscribe` included: the handler answers them, and the server declares
    what follows from them, `logging` for `logging/setLevel`)."""

    def __init__(self, server: MCPServer[Any]) -> None:
        self._server = server

    @property
    def middleware(self) -> list[Any]:
        """The server's middleware list itself (the official `MCPServer.middleware` is this
        list): edit it in place, as the official docs turn tracing off."""
        return self._server._middleware

    def add_request_handler(self, method: str, params_type: Any, handler: Callable[..., Any]) -> None:
        if method == "initialize":
            raise ValueError(
                "'initialize' is handled by the server runner and cannot be overridden; "
                "use Server.middleware to observe or wrap initialization"
            )
        self._server._serve_method(method, params_type, handler)


def _native_options(cache_hints: Mapping[str, CacheHint] | None, page_size: int | None) -> dict[str, Any]:
    # The official MCPServer/FastMCP registers the tools, resources and prompts handlers when
    # it is built, so it declares all three even while empty; the engine does the same when
    # told (core/src/server/capabilities.rs).
    # The official Python server's conventions, which core applies: the three lists
    # declared up front, and a failing tool's text naming the tool.
    # A call to an unknown tool is an `isError` result (`Unknown tool: NAME`) there too.
    # The rest of its answers (capabilities, error wording, completions) are core's
    # `Dialect::PythonSdk` (core/src/server/dialect.rs), for `MCPServer` and `Server` alike.
    options: dict[str, Any] = {
        "features_up_front": ["tools", "resources", "prompts"],
        "tool_error_names_tool": True,
        "unknown_tool_is_result": True,
        "dialect": "python-sdk",
    }
    if cache_hints:
        from ferrymcp.server.caching import validate_cache_hints

        cache_hints = validate_cache_hints(cache_hints)
        options["cache_hints"] = {
            method: {"ttl_ms": hint.ttl_ms, "scope": hint.scope} for method, hint in cache_hints.items()
        }
    if page_size is not None:
        options["page_size"] = page_size
    return options


__all__ = [
    "DEFAULT_RESOURCE_SECURITY",
    "AcceptedElicitation",
    "AssistantMessage",
    "Audio",
    "CacheHint",
    "CancelledElicitation",
    "Context",
    "DeclinedElicitation",
    "ElicitationResult",
    "Icon",
    "Image",
    "MCPServer",
    "Message",
    "ResourceSecurity",
    "UserMessage",
]


def require_client_extension(ctx: Any, identifier: str) -> None:
    """Raises `McpError` -32021 (missing required client capability, with
    `requiredCapabilities` in its data) unless the client declared extension `identifier`:
    core's rule and wording, given what the client declared for this message."""
    from ferrymcp import _native
    from ferrymcp._jsonable import jsonable

    session = getattr(ctx, "session", None)
    capabilities = session.client_capabilities if session is not None else getattr(ctx, "client_capabilities", None)
    _native.require_client_extension(jsonable(capabilities) if capabilities is not None else {}, identifier)


def _stream_closers(native_ctx: Any) -> tuple[Callable[[], Awaitable[None]], Callable[[], Awaitable[None]]]:
    """`ServerRequestContext.close_sse_stream` and `.close_standalone_sse_stream`: the
    engine's (it ends the connection; the request goes on)."""

    async def close_sse_stream() -> None:
        native_ctx.close_sse_stream()

    async def close_standalone_sse_stream() -> None:
        native_ctx.close_standalone_sse_stream()

    return close_sse_stream, close_standalone_sse_stream
