"""Server side of `subscriptions/listen` (2026-07-28): the official SDK's
`mcp.server.subscriptions`.

The engine serves `subscriptions/listen` itself: it acknowledges the honoured filter first,
tags every frame with the subscription id, filters each stream and ends it. What the
application chooses is how events travel before they reach the streams:

- `MCPServer(subscriptions=bus)`: `ctx.notify_tools_changed()` and its siblings publish on
  `bus`, and the server delivers what the bus hands its listeners to its own streams, so a
  bus over an external pub/sub backend carries events between replicas. Without
  `subscriptions=`, the engine delivers events itself (and across replicas through the
  HTTP endpoint's bus, `redis_url=`).
- the low-level `Server(on_subscriptions_listen=ListenHandler(bus))`: the handlers publish
  on `bus` (`await bus.publish(ResourceUpdated(uri=...))`).

A `SubscriptionBus` is `publish(event)` (async) and `subscribe(listener) -> unsubscribe`
(listeners are synchronous, called on the server's event loop, and must not raise).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ferrymcp.shared.subscriptions import (
    SUBSCRIPTION_ID_META_KEY,
    PromptsListChanged,
    ResourcesListChanged,
    ResourceUpdated,
    ServerEvent,
    ToolsListChanged,
    event_to_wire,
)

if TYPE_CHECKING:
    from ferrymcp._native import NativeServer

__all__ = [
    "SUBSCRIPTION_ID_META_KEY",
    "InMemorySubscriptionBus",
    "ListenHandler",
    "PromptsListChanged",
    "ResourceUpdated",
    "ResourcesListChanged",
    "ServerEvent",
    "SubscriptionBus",
    "ToolsListChanged",
]

logger = logging.getLogger(__name__)

_DEFAULT_MAX_BUFFERED_EVENTS = 1024


@runtime_checkable
class SubscriptionBus(Protocol):
    """Fan-out between event publishers and open listen streams (implement it over Redis,
    NATS, ... to reach the streams of every replica)."""

    async def publish(self, event: ServerEvent) -> None:
        """Deliver `event` to every subscribed listener."""
        ...

    def subscribe(self, listener: Callable[[ServerEvent], None]) -> Callable[[], None]:
        """Register `listener`; returns an idempotent unsubscribe callable."""
        ...


class InMemorySubscriptionBus:
    """In-process `SubscriptionBus`: synchronous fan-out in subscription order."""

    def __init__(self) -> None:
        self._listeners: dict[object, Callable[[ServerEvent], None]] = {}

    async def publish(self, event: ServerEvent) -> None:
        """Deliver `event` to every listener; one that raises is logged and skipped."""
        for listener in list(self._listeners.values()):
            try:
                listener(event)
            except Exception:
                logger.exception("subscription listener raised; continuing")
        # Lets the streams drain between the events of a burst (under asyncio or trio).
        from ferrymcp import _aio

        await _aio.checkpoint()

    def subscribe(self, listener: Callable[[ServerEvent], None]) -> Callable[[], None]:
        token = object()
        self._listeners[token] = listener

        def unsubscribe() -> None:
            self._listeners.pop(token, None)

        return unsubscribe


class ListenHandler:
    """Serves `subscriptions/listen` from `bus`'s events: pass it as the low-level
    `Server(on_subscriptions_listen=...)` (`MCPServer` makes one for `subscriptions=`).

    `max_subscriptions` caps the streams open at once on each server it serves (the
    engine's default, 1024 as the official SDK's, when not given; one more is refused
    with `INTERNAL_ERROR` "Subscription limit reached" before its acknowledgement).
    `close()` ends every open stream gracefully (each answers its request, tagged with
    its subscription id).
    """

    def __init__(
        self,
        bus: SubscriptionBus,
        *,
        max_subscriptions: int | None = None,
        max_buffered_events: int = _DEFAULT_MAX_BUFFERED_EVENTS,
    ) -> None:
        if not isinstance(bus, SubscriptionBus):
            raise TypeError(
                f"ListenHandler(bus) takes a SubscriptionBus (publish() and subscribe()), not {type(bus).__name__}"
            )
        if max_buffered_events != _DEFAULT_MAX_BUFFERED_EVENTS:
            raise NotImplementedError(
                "ListenHandler(max_buffered_events=...) is not supported by ferrymcp: the engine writes each event"
                " to its streams as it is published and keeps no per-stream backlog to bound"
            )
        if max_subscriptions is not None and max_subscriptions < 1:
            raise ValueError("ListenHandler(max_subscriptions=...) must be at least 1")
        self._bus = bus
        self._max_subscriptions = max_subscriptions
        self._servers: list[NativeServer] = []

    @property
    def bus(self) -> SubscriptionBus:
        return self._bus

    def _engine_options(self) -> dict[str, Any]:
        # Only what the author set: the default is the engine's.
        if self._max_subscriptions is None:
            return {}
        return {"max_listen_streams": self._max_subscriptions}

    def _attach(self, native: NativeServer) -> None:
        """Feeds `native`'s listen streams from the bus (the engine stops feeding them)."""
        native.carry_listen_events()
        self._servers.append(native)
        # The native futures (asyncio's, or trio's stand-in) of the deliveries in flight.
        pending: set[Any] = set()

        def deliver(event: ServerEvent) -> None:
            method, params = event_to_wire(event)
            future: Any = native.notify_listeners(method, params)
            pending.add(future)
            future.add_done_callback(pending.discard)

        self._bus.subscribe(deliver)

    async def __call__(self, ctx: Any, params: Any) -> Any:
        raise NotImplementedError(
            "ferrymcp's engine serves subscriptions/listen itself: register the ListenHandler as"
            " Server(on_subscriptions_listen=...) rather than calling it"
        )

    def close(self) -> None:
        """Ends every open listen stream gracefully (streams opened later are not affected)."""
        for native in self._servers:
            native.close_listen_streams()
