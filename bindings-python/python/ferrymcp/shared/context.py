"""The official `mcp.shared.context`, both eras: 1.x's `RequestContext` (with its type
variables `SessionT`, `LifespanContextT`, `RequestT`) and 2.x's `BaseContext`.

2.x's `BaseContext` is the official per-request context built over its dispatcher
(`BaseContext(dispatch_context, meta)`). ferrymcp has no such dispatcher: its engine
builds every context itself and hands it to the handler (`Context` for `MCPServer`
tools, `ServerRequestContext` for the low-level `Server`, `ClientRequestContext` for
client callbacks). `BaseContext` is here for annotations and subclassing; constructing
one directly raises a `TypeError` that says so.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from ferrymcp.context import RequestContext

__all__ = ["BaseContext", "LifespanContextT", "RequestContext", "RequestT", "SessionT"]

SessionT = TypeVar("SessionT")
LifespanContextT = TypeVar("LifespanContextT")
RequestT = TypeVar("RequestT")
TransportT = TypeVar("TransportT", covariant=True)


class BaseContext(Generic[TransportT]):
    """The official 2.x per-request context's base class (see the module doc)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            "BaseContext(dispatch_context, meta) is not supported: ferrymcp has no dispatcher "
            "to build a context over; its engine passes each handler its context (Context, "
            "ServerRequestContext or ClientRequestContext)"
        )
