"""`ServerRequestContext` (`mcp.server.context`): what a low-level handler gets with each
request, as the official `Server(on_*=...)` handlers take it."""

from __future__ import annotations

import contextvars
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from ferrymcp._session import ServerSession
from ferrymcp.types import ClientCapabilities

LifespanContextT = TypeVar("LifespanContextT")
RequestT = TypeVar("RequestT")


@dataclass
class ServerRequestContext(Generic[LifespanContextT, RequestT]):
    """The request being served: its session (to log, sample, elicit, notify), the
    server's lifespan state, the protocol revision, the method, its params and id."""

    def __class_getitem__(cls, params: Any) -> Any:
        # The official parameters have defaults (`ServerRequestContext[L]` means `[L, Any]`).
        return super().__class_getitem__(params if isinstance(params, tuple) else (params, Any))  # type: ignore[misc]

    session: ServerSession
    lifespan_context: LifespanContextT
    protocol_version: str
    method: str
    params: dict[str, Any] | None = None
    request_id: Any = None
    meta: dict[str, Any] | None = None
    request: RequestT | None = None
    # Set (to async callables) where the engine can close this request's SSE stream or the
    # session's standalone one for the client to resume (a legacy Streamable HTTP session at
    # 2025-11-25 or later: core's rule); `None` elsewhere, as the official transport leaves them.
    close_sse_stream: Callable[[], Awaitable[None]] | None = None
    close_standalone_sse_stream: Callable[[], Awaitable[None]] | None = None
    # What the client declared for this message (the engine's answer: a 2026-07-28
    # request's own, else the session's), where `session` is not given (a middleware's or
    # an extension's `intercept_tool_call` context); `require_client_extension` reads it.
    client_capabilities: ClientCapabilities | None = None


HandlerResult = Any
"""What a handler or middleware answers a message with: a result model, a dict, or `None`."""

CallNext = Callable[["ServerRequestContext[Any, Any]"], Awaitable[HandlerResult]]
"""The rest of a message's handling, as a middleware gets it: `await call_next(ctx)`."""

_MwLifespanT = TypeVar("_MwLifespanT")


class ServerMiddleware(Protocol[_MwLifespanT]):
    """A hook around every inbound message (`Server.middleware`): `async def mw(ctx,
    call_next)` returns `await call_next(ctx)`, an answer of its own, or raises."""

    async def __call__(self, ctx: ServerRequestContext[_MwLifespanT, Any], call_next: CallNext) -> HandlerResult: ...


__all__ = ["CallNext", "HandlerResult", "ServerMiddleware", "ServerRequestContext"]


CURRENT_REQUEST: contextvars.ContextVar[ServerRequestContext[Any, Any]] = contextvars.ContextVar("ferrymcp_request")
"""The request a low-level handler (or an extension's method) is answering."""
