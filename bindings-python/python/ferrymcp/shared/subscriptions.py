"""The typed events of `subscriptions/listen` (2026-07-28), shared by server and client:
the official SDK's `mcp.shared.subscriptions`.

Each event is a level trigger ("this changed: refetch if you care"). The engine stamps the
subscription id and filters each stream; these helpers are the official vocabulary for code
that publishes events (`ferrymcp.server.subscriptions`) or reads raw frames.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ferrymcp.types import ServerNotification, SubscriptionFilter

__all__ = [
    "LISTEN_STREAM_METHODS",
    "SUBSCRIPTION_ID_META_KEY",
    "PromptsListChanged",
    "ResourceUpdated",
    "ResourcesListChanged",
    "ServerEvent",
    "ToolsListChanged",
    "event_from_wire",
    "event_matches",
    "event_to_notification",
]

SUBSCRIPTION_ID_META_KEY = "io.modelcontextprotocol/subscriptionId"
"""The `_meta` key on every listen-stream frame: the `subscriptions/listen` request's id."""


@dataclass(frozen=True)
class ToolsListChanged:
    """The server's tool list changed."""


@dataclass(frozen=True)
class PromptsListChanged:
    """The server's prompt list changed."""


@dataclass(frozen=True)
class ResourcesListChanged:
    """The server's resource list changed."""


@dataclass(frozen=True)
class ResourceUpdated:
    """The resource at `uri` changed and may need to be read again."""

    uri: str


ServerEvent = ToolsListChanged | PromptsListChanged | ResourcesListChanged | ResourceUpdated
"""An event a server publishes for its listen streams."""

_LIST_CHANGED_EVENTS: dict[str, ServerEvent] = {
    "notifications/tools/list_changed": ToolsListChanged(),
    "notifications/prompts/list_changed": PromptsListChanged(),
    "notifications/resources/list_changed": ResourcesListChanged(),
}

LISTEN_STREAM_METHODS: frozenset[str] = frozenset({*_LIST_CHANGED_EVENTS, "notifications/resources/updated"})
"""The notification methods that ride `subscriptions/listen` streams."""


def event_from_wire(method: str, params: Mapping[str, Any] | None) -> ServerEvent | None:
    """The event a raw listen-stream frame announces, or `None`."""
    if (event := _LIST_CHANGED_EVENTS.get(method)) is not None:
        return event
    if method == "notifications/resources/updated":
        uri = (params or {}).get("uri")
        if isinstance(uri, str):
            return ResourceUpdated(uri=uri)
    return None


def event_to_wire(event: ServerEvent) -> tuple[str, dict[str, Any]]:
    """The notification method and params (without `_meta`) that carry `event`."""
    if isinstance(event, ResourceUpdated):
        return "notifications/resources/updated", {"uri": event.uri}
    for method, known in _LIST_CHANGED_EVENTS.items():
        if known == event:
            return method, {}
    raise TypeError(f"not a subscription event: {event!r}")


def event_to_notification(event: ServerEvent, meta: dict[str, Any]) -> ServerNotification:
    """The typed wire notification for `event`, with `meta` as its `_meta`."""
    from ferrymcp.types import SERVER_NOTIFICATIONS

    method, params = event_to_wire(event)
    notification = SERVER_NOTIFICATIONS[method].model_validate({"method": method, "params": {**params, "_meta": meta}})
    return notification  # type: ignore[return-value]


def event_matches(honored: SubscriptionFilter, uris: frozenset[str], event: ServerEvent) -> bool:
    """Whether `event` is within a stream's honoured filter (`uris`: its resource
    subscriptions as a set)."""
    if isinstance(event, ToolsListChanged):
        return honored.tools_list_changed is True
    if isinstance(event, PromptsListChanged):
        return honored.prompts_list_changed is True
    if isinstance(event, ResourcesListChanged):
        return honored.resources_list_changed is True
    return event.uri in uris
