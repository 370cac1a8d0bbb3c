"""The Streamable HTTP server's names at the official SDK's path
(`mcp.server.streamable_http`): the header and content-type constants, and the
`EventStore` interface with its `EventMessage`.

ferrymcp's engine serves Streamable HTTP itself (`MCPServer.run("streamable-http")`,
`streamable_http_app()`), so the official transport class, `StreamableHTTPServerTransport`,
refuses to be built and says so. The engine keeps resumable events itself: an `EventStore`
subclass can be written against this interface, but `event_store=` takes only
`ferrymcp.RedisStore` (to share events between replicas) and refuses any other store by name.
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


class StreamableHTTPServerTransport:
    """Not available: ferrymcp's engine is the Streamable HTTP transport."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(
            "StreamableHTTPServerTransport is not available in ferrymcp: the engine serves Streamable HTTP "
            "itself; use MCPServer.streamable_http_app() (an ASGI app) or run('streamable-http')"
        )
