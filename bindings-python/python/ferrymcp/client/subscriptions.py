"""`subscriptions/listen` on the client (2026-07-28), the official SDK's `listen()` shape.

    async with client.listen(tools_list_changed=True) as sub:
        async for event in sub:
            tools = await client.list_tools()  # refetch on change

Entering waits for the server's acknowledgement (`sub.honored` is the filter it honours);
iterating yields typed change events (a change repeated before it was consumed is one
event); a graceful end from the server ends the loop, a dropped stream raises
`SubscriptionLost`; leaving the block ends the subscription. The engine opens, tags and
closes the stream; this module only turns its notifications into events. The events are
also delivered to `message_handler` as the notifications they are.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from ferrymcp import _aio
from ferrymcp.shared.subscriptions import (
    SUBSCRIPTION_ID_META_KEY,
    PromptsListChanged,
    ResourcesListChanged,
    ResourceUpdated,
    ServerEvent,
    ToolsListChanged,
    event_from_wire,
)
from ferrymcp.types import SubscriptionFilter

if TYPE_CHECKING:
    from ferrymcp._native import NativeSubscription
    from ferrymcp.client import Client

__all__ = [
    "ListenNotSupportedError",
    "PromptsListChanged",
    "ResourceUpdated",
    "ResourcesListChanged",
    "ServerEvent",
    "Subscription",
    "SubscriptionLost",
    "ToolsListChanged",
]


class ListenNotSupportedError(RuntimeError):
    """`subscriptions/listen` requires a 2026-07-28 connection."""

    def __init__(self, negotiated_version: str | None, detail: str = "") -> None:
        self.negotiated_version = negotiated_version
        super().__init__(detail or f"subscriptions/listen is not available at protocol version {negotiated_version!r}")


class SubscriptionLost(RuntimeError):
    """The stream ended without the server's graceful close; re-listen and refetch."""


class Subscription:
    """One open `subscriptions/listen` stream: an async iterator of typed events."""

    def __init__(self, native: NativeSubscription) -> None:
        self._native = native
        self.subscription_id: Any = native.subscription_id
        """The listen request's JSON-RPC id, stamped into every frame's `_meta`."""
        self.honored = SubscriptionFilter.model_validate(native.honored)
        """The subset of the requested filter the server agreed to deliver."""
        self._pending: dict[ServerEvent, None] = {}
        # An event of the running library (asyncio's or trio's), made anew before each wait.
        self._wake = _aio.event()
        self._end: str | None = None
        self._watch = _aio.spawn(self._watch_end())

    async def _watch_end(self) -> None:
        self._end = await _aio.background(self._native.closed())
        self._wake.set()

    def _deliver(self, event: ServerEvent) -> None:
        if self._end is None:
            self._pending[event] = None
            self._wake.set()

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> ServerEvent:
        while True:
            if self._end == "local":
                raise StopAsyncIteration
            if self._pending:
                event = next(iter(self._pending))
                del self._pending[event]
                return event
            if self._end == "remote":
                raise SubscriptionLost(
                    f"subscription {self.subscription_id!r} ended without the server's graceful close;"
                    " re-listen and refetch"
                )
            if self._end is not None:
                raise StopAsyncIteration
            self._wake = _aio.event()
            await self._wake.wait()

    async def aclose(self) -> None:
        # Also when the block is left by a cancellation: under trio a cancelled scope
        # cancels every await in it, so the close is shielded there.
        await _aio.uncancelled(self._native.close())
        await _aio.uncancelled(self._watch)


@asynccontextmanager
async def listen(
    client: Client,
    *,
    tools_list_changed: bool = False,
    prompts_list_changed: bool = False,
    resources_list_changed: bool = False,
    resource_subscriptions: Sequence[str] = (),
) -> AsyncIterator[Subscription]:
    native_client = client._client
    if not client._detail("modern"):
        version = client._detail("protocol_version")
        raise ListenNotSupportedError(
            version,
            f"subscriptions/listen is not available at protocol version {version!r}; it requires 2026-07-28. On "
            "earlier versions use subscribe_resource() and the change notifications delivered through "
            "message_handler.",
        )
    wanted: dict[str, Any] = {}
    if tools_list_changed:
        wanted["toolsListChanged"] = True
    if prompts_list_changed:
        wanted["promptsListChanged"] = True
    if resources_list_changed:
        wanted["resourcesListChanged"] = True
    if resource_subscriptions:
        wanted["resourceSubscriptions"] = [str(uri) for uri in resource_subscriptions]
    subscription = Subscription(await native_client.listen(wanted))
    client._subscriptions[_key(subscription.subscription_id)] = subscription
    try:
        yield subscription
    finally:
        client._subscriptions.pop(_key(subscription.subscription_id), None)
        await subscription.aclose()


def _key(subscription_id: Any) -> str:
    return repr(subscription_id)


def route(client: Client, method: str, params: dict[str, Any] | None) -> None:
    """Hands a notification tagged with a subscription id to that subscription."""
    meta = (params or {}).get("_meta")
    if not isinstance(meta, dict) or SUBSCRIPTION_ID_META_KEY not in meta:
        return
    subscription = client._subscriptions.get(_key(meta[SUBSCRIPTION_ID_META_KEY]))
    event = event_from_wire(method, params)
    if subscription is not None and event is not None:
        subscription._deliver(event)
