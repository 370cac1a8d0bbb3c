"""`Context`: what a tool, resource or prompt function gets when it asks for one.

A parameter annotated with `Context` (any name, `Context[...]` too) receives the context
of the request being served, spelled as the official SDK spells it: `report_progress`,
`log` and `debug`/`info`/`warning`/`error`, `read_resource`, `elicit` and `elicit_url`,
`request_id`, `client_id`, `session` (with `create_message` and `list_roots`),
`request_context` (with `lifespan_context` and `meta.progress_token`). Each call goes to
the engine, which decides per era how to reach the client, so a tool works unchanged for
legacy sessions and 2026-07-28 requests.

ferrymcp adds `sample` and `list_roots` as shortcuts, `request_input` for a client input
under an explicit key, and `is_cancelled()`.
"""

from __future__ import annotations

import base64
import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar, get_args, get_origin

from ferrymcp._session import ServerSession
from ferrymcp._wire import UnionAdapter
from ferrymcp.elicitation import (
    AcceptedElicitation,
    CancelledElicitation,
    DeclinedElicitation,
    UrlElicitationResult,
    parse_answer,
    parse_url_answer,
    requested_schema,
)
from ferrymcp.types import (
    ClientCapabilities,
    CreateMessageResult,
    Implementation,
    InputResponse,
    InputResponses,
    ListRootsResult,
    LoggingLevel,
    SamplingMessage,
    TextContent,
)

if TYPE_CHECKING:
    from ferrymcp._native import NativeContext
    from ferrymcp.server.mcpserver import MCPServer

LifespanContextT = TypeVar("LifespanContextT")

_INPUT_RESPONSE = UnionAdapter("InputResponse", get_args(InputResponse))


def read_input_responses(raw: dict[str, Any] | None) -> InputResponses | None:
    """A retry's `inputResponses` (wire dicts by key) as the official result models."""
    if raw is None:
        return None
    return {key: _INPUT_RESPONSE.validate_python(value) for key, value in raw.items()}


RequestT = TypeVar("RequestT")
SchemaT = TypeVar("SchemaT")


class RequestMeta(dict):  # type: ignore[type-arg]
    """The request's `_meta`, readable as a dict or by attribute
    (`meta.progress_token`, v1's `meta.progressToken`)."""

    def __getattr__(self, name: str) -> Any:
        if name in ("progress_token", "progressToken"):
            return self.get("progressToken")
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


@dataclass
class ReadResourceContents:
    """One content of a resource read through `ctx.read_resource` (text or bytes)."""

    content: str | bytes
    mime_type: str | None = None
    meta: dict[str, Any] | None = None


@dataclass
class RequestContext(Generic[LifespanContextT]):
    """`ctx.request_context`: the request's id, meta, session and the server's
    lifespan context."""

    request_id: Any
    meta: RequestMeta
    session: ServerSession
    lifespan_context: LifespanContextT
    protocol_version: str
    request: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


