"""The dispatcher shapes (`mcp.shared.dispatcher`): what a request handler's dispatch
context offers and what a dispatcher's callbacks look like.

They are typing shapes only. ferrymcp's engine dispatches every message itself (core reads
the wire, correlates, cancels and answers), so nothing here runs a loop: code that
annotates with these names, or hand-builds a `DispatchContext` for
`ferrymcp.server.runner.serve_one`, works as with the official SDK.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol, TypedDict, TypeVar, runtime_checkable

from ferrymcp.shared.transport_context import TransportContext

TransportT_co = TypeVar("TransportT_co", bound=TransportContext, covariant=True)


class ProgressFnT(Protocol):
    """A progress callback: `await fn(progress, total, message)`."""

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None: ...


class CallOptions(TypedDict, total=False):
    """Per-call options of an outbound request or notification."""

    timeout: float
    on_progress: ProgressFnT
    related_request_id: Any
    resumption_token: str
    on_resumption_token: Callable[[str], Awaitable[None]]


@runtime_checkable
class Outbound(Protocol):
    """What can send to the peer: raw requests and notifications."""

    async def send_raw_request(
        self, method: str, params: Mapping[str, Any] | None, opts: CallOptions | None = None
    ) -> dict[str, Any]: ...

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: CallOptions | None = None) -> None: ...


@runtime_checkable
class DispatchContext(Outbound, Protocol[TransportT_co]):
    """The per-request context a dispatcher hands its `on_request` (and that
    `serve_one` takes): the transport's facts, the request's id and metadata, its
    cancellation and its way back to the peer."""

    @property
    def transport(self) -> TransportT_co: ...

    @property
    def can_send_request(self) -> bool: ...

    @property
    def request_id(self) -> Any: ...

    @property
    def message_metadata(self) -> Any: ...

    @property
    def cancel_requested(self) -> Any: ...

    async def progress(self, progress: float, total: float | None = None, message: str | None = None) -> None: ...


OnRequest = Callable[[DispatchContext[TransportContext], str, Mapping[str, Any] | None], Awaitable[dict[str, Any]]]
OnNotify = Callable[[DispatchContext[TransportContext], str, Mapping[str, Any] | None], Awaitable[None]]


class Dispatcher(Outbound, Protocol[TransportT_co]):
    """A message loop over one connection: `run(on_request, on_notify)` until it closes.
    ferrymcp's one is `ferrymcp.shared.jsonrpc_dispatcher.JSONRPCDispatcher`, which the
    engine runs (hand it to `ferrymcp.server.runner.serve_connection`)."""

    async def run(self, on_request: OnRequest, on_notify: OnNotify, *, task_status: Any = ...) -> None: ...


__all__ = [
    "CallOptions",
    "DispatchContext",
    "Dispatcher",
    "OnNotify",
    "OnRequest",
    "Outbound",
    "ProgressFnT",
]
