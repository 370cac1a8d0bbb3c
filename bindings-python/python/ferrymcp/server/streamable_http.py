"""The Streamable HTTP server's names at the official SDK's path
(`mcp.server.streamable_http`): the header and content-type constants, and the
`EventStore` interface with its `EventMessage`.

ferrymcp's engine serves Streamable HTTP itself (`MCPServer.run("streamable-http")`,
`streamable_http_app()`), so the official transport class, `StreamableHTTPServerTransport`,
refuses to be built and says so. An `EventStore` of the application's (this interface:
`store_event`, `replay_events_after`) passed as `event_store=` keeps the events of the
engine's resumable streams: the engine stores every event there (a priming event as
`None`), sends it under the id the store returned, and answers a client's `Last-Event-ID`
with what the store replays after it. `ferrymcp.RedisStore` is the engine's own store
shared by replicas.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

from ferrymcp.types import JSONRPCMessage

__all__ = [
    "CONTENT_TYPE_JSON",
    "CONTENT_TYPE_SSE",
    "GET_STREAM_KEY",
    "LAST_EVENT_ID_HEADER",
    "MCP_PROTOCOL_VERSION_HEADER",
    "MCP_SESSION_ID_HEADER",
    "SESSION_ID_PATTERN",
    "CloseSSEStreamCallback",
    "EventCallback",
    "EventId",
    "EventMessage",
    "EventStore",
    "StreamId",
    "StreamableHTTPServerTransport",
]

MCP_SESSION_ID_HEADER: Final = "mcp-session-id"
MCP_PROTOCOL_VERSION_HEADER: Final = "mcp-protocol-version"
LAST_EVENT_ID_HEADER: Final = "last-event-id"
CONTENT_TYPE_JSON: Final = "application/json"
CONTENT_TYPE_SSE: Final = "text/event-stream"
GET_STREAM_KEY: Final = "_GET_stream"
SESSION_ID_PATTERN: Final = re.compile(r"^[\x21-\x7E]+$")
"""A session id is visible ASCII (0x21-0x7E), as the specification requires."""

StreamId = str
EventId = str


@dataclass
class EventMessage:
    """A JSON-RPC message with the event id it was stored under (for resumption)."""

    message: JSONRPCMessage
    event_id: str | None = None


EventCallback = Callable[[EventMessage], Awaitable[None]]
CloseSSEStreamCallback = Callable[[], Awaitable[None]]


class EventStore(ABC):
    """The official interface of a store of resumable events (see the module's note)."""

    @abstractmethod
    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        """Stores an event (`None`: a priming event) and returns its id."""

    @abstractmethod
    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        """Sends the events after `last_event_id` of its stream; returns that stream's id."""


def event_store_functions(store: EventStore) -> tuple[Callable[..., Awaitable[str]], Callable[..., Awaitable[Any]]]:
    """The engine's view of an application's `EventStore`: `keep(stream_id, message_json |
    None) -> event_id` and `replay(last_event_id) -> (stream_id, [(event_id,
    message_json)]) | None`, converting the messages to and from `JSONRPCMessage`."""
    from ferrymcp.types import jsonrpc_message_adapter

    async def keep(stream_id: str, message: bytes | None) -> str:
        parsed = None if message is None else jsonrpc_message_adapter.validate_json(message)
        return str(await store.store_event(stream_id, parsed))

    async def replay(last_event_id: str) -> tuple[str, list[tuple[str, bytes]]] | None:
        events: list[tuple[str, bytes]] = []

        async def send(event: EventMessage) -> None:
            if event.event_id is not None:
                events.append((str(event.event_id), bytes(jsonrpc_message_adapter.dump_json(event.message))))

        stream_id = await store.replay_events_after(last_event_id, send)
        return None if stream_id is None else (str(stream_id), events)

    return keep, replay


def is_event_store(value: Any) -> bool:
    """Whether `value` has the `EventStore` interface (the official ABC's subclasses and
    any object with its two async methods)."""
    return all(callable(getattr(value, name, None)) for name in ("store_event", "replay_events_after"))


class StreamableHTTPServerTransport:
    """Not available: ferrymcp's engine is the Streamable HTTP transport."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(
            "StreamableHTTPServerTransport is not available in ferrymcp: the engine serves Streamable HTTP "
            "itself; use MCPServer.streamable_http_app() (an ASGI app) or run('streamable-http')"
        )