class Context(Generic[LifespanContextT, RequestT]):
    """The context of the request a handler serves (see the module doc)."""

    def __class_getitem__(cls, params: Any) -> Any:
        # The official parameters have defaults (`Context[L]` means `Context[L, Any]`).
        return super().__class_getitem__(params if isinstance(params, tuple) else (params, Any))  # type: ignore[misc]

    def __init__(
        self,
        native: NativeContext | None = None,
        mcp_server: MCPServer[Any] | None = None,
        lifespan_context: Any = None,
    ) -> None:
        self._native = native
        self._server = mcp_server
        self._lifespan_context = lifespan_context

    # -- who and what ---------------------------------------------------------------

    @property
    def _ctx(self) -> NativeContext:
        if self._native is None:
            raise ValueError("Context is not available outside of a request")
        return self._native

    @property
    def mcp_server(self) -> MCPServer[Any]:
        if self._server is None:
            raise ValueError("Context is not available outside of a request")
        return self._server

    @property
    def request_id(self) -> str:
        return str(self._ctx.request_id)

    @property
    def client_info(self) -> Implementation | None:
        """The client's `clientInfo`, if it sent one."""
        info = self._ctx.client_info
        return Implementation.model_validate(info) if info is not None else None

    @property
    def client_id(self) -> str | None:
        """The client's name from its `clientInfo`, if it sent one."""
        info = self._ctx.client_info
        return info.get("name") if info else None

    @property
    def client_capabilities(self) -> ClientCapabilities | None:
        capabilities = self._ctx.client_capabilities
        return ClientCapabilities.model_validate(capabilities) if capabilities is not None else None

    @property
    def protocol_version(self) -> str | None:
        return self._native.protocol_version if self._native is not None else None

    @property
    def is_modern(self) -> bool:
        """Whether the request is a stateless 2026-07-28 one (else a legacy session's)."""
        return self._ctx.is_modern

    @property
    def progress_token(self) -> str | int | None:
        return self._ctx.progress_token

    @property
    def session(self) -> ServerSession:
        return ServerSession(self._ctx, self._server)

    @property
    def request_context(self) -> RequestContext[LifespanContextT]:
        native = self._ctx
        meta = RequestMeta()
        if native.progress_token is not None:
            meta["progressToken"] = native.progress_token
        return RequestContext(
            request_id=native.request_id,
            meta=meta,
            session=ServerSession(native, self._server),
            lifespan_context=self._lifespan_context,
            protocol_version=native.protocol_version,
        )

    @property
    def input_responses(self) -> InputResponses | None:
        """The client's answers to the `input_requests` of this handler's own
        `InputRequiredResult`, on the retry (this round's, as sent); `None` on a first
        round. Inputs asked with `elicit`/`sample`/`list_roots` need none of this."""
        return read_input_responses(self._native.input_responses if self._native is not None else None)

    @property
    def request_state(self) -> str | None:
        """The `request_state` this handler put in its own `InputRequiredResult`, echoed
        back on the retry (the engine sealed it, so it is intact and bound to this call);
        `None` otherwise."""
        return self._native.request_state if self._native is not None else None

    @property
    def headers(self) -> None:
        """`None` on stdio and in memory (HTTP comes with issue 6)."""
        return None

    def is_cancelled(self) -> bool:
        """Whether the client cancelled this request (a sync tool can poll this; an
        async one is cancelled for it)."""
        return self._ctx.is_cancelled()

    # -- progress and logging -------------------------------------------------------

    async def report_progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        """Reports progress (nothing is sent unless the client asked for progress)."""
        await self._ctx.report_progress(progress, total, message)

    async def log(self, level: LoggingLevel, data: Any, *, logger_name: str | None = None) -> None:
        """Sends a log message to the client, if its log level lets it through."""
        await self._ctx.log(level, data, logger_name)

    async def debug(self, data: Any, *, logger_name: str | None = None) -> None:
        await self.log("debug", data, logger_name=logger_name)

    async def info(self, data: Any, *, logger_name: str | None = None) -> None:
        await self.log("info", data, logger_name=logger_name)

    async def warning(self, data: Any, *, logger_name: str | None = None) -> None:
        await self.log("warning", data, logger_name=logger_name)

    async def error(self, data: Any, *, logger_name: str | None = None) -> None:
        await self.log("error", data, logger_name=logger_name)

    # -- resources --------------------------------------------------------------------

    async def read_resource(self, uri: Any) -> list[ReadResourceContents]:
        """Reads one of this server's resources."""
        result = await self._ctx.read_resource(str(uri))
        contents = result if isinstance(result, list) else result.get("contents", [])
        return [_read_contents(item) for item in contents]

    # -- asking the client ----------------------------------------------------------

    async def elicit(
        self, message: str, schema: type[SchemaT] | dict[str, Any]
    ) -> AcceptedElicitation[SchemaT] | DeclinedElicitation | CancelledElicitation:
        """Asks the user to fill a form described by a pydantic model or a JSON
        Schema dict; an accepted answer carries the model instance (or the dict)."""
        params = {"mode": "form", "message": message, "requestedSchema": requested_schema(schema)}
        return parse_answer(schema, await self._ctx.elicit(params))

    async def elicit_url(self, message: str, url: str, elicitation_id: str) -> UrlElicitationResult:
        """Asks the user to open a URL for an out-of-band interaction."""
        params = {"mode": "url", "message": message, "url": url, "elicitationId": elicitation_id}
        return parse_url_answer(await self._ctx.elicit(params))

    async def sample(
        self,
        messages: str | list[SamplingMessage] | list[dict[str, Any]],
        *,
        max_tokens: int = 1000,
        **options: Any,
    ) -> CreateMessageResult:
        """Asks the client's model for a completion; a string is one user message.
        `options` are those of `ctx.session.create_message`."""
        if isinstance(messages, str):
            messages = [SamplingMessage(role="user", content=TextContent(text=messages))]
        result = await self.session._create_message(messages, max_tokens=max_tokens, **options)
        return typing.cast(CreateMessageResult, result)

    async def list_roots(self) -> ListRootsResult:
        """Asks the client for its roots."""
        return await self.session.list_roots()

    def start_task(self) -> bool:
        """Turns this call into a task (tasks extension; a tool registered with
        `task_start="on_request"`): the client gets the task handle and the tool goes on
        in it, its input from here on going through the task. Returns whether the call
        runs as a task now (not when the client does not accept tasks)."""
        return self._ctx.start_task()

    @property
    def task_id(self) -> str | None:
        """The id of the task this call runs as, if it runs as one."""
        return self._ctx.task_id

    async def request_input(self, method: str, params: dict[str, Any], *, key: str | None = None) -> dict[str, Any]:
        """Any client input (`elicitation/create`, `sampling/createMessage`,
        `roots/list`) as a raw result dict. On a 2026-07-28 request `key` names the
        input in the `input_required` round (inputs awaited together share a round)."""
        return await self._ctx.input(key, method, params)

    async def _resolver_input(self, resolver: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """The input of the resolver named `resolver` (`Resolve` parameters)."""
        return await self._ctx.resolver_input(resolver, method, params)

    # -- list changes -------------------------------------------------------------------

    async def notify_tools_changed(self) -> None:
        await self.mcp_server.notify_tools_changed()

    async def notify_prompts_changed(self) -> None:
        await self.mcp_server.notify_prompts_changed()

    async def notify_resources_changed(self) -> None:
        await self.mcp_server.notify_resources_changed()

    async def notify_resource_updated(self, uri: Any) -> None:
        await self.mcp_server.notify_resource_updated(str(uri))

    async def close_sse_stream(self) -> None:
        """Closes this request's SSE stream while the tool goes on (SEP-1699 polling): the
        client reconnects with `Last-Event-ID` and gets the rest. Only a 2025-11-25
        Streamable HTTP session has such a stream; elsewhere nothing happens."""
        if self._native is not None:
            self._native.close_sse_stream()

    async def close_standalone_sse_stream(self) -> None:
        """Closes the session's standalone GET stream (SEP-1699 polling): the client
        reconnects with `Last-Event-ID` for what was sent meanwhile. Where
        `close_sse_stream` can; elsewhere nothing happens."""
        if self._native is not None:
            self._native.close_standalone_sse_stream()


def _read_contents(item: dict[str, Any]) -> ReadResourceContents:
    if "blob" in item:
        content: str | bytes = base64.b64decode(item["blob"])
    else:
        content = item.get("text", "")
    return ReadResourceContents(content=content, mime_type=item.get("mimeType"), meta=item.get("_meta"))


def find_context_parameter(fn: Callable[..., Any]) -> str | None:
    """The name of the parameter annotated with `Context` (or `Context[...]`,
    `Optional[Context]`), if any."""
    try:
        hints = typing.get_type_hints(fn)
    except Exception:
        return None
    for name, hint in hints.items():
        if name != "return" and _mentions_context(hint):
            return name
    return None


def _mentions_context(hint: Any) -> bool:
    if inspect.isclass(hint) and issubclass(hint, Context):
        return True
    origin = get_origin(hint)
    if inspect.isclass(origin) and issubclass(origin, Context):
        return True
    return origin is not None and any(_mentions_context(arg) for arg in get_args(hint))
